"""Regression tests for what the seventh batch of real programs found, each against torch 2.13:
``~`` on a float tensor is the Python binding's ``TypeError``; ``binary_cross_entropy`` checks
that its target lies in [0, 1] as it checks its input; a number passed as a binary op's
``Tensor other`` reads back from ``grad_fn._saved_other`` as torch's 0-dim wrapped-number tensor;
``grad_fn._saved_value`` (``addcmul``'s value) is the saved value, not a method; ``detach_`` refuses
a view; ``autograd.functional``'s size messages for ``v`` say ``Entry i in`` only for tuples; a
tensor hook's replacement gradient is checked (type, then size) with torch's messages; ``type()``
names a sparse COO tensor ``torch.sparse.FloatTensor``; ``torch.fft`` checks its dims (wrapped, a
0-d input has none) and signal sizes on every path, ``fftshift`` wraps negative dims; ``cat`` of
no tensors is a ``ValueError``, ``column_stack``/``meshgrid`` of none say so, ``block_diag()`` is
(1, 0); ``autograd.grad`` takes a dict of inputs and refuses none; out= calls refuse, as torch,
an out= tensor or an input that requires grad (cat, stack, the ops of several results);
``gradcheck`` checks complex inputs along both axes and complex outputs' imaginary then real
parts, with torch's messages; ``kron`` refuses a non-tensor operand with the parser's TypeError;
``div(..., rounding_mode=None)`` given explicitly records ``DivBackward2``, as torch's overload."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import errors_alike, torch


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "bfloat16"])
def test_invert_of_a_non_integral_tensor_is_a_type_error(dtype):
    errors_alike(lambda lib: ~lib.zeros(2, dtype=getattr(lib, dtype)))
    errors_alike(lambda lib: ~lib.zeros(2, dtype=getattr(lib, dtype)).t().requires_grad_())
    # the function and the method keep the kernel's message
    errors_alike(lambda lib: lib.bitwise_not(lib.zeros(2, dtype=getattr(lib, dtype))))


@pytest.mark.parametrize("inp, target", [
    ([0.5, 1.5], [2.0, 1.0]),           # the first bad element is a target's
    ([1.5, 0.5], [1.0, 2.0]),           # the first bad element is an input's
    ([0.5, 0.25], [0.0, float("nan")]),
    ([float("nan")], [0.5]),
    ([[0.2, 0.3]], [[1.0, -0.5]]),
])
def test_binary_cross_entropy_checks_the_target_range_too(inp, target):
    for module in (False, True):
        def fn(lib, module=module):
            x, t = lib.tensor(inp), lib.tensor(target)
            bce = lib.nn.BCELoss() if module else lib.nn.functional.binary_cross_entropy
            return bce(x, t)
        errors_alike(fn)


def _saved(lib, attr, fn):
    w = lib.tensor([0.5, -1.5], requires_grad=True)
    return getattr(fn(lib, w).grad_fn, attr)


@pytest.mark.parametrize("attr, fn", [
    ("_saved_other", lambda lib, w: w * 3),
    ("_saved_other", lambda lib, w: 3 * w),
    ("_saved_other", lambda lib, w: w.mul(2.5)),
    ("_saved_other", lambda lib, w: lib.mul(w, True)),
    ("_saved_other", lambda lib, w: w * (1 + 2j)),
    ("_saved_other", lambda lib, w: w / 3),
    ("_saved_other", lambda lib, w: w.div(0.25)),
    ("_saved_other", lambda lib, w: lib.xlogy(w, 2.0)),      # a Scalar overload: the number
    ("_saved_exponent", lambda lib, w: w ** 3),
    ("_saved_exponent", lambda lib, w: w.pow(2.5)),
    ("_saved_min", lambda lib, w: w.clamp(min=0.1)),
    ("_saved_weight", lambda lib, w: w.lerp(lib.zeros(2), 0.3)),
    ("_saved_value", lambda lib, w: w.addcmul(w, w, value=2)),
    ("_saved_negative_slope", lambda lib, w: lib.nn.functional.leaky_relu(w, 0.2)),
    ("_saved_threshold", lambda lib, w: lib.threshold(w, 0.1, 2.0)),
])
def test_saved_numbers_show_as_torch_shows_them(attr, fn):
    """A number passed as a binary op's ``Tensor other`` is saved as a 0-dim wrapped-number
    tensor; a ``Scalar`` argument is saved as the number itself."""
    t, e = _saved(torch, attr, fn), _saved(ember, attr, fn)
    assert type(e).__name__ == type(t).__name__, (e, t)
    if isinstance(t, torch.Tensor):
        assert repr(e) == repr(t) and str(e.dtype) == str(t.dtype) and e.dim() == 0
    else:
        assert e == t and type(e) is type(t)


@pytest.mark.parametrize("make", [
    lambda lib: lib.ones(3)[:2],
    lambda lib: lib.ones(3, requires_grad=True)[:2],
    lambda lib: (lib.ones(3, requires_grad=True) * 1).view(3),
    lambda lib: lib.ones(2, 3).t(),
    lambda lib: lib.ones(3, requires_grad=True).detach()[1:],
])
def test_detach_in_place_refuses_a_view(make):
    errors_alike(lambda lib: make(lib).detach_())


def test_detach_in_place_of_a_non_view():
    for lib in (torch, ember):
        t = lib.ones(3, requires_grad=True) * 2
        assert t.detach_() is t and t.grad_fn is None and not t.requires_grad and t.is_leaf


@pytest.mark.parametrize("call", [
    lambda lib, F: F.vjp(lambda x: x * 2, lib.ones(3), lib.ones(2)),
    lambda lib, F: F.vjp(lambda x: (x * 2, x), lib.ones(3), (lib.ones(3), lib.ones(2))),
    lambda lib, F: F.vjp(lambda x: (x * 2, x), lib.ones(3), (lib.ones(3),)),
    lambda lib, F: F.vjp(lambda x: x * 2, lib.ones(3), (lib.ones(3), lib.ones(3))),
    lambda lib, F: F.jvp(lambda x: x * 2, lib.ones(3), lib.ones(4)),
    lambda lib, F: F.jvp(lambda x, y: x * y, (lib.ones(3),) * 2, (lib.ones(3), lib.ones(1))),
    lambda lib, F: F.hvp(lambda x: x.pow(2).sum(), lib.ones(3), lib.ones(2)),
    lambda lib, F: F.vhp(lambda x: x.pow(2).sum(), (lib.ones(3),), (lib.ones(2),)),
])
def test_functional_v_size_messages(call):
    """``Entry i in`` prefixes the size message only where the inputs/outputs are a tuple."""
    errors_alike(lambda lib: call(lib, lib.autograd.functional))


def _named_hook(g):
    return g[None]


class _CallableHook:
    def __call__(self, g):
        return g.repeat(2)


@pytest.mark.parametrize("hook", [
    lambda g: g.new_ones(3),
    lambda g: g.double(),
    lambda g: g.int(),
    lambda g: 3.0,
    lambda g: g.to_sparse(),
    _named_hook,
    _CallableHook(),
])
@pytest.mark.parametrize("leaf", [True, False])
def test_a_tensor_hook_may_not_change_the_type_or_size(hook, leaf):
    def fn(lib):
        q = lib.ones(2, requires_grad=True)
        t = q if leaf else q * 2
        t.register_hook(hook)
        (t * 2).sum().backward()
    errors_alike(fn)


def test_a_tensor_hook_may_replace_the_gradient_by_one_alike():
    for lib in (torch, ember):
        q = lib.ones(2, requires_grad=True)
        q.register_hook(lambda g: g.new_full((2,), 7.0))
        (q * 2).sum().backward()
        assert q.grad.tolist() == [7.0, 7.0]


@pytest.mark.parametrize("make", [
    lambda lib: lib.eye(2).to_sparse(),
    lambda lib: lib.eye(2, dtype=lib.float64).to_sparse(),
    lambda lib: lib.eye(2).to_sparse_csr(),
])
def test_type_names_a_sparse_tensor_as_torch_does(make):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = make(torch).type()
        except RuntimeError:
            errors_alike(lambda lib: make(lib).type())
            return
        assert make(ember).type() == want


FFT_BAD_CALLS = [
    lambda lib, x: lib.fft.fft(x[0], dim=1),
    lambda lib, x: lib.fft.rfft(x[0], dim=-2),
    lambda lib, x: lib.fft.irfft(x, dim=3),
    lambda lib, x: lib.fft.hfft(x[0], dim=1),
    lambda lib, x: lib.fft.ifft(x, n=0),
    lambda lib, x: lib.fft.irfft(x[:, :1]),
    lambda lib, x: lib.fft.fft(x[0, 0]),
    lambda lib, x: lib.fft.fft2(x[0]),
    lambda lib, x: lib.fft.fftn(x[0], dim=(0, 1)),
    lambda lib, x: lib.fft.fftn(x[0], s=(2, 2)),
    lambda lib, x: lib.fft.fftn(x, dim=(0, 0)),
    lambda lib, x: lib.fft.ifftn(x, s=(0, 2)),
    lambda lib, x: lib.fft.irfftn(x[:, :1]),
    lambda lib, x: lib.fft.fft2(x, s=(2, 3), dim=(0,)),
    lambda lib, x: lib.fft.fftshift(x[0], dim=2),
    lambda lib, x: lib.fft.ifftshift(x, dim=(0, -3)),
    lambda lib, x: lib.fft.fft(x.requires_grad_(), dim=2),
]


@pytest.mark.parametrize("call", FFT_BAD_CALLS)
def test_fft_checks_dims_and_sizes(call):
    errors_alike(lambda lib: call(lib, lib.ones(3, 4)))


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.fft.fftshift(x, dim=-1),
    lambda lib, x: lib.fft.ifftshift(x, dim=(0, -1)),
    lambda lib, x: lib.fft.fftn(x, s=(2, -1)),
    lambda lib, x: lib.fft.irfftn(x, s=(4, 4)),
    lambda lib, x: lib.fft.irfft(x, n=1),
    lambda lib, x: lib.fft.rfftn(x, dim=(-1,)),
    lambda lib, x: lib.fft.fft(x, n=2, dim=-2),
])
def test_fft_negative_dims_and_sizes_still_work(call):
    data = np.arange(12.0).reshape(3, 4) ** 1.5
    t, e = call(torch, torch.tensor(data)), call(ember, ember.tensor(data))
    np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda lib: lib.cat([]),
    lambda lib: lib.cat((), dim=1),
    lambda lib: lib.concat([]),
    lambda lib: lib.concatenate([]),
    lambda lib: lib.column_stack([]),
    lambda lib: lib.meshgrid(indexing="ij"),
    lambda lib: lib.meshgrid([], indexing="xy"),
    lambda lib: lib.cartesian_prod(),
    lambda lib: lib.stack([]),
])
def test_empty_tensor_lists_raise_as_torch(call):
    errors_alike(call)


def test_block_diag_of_nothing_is_one_empty_row():
    t, e = torch.block_diag(), ember.block_diag()
    assert tuple(e.shape) == tuple(t.shape) == (1, 0) and str(e.dtype) == str(t.dtype)


def test_autograd_grad_inputs_empty_or_a_dict():
    for inputs in ([], (), {}):
        errors_alike(lambda lib, inputs=inputs: lib.autograd.grad(
            (lib.ones(2, requires_grad=True) * 2).sum(), inputs))
    errors_alike(lambda lib: (lib.ones(2, requires_grad=True) * 2).sum().backward(inputs=[]))
    import types

    def proxy(lib):
        x = lib.ones(2, requires_grad=True)
        lib.autograd.grad((x * 2).sum(), types.MappingProxyType({"x": x}))
    errors_alike(proxy)
    got = {}
    for lib in (torch, ember):
        x, y = lib.ones(2, requires_grad=True), lib.ones(3, requires_grad=True)
        u = lib.ones(1, requires_grad=True)
        f = (x * 2).sum() + (y ** 2).sum()
        g = lib.autograd.grad(f, {"x": x, "y": y, "u": u}, materialize_grads=True,
                              create_graph=True)
        got[lib] = {k: (v.tolist(), v.requires_grad) for k, v in g.items()}
        assert list(g) == ["x", "y", "u"]
    assert got[torch] == got[ember]


@pytest.mark.parametrize("call", [
    lambda lib, r, x: lib.add(x, 1, out=lib.zeros(2, requires_grad=True)),
    lambda lib, r, x: lib.exp(x, out=lib.zeros(2, requires_grad=True)),
    lambda lib, r, x: lib.add(x, r, out=lib.empty(2)),
    lambda lib, r, x: lib.cat([r, x], out=lib.empty(4)),
    lambda lib, r, x: lib.cat([r, lib.ones(2, 3)], out=lib.empty(4)),   # before the size check
    lambda lib, r, x: lib.cat([x, x], out=lib.empty(4, requires_grad=True)),
    lambda lib, r, x: lib.hstack([r, x], out=lib.empty(4)),
    lambda lib, r, x: lib.stack([r, x], out=lib.empty(2, 2)),
    lambda lib, r, x: lib.sort(r, out=(lib.empty(2), lib.empty(2, dtype=lib.long))),
    lambda lib, r, x: lib.max(r, 0, out=(lib.empty(()), lib.empty((), dtype=lib.int32))),
    lambda lib, r, x: lib.aminmax(r, out=(lib.empty(()), lib.empty(()))),
    lambda lib, r, x: lib.cummax(r, 0, out=(lib.empty(2), lib.empty(2, dtype=lib.long))),
    lambda lib, r, x: lib.frexp(r, out=(lib.empty(2), lib.empty(2, dtype=lib.int32))),
])
def test_out_calls_refuse_what_autograd_would_record(call):
    errors_alike(lambda lib: call(lib, lib.ones(2, requires_grad=True), lib.ones(2)))


def test_out_calls_with_grad_off_are_fine():
    for lib in (torch, ember):
        with lib.no_grad():
            o = lib.zeros(2, requires_grad=True)
            lib.cat([lib.ones(1, requires_grad=True), lib.ones(1)], out=o)
            assert o.tolist() == [1.0, 1.0]


def _bad_backward_functions(lib):
    """Two custom Functions whose backward is wrong only where complex numbers enter."""

    class DropsImag(lib.autograd.Function):      # |t|^2 of a complex t: grad 2t, not 2 Re t
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return t.abs() ** 2

        @staticmethod
        def backward(ctx, g):
            (t,) = ctx.saved_tensors
            return g * 2 * t.real

    class WrongPolar(lib.autograd.Function):     # a complex output from a real input
        @staticmethod
        def forward(ctx, u):
            return lib.polar(u, u * 2)

        @staticmethod
        def backward(ctx, g):
            return g.real * 3

    return DropsImag, WrongPolar


def _complex_inputs(lib):
    x = lib.tensor([1.5 - 0.5j, -0.25 + 2.0j], dtype=lib.complex128, requires_grad=True)
    u = lib.tensor([0.5, 1.25], dtype=lib.float64, requires_grad=True)
    return x, u


def test_gradcheck_checks_the_imaginary_parts_of_complex_inputs_and_outputs():
    errors_alike(lambda lib: lib.autograd.gradcheck(_bad_backward_functions(lib)[0].apply,
                                                    (_complex_inputs(lib)[0],)))
    errors_alike(lambda lib: lib.autograd.gradcheck(_bad_backward_functions(lib)[1].apply,
                                                    (_complex_inputs(lib)[1],)))
    import warnings
    for lib in (torch, ember):
        x, u = _complex_inputs(lib)
        with warnings.catch_warnings():
            warnings.simplefilter("error")          # (no ComplexWarning from the checks)
            assert lib.autograd.gradcheck(lambda t: (t.abs() * t.angle()).sum(), (x,))
            assert lib.autograd.gradcheck(lambda t, v: (t * v).sin(), (x, u))
            assert lib.autograd.gradcheck(lambda v, lib=lib: lib.polar(v, v * 2), (u,))
            assert not lib.autograd.gradcheck(_bad_backward_functions(lib)[0].apply, (x,),
                                              raise_exception=False)


@pytest.mark.parametrize("call", [
    lambda lib: lib.kron(lib.ones(2), "a"),
    lambda lib: lib.kron(lib.ones(2), 2),
    lambda lib: lib.kron(2.5, lib.ones(2)),
])
def test_kron_wants_tensors(call):
    errors_alike(call)


@pytest.mark.parametrize("call", [
    lambda lib, w, r: w.div(2, rounding_mode=None),
    lambda lib, w, r: lib.div(w, r, rounding_mode=None),
    lambda lib, w, r: lib.divide(w, r, rounding_mode=None),
    lambda lib, w, r: (w * 1).div_(r, rounding_mode=None),
    lambda lib, w, r: w.div(r),
    lambda lib, w, r: w / r,
    lambda lib, w, r: (w * 1).div_(2),
])
def test_an_explicit_rounding_mode_none_is_torchs_other_overload(call):
    """``rounding_mode=None`` given is ``div.Tensor_mode`` (``DivBackward2``), true division;
    none given is ``div.Tensor`` (``DivBackward0``)."""
    got = {}
    for lib in (torch, ember):
        w = lib.tensor([1.0, -2.0], requires_grad=True)
        r = lib.tensor([3.0, 4.0], requires_grad=True)
        y = call(lib, w, r)
        saved = repr(getattr(y.grad_fn, "_saved_other", "absent"))
        grads = lib.autograd.grad(y.sum(), (w, r), allow_unused=True)
        got[lib] = (y.grad_fn.name(), y.tolist(), saved,
                    [None if g is None else g.tolist() for g in grads])
    assert got[ember] == got[torch]
