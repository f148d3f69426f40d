"""How close ember's float kernels are to torch 2.13 CPU's: bit-identical share and max ulp.

    python tools/ulp_report.py            # print the table
    python tools/ulp_report.py --write    # also put it in docs/parity.md (between markers)
    python tools/ulp_report.py --only sum,softmax   # the ops whose names contain a word

Every op runs in ember and in torch on the same 10^5 inputs per dtype: normal values,
values spread over the whole exponent range, and special values (+-0, subnormals, +-inf,
nan, large arguments); reductions and losses run on (rows, cols) arrays over each dim, all
dims and a transposed view. An element is bit-identical when both results have the same
bits (any nan counts as the same nan); the ulp distance counts representable floats between
the two results (inf where only one is nan). Matrix products and convolutions run on BLAS in
both libraries; their rows are informational. The rows marked (MKL VML) are ops torch hands to
Intel MKL's vector math library (``vml.h``: ``vsExp``/``vdExp`` … in high-accuracy mode), whose
algorithms are not published: ember calls MKL itself where the ``mkl`` package is installed
(``pip install ember[mkl]``, part of the ``test`` extra), and approximates them otherwise; the
report says which.
"""

from __future__ import annotations

import pathlib
import re
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import torch  # noqa: E402

import ember  # noqa: E402
from ember._ops import _exact, _vml  # noqa: E402

N = 100_000
BEGIN, END = "<!-- ulp-report:begin -->", "<!-- ulp-report:end -->"


def special(dt):
    fi = np.finfo(dt)
    vals = [0.0, -0.0, fi.smallest_subnormal, -fi.smallest_subnormal, fi.tiny, -fi.tiny,
            fi.tiny / 3, np.inf, -np.inf, np.nan, fi.max, -fi.max, 1.0, -1.0, 0.5, 2.0,
            1e4, -1e4, 1e30 if dt == np.float32 else 1e300, 88.72, -87.33, 103.9, -104.0,
            709.7, -745.1, 3.0e5, 1e8, np.pi, -np.pi / 2, 1e-8, -1e-8]
    return np.array(vals, dt)


def inputs(dt, seed=0):
    """10^5 values: 40 % normal, 30 % over the exponent range, 30 % special."""
    rng = np.random.default_rng(seed)
    n1, n2 = int(N * 0.4), int(N * 0.3)
    emax = 38 if dt == np.float32 else 300
    wide = np.sign(rng.standard_normal(n2)) * 10.0 ** rng.uniform(-emax - 6, emax, n2)
    sp = rng.choice(special(dt), N - n1 - n2)
    x = np.concatenate([rng.standard_normal(n1) * 3, wide, sp]).astype(dt)
    return x[rng.permutation(N)]


