"""Values and gradients of common ops, bit for bit against torch, under several layouts.

    python tools/grad_scan.py [--only SUBSTRING]

Each case runs forward and backward in torch and in Ember, float32 and float64, with the
incoming gradient dense (a fixed random tensor) and expanded (the gradient of ``sum``), and
prints the share of elements whose bits differ in the output and in the input's gradient.
Matrix products, convolutions and other BLAS-bound ops are left out (they differ by design,
see docs/differences.md); so are ops that draw random numbers.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import warnings

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "src"))

import torch  # noqa: E402

import ember  # noqa: E402

F = "nn.functional"


def _fn(path, *args, **kwargs):
    def call(L, x, aux):
        obj = L
        for part in path.split("."):
            obj = getattr(obj, part)
        return obj(x, *[a(L, aux) if callable(a) else a for a in args], **kwargs)
    return call


def _method(name, shift=False):
    def call(L, x, aux):
        return getattr(x.abs() + 0.1 if shift else x, name)()
    return call


CASES = {
    # activations
    **{n: _fn(f"{F}.{n}") for n in ("relu", "gelu", "silu", "mish", "elu", "celu", "selu",
                                    "softplus", "logsigmoid", "hardswish", "hardsigmoid",
                                    "softsign", "tanhshrink", "relu6", "leaky_relu")},
    "gelu_tanh": _fn(f"{F}.gelu", approximate="tanh"),
    "glu": _fn(f"{F}.glu", 1),
    # unary math
    **{n: _method(n) for n in
       ("tanh", "sigmoid", "exp", "exp2", "expm1", "sin", "cos", "atan", "sinh", "cosh",
        "erf", "erfc", "sinc", "abs", "neg", "square")},
    **{n: _method(n, shift=True) for n in
       ("log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "lgamma", "digamma")},
    "pow_2": lambda L, x, aux: x ** 2, "pow_1.5": lambda L, x, aux: x.abs() ** 1.5,
    "rpow_2.5": lambda L, x, aux: 2.5 ** x,
    # binary math
    "atan2": lambda L, x, aux: L.atan2(x, L.tensor(aux) + 3),
    "hypot": lambda L, x, aux: L.hypot(x, L.tensor(aux)),
    "addcdiv": lambda L, x, aux: L.addcdiv(x, x, L.tensor(aux).abs() + 1, value=0.3),
    "xlogy": lambda L, x, aux: L.xlogy(x, L.tensor(aux).abs() + 0.1),
    "logaddexp": lambda L, x, aux: L.logaddexp(x, L.tensor(aux)),
    "logaddexp2": lambda L, x, aux: L.logaddexp2(x, L.tensor(aux)),
    # reductions and normalisation
    "sum": lambda L, x, aux: x.sum(1), "mean": lambda L, x, aux: x.mean(0),
    "var": lambda L, x, aux: x.var(1), "std": lambda L, x, aux: x.std(0),
    "norm": lambda L, x, aux: x.norm(dim=1), "logsumexp": lambda L, x, aux: x.logsumexp(1),
    "softmax": lambda L, x, aux: x.softmax(1), "log_softmax": lambda L, x, aux: x.log_softmax(0),
    "cumsum": lambda L, x, aux: x.cumsum(1), "cumprod": lambda L, x, aux: (x * 0.1 + 1).cumprod(1),
    "layer_norm": lambda L, x, aux: L.nn.functional.layer_norm(x, (x.shape[-1],)),
    "group_norm": lambda L, x, aux: L.nn.functional.group_norm(x.reshape(x.shape[0], 5, -1), 5),
    "batch_norm": lambda L, x, aux: L.nn.functional.batch_norm(x, None, None, training=True),
    "batch_norm_eval": lambda L, x, aux: L.nn.functional.batch_norm(
        x, L.zeros(x.shape[1], dtype=x.dtype), L.ones(x.shape[1], dtype=x.dtype),
        training=False),
    # losses
    "cross_entropy": lambda L, x, aux: L.nn.functional.cross_entropy(
        x, L.tensor(np.arange(x.shape[0]) % x.shape[1])),
    "cross_entropy_w": lambda L, x, aux: L.nn.functional.cross_entropy(
        x, L.tensor(np.arange(x.shape[0]) % x.shape[1]),
        weight=L.tensor(np.linspace(0.5, 2, x.shape[1]).astype(aux.dtype))),
    "mse": lambda L, x, aux: L.nn.functional.mse_loss(x, L.tensor(aux)),
    "l1": lambda L, x, aux: L.nn.functional.l1_loss(x, L.tensor(aux)),
    "smooth_l1": lambda L, x, aux: L.nn.functional.smooth_l1_loss(x, L.tensor(aux)),
    "bce": lambda L, x, aux: L.nn.functional.binary_cross_entropy(
        x.sigmoid(), L.tensor((aux > 0).astype(aux.dtype))),
    "bce_logits": lambda L, x, aux: L.nn.functional.binary_cross_entropy_with_logits(
        x, L.tensor((aux > 0).astype(aux.dtype))),
    "kl_div": lambda L, x, aux: L.nn.functional.kl_div(
        x.log_softmax(1), L.tensor(aux).softmax(1), reduction="batchmean"),
    "soft_margin": lambda L, x, aux: L.nn.functional.soft_margin_loss(
        x, L.tensor(np.sign(aux))),
    # indexing and padding
    "embedding": lambda L, x, aux: L.nn.functional.embedding(
        L.tensor(np.arange(30) % x.shape[0]), x),
    "pad_reflect": lambda L, x, aux: L.nn.functional.pad(x[None], (3, 3), mode="reflect")[0],
    "pad_replicate": lambda L, x, aux: L.nn.functional.pad(x[None], (2, 3), mode="replicate")[0],
    "pad_circular": lambda L, x, aux: L.nn.functional.pad(x[None, None], (1, 2, 2, 1),
                                                          mode="circular")[0, 0],
    "gather": lambda L, x, aux: x.gather(1, L.tensor(np.arange(x.shape[0] * 4).reshape(-1, 4)
                                                     % x.shape[1])),
}


def _run(L, case, a, aux, dense):
    x = L.tensor(a, requires_grad=True)
    y = case(L, x, aux)
    if dense and y.dim():
        g = np.random.default_rng(3).standard_normal(tuple(y.shape)).astype(a.dtype)
        (y * L.tensor(g)).sum().backward()
    else:
        (y.sum() if y.dim() else y).backward()
    return y.detach().numpy(), x.grad.numpy()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", default=None)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    print(f"{'op':18s} {'dtype':8s} {'gradient':8s} {'output':>8s} {'grad':>8s}")
    exact = total = 0
    for name, case in CASES.items():
        if args.only and args.only not in name:
            continue
        for dtype in (np.float32, np.float64):
            a = rng.standard_normal((30, 70)).astype(dtype)
            aux = rng.standard_normal((30, 70)).astype(dtype)
            for dense in (True, False):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    want = _run(torch, case, a, aux, dense)
                    got = _run(ember, case, a, aux, dense)
                shares = [float(np.mean(w != g)) if w.shape == g.shape else 1.0
                          for w, g in zip(want, got)]
                total += 1
                if not any(shares):
                    exact += 1
                    continue
                print(f"{name:18s} {np.dtype(dtype).name:8s} {'dense' if dense else 'sum':8s} "
                      f"{shares[0]:8.3f} {shares[1]:8.3f}")
    print(f"{exact} of {total} cases identical to the bit (output and gradient)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
