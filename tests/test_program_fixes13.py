"""Fixes found by the thirteenth batch of real-style programs (``tests/programs``), each
checked against torch: ``softshrink`` as ATen's ``cpu_kernel_vec`` (``+0`` and NaN in the
vectors, ``x * 0`` in the tail, half types in float); ``special.modified_bessel_k0``/``k1``,
their scaled forms and ``airy_ai`` (missing before) as ``Math.h`` computes them; ``polar``
with glibc's cos/sin; float16/bfloat16 arithmetic as ATen's reduced-type kernels read their
operands: ``add``/``sub`` (a number in the type, ``alpha`` fused in the vectors and rounded
in the tail), comparisons and ``fmod``/``remainder`` (the number in the type), ``pow`` with a
number, float16 ``sum``/``mean``/``nansum`` in float32, ``nll_loss``'s cascade in the type,
float16 ``threshold``/``celu``/``mul.Scalar`` reading numbers as floats, eval-mode ``rrelu``,
SGD's momentum update; complex ``dot``/``vdot`` through MKL's ``?dotu``/``?dotc``; float32
softmax backward over the last dim on one thread (fused partial-vector products);
``multilabel_margin_loss`` as ATen's CPU frame; ``index_add`` with a float ``alpha`` slice by
slice."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch


def _same(a, b):
    """Equal bits, signed zeros included; NaNs (whose payload printing never shows) equal where
    both are NaN."""
    a, b = np.asarray(a.detach().float().numpy()), np.asarray(b.detach().float().numpy())
    assert a.dtype == b.dtype and a.shape == b.shape
    assert (np.isnan(a) == np.isnan(b)).all()
    a, b = np.where(np.isnan(a), 0, a), np.where(np.isnan(b), 0, b)
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("n", [1, 7, 36, 60, 101])
def test_softshrink_signed_zeros_nans_and_reduced_floats(dtype, n):
    rng = np.random.default_rng(n)
    data = rng.uniform(-1, 1, n).astype(np.float32)
    data[::5] = -0.0
    data[1::7] = np.nan
    data[2::6] = -1e-8
    got = [L.nn.functional.softshrink(L.tensor(data).to(getattr(L, dtype)), 0.3)
           for L in (torch, ember)]
    _same(*got)


def test_softshrink_of_linspace_as_the_activation_tour():
    got = [L.nn.Softshrink(0.3)(L.linspace(-2, 2, 7)) for L in (torch, ember)]
    _same(*got)
    got = [L.nn.functional.softshrink(L.linspace(-1, 1, 45).reshape(5, 9).t(), 0.5)
           for L in (torch, ember)]
    _same(*got)


_BESSEL_K = ["modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0",
             "scaled_modified_bessel_k1", "airy_ai"]


@pytest.mark.parametrize("name", _BESSEL_K)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bessel_k_and_airy_ai_bits(name, dtype):
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(0, 2, 400), rng.uniform(2, 60, 400),
                        rng.uniform(-30, 0, 400), rng.uniform(2.09, 8.4, 200),
                        [0.0, -0.0, 2.0, -2.09, 2.09, 8.3203353, 103.9, 1e-30, np.inf,
                         -np.inf, np.nan]]).astype(dtype)
    _same(*(getattr(L.special, name)(L.tensor(x)) for L in (torch, ember)))


@pytest.mark.parametrize("name", _BESSEL_K)
def test_bessel_k_and_airy_ai_integers_and_errors(name):
    got = [getattr(L.special, name)(L.tensor([1, 2, 3])) for L in (torch, ember)]
    assert got[0].dtype == torch.float32 and str(got[1].dtype) == "torch.float32"
    _same(*got)
    x = [L.tensor([0.5, 1.5], requires_grad=True) for L in (torch, ember)]
    outs = [getattr(L.special, name)(xi) for L, xi in zip((torch, ember), x)]
    assert outs[0].requires_grad == outs[1].requires_grad


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_polar_takes_the_c_library_cos_and_sin(dtype):
    rng = np.random.default_rng(1)
    a = rng.uniform(0, 2, 3000).astype(dtype)
    t = rng.normal(0, 3, 3000).astype(dtype)
    got = [L.polar(L.tensor(a), L.tensor(t)) for L in (torch, ember)]
    _same(got[0].real, got[1].real)
    _same(got[0].imag, got[1].imag)
    got = [L.polar(L.tensor(a[:7]).view(7, 1), L.tensor(t[:5])) for L in (torch, ember)]
    _same(torch.view_as_real(got[0]), ember.view_as_real(got[1]))


def _reduced_cases(L, dt):
    gen = np.random.default_rng(5)
    base = gen.normal(size=(7, 45)).astype(np.float32)
    h = L.tensor(base).to(getattr(L, dt))
    return {
        "add": h + 0.3, "radd": 0.3 + h, "sub": h - 0.3, "rsub": 0.3 - h,
        "add_alpha": L.add(h, 0.3, alpha=2.5), "sub_alpha": L.sub(h, 0.3, alpha=0.7),
        "add_0d": h + L.tensor(0.3), "sub_0d": h - L.tensor(0.3),
        "add_tensors_alpha": L.add(h, h.flip(0), alpha=0.3),
        "add_t_alpha": L.add(h.t(), h.t().flip(1), alpha=1.7),
        "add_row": L.add(h, h[0], alpha=-0.45), "rsub_alpha": L.rsub(h, 0.25, alpha=3.3),
        "add_inplace": h.clone().add_(0.3), "sub_inplace": h.clone().sub_(h.flip(1), alpha=0.9),
    }


@pytest.mark.parametrize("dt", ["bfloat16", "float16"])
def test_reduced_add_sub_round_scalar_and_alpha_as_the_ufunc_kernel(dt):
    t, e = _reduced_cases(torch, dt), _reduced_cases(ember, dt)
    for k in t:
        assert str(e[k].dtype) == str(t[k].dtype), k
        _same(t[k], e[k])


@pytest.mark.parametrize("shape,dims", [((33, 47), 0), ((3, 47), 0), ((47, 3), 1), ((1000,), None),
                                        ((5, 6, 7), (0, 2)), ((4, 129, 3), 1), ((64, 64), 0)])
def test_half_sum_and_mean_accumulate_in_float(shape, dims):
    x = np.random.default_rng(0).normal(size=shape).astype(np.float16)
    for fn in ("sum", "mean"):
        got = [getattr(L, fn)(L.tensor(x)) if dims is None else getattr(L, fn)(L.tensor(x), dims)
               for L in (torch, ember)]
        _same(*got)
    if not isinstance(dims, tuple):
        got = [L.nansum(L.tensor(x)) if dims is None else L.nansum(L.tensor(x), dims)
               for L in (torch, ember)]
        _same(*got)


def _ce_cases(L, dt):
    L.manual_seed(0)
    out = []
    for n, c in [(33, 10), (300, 7), (5, 3)]:
        x = L.randn(n, c).to(getattr(L, dt)).requires_grad_()
        t = L.arange(n) % c
        w = L.rand(c).to(getattr(L, dt))
        for kw in [dict(), dict(reduction="sum"), dict(weight=w), dict(ignore_index=1),
                   dict(weight=w, ignore_index=2, reduction="sum"), dict(label_smoothing=0.1)]:
            loss = L.nn.functional.cross_entropy(x, t, **kw)
            out += [loss, L.autograd.grad(loss, x)[0]]
    x = L.randn(2, 3, 4, 5).to(getattr(L, dt)).requires_grad_()
    loss = L.nn.functional.cross_entropy(x, L.randint(0, 3, (2, 4, 5)))
    return out + [loss, L.autograd.grad(loss, x)[0]]


@pytest.mark.parametrize("dt", ["bfloat16", "float16"])
def test_reduced_nll_loss_cascades_in_the_type(dt):
    """nll_loss_out_frame adds the losses and weights in scalar_t (each step rounded), the
    count of targets is a scalar_t too (257 is 256 in bfloat16), and the label-smoothing
    composite's ``mul.Scalar`` reads its number as a float (opmath)."""
    for a, b in zip(_ce_cases(torch, dt), _ce_cases(ember, dt)):
        _same(a, b)


