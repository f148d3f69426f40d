"""Autograd against torch 2.13: graph metadata, backward/grad, hooks, modes, in-place, Function."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .helpers import arr, caught_warnings, check, ember, errors_alike, run_both, torch

LIBS = (torch, ember)


def both(fn):
    """``fn(lib)`` for torch and ember; the two results must be equal."""
    res = run_both(fn)
    if res is not None:
        assert res[0] == res[1], f"torch {res[0]!r} vs ember {res[1]!r}"
    return res


# ----------------------------------------------------------------------------- metadata

def test_requires_grad_attribute():
    both(lambda t: t.ones(2).requires_grad)
    both(lambda t: t.ones(2, requires_grad=True).requires_grad)
    both(lambda t: (t.ones(2, requires_grad=True) * 2).requires_grad)
    both(lambda t: t.ones(2).requires_grad_().requires_grad)
    both(lambda t: t.ones(2).requires_grad_(False).requires_grad)
    both(lambda t: t.ones(2, requires_grad=True).requires_grad_(requires_grad=False).requires_grad)

    def setter(t):
        x = t.ones(2)
        x.requires_grad = True
        return x.requires_grad, x.is_leaf
    both(setter)


@pytest.mark.parametrize("fn", [
    lambda t: t.ones(2, dtype=t.int64, requires_grad=True),
    lambda t: t.tensor([1, 2], requires_grad=True),
    lambda t: t.ones(2, dtype=t.int64).requires_grad_(),
    lambda t: setattr(t.ones(2, dtype=t.bool), "requires_grad", True),
    lambda t: setattr(t.ones(2, requires_grad=True) * 2, "requires_grad", False),
    lambda t: (t.ones(2, requires_grad=True) * 2).requires_grad_(False),
    lambda t: t.ones(2).retain_grad(),
    lambda t: t.ones(2).register_hook(lambda g: g),
    lambda t: t.ones(2).backward(),
    lambda t: t.ones(2, requires_grad=True).backward(),
    lambda t: (t.ones(2, requires_grad=True) * 2).sum().backward(t.ones(3)),
    lambda t: (t.ones(3, requires_grad=True) * 2).backward(t.ones(4)),
    lambda t: t.autograd.grad(t.ones(2, requires_grad=True).sum(), t.ones(2)),
    lambda t: t.autograd.grad((t.ones(2, requires_grad=True) * 2).sum(),
                              [t.ones(1, requires_grad=True)]),
    lambda t: t.ones(2, requires_grad=True).add_(1),
    lambda t: t.ones(2, requires_grad=True)[0].mul_(2),
    lambda t: setattr(t.ones(3, requires_grad=True), "grad", t.ones(4)),
    lambda t: setattr(t.ones(3, requires_grad=True), "grad", t.ones(3, dtype=t.float64)),
])
def test_autograd_errors(fn):
    errors_alike(fn)


def test_requires_grad_non_leaf_true_is_fine():
    both(lambda t: (t.ones(2, requires_grad=True) * 2).requires_grad_().requires_grad)


def test_grad_fn_metadata():
    for lib in LIBS:
        x = lib.ones(3, requires_grad=True)
        y = x * 2
        name = y.grad_fn.name() if lib is ember else type(y.grad_fn).__name__
        assert name == "MulBackward0"
        assert repr(y.grad_fn).startswith("<MulBackward0 object at 0x")
        (nf, nr), = [e for e in y.grad_fn.next_functions if e[0] is not None]
        assert type(nf).__name__ == "AccumulateGrad" and nr == 0 and nf.variable is x
        assert repr(nf).startswith("<AccumulateGrad object at 0x")
        assert x.is_leaf and not y.is_leaf and x.grad_fn is None
        z = y + x
        names = [type(f).__name__ if lib is torch else f.name() for f, _ in
                 z.grad_fn.next_functions]
        assert names == ["MulBackward0", "torch::autograd::AccumulateGrad"] or \
            names == ["MulBackward0", "AccumulateGrad"]
        assert z.grad_fn._sequence_nr() > y.grad_fn._sequence_nr()
        w = x * 2 + 1
        assert len(w.grad_fn.next_functions) == 2 and w.grad_fn.next_functions[1] == (None, 0)


def test_accumulate_grad_name():
    x = ember.ones(1, requires_grad=True)
    tx = torch.ones(1, requires_grad=True)
    assert (x * 2).grad_fn.next_functions[0][0].name() == \
        (tx * 2).grad_fn.next_functions[0][0].name()


def test_node_hooks():
    def fn(t):
        log = []
        x = t.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.grad_fn.register_prehook(lambda go: log.append(("pre", go[0].tolist())))
        y.grad_fn.register_hook(lambda gi, go: log.append(("post", gi[0].tolist(),
                                                           go[0].tolist())))
        h = y.grad_fn.register_prehook(lambda go: (go[0] * 10,))
        y.sum().backward(retain_graph=True)
        h.remove()
        y.sum().backward()
        return log, x.grad.tolist()
    both(fn)


# ----------------------------------------------------------------------------- grad, retain_grad

def test_non_leaf_grad_warning():
    def fn(t):
        y = t.ones(2, requires_grad=True) * 2
        return y.grad
    assert caught_warnings(fn, torch) == caught_warnings(fn, ember)
    assert caught_warnings(fn, ember)[0][0] == "UserWarning"

    def retained(t):
        y = t.ones(2, requires_grad=True) * 2
        y.retain_grad()
        return y.grad
    assert caught_warnings(retained, ember) == caught_warnings(retained, torch) == []


def test_retain_grad():
    def fn(t):
        x = t.tensor([1.0, 2.0], requires_grad=True)
        x.retain_grad()
        y = x * x
        y.retain_grad()
        z = y.sum()
        z.backward(retain_graph=True)
        g1 = y.grad
        z.backward()
        return (x.retains_grad, y.retains_grad, g1.tolist(), y.grad.tolist(), x.grad.tolist(),
                g1 is y.grad)
    both(fn)


def test_leaf_grad_accumulates_in_place():
    for lib in LIBS:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x * 3).sum().backward()
        g = x.grad
        (x * x).sum().backward()
        assert x.grad is g and x.grad.tolist() == [5.0, 7.0]
        x.grad = None
        (x * 1).sum().backward()
        assert x.grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("expr,ok", [
    ("x * 2", False), ("x / 2", False), ("x ** 2", False), ("x.exp()", False),
    ("x + 2", True), ("x.mean()", True), ("x.sum(0)", True), ("2 - x", True), ("x - 2", True),
    ("x.sum()", True), ("x.sin()", False), ("-x", True), ("x * x", False),
])
def test_backward_twice(expr, ok):
    def fn(t):
        x = t.ones(3, requires_grad=True)
        y = eval(expr, {"x": x}).sum()
        y.backward()
        y.backward()
        return x.grad.tolist()
    res = run_both(fn)
    assert (res is not None) == ok


def test_backward_options():
    def fn(t):
        x = t.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = t.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = x * w
        y.backward(t.tensor([1.0, 2.0, 3.0]), retain_graph=True)
        r1 = (x.grad.tolist(), w.grad.tolist())
        y.backward(t.ones(3), inputs=[x])
        r2 = (x.grad.tolist(), w.grad.tolist())
        z = (x * w).sum()
        t.autograd.backward([z], inputs=w)
        return r1, r2, w.grad.tolist()
    both(fn)


def test_autograd_grad():
    def fn(t):
        x = t.tensor([1.0, 2.0], requires_grad=True)
        y = t.tensor([3.0, 4.0], requires_grad=True)
        z = (x * y).sum()
        gx, gy = t.autograd.grad(z, [x, y], retain_graph=True)
        g2, = t.autograd.grad([x * 2], [x], grad_outputs=[t.ones(2)])
        u = t.ones(1, requires_grad=True)
        gu = t.autograd.grad(z, [x, u], allow_unused=True)
        return gx.tolist(), gy.tolist(), g2.tolist(), gu[1], x.grad, gx.requires_grad
    both(fn)


def test_higher_order():
    def fn(t):
        x = t.tensor([0.5, -1.5, 2.0], dtype=t.float64, requires_grad=True)
        y = (x ** 3).sum()
        g, = t.autograd.grad(y, x, create_graph=True)
        g2, = t.autograd.grad(g.sum(), x, create_graph=True)
        g3, = t.autograd.grad(g2.sum(), x)
        s = x.sin().sum()
        a, = t.autograd.grad(s, x, create_graph=True)
        b, = t.autograd.grad(a.sum(), x)
        names = type(g.grad_fn).__name__ if t is torch else g.grad_fn.name()
        return g.tolist(), g2.tolist(), g3.tolist(), np.round(b.tolist(), 12).tolist(), names
    both(fn)
    with pytest.warns(UserWarning):
        x = ember.tensor([2.0], requires_grad=True)
        (x ** 3).sum().backward(create_graph=True)
    assert x.grad.requires_grad and x.grad.tolist() == [12.0]


def test_gradgradcheck_ops():
    x = ember.tensor(np.linspace(-1, 1, 6).reshape(2, 3), requires_grad=True)
    for f in (lambda a: a ** 3, lambda a: a.sin() * a, lambda a: (a @ a.t()).tanh(),
              lambda a: a.exp().sum(1), lambda a: a.sigmoid() / (a.abs() + 1)):
        assert ember.autograd.gradcheck(f, (x,))
        assert ember.autograd.gradgradcheck(f, (x,))


# ----------------------------------------------------------------------------- tensor hooks

def test_tensor_hooks():
    def fn(t):
        log = []
        x = t.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: log.append(("x1", g.tolist())))
        x.register_hook(lambda g: g * 2)
        x.register_hook(lambda g: log.append(("x3", g.tolist())))
        y = x * 3
        h = y.register_hook(lambda g: g + 1)
        y.register_hook(lambda g: log.append(("y", g.tolist())))
        y.sum().backward(retain_graph=True)
        h.remove()
        y.sum().backward()
        return log, x.grad.tolist()
    both(fn)


# ----------------------------------------------------------------------------- grad modes

def test_grad_modes():
    def fn(t):
        x = t.ones(2, requires_grad=True)
        out = []
        with t.no_grad():
            y = x * 2
            out.append((y.requires_grad, y.grad_fn is None, t.is_grad_enabled()))
            with t.enable_grad():
                out.append((x * 2).requires_grad)
        with t.set_grad_enabled(False):
            out.append((x * 2).requires_grad)
        t.set_grad_enabled(False)
        out.append(t.is_grad_enabled())
        t.set_grad_enabled(True)
        with t.inference_mode():
            z = x * 2
            out.append((z.requires_grad, t.is_inference_mode_enabled(), z.is_inference()))
        with t.inference_mode(False):
            out.append(t.is_inference_mode_enabled())
        out.append((t.is_grad_enabled(), t.is_inference_mode_enabled()))

        @t.no_grad()
        def f(a):
            return a * 2

        @t.no_grad
        def f2(a):
            return a * 2

        @t.enable_grad()
        def g(a):
            return a * 2

        @t.inference_mode()
        def h(a):
            return a * 2

        @t.no_grad()
        def gen(a):
            for _ in range(2):
                yield (a * 2).requires_grad, t.is_grad_enabled()

        @t.set_grad_enabled(False)
        def sg(a):
            return (a * 2).requires_grad
        out.append((f(x).requires_grad, f2(x).requires_grad, h(x).requires_grad,
                    sg(x), t.is_grad_enabled()))
        with t.no_grad():
            out.append(g(x).requires_grad)
        out.append((list(gen(x)), t.is_grad_enabled()))
        return out
    both(fn)


def test_grad_mode_per_thread():
    for lib in LIBS:
        seen = []
        with lib.no_grad():
            th = threading.Thread(target=lambda lib=lib, seen=seen:
                                  seen.append(lib.is_grad_enabled()))
            th.start()
            th.join()
            assert not lib.is_grad_enabled()
        assert seen == [True]


@pytest.mark.parametrize("fn", [
    lambda t: (lambda z: z.requires_grad_())(_inference(t)),
    lambda t: _inference(t).add_(1),
    lambda t: (t.ones(2, requires_grad=True) * _inference(t)).sum().backward(),
])
def test_inference_errors(fn):
    errors_alike(fn)


def _inference(t):
    with t.inference_mode():
        return t.ones(2)


# -------------------------------------------------------------------- detach, data, versions

def test_detach_and_data():
    def fn(t):
        x = t.tensor([1.0, 2.0], requires_grad=True)
        d = x.detach()
        dd = x.data
        res = [d.requires_grad, dd.requires_grad, d.is_leaf, x._version, d._version]
        d.add_(1)
        res += [x.tolist(), x._version, d._version, dd._version]
        dd.mul_(2)
        res += [x.tolist(), x._version, dd._version]
        y = x * 2
        y.detach_()
        res += [y.requires_grad, y.grad_fn is None, y.is_leaf]
        x.data = t.tensor([7.0, 8.0])
        res += [x.tolist(), d.tolist(), x.requires_grad]
        v = x.view(2)
        v.add_(1) if not x.requires_grad else None
        return res
    both(fn)


def test_version_counter_shared_by_views():
    def fn(t):
        x = t.ones(2, 3)
        v = x[0]
        w = x.t()
        v.add_(1)
        w.mul_(2)
        x[1] = 5
        return x._version, v._version, w._version, x.tolist()
    both(fn)


def test_modified_inplace_message():
    for expr in ("x.exp()", "x.sigmoid()", "x.tanh()", "x * 1", "x.sin()", "x.pow(2)"):
        def fn(t, expr=expr):
            x = t.ones(3, requires_grad=True) * 1
            y = eval(expr, {"x": x})
            z = (y * y).sum() if "*" not in expr else (y * x).sum()
            y.add_(1)
            x.add_(1)
            z.backward()
        errors_alike(fn)


# ----------------------------------------------------------------------------- in-place on graphs

INPLACE = {
    "add_": lambda y: y.add_(1), "sub_": lambda y: y.sub_(2), "mul_": lambda y: y.mul_(3),
    "div_": lambda y: y.div_(2), "zero_": lambda y: y.zero_(), "fill_": lambda y: y.fill_(2),
    "copy_": lambda y: y.copy_(y.detach() * 5), "clamp_": lambda y: y.clamp_(-0.5, 0.5),
    "exp_": lambda y: y.exp_(), "pow_": lambda y: y.pow_(2), "neg_": lambda y: y.neg_(),
    "add_t": lambda y: y.add_(y.detach() * 2), "mul_t": lambda y: y.mul_(y * 1),
    "iadd": lambda y: y.__iadd__(3), "imul": lambda y: y.__imul__(2),
}


@pytest.mark.parametrize("name", list(INPLACE))
def test_inplace_on_non_leaf(name):
    def fn(t, x):
        y = x * 1
        out = INPLACE[name](y)
        assert out is y
        return y
    check(fn, arr((2, 3), "float64", 4))


def test_copy_grad_to_source():
    check(lambda t, x, s: (x * 1).copy_(s * 2), arr((2, 3), "float64"), arr((3,), "float64", 1))


@pytest.mark.parametrize("fn", [
    lambda t, x: _setitem(x.clone(), 0, lambda v: v.mul_(2)),
    lambda t, x: _setitem(x.clone(), (slice(None), 1), lambda v: v.add_(x[:, 0])),
    lambda t, x: _setitem(x * 1, 1, lambda v: v.zero_()),
    lambda t, x: _setitem(x.clone(), 0, lambda v: v.exp_()),
])
def test_inplace_on_view_copyslices(fn):
    check(fn, arr((3, 4), "float64", 5))


def _setitem(base, index, op):
    op(base[index])
    return base


def test_setitem_records():
    def fn(t, x, v):
        y = x * 1
        y[0] = v * 2
        y[1, 1:3] = 7.0
        return y
    check(fn, arr((3, 4), "float64"), arr((4,), "float64", 1))


def test_leaf_view_inplace_no_grad_ok():
    both(lambda t: _nograd_inplace(t))


def _nograd_inplace(t):
    x = t.ones(3, requires_grad=True)
    with t.no_grad():
        x.mul_(2)
        x[0] = 5
    return x.tolist(), x._version, x.requires_grad, x.is_leaf


# ----------------------------------------------------------------------------- Variable

def test_variable():
    from ember.autograd import Variable
    v = Variable(ember.ones(2), requires_grad=True)
    assert type(v) is ember.Tensor and v.requires_grad and v.is_leaf

    def fn(t):
        return t.autograd.Variable(t.ones(2), volatile=True)
    assert caught_warnings(fn, torch) == caught_warnings(fn, ember)


# ----------------------------------------------------------------------------- custom Function

def _functions(t):
    class Square(t.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k = k
            return x * x * k

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g * ctx.k, None

    class TwoOut(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            idx = (x > 0).long()
            ctx.mark_non_differentiable(idx)
            ctx.set_materialize_grads(False)
            return x * 2, x * 3, idx

        @staticmethod
        def backward(ctx, g1, g2, g3):
            out = 0
            if g1 is not None:
                out = out + g1 * 2
            if g2 is not None:
                out = out + g2 * 3
            return out

    class Needs(t.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.flags = ctx.needs_input_grad
            return a + b

        @staticmethod
        def backward(ctx, g):
            return g, g

    class WrongCount(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g, g

    class WrongShape(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g.sum()[None][None]

    return Square, TwoOut, Needs, WrongCount, WrongShape


def test_custom_function():
    def fn(t):
        Square, TwoOut, Needs, _, _ = _functions(t)
        x = t.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y = Square.apply(x, 2.0)
        name = type(y.grad_fn).__name__ if t is torch else y.grad_fn.name()
        y.sum().backward()
        r = [name, x.grad.tolist(), y.requires_grad]
        x.grad = None
        a, b, idx = TwoOut.apply(x)
        r += [idx.requires_grad, idx.dtype == t.int64, a.requires_grad]
        a.sum().backward()
        r.append(x.grad.tolist())
        c = Needs.apply(x, t.ones(3))
        r.append(c.grad_fn.flags)
        with t.no_grad():
            r.append(Square.apply(x, 1.0).requires_grad)
        return r
    both(fn)


@pytest.mark.parametrize("k", [3, 4])
def test_custom_function_errors(k):
    def fn(t):
        F = _functions(t)[k]
        F.apply(t.ones(3, requires_grad=True)).sum().backward()
    errors_alike(fn)


def test_custom_function_gradcheck():
    Square = _functions(ember)[0]
    x = ember.tensor([1.0, -2.0, 3.0], dtype=ember.float64, requires_grad=True)
    assert ember.autograd.gradcheck(lambda a: Square.apply(a, 1.5), (x,))


# ----------------------------------------------------------------------------- engine

def test_long_chain_no_recursion():
    x = ember.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(10000):
        y = y * 1.0001 + 0.0
    y.sum().backward()
    expected = 1.0001 ** 10000
    np.testing.assert_allclose(x.grad.item(), expected, rtol=1e-3)


def test_diamond_and_reuse():
    check(lambda t, x: (x * x + x.exp() * x).sum() * x, arr((3,), "float64"))
    check(lambda t, x, y: ((x @ y).relu() + x.sum() - y.mean()).tanh(),
          arr((2, 3), "float64"), arr((3, 4), "float64", 1))


def test_grad_dtype_follows_leaf():
    def fn(t):
        x = t.tensor([1.0, 2.0], dtype=t.float64, requires_grad=True)
        (x.float() * 2).sum().backward()
        return str(x.grad.dtype), x.grad.tolist()
    both(fn)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=0, max_size=3),
       st.lists(st.booleans(), min_size=3, max_size=3),
       st.sampled_from(["add", "mul", "sub", "div"]))
def test_broadcast_grads_property(shape, mask, op):
    a_shape = tuple(shape)
    b_shape = tuple(1 if m else s for s, m in zip(shape, mask))[-max(1, len(shape) - 1):] \
        if shape else ()
    a = arr(a_shape, "float64", 1)
    b = arr(b_shape, "float64", 2, positive=True)
    check(lambda t, x, y: getattr(t, op)(x, y), a, b)
