"""Views follow in-place writes to their base or to other views of it (torch's view
regeneration): the next read of such a view's ``grad_fn`` gives an ``AsStridedBackward0`` on the
base's current history, so gradients through it see the write; views that may not follow
(multi-output, no_grad, inference-mode) raise torch's error instead."""

from __future__ import annotations

import gc

import pytest

import ember

from .helpers import arr, check, errors_alike, torch


def _names(lib, *ts):
    return tuple(type(t.grad_fn).__name__ if t.grad_fn is not None else None for t in ts)


def test_overlapping_views_write_through_one():
    def fn(lib, a):
        b = a.clone()
        v1, v2 = b[0], b[:, 1]
        v1.mul_(2)
        return v2, v2 * 3, v1, b, v2._version, v1._version
    assert check(fn, arr((3, 4), "float64")) is not None
    assert check(fn, arr((3, 4), "float32", seed=1)) is not None


def test_grad_fn_is_cached_and_points_at_the_base():
    for lib in (torch, ember):
        a = lib.tensor(arr((3, 4), "float64"), requires_grad=True)
        b = a.clone()
        v1, v2 = b[0], b[:, 1]
        assert _names(lib, v2) == ("SelectBackward0",)
        v1.mul_(2)
        g = v2.grad_fn
        assert type(g).__name__ == "AsStridedBackward0" and v2.grad_fn is g
        assert g.next_functions[0][0] is b.grad_fn
        assert type(b.grad_fn).__name__ == "CopySlices"
        assert type(v2) is lib.Tensor


def test_write_on_base_then_older_views():
    def fn(lib, a):
        b = a.clone()
        t, r, s = b.t(), b.reshape(12), b[1:, ::2]
        b.sin_()
        b.mul_(a)
        return t, r.sum(), s * s, b
    assert check(fn, arr((3, 4), "float64")) is not None
    assert check(fn, arr((3, 4), "float32", seed=2)) is not None


def test_view_of_a_view():
    def fn(lib, a):
        b = a.clone()
        v1 = b[1:]
        v2 = v1[:, 2:]
        b[0].mul_(3)
        v3 = v1[0]          # made from a stale view: a view of its regenerated history
        v1[1].add_(a[0])
        return v2, v3, v1, b, v2._version
    assert check(fn, arr((3, 4), "float64")) is not None


def test_chained_inplace_ops():
    def fn(lib, a):
        b = a.clone()
        v1, v2 = b[:3], b[1:]
        v1.mul_(2)
        v1.mul_(3)
        b.cos_()
        v2.add_(1)
        v3 = b[2:]
        v1.div_(a[:3] + 3)
        return v2 * lib.tensor([1.0, 2.0, 3.0], dtype=a.dtype), v3, v1, b, v3._version
    assert check(fn, arr((4,), "float64", low=-1, high=1)) is not None


def test_base_joins_the_graph_after_the_view_was_made():
    def fn(lib, a):
        b = lib.zeros(3, 4, dtype=a.dtype)
        v1, v2 = b[0], b[1:]
        b.add_(a)
        assert v1.requires_grad and v1.grad_fn is not None   # regenerated: not a leaf
        v1.mul_(a[1])
        return v2, v1, v2.requires_grad
    assert check(fn, arr((3, 4), "float64")) is not None

    def unread(lib, a):      # torch checks the stale view as it stands: a leaf
        b = lib.zeros(3, 4, dtype=a.dtype)
        v1 = b[0]
        b.add_(a)
        v1.mul_(a[1])
    assert check(unread, arr((3, 4), "float64")) is None      # both raise alike

    def leaf_base(lib, a):
        b = lib.zeros(3, 4, dtype=a.dtype)
        v1 = b[0]
        b.requires_grad_()
        assert v1.requires_grad and v1.is_leaf
        v1.mul_(a[1])
    assert check(leaf_base, arr((3, 4), "float64")) is None


def test_views_of_a_base_out_of_any_graph_stay_plain():
    def fn(lib, a):
        b = a.detach().clone()
        v = b[0]
        b.add_(1)
        d = a.detach()
        w = d[1]
        d.mul_(2)                # a's own history is not rewritten through a detached alias
        return v, w, v.requires_grad, v.is_leaf
    assert check(fn, arr((3, 4), "float64")) is not None


def test_leaf_view_after_an_update_without_grad():
    def fn(lib, w):
        v = w[:2]
        with lib.no_grad():
            w.mul_(2)
        return v, v * 2
    assert check(fn, arr((3,), "float64")) is not None