def table_data(dt, seed=1, scale=True):
    """A (1000, 100) array of moderate values for reductions and losses."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((1000, 100))
    if scale:
        a = a * np.exp(rng.uniform(-3, 3, a.shape))
    return a.astype(dt)


def _unary(name):
    return lambda lib, x: getattr(lib, name)(x)


def _nnf(name, **kw):
    return lambda lib, x: getattr(lib.nn.functional, name)(x, **kw)


UNARY = {
    "exp": _unary("exp"), "expm1": _unary("expm1"), "log": _unary("log"),
    "log1p": _unary("log1p"), "log2": _unary("log2"), "log10": _unary("log10"),
    "sin": _unary("sin"), "cos": _unary("cos"), "tan": _unary("tan"), "tanh": _unary("tanh"),
    "sigmoid": _unary("sigmoid"), "erf": _unary("erf"), "erfc": _unary("erfc"),
    "erfinv": lambda lib, x: (x * 0.3).erfinv(), "gelu": _nnf("gelu"),
    "gelu (tanh)": _nnf("gelu", approximate="tanh"), "silu": _nnf("silu"),
    "atan": _unary("atan"), "asin": _unary("asin"), "acos": _unary("acos"),
    "sinh": _unary("sinh"), "cosh": _unary("cosh"), "rsqrt": _unary("rsqrt"),
    "sqrt": _unary("sqrt"),
    "pow 2": lambda lib, x: x ** 2, "pow 3": lambda lib, x: x ** 3,
    "pow 0.5": lambda lib, x: x ** 0.5, "pow -0.5": lambda lib, x: x ** -0.5,
    "pow -1": lambda lib, x: x ** -1, "pow -2": lambda lib, x: x ** -2,
    "pow 1.5": lambda lib, x: x ** 1.5, "pow tensor": lambda lib, x: x.abs() ** x.flip(0),
}


def _dims(fn):
    """The op over dim 0, dim 1, every dim, and on the transposed view."""
    return lambda lib, a: [fn(lib, a, 0), fn(lib, a, 1), fn(lib, a, None),
                           fn(lib, a.t(), 0), fn(lib, a.t(), 1)]


def _red(name):
    def f(lib, a, d):
        return getattr(a, name)() if d is None else getattr(a, name)(d)
    return _dims(f)


def _lse(lib, a, d):
    return a.logsumexp((0, 1) if d is None else d)


def _softmax(name):
    def f(lib, a, d):
        return getattr(lib, name)(a, -1 if d is None else d)
    return _dims(f)


def _loss(name, target, reduction_kw=True, **kw):
    def f(lib, a):
        t = target(lib, a)
        fn = getattr(lib.nn.functional, name)
        first = fn(a, t, **kw) if reduction_kw else fn(a, t, reduction="batchmean", **kw)
        return [first, fn(a, t, reduction="sum", **kw), fn(a, t, reduction="none", **kw)]
    return f


def _targets(lib, a):
    return lib.tensor(np.random.default_rng(2).integers(0, a.shape[1], a.shape[0]))


def _probs(lib, a):
    return a.sigmoid().detach().flip(0)


REDUCE = {
    "sum": _red("sum"), "mean": _red("mean"), "nansum": _red("nansum"),
    "cumsum": _dims(lambda lib, a, d: a.cumsum(0 if d is None else d)),
    "var": _red("var"), "std": _red("std"),
    "norm": _dims(lambda lib, a, d: a.norm(dim=d)),
    "linalg.vector_norm": _dims(lambda lib, a, d: lib.linalg.vector_norm(a, 3, dim=d)),
    "linalg.vector_norm (p=-1.5)": _dims(
        lambda lib, a, d: lib.linalg.vector_norm(a, -1.5, dim=d)),
    "logsumexp": _dims(_lse),
    "softmax": _softmax("softmax"), "log_softmax": _softmax("log_softmax"),
    "mse_loss": _loss("mse_loss", lambda lib, a: a.flip(0)),
    "l1_loss": _loss("l1_loss", lambda lib, a: a.flip(0)),
    "smooth_l1_loss": _loss("smooth_l1_loss", lambda lib, a: a.flip(0)),
    "huber_loss": _loss("huber_loss", lambda lib, a: a.flip(0), delta=0.5),
    "kl_div": lambda lib, a: _loss("kl_div", _probs, reduction_kw=False)(lib, a),
    "nll_loss": _loss("nll_loss", _targets),
    "cross_entropy": _loss("cross_entropy", _targets),
    "binary_cross_entropy": lambda lib, a: _loss("binary_cross_entropy", _probs)(lib, a.sigmoid()),
    "bce_with_logits": _loss("binary_cross_entropy_with_logits", _probs),
    "layer_norm": lambda lib, a: [lib.nn.functional.layer_norm(a, (100,))],
    "batch_norm": lambda lib, a: [lib.nn.functional.batch_norm(a, None, None, training=True)],
    "group_norm": lambda lib, a: [lib.nn.functional.group_norm(a.reshape(100, 20, 50), 4)],
    "batch_norm (NCHW, stats)": lambda lib, a: _bn_nchw(lib, a),
    "group_norm (channels-last)": lambda lib, a: [lib.nn.functional.group_norm(
        a.reshape(10, 20, 50, 10).contiguous(memory_format=lib.channels_last), 4)],
    "var (rows of 10^4)": lambda lib, a: [a.reshape(10, -1).var(1), a.reshape(10, -1).std(1)],
    "cdist (p=3)": lambda lib, a: [lib.cdist(a.reshape(-1)[:2000].reshape(40, 50),
                                             a.reshape(-1)[2000:4000].reshape(40, 50), 3)],
    "cdist (p=2, direct)": lambda lib, a: [lib.cdist(
        a.reshape(-1)[:2000].reshape(40, 50), a.reshape(-1)[2000:4000].reshape(40, 50),
        compute_mode="donot_use_mm_for_euclid_dist")],
}


def _bn_nchw(lib, a):
    """Training batch norm of an NCHW input with affine parameters: the output and the
    updated running statistics."""
    x = a.reshape(10, 10, 10, 100)
    rm, rv = lib.zeros(10, dtype=a.dtype), lib.ones(10, dtype=a.dtype)
    w, b = a[0, :10] * 0.1 + 1, a[1, :10] * 0.1
    out = lib.nn.functional.batch_norm(x, rm, rv, w, b, training=True)
    return [out, rm, rv, lib.nn.functional.batch_norm(x.transpose(2, 3), None, None, w, b,
                                                      training=True)]
def _inner3(name):
    """The op over the middle dim of a (10, 100, 100) view: torch's inner-dim kernels."""
    return lambda lib, a: [getattr(lib, name)(a.reshape(10, 100, 100), 1),
                           getattr(lib, name)(a.reshape(100, 100, 10), 1)]


