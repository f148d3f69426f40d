"""Lazy modules, RMSNorm and instance norm against torch 2.13: seeded initialisation drawn at
the first call (bit-identical weights), reprs before and after, the class each becomes, state
dicts of lazy and initialised modules, outputs, gradients, running stats and errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402
import torch.nn.functional as tF  # noqa: E402

import ember  # noqa: E402
import ember.nn as enn  # noqa: E402
import ember.nn.functional as eF  # noqa: E402

from ._parity import check_module, close, to_ember  # noqa: E402

LAZY = [
    ("LazyLinear", (3,), {}, (2, 5)),
    ("LazyLinear", (3,), {"bias": False}, (2, 4, 5)),
    ("LazyConv1d", (4, 3), {"padding": 1}, (2, 3, 7)),
    ("LazyConv2d", (4, 3), {"stride": 2, "groups": 2}, (2, 6, 7, 6)),
    ("LazyConv2d", (4, 3), {}, (3, 7, 6)),
    ("LazyConv3d", (2, 2), {"bias": False}, (1, 3, 4, 4, 4)),
    ("LazyConvTranspose1d", (4, 3), {"stride": 2}, (2, 3, 5)),
    ("LazyConvTranspose2d", (4, 3), {"output_padding": 1, "stride": 2}, (2, 3, 4, 5)),
    ("LazyConvTranspose3d", (2, 2), {}, (1, 3, 3, 3, 3)),
    ("LazyBatchNorm1d", (), {}, (4, 3)),
    ("LazyBatchNorm2d", (), {"momentum": None}, (2, 3, 4, 4)),
    ("LazyBatchNorm3d", (), {"affine": False}, (2, 3, 2, 2, 2)),
    ("LazyInstanceNorm1d", (), {}, (2, 3, 6)),
    ("LazyInstanceNorm2d", (), {"track_running_stats": False}, (2, 3, 4, 4)),
    ("LazyInstanceNorm3d", (), {"affine": False}, (2, 3, 2, 3, 2)),
]


def pair(name, args, kwargs):
    return getattr(tnn, name)(*args, **kwargs), getattr(enn, name)(*args, **kwargs)


@pytest.mark.parametrize("name,args,kwargs,shape", LAZY, ids=[c[0] for c in LAZY])
def test_lazy_init_on_first_call(name, args, kwargs, shape):
    tm, em = pair(name, args, kwargs)
    assert repr(em) == repr(tm)
    assert em.has_uninitialized_params() == tm.has_uninitialized_params() is True
    assert list(em.state_dict()) == list(tm.state_dict())
    assert [repr(v) for v in em.state_dict().values()] == \
        [repr(v) for v in tm.state_dict().values()]
    x = torch.randn(*shape)
    torch.manual_seed(7)
    ty = tm(x)
    ember.manual_seed(7)
    ey = em(to_ember(x))
    assert type(em).__name__ == type(tm).__name__
    assert repr(em) == repr(tm)
    assert not hasattr(em, "_initialize_hook") and not em._forward_pre_hooks
    assert list(em.state_dict()) == list(tm.state_dict())
    for (n, tp), (_, ep) in zip(tm.named_parameters(), em.named_parameters()):
        np.testing.assert_array_equal(ep.detach().numpy(), tp.detach().numpy(), err_msg=n)
    for (n, tb), (_, eb) in zip(tm.named_buffers(), em.named_buffers()):
        close(eb, tb, n)
    close(ey, ty, "output", 1e-5, 1e-5)
    # the initialised module now runs exactly as the regular one
    check_module(tm, em, x)


def test_lazy_parameter_behaviour():
    tm, em = tnn.LazyLinear(3), enn.LazyLinear(3)
    for t, e in ((tm.weight, em.weight), (tnn.UninitializedBuffer(), enn.UninitializedBuffer())):
        assert repr(e) == repr(t) and str(e) == str(t)
        assert e.dtype.__repr__() == repr(t.dtype) and e.requires_grad == t.requires_grad
        assert list(e.size()) == list(t.size())
    assert isinstance(em.weight, enn.Parameter)
    assert enn.parameter.is_lazy(em.weight) and not enn.parameter.is_lazy(enn.Linear(1, 1).weight)
    for fn in (lambda p: p.shape, lambda p: p.sum(), lambda p: p.detach(), lambda p: p.numel(),
               lambda p: p.share_memory_()):
        with pytest.raises(Exception) as te:
            fn(tm.weight)
        with pytest.raises(type(te.value)) as ee:
            fn(em.weight)
        assert str(ee.value) == str(te.value)
    assert em.weight.to(ember.float64).dtype is ember.float64
    # optimizers accept lazy parameters (they are the same objects once materialised)
    opt = ember.optim.SGD(em.parameters(), lr=0.1)
    em(ember.ones(2, 4)).sum().backward()
    opt.step()
    assert type(em.weight) is enn.Parameter and em.weight.shape == (3, 4)
    import copy
    assert repr(copy.deepcopy(enn.LazyLinear(2)).weight) == "<UninitializedParameter>"


def test_lazy_dtype_conversion_before_init():
    tm, em = tnn.LazyLinear(3).double(), enn.LazyLinear(3).double()
    tm(torch.ones(2, 5, dtype=torch.float64))
    em(ember.ones(2, 5, dtype=ember.float64))
    assert em.weight.dtype is ember.float64 and tm.weight.dtype == torch.float64


def test_lazy_state_dict_roundtrip():
    torch.manual_seed(0)
    full = tnn.LazyLinear(3)
    full(torch.ones(1, 4))
    sd = full.state_dict()
    tl, el = tnn.LazyLinear(3), enn.LazyLinear(3)
    assert repr(el.load_state_dict({k: to_ember(v) for k, v in sd.items()})) == \
        repr(tl.load_state_dict(sd))
    assert type(el).__name__ == type(tl).__name__ == "LazyLinear"
    assert repr(el) == repr(tl)
    np.testing.assert_array_equal(el.weight.detach().numpy(), tl.weight.detach().numpy())
    x = torch.randn(2, 4)
    close(el(to_ember(x)), tl(x), "loaded lazy forward")
    assert type(el).__name__ == "Linear" and repr(el) == repr(tl)
    # a lazy state dict into an initialised module: torch's RuntimeError about the shape
    with pytest.raises(RuntimeError) as te:
        tnn.Linear(4, 3).load_state_dict(tnn.LazyLinear(3).state_dict())
    with pytest.raises(RuntimeError) as ee:
        enn.Linear(4, 3).load_state_dict(enn.LazyLinear(3).state_dict())
    assert str(ee.value) == str(te.value)
    # lazy into lazy keeps it lazy
    el = enn.LazyLinear(3)
    el.load_state_dict(enn.LazyLinear(3).state_dict())
    assert el.has_uninitialized_params()


def test_lazy_errors():
    for name, x in (("LazyConv2d", (3, 4)), ("LazyConv1d", (2, 3, 4, 5))):
        with pytest.raises(RuntimeError) as te:
            getattr(tnn, name)(4, 3)(torch.randn(*x))
        with pytest.raises(RuntimeError) as ee:
            getattr(enn, name)(4, 3)(ember.randn(*x))
        assert str(ee.value) == str(te.value)
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        enn.LazyConv2d(4, 3, groups=2)(ember.randn(1, 3, 5, 5))


def test_load_state_dict_pre_hook():
    seen = []
    for lib in (tnn, enn):
        m = lib.Linear(2, 2)
        m.register_load_state_dict_pre_hook(
            lambda mod, sd, prefix, *rest, lib=lib: seen.append((lib.__name__, prefix, len(rest))))
        m.load_state_dict(m.state_dict())
    assert seen == [("torch.nn", "", 5), ("ember.nn", "", 5)]


RMS = [((4,), {}, (2, 4)), (((3, 4),), {"eps": 1e-3}, (2, 3, 4)),
       ((4,), {"elementwise_affine": False}, (5, 4))]


@pytest.mark.parametrize("args,kwargs,shape", RMS)
def test_rmsnorm_module(args, kwargs, shape):
    tm, em = tnn.RMSNorm(*args, **kwargs), enn.RMSNorm(*args, **kwargs)
    assert repr(em) == repr(tm) and list(em.state_dict()) == list(tm.state_dict())
    check_module(tm, em, torch.randn(*shape))


def test_rms_norm_functional():
    x = torch.randn(2, 3, 4, dtype=torch.float64)
    w = torch.randn(3, 4, dtype=torch.float64)
    close(eF.rms_norm(to_ember(x), (3, 4), to_ember(w)), tF.rms_norm(x, (3, 4), w), "f64",
          1e-12, 1e-12)
    xh = torch.randn(2, 4).half()
    close(eF.rms_norm(to_ember(xh), [4]), tF.rms_norm(xh, [4]), "f16", 1e-3, 1e-3)
    cases = [((2, 3), (4,), None), ((2, 3), (3,), (2,)), ((2, 3), (2, 3, 4), None),
             ((2, 3), (), None)]
    for shape, ns, ws in cases:
        with pytest.raises(Exception) as te:
            tF.rms_norm(torch.randn(*shape), ns, None if ws is None else torch.ones(*ws))
        with pytest.raises(type(te.value)) as ee:
            eF.rms_norm(ember.randn(*shape), ns, None if ws is None else ember.ones(*ws))
        assert str(ee.value) == str(te.value)


INST = [("InstanceNorm1d", (3,), {}, (2, 3, 5)),
        ("InstanceNorm1d", (3,), {"affine": True}, (3, 5)),
        ("InstanceNorm2d", (3,), {"affine": True, "track_running_stats": True}, (2, 3, 4, 4)),
        ("InstanceNorm2d", (3,), {}, (3, 4, 4)),
        ("InstanceNorm3d", (2,), {"momentum": 0.3, "track_running_stats": True},
         (2, 2, 2, 3, 2))]


@pytest.mark.parametrize("name,args,kwargs,shape", INST)
def test_instance_norm_modules(name, args, kwargs, shape):
    tm, em = pair(name, args, kwargs)
    assert repr(em) == repr(tm) and list(em.state_dict()) == list(tm.state_dict())
    x = torch.randn(*shape)
    check_module(tm, em, x)
    if tm.track_running_stats:
        tm.eval()
        em.eval()
        check_module(tm, em, x)


def test_instance_norm_errors_and_warnings():
    for name, x, kw in (("InstanceNorm2d", (2, 3), {}), ("InstanceNorm1d", (2, 4, 5),
                                                         {"affine": True})):
        with pytest.raises(ValueError) as te:
            getattr(tnn, name)(3, **kw)(torch.randn(*x))
        with pytest.raises(ValueError) as ee:
            getattr(enn, name)(3, **kw)(ember.randn(*x))
        assert str(ee.value) == str(te.value)
    with pytest.raises(ValueError) as te:
        tF.instance_norm(torch.randn(2, 3, 1))
    with pytest.raises(ValueError) as ee:
        eF.instance_norm(ember.randn(2, 3, 1))
    assert str(ee.value) == str(te.value)
    msgs = []
    for lib, mk in ((tnn, torch.randn), (enn, ember.randn)):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            lib.InstanceNorm1d(3)(mk(2, 4, 5))
        msgs.append([str(x.message) for x in w])
    assert msgs[0] == msgs[1] and len(msgs[0]) == 1


def test_instance_norm_functional_running_stats():
    x = torch.randn(3, 2, 5, requires_grad=True)
    w, b = torch.randn(2, requires_grad=True), torch.randn(2, requires_grad=True)
    trm, trv = torch.randn(2), torch.rand(2) + 0.5
    erm, erv = to_ember(trm), to_ember(trv)
    ex, ew, eb = to_ember(x, True), to_ember(w, True), to_ember(b, True)
    ty = tF.instance_norm(x, trm, trv, w, b, True, 0.2, 1e-3)
    ey = eF.instance_norm(ex, erm, erv, ew, eb, True, 0.2, 1e-3)
    close(ey, ty, "out")
    assert ey.grad_fn.name() == ty.grad_fn.name() == "ViewBackward0"
    close(erm, trm, "running mean")
    close(erv, trv, "running var")
    g = torch.randn(3, 2, 5)
    ty.backward(g)
    ey.backward(to_ember(g))
    for e, t, n in ((ex, x, "x"), (ew, w, "w"), (eb, b, "b")):
        close(e.grad, t.grad, n, 1e-4, 1e-5)
