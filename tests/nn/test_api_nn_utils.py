"""nn.utils additions against torch 2.13: get_total_norm, clip_grads_with_norm_ (and
clip_grad_norm_ built on them, as torch builds it), batch-norm fusion, skip_init and the
convolution weight layouts."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13")


def _arrays(shapes, seed=0, dtype=np.float32):
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(s) * 3).astype(dtype) for s in shapes]


SHAPES = [(3, 4), (7,), (), (0,), (2, 3, 5), (40, 33)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("norm_type", [2.0, 1, 3, 0.5, math.inf, 0])
def test_get_total_norm(norm_type, dtype):
    arrs = _arrays([s for s in SHAPES if norm_type != math.inf or s != (0,)], dtype=dtype)
    t = torch.nn.utils.get_total_norm([torch.tensor(a) for a in arrs], norm_type)
    e = ember.nn.utils.get_total_norm([ember.tensor(a) for a in arrs], norm_type)
    assert str(t.dtype) == str(e.dtype) and tuple(t.shape) == tuple(e.shape) == ()
    np.testing.assert_array_equal(e.numpy(), t.numpy())
    t1 = torch.nn.utils.get_total_norm(torch.tensor(arrs[0]).t(), norm_type)   # non-contiguous
    e1 = ember.nn.utils.get_total_norm(ember.tensor(arrs[0]).t(), norm_type)
    # ember's vector_norm for other p over a transposed matrix can round an ulp otherwise
    np.testing.assert_allclose(e1.numpy(), t1.numpy(), rtol=3e-7 if dtype == np.float32 else 5e-16)


def test_get_total_norm_empty_and_nonfinite():
    for lib in (torch, ember):
        r = lib.nn.utils.get_total_norm([])
        assert r.item() == 0.0 and r.dtype is lib.float32
        with pytest.raises(RuntimeError, match="The total norm of order 2.0 for gradients"):
            lib.nn.utils.get_total_norm([lib.tensor([1.0, math.inf])], error_if_nonfinite=True)
        assert lib.nn.utils.get_total_norm([lib.tensor([1.0, math.nan])]).isnan()
    for foreach in (None, True, False):
        _same_error(lambda lib, f=foreach: lib.nn.utils.get_total_norm(
            [lib.ones(2), lib.ones(0)], math.inf, foreach=f))


def _same_error(fn):
    got = []
    for lib in (torch, ember):
        with pytest.raises(Exception) as info:
            fn(lib)
        got.append((type(info.value), str(info.value)))
    assert got[0] == got[1]


@pytest.mark.parametrize("max_norm", [0.5, 1e3])
@pytest.mark.parametrize("norm_type", [2.0, 1.0, math.inf])
def test_clip_grads_with_norm_and_clip_grad_norm(max_norm, norm_type):
    arrs = _arrays([s for s in SHAPES if s != (0,)] + [(0,)] * (norm_type != math.inf), seed=1)
    out = []
    for lib in (torch, ember):
        ps = [lib.nn.Parameter(lib.zeros(a.shape)) for a in arrs]
        qs = [lib.nn.Parameter(lib.zeros(a.shape)) for a in arrs]
        for p, q, a in zip(ps, qs, arrs):
            p.grad, q.grad = lib.tensor(a), lib.tensor(a)
        ps[2].grad = None
        total = lib.nn.utils.get_total_norm([p.grad for p in ps if p.grad is not None],
                                            norm_type)
        r = lib.nn.utils.clip_grads_with_norm_(ps, max_norm, total)
        n = lib.nn.utils.clip_grad_norm_(iter(qs), max_norm, norm_type)
        out.append((r, total.numpy(), n.numpy(), [p.grad for p in ps], [q.grad for q in qs]))
    assert out[0][0] is None and out[1][0] is None
    np.testing.assert_array_equal(out[1][1], out[0][1])
    np.testing.assert_array_equal(out[1][2], out[0][2])
    for t, e in zip(out[0][3] + out[0][4], out[1][3] + out[1][4]):
        assert (t is None) == (e is None)
        if t is not None:
            np.testing.assert_array_equal(e.numpy(), t.numpy())


def test_clip_grad_norm_empty_generator_warns():
    for lib in (torch, ember):
        with pytest.warns(UserWarning, match="`parameters` is an empty generator"):
            r = lib.nn.utils.clip_grad_norm_((p for p in []), 1.0)
        assert r.item() == 0.0


def _bn(lib, n, seed, dims):
    bn = getattr(lib.nn, f"BatchNorm{dims}d")(n)
    rm, rv, w, b = _arrays([(n,)] * 4, seed)
    with lib.no_grad():
        bn.running_mean.copy_(lib.tensor(rm))
        bn.running_var.copy_(lib.tensor(np.abs(rv) + 0.1))
        bn.weight.copy_(lib.tensor(w))
        bn.bias.copy_(lib.tensor(b))
    return bn.eval()


def _load(lib, module, arrays):
    with lib.no_grad():
        for p, a in zip(module.parameters(), arrays):
            p.copy_(lib.tensor(a))
    return module.eval()


@pytest.mark.parametrize("cls,args,dims,transpose", [
    ("Conv2d", (3, 4, 3), 2, False), ("Conv1d", (2, 5, 2), 1, False),
    ("Conv3d", (2, 3, 2), 3, False), ("ConvTranspose2d", (3, 4, 2), 2, True)])
@pytest.mark.parametrize("bias", [True, False])
def test_fuse_conv_bn_eval(cls, args, dims, transpose, bias):
    out = []
    for lib in (torch, ember):
        conv = getattr(lib.nn, cls)(*args, bias=bias)
        _load(lib, conv, _arrays([p.shape for p in conv.parameters()], 3))
        bn = _bn(lib, args[1], 4, 2 if dims == 2 else (1 if dims == 1 else 3))
        fused = lib.nn.utils.fuse_conv_bn_eval(conv, bn, transpose=transpose)
        out.append((type(fused).__name__, fused.weight, fused.bias, fused.training,
                    type(fused.weight).__name__, fused.weight.requires_grad, conv.bias))
    assert out[0][0] == out[1][0] and out[0][3:6] == out[1][3:6]
    for i in (1, 2):
        np.testing.assert_array_equal(out[1][i].detach().numpy(), out[0][i].detach().numpy())


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("features", [4, 1])
def test_fuse_linear_bn_eval(bias, features):
    out = []
    for lib in (torch, ember):
        lin = lib.nn.Linear(3, 4, bias=bias)
        _load(lib, lin, _arrays([p.shape for p in lin.parameters()], 5))
        bn = _bn(lib, features, 6, 1)
        fused = lib.nn.utils.fuse_linear_bn_eval(lin, bn)
        out.append((fused.weight.detach().numpy(), fused.bias.detach().numpy()))
    for t, e in zip(*out):
        np.testing.assert_array_equal(e, t)


def test_fusion_weights_functions_and_errors():
    w, b, rm, rv, bw, bb = _arrays([(4, 3, 2, 2), (4,), (4,), (4,), (4,), (4,)], 7)
    rv = np.abs(rv) + 0.5
    res = []
    for lib in (torch, ember):
        T = lib.tensor
        cw, cb = lib.nn.utils.fuse_conv_bn_weights(T(w), None, T(rm), T(rv), 1e-3, None, None)
        lw, lb = lib.nn.utils.fuse_linear_bn_weights(T(w[:, :, 0, 0]), T(b), T(rm), T(rv),
                                                      1e-5, T(bw), T(bb))
        res.append([x.detach().numpy() for x in (cw, cb, lw, lb)]
                   + [type(cw).__name__, cb.requires_grad])
        with pytest.raises(AssertionError, match="Fusion only for eval!"):
            lib.nn.utils.fuse_conv_bn_eval(lib.nn.Conv2d(1, 2, 1), lib.nn.BatchNorm2d(2))
        with pytest.raises(AssertionError, match="linear.out_features=3 and bn.num_features=2"):
            lib.nn.utils.fuse_linear_bn_eval(lib.nn.Linear(2, 3).eval(),
                                             lib.nn.BatchNorm1d(2).eval())
        bn = lib.nn.BatchNorm1d(3, track_running_stats=False).eval()
        with pytest.raises(AssertionError, match="running_var must not be None"):
            lib.nn.utils.fuse_linear_bn_eval(lib.nn.Linear(2, 3).eval(), bn)
    for t, e in zip(*res):
        if isinstance(t, np.ndarray):
            np.testing.assert_array_equal(e, t)
        else:
            assert t == e


def test_skip_init():
    res = []
    for lib in (torch, ember):
        lib.manual_seed(0)
        m = lib.nn.utils.skip_init(lib.nn.Linear, 5, 3, bias=False, dtype=lib.float64)
        after = lib.rand(3)     # skip_init drew nothing from the generator
        res.append((tuple(m.weight.shape), str(m.weight.dtype)[-7:], m.weight.requires_grad,
                    type(m.weight).__name__, m.bias, after.numpy()))
        with pytest.raises(RuntimeError, match="Expected a Module; got"):
            lib.nn.utils.skip_init(int)
        with pytest.raises(RuntimeError, match="Module must support a 'device' arg"):
            lib.nn.utils.skip_init(lib.nn.ReLU)
    assert res[0][:5] == res[1][:5]
    np.testing.assert_array_equal(res[1][5], res[0][5])


@pytest.mark.parametrize("dims", [2, 3])
def test_convert_conv_weight_memory_format(dims):
    res = []
    for lib in (torch, ember):
        lib.manual_seed(0)
        conv = getattr(lib.nn, f"Conv{dims}d")
        convt = getattr(lib.nn, f"ConvTranspose{dims}d")
        m = lib.nn.Sequential(conv(2, 3, 2), lib.nn.Sequential(convt(3, 2, 2)),
                              lib.nn.Linear(2, 2), lib.nn.Conv1d(2, 2, 1))
        fmt = lib.channels_last if dims == 2 else lib.channels_last_3d
        before = [p.detach().clone() for p in m.parameters()]
        fn = getattr(lib.nn.utils, f"convert_conv{dims}d_weight_memory_format")
        assert fn(m, fmt) is m
        res.append(([p.stride() for p in m.parameters()],
                    [bool((p == q).all()) for p, q in zip(m.parameters(), before)],
                    [type(p).__name__ for p in m.parameters()]))
    assert res[0] == res[1]


def test_resize_with_memory_format():
    x = np.arange(24.0, dtype=np.float32).reshape(1, 2, 3, 4)
    res = []
    for lib in (torch, ember):
        t = lib.tensor(x).clone(memory_format=lib.channels_last)
        r = t.resize_(t.size(), memory_format=lib.channels_last)
        u = lib.tensor(x).resize_(1, 4, 3, 2, memory_format=lib.channels_last)
        v = lib.tensor(x).resize_as_(lib.zeros(1, 2, 2, 3), memory_format=lib.channels_last)
        res.append((r.stride(), r.numpy().tolist(), u.stride(), u.numpy().tolist(),
                    v.stride(), v.numpy().tolist()))
        for fmt, msg in ((lib.channels_last, "required rank 4 tensor to use channels_last"),
                         (lib.preserve_format, "Unsupported memory formatPreserve")):
            with pytest.raises(RuntimeError, match=msg):
                lib.ones(2, 3).resize_(2, 3, memory_format=fmt)
    assert res[0] == res[1]