def _grad(fn):
    """The gradient of ``fn`` (one result) at ``a`` for a fixed upstream gradient."""
    def f(lib, a):
        x = a.detach().requires_grad_(True)
        y = fn(lib, x)
        y.backward(lib.tensor(table_data(y.detach().numpy().dtype.type, seed=3)).reshape(
            y.shape))
        return [x.grad]
    return f


REDUCE.update({
    "softmax (inner dim)": _inner3("softmax"), "log_softmax (inner dim)": _inner3("log_softmax"),
    "softmax backward": _grad(lambda lib, a: lib.softmax(a, 1)),
    "softmax backward (dim 0)": _grad(lambda lib, a: lib.softmax(a, 0)),
    "log_softmax backward": _grad(lambda lib, a: lib.log_softmax(a, 1)),
    "log_softmax backward (dim 0)": _grad(lambda lib, a: lib.log_softmax(a, 0)),
    "sigmoid backward": _grad(lambda lib, a: a.sigmoid()),
    "silu backward": _grad(lambda lib, a: lib.nn.functional.silu(a)),
    "gelu backward": _grad(lambda lib, a: lib.nn.functional.gelu(a)),
    "gelu (tanh) backward": _grad(lambda lib, a: lib.nn.functional.gelu(a, approximate="tanh")),
})
for _name, _kw in (("elu", {}), ("selu", {}), ("celu", {"alpha": 0.7}), ("softplus", {}),
                   ("mish", {})):
    UNARY[_name] = _nnf(_name, **_kw)
    REDUCE[_name + " backward"] = _grad(
        lambda lib, a, _n=_name, _k=_kw: getattr(lib.nn.functional, _n)(a, **_k))