@pytest.mark.parametrize("dt", ["bfloat16", "float16"])
@pytest.mark.parametrize("kw", [dict(momentum=0.9),
                                dict(momentum=0.9, nesterov=True, weight_decay=0.01),
                                dict(momentum=0.5, dampening=0.3)])
def test_reduced_sgd_momentum_as_its_tensor_ops(dt, kw):
    """``buf.mul_(momentum)`` reads the number as a float, ``add_(…, alpha)`` is the ufunc
    kernel's (vectors fused in float, the tail rounding ``alpha * b``)."""
    got = []
    for L in (torch, ember):
        L.manual_seed(0)
        x = L.randn(33, 47).to(getattr(L, dt))
        w = L.full((47,), 0.01, dtype=getattr(L, dt), requires_grad=True)
        opt = L.optim.SGD([w], lr=0.1, **kw)
        for _ in range(4):
            loss = ((x @ w - 1.0) ** 2).float().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        got.append(w)
    _same(*got)


@pytest.mark.parametrize("dt", ["bfloat16", "float16"])
@pytest.mark.parametrize("e", [1.3, 0.5, -0.5, -1.0, 2.0, 3.0, -2.0, 2.5, -1.7, 7.0])
def test_reduced_pow_scalar(dt, e):
    """The exponent in the type; Sleef's powf in the vectors, glibc's powf in the tail;
    bfloat16's square, cube, roots and reciprocals as its own kernels (rsqrt rounding twice
    in the tail)."""
    x = np.abs(np.random.default_rng(2).normal(size=(7, 45)) * 2).astype(np.float32) + 0.1
    for L_t, L_e in [(torch.tensor(x), ember.tensor(x))]:
        for lay in (lambda t: t, lambda t: t.t()):
            got = [lay(t.to(getattr(L, dt))) ** e for L, t in ((torch, L_t), (ember, L_e))]
            _same(*got)


