"""ember.func and ember.autograd.forward_ad against torch.func and torch.autograd.forward_ad:

results (values, shapes, dtypes, requires_grad), pytree structure, and errors."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import ember, torch
from tests.tree_compare import both as _both
from tests.tree_compare import compare_trees as _compare

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def both(fn):
    """``fn(lib, func)`` in torch and in ember: the same results or the same error."""
    _both(lambda L: fn(L, L.func))


X = [0.5, -1.0, 2.0]


def x(L):
    return L.tensor(X)


GRAD = {
    "identity_not_scalar": lambda L, F: F.grad(lambda x: x)(x(L)),
    "not_tensor": lambda L, F: F.grad(lambda x: 1.0)(x(L)),
    "aux_not_tuple": lambda L, F: F.grad(lambda x: x.sum(), has_aux=True)(x(L)),
    "sin": lambda L, F: F.grad(lambda x: (x.sin() * x).sum())(x(L)),
    "second": lambda L, F: F.grad(F.grad(lambda x: x ** 3))(L.tensor(2.0)),
    "third": lambda L, F: F.grad(F.grad(F.grad(lambda x: x.sin())))(L.tensor(2.0)),
    "unused": lambda L, F: F.grad(lambda x: L.ones(()))(x(L)),
    "argnums_tuple": lambda L, F: F.grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(
        x(L), x(L) * 2),
    "argnum_range": lambda L, F: F.grad(lambda x: x.sum(), argnums=1)(x(L)),
    "argnum_1": lambda L, F: F.grad(lambda a, b: (a * b).sum(), argnums=1)(x(L), x(L) + 1),
    "dict": lambda L, F: F.grad(lambda p: (p["w"] * p["b"]).sum())({"w": x(L), "b": x(L) * 3}),
    "aux": lambda L, F: F.grad(lambda x: ((x ** 2).sum(), x.mean()), has_aux=True)(x(L)),
    "value": lambda L, F: F.grad_and_value(lambda x: (x ** 2).sum())(x(L)),
    "value_aux": lambda L, F: F.grad_and_value(
        lambda x: ((x ** 2).sum(), {"m": x.max()}), has_aux=True)(x(L)),
    "input_requires_grad": lambda L, F: F.grad(lambda x: (x ** 3).sum())(
        L.tensor(X, requires_grad=True)),
}


@pytest.mark.parametrize("case", sorted(GRAD))
def test_grad(case):
    both(GRAD[case])


def _ar(L, *shape):
    return L.arange(float(np.prod(shape))).reshape(*shape)


VMAP = {
    "sizes": lambda L, F: F.vmap(lambda a, b: a + b)(L.ones(2, 3), L.ones(3, 3)),
    "in_dim_range": lambda L, F: F.vmap(lambda a: a, in_dims=2)(L.ones(2)),
    "returns_float": lambda L, F: F.vmap(lambda a: 1.0)(L.ones(2)),
    "random_error": lambda L, F: F.vmap(lambda a: L.rand(2))(L.ones(2)),
    "in_dims_structure": lambda L, F: F.vmap(lambda a: a.sum(), in_dims=(0,))(L.ones(2),
                                                                                L.ones(2)),
    "non_tensor": lambda L, F: F.vmap(lambda a: a)(1.0),
    "in_dims_none": lambda L, F: F.vmap(lambda a: a, in_dims=None)(L.ones(2)),
    "none_dim": lambda L, F: F.vmap(lambda a, b: a * b, in_dims=(0, None))(
        L.ones(2, 3), L.arange(3.)),
    "out_dims": lambda L, F: F.vmap(lambda a: (a, a.sum()), out_dims=(1, 0))(_ar(L, 2, 3)),
    "out_dim_range": lambda L, F: F.vmap(lambda a: a, out_dims=2)(L.ones(2, 3)),
    "in_dim_1": lambda L, F: F.vmap(L.sum, in_dims=1)(_ar(L, 2, 3)),
    "dict_in": lambda L, F: F.vmap(lambda d: d["a"] * 2)({"a": _ar(L, 2, 2)}),
    "nested": lambda L, F: F.vmap(F.vmap(L.dot))(_ar(L, 2, 2, 3), _ar(L, 2, 2, 3)),
    "matmul_dims": lambda L, F: F.vmap(lambda x: x @ x.t(), in_dims=1, out_dims=1)(
        _ar(L, 2, 3, 4)),
    "mv": lambda L, F: F.vmap(L.mv, in_dims=(None, 0))(_ar(L, 2, 3), _ar(L, 4, 3)),
    "randomness_value": lambda L, F: F.vmap(lambda a: a, randomness="x")(L.zeros(3, 2)),
    "per_example_grad": lambda L, F: F.vmap(F.grad(lambda w, x: (w * x).sum().sin()),
                                            in_dims=(None, 0))(x(L), _ar(L, 2, 3)),
    "jacobians": lambda L, F: F.vmap(F.jacrev(L.sin))(L.tensor([[0., 1.], [2., 3.]])),
}


@pytest.mark.parametrize("case", sorted(VMAP))
def test_vmap(case):
    both(VMAP[case])


def test_vmap_randomness_same_and_gradients():
    def run(L):
        L.manual_seed(0)
        same = L.func.vmap(lambda a: a + L.rand(2), randomness="same")(L.zeros(3, 2))
        after = L.rand(1)
        w = L.tensor([1., 2., 3.], requires_grad=True)
        out = L.vmap(lambda r: (r * w).sum())(_ar(L, 2, 3))
        out.sum().backward()
        return same, after, out.detach(), w.grad
    _compare(run(torch), run(ember))


TRANSFORMS = {
    "vjp": lambda L, F: F.vjp(lambda x: x * 2, x(L))[1](L.ones(3)),
    "vjp_tuple": lambda L, F: F.vjp(lambda a, b: (a * b, a + b), x(L), x(L) * 2)[1](
        (L.ones(3), L.arange(3.))),
    "vjp_out": lambda L, F: F.vjp(lambda x: x.sin(), x(L))[0],
    "jvp": lambda L, F: F.jvp(lambda x: x * 2, (x(L),), (L.ones(3),)),
    "jvp_two": lambda L, F: F.jvp(lambda a, b: a * b.sin(), (x(L), x(L) * 3),
                                  (L.ones(3), L.arange(3.))),
    "jvp_not_tuple": lambda L, F: F.jvp(lambda x: x * 2, x(L), L.ones(3)),
    "jacrev": lambda L, F: F.jacrev(lambda x: x.sin())(L.tensor([0., 1.])),
    "jacfwd": lambda L, F: F.jacfwd(lambda x: x.sin() * x[0])(L.tensor([0., 1.])),
    "jac_argnums": lambda L, F: F.jacrev(lambda a, b: a * b, argnums=(0, 1))(
        L.tensor([1., 2.]), L.tensor([3., 4.])),
    "jac_outputs": lambda L, F: F.jacrev(lambda x: (x.sum(), x * 2))(L.tensor([1., 2.])),
    "jac_matrix": lambda L, F: F.jacrev(lambda m: m @ m)(_ar(L, 2, 2)),
    "hessian": lambda L, F: F.hessian(lambda x: (x ** 3).sum())(L.tensor([1., 2.])),
    "hessian_prod": lambda L, F: F.hessian(lambda x: (x.sin() * x.cos()).prod())(
        L.tensor([1., 2., 0.5])),
}


@pytest.mark.parametrize("case", sorted(TRANSFORMS))
def test_transforms(case):
    both(TRANSFORMS[case])


def _linear(L):
    L.manual_seed(0)
    return L.nn.Linear(3, 2)


def _call_params(L, F):
    m = _linear(L)
    return F.functional_call(m, {k: v.detach() * 2 for k, v in m.named_parameters()}, (x(L),))


def _call_single_arg(L, F):
    m = _linear(L)
    return F.functional_call(m, {k: v.detach() * 2 for k, v in m.named_parameters()}, x(L))


def _call_strict(L, F):
    m = _linear(L)
    return F.functional_call(m, {"weight": m.weight.detach()}, (x(L),), strict=True)


def _call_restored(L, F):
    m = _linear(L)
    return F.functional_call(m, {"bias": L.zeros(2)}, x(L)), m.bias


def _call_grad(L, F):
    m = _linear(L)
    params = {k: v.detach() for k, v in m.named_parameters()}
    return F.grad(lambda p, x: F.functional_call(m, p, (x,)).sum())(params, x(L))


def _call_buffers(L, F):
    bn = L.nn.BatchNorm1d(3)
    out = F.functional_call(bn, {"running_mean": L.ones(3)}, (_ar(L, 2, 3),))
    return out, bn.running_mean, bn.num_batches_tracked


CALLS = {f.__name__: f for f in (_call_params, _call_single_arg, _call_strict, _call_restored,
                                 _call_grad, _call_buffers)}


@pytest.mark.parametrize("case", sorted(CALLS))
def test_functional_call(case):
    both(CALLS[case])


def test_stack_module_state_and_ensembling():
    def run(L):
        L.manual_seed(0)
        models = [L.nn.Linear(3, 2) for _ in range(4)]
        ps, bs = L.func.stack_module_state(models)
        out = L.vmap(lambda p, b, x: L.func.functional_call(models[0], (p, b), (x,)),
                     in_dims=(0, 0, None))(ps, bs, x(L))
        return ({k: v.detach() for k, v in ps.items()}, ps["weight"].requires_grad,
                ps["weight"].is_leaf, bs, out.detach())
    _compare(run(torch), run(ember))


def test_stateless_functional_call_warns():
    from tests.helpers import caught_warnings

    def call(L):
        m = _linear(L)
        L.nn.utils.stateless.functional_call(m, dict(m.named_parameters()), (L.ones(3),))
    assert caught_warnings(call, torch) == caught_warnings(call, ember)


def test_forward_ad():
    def run(L):
        fw = L.autograd.forward_ad
        res = []
        for make in (lambda: fw.make_dual(x(L), L.ones(3)), lambda: fw.unpack_dual(x(L))):
            try:
                res.append(make())
            except RuntimeError as e:
                res.append(str(e))
        with fw.dual_level():
            for make in (lambda: fw.make_dual(x(L), L.ones(2)),
                         lambda: fw.make_dual(L.tensor([1, 2]), L.tensor([1, 2]))):
                try:
                    make()
                except (RuntimeError, ValueError) as e:
                    res.append((type(e).__name__, str(e)))
            d = fw.make_dual(x(L), L.tensor([1., 0, 0]))
            u = fw.unpack_dual((d.sin() * d).sum())
            res += [tuple(u), type(u).__name__, u.primal.requires_grad, tuple(fw.unpack_dual(d))]
            e = fw.make_dual(L.tensor([0.5, 0.25]), L.tensor([2., -1.]))
            z = L.nn.functional.softmax(e * 3, dim=0) @ L.tensor([[1., 2.], [3., 4.]])
            res += [tuple(fw.unpack_dual(z)), fw.unpack_dual(e * 2 + 1).tangent,
                    fw.unpack_dual(L.ones(2) * 3).tangent,
                    fw.unpack_dual(L.nn.functional.gelu(e.tanh())).tangent]
            w = L.tensor([1., 2.], requires_grad=True)
            out = fw.unpack_dual((fw.make_dual(w, L.tensor([1., 1.])) ** 2).sum())
            res += [out.primal.requires_grad, out.tangent.detach()]
        return res
    _compare(run(torch), run(ember))
