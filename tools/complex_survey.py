"""Survey of complex autograd: ember against torch (the oracle), op by op.

For each case and dtype (complex64, complex128) it compares the value, the gradient of a real
loss, the grad_fn's name and any error (class and message), then prints the mismatches and a
count::

    PYTHONPATH=src python tools/complex_survey.py [-v]
"""

from __future__ import annotations

import sys

import numpy as np
import torch

import ember

RNG = np.random.default_rng(0)


def _data(shape, dtype):
    re = RNG.standard_normal(shape)
    im = RNG.standard_normal(shape)
    return (re + 1j * im).astype(dtype)


# name, input shapes, function of (module, *inputs), loss kind
def _cases():
    c = []

    def add(name, shapes, fn, loss="abs"):
        c.append((name, shapes, fn, loss))

    for u in ["exp", "log", "sqrt", "sin", "cos", "tan", "tanh", "sinh", "cosh", "sigmoid",
              "neg", "reciprocal", "rsqrt", "square", "abs", "angle", "sgn", "conj",
              "conj_physical", "resolve_conj", "log1p", "expm1", "asin", "acos", "atan",
              "asinh", "acosh", "atanh", "log2", "log10", "exp2"]:
        add(u, [(3,)], lambda m, x, u=u: getattr(m, u)(x))
    add("real", [(3,)], lambda m, x: x.real * 2, "sum")
    add("imag", [(3,)], lambda m, x: x.imag * 2, "sum")
    add("real_write", [(3,)], lambda m, x: _real_write(m, x), "abs")
    for b in ["add", "sub", "mul", "div"]:
        add(b, [(3,), (3,)], lambda m, x, y, b=b: getattr(m, b)(x, y))
        add(b + "_scalar", [(3,)], lambda m, x, b=b: getattr(m, b)(x, 1.5 - 0.5j))
        add(b + "_real_other", [(3,)], lambda m, x, b=b: getattr(m, b)(
            x, m.tensor([0.5, 2.0, -1.0], dtype=x.real.dtype)))
    add("pow_scalar", [(3,)], lambda m, x: x ** 2)
    add("pow_frac", [(3,)], lambda m, x: x ** 1.5)
    add("pow_tensor", [(3,), (3,)], lambda m, x, y: x ** y)
    add("sum", [(2, 3)], lambda m, x: x.sum(0))
    add("mean", [(2, 3)], lambda m, x: x.mean(1))
    add("prod", [(2, 3)], lambda m, x: x.prod(1))
    add("cumsum", [(4,)], lambda m, x: x.cumsum(0))
    add("matmul", [(2, 3), (3, 2)], lambda m, x, y: x @ y)
    add("mm", [(2, 3), (3, 2)], lambda m, x, y: m.mm(x, y))
    add("bmm", [(2, 2, 3), (2, 3, 2)], lambda m, x, y: m.bmm(x, y))
    add("mv", [(2, 3), (3,)], lambda m, x, y: m.mv(x, y))
    add("dot", [(3,), (3,)], lambda m, x, y: m.dot(x, y))
    add("vdot", [(3,), (3,)], lambda m, x, y: m.vdot(x, y))
    add("reshape", [(2, 3)], lambda m, x: x.reshape(3, 2) * x.reshape(3, 2)[0])
    add("view", [(2, 3)], lambda m, x: x.view(6).exp())
    add("t", [(2, 3)], lambda m, x: x.t().sin())
    add("mT", [(2, 3)], lambda m, x: x.mT.exp())
    add("mH", [(2, 3)], lambda m, x: x.mH.exp())
    add("index", [(4,)], lambda m, x: x[1:3].exp() * x[m.tensor([0, 0, 3])].sum())
    add("cat", [(2,), (3,)], lambda m, x, y: m.cat([x, y]).exp())
    add("stack", [(2,), (2,)], lambda m, x, y: m.stack([x, y]).sin())
    add("where", [(3,), (3,)], lambda m, x, y: m.where(
        m.tensor([True, False, True]), x, y).exp())
    add("mul_conj", [(3,)], lambda m, x: x * x.conj())
    add("x_exp_x_sin", [(2,)], lambda m, x: x * x.exp() + x.sin())
    add("fft", [(4,)], lambda m, x: m.fft.fft(x))
    add("ifft", [(4,)], lambda m, x: m.fft.ifft(x))
    add("fft_n", [(4,)], lambda m, x: m.fft.fft(x, n=6))
    add("fft_ortho", [(4,)], lambda m, x: m.fft.fft(x, norm="ortho"))
    add("rfft", [(5,)], lambda m, x: m.fft.rfft(x.real), "abs")
    add("irfft", [(3,)], lambda m, x: m.fft.irfft(x), "sq")
    add("fft2", [(2, 4)], lambda m, x: m.fft.fft2(x))
    add("linalg.norm", [(3,)], lambda m, x: m.linalg.norm(x), "sum")
    add("linalg.vector_norm", [(3,)], lambda m, x: m.linalg.vector_norm(x, 3), "sum")
    add("linalg.det", [(3, 3)], lambda m, x: m.linalg.det(x))
    add("linalg.inv", [(3, 3)], lambda m, x: m.linalg.inv(x))
    add("linalg.solve", [(3, 3), (3,)], lambda m, x, y: m.linalg.solve(x, y))
    add("view_as_real", [(3,)], lambda m, x: m.view_as_real(x) * 2, "sum")
    add("view_as_complex", [(3,)], lambda m, x: m.view_as_complex(
        m.view_as_real(x) * 2).exp())
    add("polar", [(3,)], lambda m, x: m.polar(x.abs(), x.angle()), "mulreal")
    add("complex", [(3,)], lambda m, x: m.complex(x.real, x.imag).exp())
    add("abs_sum_real", [(3,)], lambda m, x: x.abs(), "sum")
    add("cumprod", [(4,)], lambda m, x: x.cumprod(0))
    add("var", [(2, 3)], lambda m, x: x.var(1), "sum")
    add("std", [(2, 3)], lambda m, x: x.std(), "sum")
    add("outer", [(2,), (3,)], lambda m, x, y: m.outer(x, y))
    add("einsum", [(2, 3), (3, 2)], lambda m, x, y: m.einsum("ij,jk->ik", x, y))
    add("tensordot", [(2, 3), (3, 2)], lambda m, x, y: m.tensordot(x, y, 1))
    add("trace", [(3, 3)], lambda m, x: m.trace(x) * x)
    add("diag", [(3, 3)], lambda m, x: m.diag(x).exp())
    add("flip_roll", [(4,)], lambda m, x: x.flip(0).roll(1) * x)
    add("expand_repeat", [(1, 3)], lambda m, x: x.expand(2, 3) * x.repeat(2, 1))
    add("gather", [(2, 3)], lambda m, x: x.gather(1, m.tensor([[0, 2], [1, 1]])).exp())
    add("index_select", [(4,)], lambda m, x: x.index_select(0, m.tensor([3, 0, 0])).sin())
    add("masked_fill", [(3,)], lambda m, x: x.masked_fill(m.tensor([True, False, False]),
                                                         2.0) * x)
    add("addmm", [(2, 2), (2, 3), (3, 2)], lambda m, a, x, y: m.addmm(a, x, y, beta=0.5,
                                                                     alpha=2))
    add("baddbmm", [(2, 2, 2), (2, 2, 3), (2, 3, 2)], lambda m, a, x, y: m.baddbmm(a, x, y))
    add("kron", [(2,), (2,)], lambda m, x, y: m.kron(x, y))
    add("triu", [(3, 3)], lambda m, x: x.triu().exp())
    add("pad", [(3,)], lambda m, x: m.nn.functional.pad(x, (1, 2)) * 2)
    add("matrix_norm", [(3, 3)], lambda m, x: m.linalg.matrix_norm(x), "sum")
    add("norm_p1", [(3,)], lambda m, x: m.linalg.vector_norm(x, 1), "sum")
    add("slogdet", [(3, 3)], lambda m, x: m.linalg.slogdet(x)[1], "sum")
    add("logdet_abs", [(3, 3)], lambda m, x: m.linalg.det(x).abs().log(), "sum")
    add("cholesky", [(3, 3)], lambda m, x: m.linalg.cholesky(x @ x.mH + 3 * m.eye(3)))
    add("qr", [(3, 3)], lambda m, x: m.linalg.qr(x)[1].diagonal().abs(), "sum")
    add("svdvals", [(3, 3)], lambda m, x: m.linalg.svdvals(x), "sum")
    add("eigvalsh", [(3, 3)], lambda m, x: m.linalg.eigvalsh(x + x.mH), "sum")
    add("pinv", [(3, 2)], lambda m, x: m.linalg.pinv(x))
    add("lstsq", [(3, 2), (3, 1)], lambda m, x, y: m.linalg.lstsq(x, y).solution)
    add("cross", [(3,), (3,)], lambda m, x, y: m.linalg.cross(x, y))
    add("solve_triangular", [(3, 3), (3, 2)], lambda m, x, y: m.linalg.solve_triangular(
        x.triu() + 3 * m.eye(3), y, upper=True))
    add("mean_all", [(2, 3)], lambda m, x: x.mean() * x)
    add("mse_loss", [(3,), (3,)], lambda m, x, y: m.nn.functional.mse_loss(x, y), "sum")
    add("l1_loss", [(3,), (3,)], lambda m, x, y: m.nn.functional.l1_loss(x, y), "sum")
    add("linear", [(2, 3), (4, 3)], lambda m, x, w: m.nn.functional.linear(x, w))
    add("real_pow", [(3,)], lambda m, x: m.tensor([0.5, 2.0, 1.5], dtype=x.real.dtype) ** x)
    add("exp_real_to_complex", [(3,)], lambda m, x: (x.real * 1j).exp() * x)
    add("rsub_scalar", [(3,)], lambda m, x: 2 - x * (1 + 1j))
    add("rdiv_scalar", [(3,)], lambda m, x: (1 + 1j) / x)
    add("abs_square", [(3,)], lambda m, x: x.abs() ** 2, "sum")
    add("sum_dim_keep", [(2, 3)], lambda m, x: x.sum(1, keepdim=True) * x)
    add("conv1d", [(1, 2, 5), (3, 2, 2)], lambda m, x, w: m.nn.functional.conv1d(x, w))
    add("to_c128", [(3,)], lambda m, x: x.to(m.complex128).exp())
    add("promote_f64", [(3,)], lambda m, x: x * m.tensor([1.0, 2.0, 3.0], dtype=m.float64))
    add("shape_ops", [(2, 3)], lambda m, x: m.cat([x.permute(1, 0).reshape(-1),
                                                   x.unsqueeze(0).squeeze(0).narrow(1, 0, 2)
                                                   .flatten(), *x.unbind(0),
                                                   x.chunk(3, 1)[1].flatten()]).exp())
    add("diagonal", [(3, 3)], lambda m, x: x.diagonal().exp())
    add("masked_select", [(3,)], lambda m, x: x.masked_select(m.tensor([True, False, True]))
        .sin())
    add("take", [(2, 3)], lambda m, x: x.take(m.tensor([0, 5, 5])).exp())
    add("scatter_add", [(3,), (2,)], lambda m, x, y: x.scatter_add(0, m.tensor([0, 0]), y) * x)
    add("index_add", [(3,), (2,)], lambda m, x, y: x.index_add(0, m.tensor([2, 0]), y) * x)
    add("pow_complex_exp", [(3,)], lambda m, x: (x + 3) ** (0.5 + 1j))
    add("normalize", [(2, 3)], lambda m, x: m.nn.functional.normalize(x, dim=1))
    add("tensor_norm", [(3,)], lambda m, x: x.norm(), "sum")
    add("dist", [(3,), (3,)], lambda m, x, y: m.dist(x, y), "sum")
    add("logsumexp", [(3,)], lambda m, x: m.logsumexp(x, 0))
    add("sum_dtype", [(3,)], lambda m, x: x.sum(dtype=m.complex128))
    add("mul_inplace", [(3,)], lambda m, x: x.clone().mul_(x).exp_())
    add("addcmul", [(3,), (3,), (3,)], lambda m, a, x, y: m.addcmul(a, x, y, value=0.5))
    add("lerp", [(3,), (3,)], lambda m, x, y: m.lerp(x, y, 0.3))
    add("square_abs_pow", [(3,)], lambda m, x: x.abs().pow(3), "sum")
    add("double_backward", [(3,)], lambda m, x: _double(m, x), "sum")
    add("isreal_err", [(3,)], lambda m, x: m.max(x))
    add("clamp_err", [(3,)], lambda m, x: m.clamp(x, 0, 1))
    add("relu_err", [(3,)], lambda m, x: m.relu(x))
    add("sort_err", [(3,)], lambda m, x: m.sort(x).values)
    add("softmax", [(3,)], lambda m, x: m.softmax(x, 0))
    add("atan2_err", [(3,), (3,)], lambda m, x, y: m.atan2(x, y))
    return c