UNARY.update({     # binary ops run on (x, x reversed); the special functions on x
    "exp2": _unary("exp2"), "atan2": lambda lib, x: lib.atan2(x, x.flip(0)),
    "logaddexp": lambda lib, x: lib.logaddexp(x, x.flip(0)),
    "logaddexp2": lambda lib, x: lib.logaddexp2(x, x.flip(0)),
    "hypot": lambda lib, x: lib.hypot(x, x.flip(0)),
    "complex abs": lambda lib, x: lib.complex(x, x.flip(0)).abs(),
    "complex sgn": lambda lib, x: lib.view_as_real(lib.complex(x, x.flip(0)).sgn()),
    "lgamma": _unary("lgamma"), "mvlgamma 3": lambda lib, x: lib.mvlgamma(x.abs() + 1.5, 3),
    "fmod": lambda lib, x: lib.fmod(x, x.flip(0)),
    "remainder": lambda lib, x: lib.remainder(x, x.flip(0)),
    "digamma": _unary("digamma"), "polygamma 1": lambda lib, x: lib.polygamma(1, x),
    "atanh": lambda lib, x: lib.atanh(x / (1 + x.abs())),
    "polygamma 3": lambda lib, x: lib.polygamma(3, x / (1 + x.abs()) * 20),
    "complex angle": lambda lib, x: lib.complex(x, x.flip(0)).angle(),
    "angle": _unary("angle"), "i0": _unary("i0"), "sinc": _unary("sinc"),
    "special.i0e": lambda lib, x: lib.special.i0e(x),
    "special.i1": lambda lib, x: lib.special.i1(x),
    "special.i1e": lambda lib, x: lib.special.i1e(x),
    "special.erfcx": lambda lib, x: lib.special.erfcx(x),
    "special.ndtri": lambda lib, x: lib.special.ndtri(x.abs() / (1 + x.abs())),
    "special.log_ndtr": lambda lib, x: lib.special.log_ndtr(x),
    "special.entr": lambda lib, x: lib.special.entr(x),
    "logcumsumexp": lambda lib, x: lib.logcumsumexp(x.reshape(1000, -1), 1),
    "add (alpha)": lambda lib, x: lib.add(x, x.flip(0), alpha=-0.37),
    "add (number, alpha)": lambda lib, x: lib.add(x.reshape(-1, 40)[:, :37], 1.7, alpha=0.3),
    "sub (alpha)": lambda lib, x: lib.sub(x, x.flip(0), alpha=0.1),
    "rsub (alpha)": lambda lib, x: lib.rsub(x, x.flip(0), alpha=0.1),
    "add_ (alpha)": lambda lib, x: x.clone().add_(x.flip(0), alpha=-1e-3),
    "lerp": lambda lib, x: [lib.lerp(x, x.flip(0), w) for w in (0.3, 0.7, -0.2)],
    "lerp (tensor weight)": lambda lib, x: lib.lerp(x, x.flip(0), x.roll(1).sigmoid()),
    "addcmul": lambda lib, x: [lib.addcmul(x, x.flip(0), x.roll(1), value=v) for v in (1, 0.3)],
    "addcdiv": lambda lib, x: lib.addcdiv(x, x.flip(0), x.roll(1), value=0.3),
})
UNIT = {"prod": _red("prod"), "cumprod": _dims(lambda lib, a, d: a.cumprod(0 if d is None
                                                                            else d))}


def _factories(lib, dt):
    t = getattr(lib, "float32" if dt == np.float32 else "float64")
    out = []
    for n in (1, 2, 3, 7, 8, 9, 15, 16, 17, 100, 1000, 4097, 100003):
        out.append(lib.linspace(-3.7, 11.3, n, dtype=t))
        out.append(lib.linspace(0, 1, n, dtype=t))
    return out


def _aranges(lib, dt):
    t = getattr(lib, "float32" if dt == np.float32 else "float64")
    return [lib.arange(0.1, 1000.3, 0.37, dtype=t), lib.arange(-5, 5, 0.01, dtype=t),
            lib.arange(0, 100003, 1.5, dtype=t), lib.arange(1e6, 1e6 + 20, 0.1, dtype=t)]


# ops torch 2.13 (USE_MKL=ON) computes with MKL's VML: vml.h's IMPLEMENT_VML_MKL list (acos,
# asin, atan, cos, erf, erfc, erfinv, exp, log, log10, log2, sin, sqrt, tan, tanh) and pow 0.5
# (sqrt_kernel)
MKL = frozenset({"exp", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "erf", "erfc",
                 "erfinv", "atan", "asin", "acos", "sqrt", "pow 0.5"})

INFO = {
    "matmul (info)": lambda lib, a: [a @ a.t(), a.t() @ a],
    "conv2d (info)": lambda lib, a: [lib.nn.functional.conv2d(
        a.reshape(10, 10, 10, 100)[:, :4], a[:32, :9].reshape(8, 4, 3, 3) * 0.1,
        padding=1)],
}


def ordered(x):
    """Floats as integers in the order of the reals (+0 and -0 both 0)."""
    if x.dtype == np.float32:
        i = x.view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)
    i = x.view(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFFFFFFFFFF), i)


