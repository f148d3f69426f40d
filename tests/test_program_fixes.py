"""Regression tests for what tests/test_real_programs.py found, each against torch 2.13:
``bincount``, ``searchsorted``/``bucketize``, ``linalg.lstsq``, torch 2.13's rejection-sampling
``nn.init.trunc_normal_``, NumPy's ``axis=``/``keepdims=`` names for ``dim``/``keepdim``; float16
``mul``/``div`` by a number, the dim a broadcast or ``expand`` clash names, ``nll_loss`` and
``cross_entropy``'s argument checks, a kernel larger than a convolution's padded input, and NumPy
arrays as operator operands."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import caught_warnings, errors_alike, torch


def same(e, t, exact=True):
    a, b = e.detach().numpy(), t.detach().numpy()
    assert a.shape == b.shape and a.dtype == b.dtype, (a, b)
    if exact:
        np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kw", [{}, {"minlength": 7}, {"weights": [0.5, 1, 1, 2, 3]},
                                {"weights": np.array([0.5, 1, 1, 2, 3])},
                                {"weights": np.array([1, 2, 3, 4, 5])}])
def test_bincount(kw):
    x = np.array([0, 1, 1, 3, 1])

    def run(lib):
        args = dict(kw)
        if "weights" in args:
            w = args["weights"]
            args["weights"] = lib.tensor(w) if isinstance(w, list) else lib.from_numpy(w.copy())
        return lib.bincount(lib.from_numpy(x.copy()), **args)
    same(run(ember), run(torch))
    same(ember.from_numpy(x.copy()).bincount(), torch.from_numpy(x.copy()).bincount())
    same(ember.bincount(ember.tensor([], dtype=ember.long)),
         torch.bincount(torch.tensor([], dtype=torch.long)))


@pytest.mark.parametrize("bad", [
    lambda lib: lib.bincount(lib.tensor([-1, 2])),
    lambda lib: lib.bincount(lib.tensor([[1]])),
    lambda lib: lib.bincount(lib.tensor([1.0])),
    lambda lib: lib.bincount(lib.tensor([1, 2]), weights=lib.ones(3)),
    lambda lib: lib.bincount(lib.tensor([1, 2]), minlength=-1)])
def test_bincount_errors(bad):
    errors_alike(bad)


@pytest.mark.parametrize("case", [
    ([1, 3, 5, 7], [0, 3, 4, 8], {}),
    ([1, 3, 5, 7], [0, 3, 4, 8], {"right": True}),
    ([1, 3, 5, 7], [[3, 5], [1, 9]], {"side": "right", "out_int32": True}),
    ([[1, 3, 5], [2, 4, 6]], [[3], [7]], {}),
    ([1.0, 2.0, 2.0, 3.0], [2.0, float("nan")], {"side": "right"}),
    ([3, 1, 2], [2], {"sorter": [1, 2, 0]})])
def test_searchsorted(case):
    seq, vals, kw = case

    def run(lib):
        k = {n: (lib.tensor(v) if n == "sorter" else v) for n, v in kw.items()}
        return lib.searchsorted(lib.tensor(seq), lib.tensor(vals), **k)
    same(run(ember), run(torch))
    same(ember.searchsorted(ember.tensor([1, 3]), 2), torch.searchsorted(torch.tensor([1, 3]), 2))


@pytest.mark.parametrize("bad", [
    lambda lib: lib.searchsorted(lib.tensor([[1, 3, 5], [2, 4, 6]]), lib.tensor([1, 2, 3])),
    lambda lib: lib.searchsorted(lib.tensor([1, 3]), lib.tensor([2]), side="left", right=True),
    lambda lib: lib.searchsorted(lib.tensor([1, 3]), lib.tensor([2]), side="middle"),
    lambda lib: lib.searchsorted(lib.tensor(1), lib.tensor([2]))])
def test_searchsorted_errors(bad):
    errors_alike(bad)


def test_bucketize():
    for lib_args in (([[1, 3], [6, 0]], {"right": True}), ([1.0, 3.0], {"out_int32": True}),
                     ([0.1, 0.5, 0.9], {})):
        vals, kw = lib_args
        same(ember.bucketize(ember.tensor(vals), ember.tensor([1, 3, 5]), **kw),
             torch.bucketize(torch.tensor(vals), torch.tensor([1, 3, 5]), **kw))
    same(ember.bucketize(3, ember.tensor([1, 3, 5])), torch.bucketize(3, torch.tensor([1, 3, 5])))


@pytest.mark.parametrize("driver", [None, "gelsd", "gelss", "gels"])
@pytest.mark.parametrize("shapes", [((5, 3), (5, 2)), ((5, 3), (5,)), ((3, 3), (3, 1))])
def test_lstsq(driver, shapes):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shapes[0])
    b = rng.standard_normal(shapes[1])
    res = []
    for lib in (ember, torch):
        A = lib.from_numpy(a.copy()).requires_grad_(True)
        B = lib.from_numpy(b.copy()).requires_grad_(True)
        r = lib.linalg.lstsq(A, B, driver=driver)
        r.solution.pow(2).sum().backward()
        res.append((r, A.grad, B.grad))
    (er, eA, eB), (tr, tA, tB) = res
    assert type(er).__name__ == type(tr).__name__ == "linalg_lstsq"
    same(er.solution, tr.solution, exact=False)
    assert er.solution.grad_fn.name() == tr.solution.grad_fn.name()
    for f in ("residuals", "rank", "singular_values"):
        same(getattr(er, f), getattr(tr, f), exact=False)
    same(eA, tA, exact=False)
    same(eB, tB, exact=False)


@pytest.mark.parametrize("kw", [{"std": 0.02}, {}, {"mean": 0.5, "a": 0.4, "b": 0.45},
                                {"a": -0.1, "b": 0.1}, {"mean": 1.0, "std": 2.0, "a": 0.0}])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_trunc_normal_draws_as_torch(kw, dtype):
    out = []
    for lib in (ember, torch):
        lib.manual_seed(3)
        w = lib.empty(6, 7, dtype=getattr(lib, dtype))
        lib.nn.init.trunc_normal_(w, **kw)
        out.append((w, lib.rand(2)))
    same(out[0][0], out[1][0])
    same(out[0][1], out[1][1])        # the same number of draws


@pytest.mark.parametrize("call", [
    lambda lib, x: x.sum(axis=0, keepdims=True), lambda lib, x: x.argmax(axis=1),
    lambda lib, x: lib.max(x, axis=1).values, lambda lib, x: lib.cat([x, x], axis=1),
    lambda lib, x: x.softmax(axis=0), lambda lib, x: x.mean(axis=(0, 1)),
    lambda lib, x: lib.std(x, axis=0, keepdims=True), lambda lib, x: x.cumsum(axis=1)])
def test_numpy_axis_names(call):
    a = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    same(call(ember, ember.from_numpy(a.copy())), call(torch, torch.from_numpy(a.copy())),
         exact=False)


def test_numpy_axis_names_keep_signatures_and_errors():
    import inspect
    for fn in (ember.sum, ember.Tensor.sum):       # (each its own parser's wrapper)
        assert "axis" not in inspect.signature(fn).parameters
    assert ember.sum(ember.ones(2, 3), axis=1).tolist() == [3.0, 3.0]
    errors_alike(lambda lib: lib.ones(2, 2).sum(dim=0, axis=1))


# ----- float16 mul/div read a number operand as float (torch's opmath), then round once

@pytest.mark.parametrize("call", [lambda x: x * 3.3e-5, lambda x: 3.3e-5 * x, lambda x: x / 3.3,
                                  lambda x: 3.3 / x, lambda x: x.clone().mul_(3.3e-5),
                                  lambda x: x.clone().div_(3.3), lambda x: x * 1e-5,
                                  lambda x: x + 3.3e-3, lambda x: x - 0.1, lambda x: x * 2])
def test_half_times_number(call):
    vals = [0.1, -2.5, 1000.0, 3.14159265, 1e-3, 7.0, 65504.0, 6e-8]
    same(call(ember.tensor(vals, dtype=ember.float16)),
         call(torch.tensor(vals, dtype=torch.float16)))


# ----- broadcast and expand clashes name the last clashing dim, as torch's infer_size

@pytest.mark.parametrize("bad", [
    lambda lib: lib.randn(2, 3) + lib.randn(4, 5),
    lambda lib: lib.randn(2, 3, 4) * lib.randn(5, 4),
    lambda lib: lib.randn(2, 3).add_(lib.randn(4, 5)),
    lambda lib: lib.addcmul(lib.ones(2, 3), lib.ones(4, 1), lib.ones(1, 5)),
    lambda lib: lib.where(lib.ones(2, 3) > 0, lib.ones(4, 3), lib.ones(2, 5)),
    lambda lib: lib.randn(2, 3).expand(4, 5),
    lambda lib: lib.randn(1, 3).expand(-1, 2, 4),
    lambda lib: lib.randn(2, 3).expand(3),
    lambda lib: lib.arange(3).expand(2, 3, 1),
    lambda lib: lib.arange(3).expand(5),
])
def test_broadcast_clash_messages(bad):
    errors_alike(bad)


# ----- nll_loss / cross_entropy: torch's checks in torch's order

_L = "long"
_NLL_CASES = [((2, 3), (2,), "float32"), ((2, 3), (2, 4), _L), ((2, 3), (3,), _L),
              ((3,), (2,), _L), ((3,), (2,), "float32"), ((2, 3, 4), (2, 3), _L),
              ((2, 3, 4), (3, 4), _L), ((2, 3, 4), (2, 4), "float32"),
              ((2, 3, 4, 5), (2, 4, 5), "float32"), ((2, 3, 4, 5), (2, 4, 6), _L),
              ((2, 3, 4, 5), (2, 4, 6), "float32"), ((2, 3, 4, 5), (2, 4), _L),
              ((2, 3, 4, 5), (2, 4, 5), "uint8"), ((2, 3, 4), (2, 4), "uint8"),
              ((2, 3), (2,), "int32"), ((2, 3), (2,), "bool"),
              ((2, 3, 4, 5, 6), (2, 4, 5, 7), _L)]


@pytest.mark.parametrize("fn", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("shape,tshape,dtype", _NLL_CASES)
def test_nll_argument_errors(fn, shape, tshape, dtype):
    errors_alike(lambda lib: getattr(lib.nn.functional, fn)(
        lib.zeros(shape), lib.zeros(tshape, dtype=getattr(lib, dtype))))


@pytest.mark.parametrize("bad", [
    lambda F, lib: F.nll_loss(lib.zeros(2, 3), lib.zeros(2, dtype=lib.long), lib.ones(4)),
    lambda F, lib: F.nll_loss(lib.zeros(3), lib.zeros((), dtype=lib.long), lib.ones(4)),
    lambda F, lib: F.nll_loss(lib.zeros(2, 3, 4), lib.zeros(2, 4, dtype=lib.long), lib.ones(4)),
    lambda F, lib: F.nll_loss(lib.zeros(2, 3), lib.zeros(2), lib.ones(4)),
    lambda F, lib: F.nll_loss(lib.zeros(2, 3), lib.zeros((), dtype=lib.long)),
    lambda F, lib: F.nll_loss(lib.tensor(1.0), lib.zeros((), dtype=lib.long)),
    lambda F, lib: F.cross_entropy(lib.zeros(2, 3), lib.zeros(2, 3, dtype=lib.long)),
    lambda F, lib: F.cross_entropy(lib.zeros(2, 3), lib.zeros(2, 3), ignore_index=1),
    lambda F, lib: F.cross_entropy(lib.zeros(2, 3), lib.zeros(2), label_smoothing=0.1),
])
def test_nll_weight_and_probability_errors(bad):
    errors_alike(lambda lib: bad(lib.nn.functional, lib))


@pytest.mark.parametrize("fn", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("shape,tshape", [((2, 3), (2,)), ((3,), ()), ((3,), (1,)),
                                          ((2, 3, 4, 5), (2, 4, 5))])
def test_nll_byte_and_long_targets(fn, shape, tshape):
    x = np.random.default_rng(0).normal(size=shape).astype(np.float32)
    t = np.random.default_rng(1).integers(0, 3, size=tshape)
    dtypes = ["long", "uint8"] if len(shape) < 4 else ["long"]
    for dt in dtypes:
        def run(lib, dt=dt):
            return getattr(lib.nn.functional, fn)(lib.from_numpy(x.copy()),
                                                  lib.from_numpy(t.copy()).to(getattr(lib, dt)))
        same(run(ember), run(torch), exact=False)
    same(ember.nn.functional.cross_entropy(ember.from_numpy(x.copy()), ember.from_numpy(x.copy())),
         torch.nn.functional.cross_entropy(torch.from_numpy(x.copy()), torch.from_numpy(x.copy())),
         exact=False)


# ----- a kernel larger than the padded input

@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 2, 2), lib.ones(1, 1, 3, 3)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 4, 6), lib.ones(1, 1, 3, 3), dilation=2),
    lambda lib: lib.nn.functional.conv1d(lib.ones(1, 1, 4), lib.ones(1, 1, 5)),
    lambda lib: lib.nn.functional.conv3d(lib.ones(1, 1, 1, 3, 3), lib.ones(1, 1, 2, 2, 2)),
    lambda lib: lib.nn.functional.conv1d(lib.ones(1, 3), lib.ones(1, 1, 4)),
])
def test_conv_kernel_larger_than_input(call):
    errors_alike(call)


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 2, 2), lib.ones(1, 1, 3, 3), padding=1),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 1, 1), lib.ones(1, 1, 3, 3),
                                         padding="same"),
    lambda lib: lib.nn.functional.conv1d(lib.ones(1, 1, 3), lib.ones(1, 1, 3)),
])
def test_conv_kernel_as_large_as_input(call):
    same(call(ember), call(torch))


# ----- NumPy arrays as operands: NumPy computes, the result comes back as a tensor

@pytest.mark.parametrize("call", [
    lambda lib, x: x / np.array(2.0), lambda lib, x: x * np.array(2.0),
    lambda lib, x: x + np.array([1.0, 2.0, 3.0, 4.0]),
    lambda lib, x: x + np.array([1, 2, 3, 4], dtype=np.float32), lambda lib, x: x - np.arange(4),
    lambda lib, x: x ** np.array(2.0), lambda lib, x: x @ np.ones(4, dtype=np.float32),
    lambda lib, x: x * np.array([True, False, True, True]),
])
def test_numpy_array_operands(call):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)     # NumPy 2 on __array_wrap__
        e, t = call(ember, ember.arange(4.0)), call(torch, torch.arange(4.0))
    assert type(e) is ember.Tensor
    same(e, t)


@pytest.mark.parametrize("bad", [
    lambda lib: np.array(2.0) * lib.arange(4.0), lambda lib: lib.arange(4.0) < np.array(2.0),
    lambda lib: lib.add(lib.arange(4.0), np.array(2.0)),
    lambda lib: lib.matmul(lib.ones(2), np.ones(2)),
    lambda lib: lib.matmul(np.ones(2), lib.ones(2)),
    lambda lib: lib.matmul(lib.ones(2), 3), lambda lib: lib.ones(2) @ 3,
    lambda lib: lib.add(lib.ones(2), "a"),
])
def test_numpy_array_operand_errors(bad):
    errors_alike(bad)


def test_argument_type_errors_print_as_type_error():
    with pytest.raises(TypeError) as info:
        ember.add(ember.ones(1), np.ones(1))
    assert type(info.value).__name__ == "TypeError"
    assert str(info.value).endswith("must be Tensor, not numpy.ndarray")


# ----- torch.random.fork_rng

@pytest.mark.parametrize("enabled", [True, False])
def test_fork_rng(enabled):
    def run(lib):
        lib.manual_seed(3)
        with lib.random.fork_rng(enabled=enabled):
            lib.manual_seed(0)
            inside = lib.rand(2)
        try:
            with lib.random.fork_rng(devices=[]):
                lib.rand(5)
                raise KeyError("left by an error")
        except KeyError:
            pass
        return lib.cat([inside, lib.rand(3)])
    same(run(ember), run(torch))
    assert "fork_rng" in ember.random.__all__


# ----- factories without a size, float16 opmath, legacy loss arguments, 0-d cross_entropy

@pytest.mark.parametrize("name", ["randn", "rand", "zeros", "ones", "empty"])
def test_factory_without_size(name):
    errors_alike(lambda lib: getattr(lib, name)())
    same(getattr(ember, name)(()).zero_(), getattr(torch, name)(()).zero_())


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_reduced_float_opmath(dt):
    def run(lib):
        d = getattr(lib, dt)
        a = lib.tensor([1.001, 2.0, -3.3, 7.77], dtype=d)
        t1 = lib.tensor([3.1, 5.7, 1.9, 0.33], dtype=d)
        t2 = lib.tensor([0.3, 0.77, 1.11, 7.1], dtype=d)
        s = lib.tensor(3.3)
        y = a.clone()
        y *= s
        return [a * s, s * a, a / s, a * lib.tensor(3.3, dtype=lib.float64), y,
                lib.addcmul(a, t1, t2, value=0.37), lib.addcdiv(a, t1, t2, value=0.37),
                a.clone().addcmul_(t1, t2, value=0.37), lib.lerp(a, t1, 0.37),
                lib.lerp(a, t1, t2)]
    for e, t in zip(run(ember), run(torch)):
        assert e.dtype == ember.float16 or dt == "bfloat16"
        np.testing.assert_array_equal(e.float().numpy(), t.float().numpy())


@pytest.mark.parametrize("args", [(None, None, 2, None), (None, False), (None, None, -100, False),
                                  (None, True, -100, True, "sum"), (None, False, -100, False)])
def test_nll_loss_legacy_positional(args):
    def run(lib):
        x = lib.tensor([[-1.0, -2.0, -3.0], [-0.5, -1.0, -2.0]])
        return lib.nn.functional.nll_loss(x, lib.tensor([0, 2]), *args)
    same(run(ember), run(torch))
    assert caught_warnings(run, ember) == caught_warnings(run, torch)


@pytest.mark.parametrize("bad", [
    lambda lib: lib.nn.functional.cross_entropy(lib.tensor(1.0), lib.tensor(0)),
    lambda lib: lib.nn.functional.cross_entropy(lib.tensor(1.0), lib.tensor(1.0)),
    lambda lib: lib.nn.functional.cross_entropy(lib.tensor(1.0), lib.tensor([0])),
    lambda lib: lib.log_softmax(lib.tensor(1.0), 1)])
def test_cross_entropy_0d_errors(bad):
    errors_alike(bad)


def test_cross_entropy_1d_input():
    for args in ((ember.tensor([1.0, 2.0, 3.0]), ember.tensor(0)),
                 (ember.tensor([1.0, 2.0]), ember.tensor([0.3, 0.7]))):
        targs = [torch.from_numpy(a.numpy()) for a in args]
        same(ember.nn.functional.cross_entropy(*args), torch.nn.functional.cross_entropy(*targs),
             exact=False)


@pytest.mark.parametrize("call", ["squeeze_(0)", "squeeze_()", "squeeze_((0,))", "unsqueeze_(0)",
                                  "t_()", "transpose_(0, 1)", "swapdims_(0, 1)"])
def test_in_place_view_nodes(call):
    names = []
    for lib in (torch, ember):
        x = lib.ones(1, 3, requires_grad=True) * 2
        eval("x." + call)   # noqa: S307
        names.append((x.grad_fn.name(), tuple(x.shape)))
        x.sum().backward()
    assert names[0] == names[1]


@pytest.mark.parametrize("call", [
    "leaky_relu(x, 0.2, inplace=True)", "elu(x, inplace=True)", "selu(x, inplace=True)",
    "celu(x, 0.5, inplace=True)", "hardtanh(x, inplace=True)", "relu6(x, inplace=True)",
    "threshold(x, 0.1, 2.0, inplace=True)", "silu(x, inplace=True)",
    "hardswish(x, inplace=True)", "hardsigmoid(x, inplace=True)", "mish(x, inplace=True)"])
def test_in_place_activation_gradients(call):
    """An in-place activation records its node (DCGAN's LeakyReLU(inplace=True) after a
    BatchNorm trained wrongly when it did not)."""
    data = np.random.default_rng(0).standard_normal(6).astype(np.float32)
    res = []
    for lib in (torch, ember):
        a = lib.from_numpy(data.copy()).requires_grad_()
        x = a * 1
        y = eval("lib.nn.functional." + call)   # noqa: S307
        (y * lib.arange(6.0)).sum().backward()
        res.append((y is x, y.grad_fn.name(), y.detach().numpy(), a.grad.numpy()))
    assert res[0][:2] == res[1][:2]
    np.testing.assert_allclose(res[1][2], res[0][2], rtol=1e-6)
    np.testing.assert_allclose(res[1][3], res[0][3], rtol=1e-6)