def _double(m, x):
    y = (x * x.exp()).abs().sum()
    (g,) = m.autograd.grad(y, x, create_graph=True)
    return (g * g.conj()).real + g.real * 0


def _real_write(m, x):
    y = x.clone()
    y.real.mul_(2)
    y.imag[0] = 1.0
    return y


def _np(t):
    """The values (torch's lazy conjugates resolved; an ember without resolve_conj has
    none)."""
    if hasattr(t, "resolve_conj"):
        t = t.resolve_conj()
    return t.numpy().copy()


def _loss(m, y, kind, c):
    if kind == "abs":
        return y.abs().sum() if y.is_complex() else (y * y).sum()
    if kind == "sum":
        return y.sum().real if y.is_complex() else y.sum()
    if kind == "sq":
        return (y * y).sum()
    if kind == "mulreal":
        return (y * c).real.sum()
    raise ValueError(kind)


def _close(a, b, dtype):
    tol = 1e-4 if dtype == np.complex64 else 1e-10
    a = np.asarray(a)
    b = np.asarray(b)
    return a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)


def _run(m, name, arrays, fn, loss, dtype):
    """(value, grads, grad_fn name) or ("error", class name, message)."""
    xs = [m.tensor(a, requires_grad=True) for a in arrays]
    c = m.tensor(np.array(0.7 - 1.3j, dtype=dtype))
    try:
        y = fn(m, *xs)
        gf = y.grad_fn.name() if y.grad_fn is not None else None
        val = _np(y.detach())
        if y.requires_grad:
            _loss(m, y, loss, c).backward()
        grads = [None if x.grad is None else _np(x.grad) for x in xs]
        return val, grads, gf
    except Exception as e:  # noqa: BLE001 -- the survey compares errors
        return "error", type(e).__name__, str(e).split("\n")[0]