def compare(ref, got):
    """(elements, bit-identical, max ulp) over paired result arrays."""
    tot = same = 0
    worst = 0.0
    for r, g in zip(ref, got):
        r = np.ascontiguousarray(r.detach().numpy()).reshape(-1)
        g = np.ascontiguousarray(g.detach().numpy()).reshape(-1)
        if r.shape != g.shape or r.dtype != g.dtype:
            return tot + r.size, same, float("inf")
        rn, gn = np.isnan(r), np.isnan(g)
        ints = np.uint32 if r.dtype == np.float32 else np.uint64
        eq = (r.view(ints) == g.view(ints)) | (rn & gn)
        tot += r.size
        same += int(eq.sum())
        if (rn != gn).any():
            worst = float("inf")
            continue
        ok = ~(rn | gn)
        if ok.any():
            d = np.abs(ordered(r[ok]) - ordered(g[ok]))
            worst = max(worst, float(d.max()))
    return tot, same, worst


def run_op(fn, make):
    outs = []
    for lib in (torch, ember):
        x = make(lib)
        res = fn(lib, x)
        outs.append(res if isinstance(res, (list, tuple)) else [res])
    return compare(*outs)


def _rows(dt, only=None):
    dname = np.dtype(dt).name
    x = inputs(dt)
    a, u = table_data(dt), 1 + table_data(dt, scale=False) * 0.01
    groups = [(UNARY, x), (REDUCE, a), (UNIT, u), (INFO, a)]
    rows = []
    for ops, arr in groups:
        for name, fn in ops.items():
            if only and not any(w in name for w in only):
                continue
            label = name + " (MKL VML)" if name in MKL else name
            rows.append((label, dname) + run_op(fn, lambda lib, arr=arr: lib.tensor(arr)))
    if not only:
        rows.append(("linspace", dname) + run_op(lambda lib, _: _factories(lib, dt), _none))
        rows.append(("arange", dname) + run_op(lambda lib, _: _aranges(lib, dt), _none))
    return rows


def _none(lib):
    return None


def report(only=None):
    torch.set_num_threads(_exact.get_num_threads())
    return _rows(np.float32, only) + _rows(np.float64, only)


def _vml_line() -> str:
    if _vml.available():
        return ("ember called MKL's VML itself for these rows (the `mkl` package, "
                "`pip install ember[mkl]`).")
    return ("MKL was not installed for this run, so ember approximated them with NumPy "
            "(float32 log2, log10, tan, asin: in float64, rounded once); `pip install "
            "ember[mkl]` makes them torch's bits.")


def markdown(rows) -> str:
    lines = [BEGIN, "## Float kernels against torch, bit for bit", "",
             "Generated by `python tools/ulp_report.py --write`: each op on 10^5 inputs per "
             "dtype (normal, wide-range and special values; reductions over each dim, all "
             "dims and a transposed view). *identical* = share of result elements with "
             "torch's exact bits; *max ulp* = the largest distance in units in the last "
             "place. Rows marked (info) run on BLAS in both libraries; rows marked (MKL VML) "
             "are ops torch hands to Intel MKL's vector math library (unpublished "
             "algorithms): " + _vml_line(), "",
             "| op | dtype | elements | identical | max ulp |", "|---|---|---|---|---|"]
    for name, dname, tot, same, worst in rows:
        share = 100.0 * same / tot if tot else 100.0
        pct = "100 %" if same == tot else f"{min(share, 99.99):.2f} %"
        w = "inf" if worst == float("inf") else f"{worst:.0f}"
        lines.append(f"| `{name}` | {dname} | {tot} | {pct} | {w} |")
    lines += ["", END]
    return "\n".join(lines)


def write(md: str) -> None:
    path = ROOT / "docs" / "parity.md"
    text = path.read_text()
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: md, text,
                      flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + md + "\n"
    path.write_text(text)


def main(argv) -> int:
    import warnings
    warnings.simplefilter("ignore")
    if "--help" in argv or "-h" in argv:
        print(__doc__)
        return 0
    only = argv[argv.index("--only") + 1].split(",") if "--only" in argv else None
    md = markdown(report(only))
    print(md)
    if "--write" in argv:
        if only:
            raise SystemExit("--write takes the whole table (no --only)")
        write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