def test_no_grad_base_write_keeps_history():
    def fn(lib, a):
        b = a.clone()
        v = b[0]
        with lib.no_grad():
            b.mul_(2)
        return v, _names(lib, v)[0] == "AsStridedBackward0"
    assert check(fn, arr((2, 3), "float64")) is not None


def test_overlapping_expand_view_sums():
    def fn(lib, a):
        b = a.clone()
        e = b.expand(2, 3)
        b.mul_(2)
        return e, e * a
    assert check(fn, arr((3,), "float64")) is not None


def test_retain_grad_follows_hooks_do_not():
    res = {}
    for lib in (torch, ember):
        a = lib.tensor(arr((3,), "float64"), requires_grad=True)
        b = a.clone()
        v = b[1:]
        v.retain_grad()
        seen = []
        v.register_hook(seen.append)
        b.mul_(2)
        (v * 2).sum().backward()
        res[lib] = (v.grad.tolist(), len(seen), a.grad.tolist())
    assert res[torch] == res[ember]


def test_double_backward_through_regenerated_view():
    def fn(lib, w):
        b = w.clone()
        v = b[:2]
        b.mul_(w)
        g, = lib.autograd.grad((v ** 3).sum(), w, create_graph=True)
        return g
    assert check(fn, arr((4,), "float64")) is not None


def test_gradcheck_regenerated_views():
    def f(a):
        b = a.clone()
        v1, v2, e = b[0], b[:, 1:], b[1].expand(2, 4)
        v1.mul_(a[1])
        b.sin_()
        return (v2 * v2).sum() + (e * e).sum()
    a = ember.tensor(arr((3, 4), "float64"), requires_grad=True)
    assert ember.autograd.gradcheck(f, (a,))
    assert ember.autograd.gradgradcheck(f, (a,))


@pytest.mark.parametrize("use", ["grad_fn", "op", "is_leaf"])
def test_no_grad_view_then_write_with_grad_raises(use):
    def fn(lib):
        a = lib.tensor(arr((3,), "float64"), requires_grad=True)
        b = a.clone()
        with lib.no_grad():
            v = b[:2]
        assert v.requires_grad
        b.mul_(2)
        assert v.requires_grad
        if use == "grad_fn":
            return v.grad_fn
        if use == "op":
            return v * 2
        return v.is_leaf
    errors_alike(fn)


def test_no_grad_view_repr_after_write():
    for lib in (torch, ember):
        a = lib.tensor(arr((3,), "float64"), requires_grad=True)
        b = a.clone()
        with lib.no_grad():
            v = b[:2]
        b.mul_(2)
        assert repr(v).endswith("grad_fn=<Invalid>)")


def test_no_grad_view_written_in_no_grad_then_read():
    def fn(lib):
        a = lib.tensor(arr((3,), "float64"), requires_grad=True)
        with lib.no_grad():
            v = a[:2]
            v.mul_(2)
        return v.grad_fn
    errors_alike(fn)


def test_inference_mode_view():
    def fn(lib):
        a = lib.tensor(arr((3,), "float64"), requires_grad=True)
        b = a.clone()
        with lib.inference_mode():
            v = b[:2]
        b.mul_(2)
        return v.grad_fn
    errors_alike(fn)


@pytest.mark.parametrize("how", ["unbind", "split", "chunk"])
def test_multi_output_views(how):
    def fn(lib):
        a = lib.tensor(arr((4,), "float64"), requires_grad=True)
        b = a.clone()
        x = getattr(b, how)(2) if how != "unbind" else b.unbind(0)
        b.mul_(2)
        return x[0] * 2
    errors_alike(fn)

    def direct(lib):
        a = lib.tensor(arr((4,), "float64"), requires_grad=True)
        b = a.clone()
        x = b.split(2)
        b.mul_(2)
        x[0].mul_(2)
    errors_alike(direct)

    def no_grad_fn(lib):
        b = lib.zeros(4, dtype=lib.float64)
        x, y = b.split(2)
        b.mul_(lib.tensor(arr((4,), "float64"), requires_grad=True))
        return x.grad_fn
    errors_alike(no_grad_fn)


def test_multi_output_views_of_a_plain_base_are_fine():
    def fn(lib, a):
        b = a.detach().clone()
        x, y = b.split(2)
        b.mul_(2)
        return x, y, x._version
    assert check(fn, arr((4,), "float64")) is not None