def survey(verbose=False):
    bad = []
    n = 0
    for name, shapes, fn, loss in _cases():
        for dtype in (np.complex64, np.complex128):
            n += 1
            arrays = [_data(s, dtype) for s in shapes]
            if name in ("log", "sqrt", "rsqrt", "reciprocal", "acosh", "asin", "acos",
                        "atanh", "log2", "log10", "pow_frac"):
                arrays = [a + 2 for a in arrays]
            t = _run(torch, name, arrays, fn, loss, dtype)
            e = _run(ember, name, arrays, fn, loss, dtype)
            why = []
            te = isinstance(t[0], str)
            ee = isinstance(e[0], str)
            if te or ee:
                if not (te and ee and t[1:] == e[1:]):
                    why.append(f"error: torch {t[1:] if te else 'ok'} "
                               f"ember {e[1:] if ee else 'ok'}")
            else:
                if not _close(t[0], e[0], dtype):
                    why.append("value")
                for i, (gt, ge) in enumerate(zip(t[1], e[1])):
                    if (gt is None) != (ge is None) or (gt is not None
                                                        and not _close(gt, ge, dtype)):
                        why.append(f"grad{i}")
                if t[2] != e[2]:
                    why.append(f"grad_fn {t[2]} vs {e[2]}")
            if why:
                bad.append((name, np.dtype(dtype).name, why))
            elif verbose:
                print(f"ok   {name} {np.dtype(dtype).name}")
    for name, dt, why in bad:
        print(f"BAD  {name:22s} {dt:10s} {'; '.join(why)}")
    print(f"{len(bad)} mismatches in {n} cases "
          f"({len({b[0] for b in bad})} ops of {len(_cases())})")
    return len(bad)


if __name__ == "__main__":
    sys.exit(1 if survey("-v" in sys.argv) else 0)