def _scalar_cases(L, dt):
    x = np.random.default_rng(9).normal(size=100).astype(np.float32)
    x[3] = 0.3
    h = L.tensor(x).to(getattr(L, dt))
    z = L.tensor(0.3)
    return [h == 0.3, h != 0.3, h.eq(z), h.clone().eq_(0.3), h < 0.3, h >= z,
            L.fmod(h, 0.3), L.remainder(h, -0.3), L.fmod(h, z), L.remainder(h, z),
            L.nn.functional.threshold(h, 0.3, 0.7), L.nn.functional.celu(h, 0.3)]


@pytest.mark.parametrize("dt", ["bfloat16", "float16"])
def test_reduced_scalar_operands_take_the_type(dt):
    """Comparisons and fmod/remainder read a number (or a 0-d tensor) cast to the type, as
    the iterator's common dtype makes it; float16 threshold and celu read theirs as floats."""
    for a, b in zip(_scalar_cases(torch, dt), _scalar_cases(ember, dt)):
        assert str(a.dtype) == str(b.dtype)
        _same(a, b)


def test_half_threshold_backward_compares_in_float():
    x = np.random.default_rng(3).normal(size=257).astype(np.float32)
    x[::7] = 0.3
    got = []
    for L in (torch, ember):
        h = L.tensor(x).half().requires_grad_()
        got.append(L.autograd.grad(L.nn.functional.threshold(h, 0.3, 0.7).float().sum(), h)[0])
    _same(*got)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 7, 200, 1031])