def test_integer_views_are_not_tracked():
    def fn(lib):
        b = lib.arange(6)
        v = b[1:]
        b.add_(1)
        return v, v._version
    t, e = fn(torch), fn(ember)
    assert t[0].tolist() == e[0].tolist() and t[1] == e[1] and e[0].grad_fn is None


def test_dead_views_do_not_pile_up():
    b = ember.zeros(4)
    for _ in range(1000):
        b[1:].sum()
    gc.collect()
    assert len(b._vc.views) < 130
    b.add_(1)
    assert b._vc.views == []


def test_seed_style_training_loop_keeps_working():
    # optimizer steps write parameters in place while transposed views come and go
    res = []
    for lib in (torch, ember):
        w = lib.tensor(arr((3, 2), "float64"), requires_grad=True)
        x = lib.tensor(arr((4, 3), "float64", seed=3))
        wt = w.t()
        opt = lib.optim.SGD([w], lr=0.1)
        for _ in range(3):
            opt.zero_grad()
            (x @ w).pow(2).mean().backward()
            opt.step()
        res.append((w.tolist(), type(wt.grad_fn).__name__, wt.tolist()))
    assert sum(res[0][0], []) == pytest.approx(sum(res[1][0], []))
    assert res[0][1] == res[1][1] == "AsStridedBackward0"


def test_setitem_on_base_and_out_writes():
    def fn(lib, a):
        b = a.clone()
        v = b[:, 1]
        b[0] = 5.0
        c = lib.zeros(3, 4, dtype=a.dtype)
        w = c[0]
        lib.add(a.detach()[0], 1, out=c[0])
        return v * v, v._version, w, w._version
    assert check(fn, arr((3, 4), "float64")) is not None


def test_retain_grad_of_the_written_view():
    res = {}
    for lib in (torch, ember):
        a = lib.tensor(arr((3, 4), "float64"), requires_grad=True)
        b = a.clone()
        v, w = b[0], b[:, 0]
        v.retain_grad()
        w.retain_grad()
        v.mul_(2)
        (v * 3).sum().backward(retain_graph=True)
        (w * 3).sum().backward()
        res[lib] = (v.grad.tolist(), w.grad.tolist(), a.grad.tolist())
    assert res[torch] == res[ember]


def test_view_of_the_written_view():
    def fn(lib, a):
        b = a.clone()
        v = b[0]
        v.mul_(2)
        u = v[1:]
        return u, type(u.grad_fn.next_functions[0][0]).__name__
    assert check(fn, arr((3, 4), "float64")) is not None


def test_pickled_regenerated_view_keeps_requires_grad():
    import pickle
    out = []
    for lib in (torch, ember):
        a = lib.tensor(arr((3,), "float64"), requires_grad=True)
        b = a.clone()
        v = b[:2]
        b.add_(1)
        r = pickle.loads(pickle.dumps(v))
        out.append((r.tolist(), r.requires_grad, r.is_leaf))
    assert out[0] == out[1]


def test_function_marking_a_view_dirty_rewrites_the_base():
    """A custom Function that writes into a view (mark_dirty): the base's history becomes a
    CopySlices around the Function, other views regenerate onto it (torch: rebase_history)."""
    res = {}
    for L in (torch, ember):
        class Double(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.mul_(2)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, g):
                return g * 2

        a = L.ones(4, requires_grad=True)
        b = a.clone()
        v, w = b[:2], b[1:3]
        out = Double.apply(v)
        names = (out.grad_fn.name(), b.grad_fn.name(), w.grad_fn.name(), repr(b)[-20:])
        (b.sum() + w.sum() + (out * 3).sum()).backward()
        res[L.__name__] = (names, a.grad.tolist(), b._version, out._version)
    assert res["ember"] == res["torch"]


@pytest.mark.parametrize("fn", [
    lambda L, v: v * 2,
    lambda L, v: v.exp().sum(),
    lambda L, v: L.cat([v, v]),
    lambda L, v: v.t() if v.ndim > 1 else v.unsqueeze(0),
])
def test_ops_on_a_no_grad_view_of_a_base_that_requires_grad(fn):
    """torch records such an op with no edge to the view: the result requires grad, its
    backward runs, and the base gets no gradient."""
    res = {}
    for L in (torch, ember):
        a = L.ones(2, 3, requires_grad=True)
        with L.no_grad():
            v = a[0]
        r = fn(L, v)
        edges = tuple(n is None for n, _ in r.grad_fn.next_functions)
        r.sum().backward()
        res[L.__name__] = (v.requires_grad, v.is_leaf, r.requires_grad, r.grad_fn.name(), edges,
                           a.grad)
    assert res["ember"] == res["torch"]
