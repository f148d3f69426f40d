# Models: a numeric-regression script for activation and elementwise math: each function runs
# on contiguous data, a transposed view, a strided slice and a broadcast product, and the sums
# are printed at full precision (the values a CI job diffs between library versions).
import torch
import torch.nn.functional as F

torch.manual_seed(0)
base = torch.randn(45, 67) * 2
unit = torch.rand(45, 67) * 1.98 - 0.99
layouts = {
    "contig": lambda t: t,
    "transposed": lambda t: t.t(),
    "strided": lambda t: t[::2, 1::3],
    "expanded": lambda t: t[:1].expand(5, 67),
}
fns = {
    "sin": torch.sin, "cos": torch.cos, "tan": torch.tan, "atan": torch.atan,
    "sinh": torch.sinh, "cosh": torch.cosh, "tanh": torch.tanh, "asinh": torch.asinh,
    "exp": torch.exp, "exp2": torch.exp2, "expm1": torch.expm1,
    "log_abs": lambda t: torch.log(t.abs() + 0.1), "log2_abs": lambda t: torch.log2(t.abs() + 0.1),
    "log10_abs": lambda t: torch.log10(t.abs() + 0.1), "log1p_abs": lambda t: torch.log1p(t.abs()),
    "sqrt_abs": lambda t: torch.sqrt(t.abs()), "rsqrt_abs": lambda t: torch.rsqrt(t.abs() + 0.5),
    "erf": torch.erf, "erfc": torch.erfc, "sigmoid": torch.sigmoid, "softplus": F.softplus,
    "softplus_beta": lambda t: F.softplus(t, beta=2.0, threshold=5.0), "mish": F.mish,
    "gelu": F.gelu, "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"), "silu": F.silu,
    "elu": F.elu, "selu": F.selu, "celu": lambda t: F.celu(t, alpha=0.7),
    "hardswish": F.hardswish, "hardsigmoid": F.hardsigmoid, "logsigmoid": F.logsigmoid,
    "leaky_relu": lambda t: F.leaky_relu(t, 0.03), "softsign": F.softsign,
    "tanhshrink": F.tanhshrink, "relu6": F.relu6, "hardtanh": lambda t: F.hardtanh(t, -0.5, 1.5),
    "pow_1_7": lambda t: t.abs().pow(1.7), "pow_neg": lambda t: (t.abs() + 1).pow(-0.5),
    "reciprocal": lambda t: (t + 10).reciprocal(), "square": torch.square,
    "trunc_div": lambda t: torch.div(t * 10, 3, rounding_mode="trunc"),
    "floor_div": lambda t: torch.div(t * 10, 3, rounding_mode="floor"),
    "round_dec": lambda t: torch.round(t, decimals=2), "sign": torch.sign,
}
unit_fns = {"asin": torch.asin, "acos": torch.acos, "atanh": torch.atanh,
            "acosh": lambda t: torch.acosh(t + 2.0), "erfinv": torch.erfinv,
            "logit": torch.logit}
for lname, lay in layouts.items():
    for name, fn in fns.items():
        print(f"{lname:10s} {name:14s} {fn(lay(base)).sum().item()!r}")
    for name, fn in unit_fns.items():
        print(f"{lname:10s} {name:14s} {fn(lay(unit)).sum().item()!r}")