def test_complex_dot_and_vdot_are_mkls(dt, n):
    if not ember._ops._gemm.available(getattr(np, dt)):
        pytest.skip("MKL's runtime is not installed")
    rng = np.random.default_rng(n)
    z = (rng.normal(size=n) + 1j * rng.normal(size=n)).astype(dt)
    w = (rng.normal(size=2 * n) + 1j * rng.normal(size=2 * n)).astype(dt)
    for fn in ("dot", "vdot"):
        got = [getattr(L, fn)(L.tensor(z), L.tensor(w)[::2]) for L in (torch, ember)]
        _same(torch.view_as_real(got[0]), ember.view_as_real(got[1]))


@pytest.mark.parametrize("shape", [(19, 37), (1, 37), (3, 100), (40, 7), (2, 16), (5, 129)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_softmax_backward_last_dim_inline_rows(shape, dtype):
    """On one thread (or one row) parallel_for runs the loop inline, where the float32
    products of the partial last vector are fused into the row's sum; on more threads the
    OpenMP copy adds them rounded (the ambient thread count decides, as in torch)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=shape).astype(dtype)
    c = rng.normal(size=shape).astype(dtype)
    got = []
    for L in (torch, ember):
        t = L.tensor(x).requires_grad_()
        got.append(L.autograd.grad(L.softmax(t, -1), t, L.tensor(c))[0])
    _same(*got)


def _mlm_cases(L):
    gen = np.random.default_rng(4)
    out = []
    for n, c in [(27, 11), (1, 5), (8, 40)]:
        x = gen.normal(size=(n, c)).astype(np.float32)
        t = np.full((n, c), -1)
        for i in range(n):
            k = gen.integers(0, c)
            t[i, :k] = gen.permutation(c)[:k]
        for red in ("mean", "sum", "none"):
            xt = L.tensor(x).requires_grad_()
            loss = L.nn.functional.multilabel_margin_loss(xt, L.tensor(t), reduction=red)
            cot = L.tensor(1.0)
            if red == "none":
                cot = L.tensor(gen.random(loss.shape).astype(np.float32))
            out += [loss, L.autograd.grad(loss, xt, cot)[0]]
    xt = L.tensor(x[0]).requires_grad_()
    loss = L.nn.functional.multilabel_margin_loss(xt, L.tensor(t[0]))
    return out + [loss, L.autograd.grad(loss, xt)[0]]


def test_multilabel_margin_loss_as_the_cpu_frame():
    """``1 - x[y] + x[i]`` in the type, each sample's hinges summed in double (acc_type), the
    gradient ``±1/(N C)`` added one hinge at a time."""
    for a, b in zip(_mlm_cases(torch), _mlm_cases(ember)):
        _same(a, b)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,dim", [((40, 13), 0), ((13, 40), 1), ((40,), 0), ((3, 40, 5), 1)])
def test_index_add_with_alpha_slice_by_slice(dtype, shape, dim):
    """``index_add_`` with ``alpha``: the indices in order, each slice added by the add
    kernel (fused), a vector's elements by ``self += source * alpha`` (rounded product)."""
    rng = np.random.default_rng(1)
    src_shape = list(shape)
    src_shape[dim] = 300
    src = rng.normal(size=src_shape).astype(dtype)
    idx = rng.integers(0, shape[dim], 300)
    base = rng.normal(size=shape).astype(dtype)
    got = [L.tensor(base).index_add_(dim, L.tensor(idx), L.tensor(src), alpha=0.7)
           for L in (torch, ember)]
    _same(*got)


@pytest.mark.parametrize("dt", ["bfloat16", "float16", "float32"])
@pytest.mark.parametrize("inplace", [False, True])
def test_rrelu_eval_reads_the_mean_slope_as_a_float(dt, inplace):
    x = np.random.default_rng(0).normal(size=100).astype(np.float32)
    got = []
    for L in (torch, ember):
        h = L.tensor(x).to(getattr(L, dt)).requires_grad_()
        y = L.nn.functional.rrelu(h * 1, 0.1, 0.3, training=False, inplace=inplace)
        got += [y, L.autograd.grad(y.float().sum() * 1.3, h)[0]]
    _same(got[0], got[2])
    _same(got[1], got[3])
