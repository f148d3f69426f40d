"""Regression tests for what the fifth round of real programs found, each against torch 2.13:
``float()``/``complex()`` of a tensor that requires grad (grad mode on) warns once per process,
as torch's ``TORCH_WARN_ONCE`` does (``int()``, ``bool()``, ``item()`` never warn);
``nn.init.sparse_`` (and its deprecated alias ``sparse``) was missing, and ``nn.init.__all__``
was not torch's."""

from __future__ import annotations

import functools
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import ember

from .helpers import errors_alike, torch

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"

_SCALAR_SCRIPT = """
import warnings
import torch
leaf = torch.ones(1, requires_grad=True)
x = leaf * 2
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    int(x), bool(x), x.item(), x.tolist(), float(x.detach())
    with torch.no_grad():
        float(x)
    print(len(w))
    float(x)
    complex(leaf)
    float(leaf)
    print([(c.category.__name__, str(c.message).split(" (Triggered")[0]) for c in w])
"""


def _run(*launcher: str) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, *launcher, "-c", _SCALAR_SCRIPT], env=env,
                          capture_output=True, text=True, check=True).stdout


def test_float_of_a_tensor_that_requires_grad_warns_once_like_torch():
    assert torch is not None
    ours, theirs = _run("-m", "ember"), _run()
    assert ours == theirs
    assert ours.startswith("0\n") and ours.count("UserWarning") == 1


@pytest.mark.parametrize("shape,sparsity,std", [((6, 3), 0.5, 0.01), ((5, 4), 0.1, 1.0),
                                                 ((3, 7), 1.0, 0.5), ((4, 2), 0.0, 0.01)])
def test_init_sparse_draws_torchs_values(shape, sparsity, std):
    outs = []
    for lib in (ember, torch):
        lib.manual_seed(3)
        g = lib.Generator().manual_seed(5)
        a = lib.nn.init.sparse_(lib.empty(*shape), sparsity, std=std)
        b = lib.nn.init.sparse_(lib.empty(*shape), sparsity, std, generator=g)
        outs.append((a.numpy(), b.numpy(), lib.rand(2).numpy()))
    for x, y in zip(*outs):
        np.testing.assert_array_equal(x, y)


def test_init_sparse_errors_alias_and_all():
    errors_alike(lambda lib: lib.nn.init.sparse_(lib.empty(3), 0.5))
    errors_alike(lambda lib: lib.nn.init.sparse_(lib.empty(2, 2, 2), 0.5))
    for lib in (ember, torch):
        with pytest.warns(FutureWarning, match="`nn.init.sparse` is now deprecated in favor of "
                                               "`nn.init.sparse_`."):
            lib.nn.init.sparse(lib.empty(3, 3), 0.3)
    assert ember.nn.init.__all__ == torch.nn.init.__all__


HALF_PRODUCTS = {
    "addmm": lambda L, c, x, y, **kw: L.addmm(c[0], x[0], y[0], **kw),
    "addmm_2d_input": lambda L, c, x, y, **kw: L.addmm(c, x[0], y[0], **kw),
    "baddbmm": lambda L, c, x, y, **kw: L.baddbmm(c, x, y, **kw),
    "addbmm": lambda L, c, x, y, **kw: L.addbmm(c, x, y, **kw),
    "linear": lambda L, c, x, y, **kw: L.nn.functional.linear(x, y[0].T, c[0]),
    "linear_0d_bias": lambda L, c, x, y, **kw: L.nn.functional.linear(x, y[0].T, c[0, 0]),
    "linear_noncontiguous": lambda L, c, x, y, **kw: L.nn.functional.linear(
        x.transpose(0, 1), y[0].T, c[0]),
}


@pytest.mark.parametrize("name", sorted(HALF_PRODUCTS))
@pytest.mark.parametrize("alpha,beta", [(1, 1), (2, 0.5), (0.3, 0.7), (1, 0)])
def test_float16_products_round_once_like_torch(name, alpha, beta):
    """torch's float16 addmm/baddbmm accumulate, scale and add the bias in float32 and round
    once (``nn.Linear`` in half); addbmm is a loop of addmm_ (one rounding per batch)."""
    rng = np.random.default_rng(0)
    c, x, y = (rng.standard_normal(s).astype(np.float16) for s in ((40, 30), (3, 40, 7),
                                                                    (3, 7, 30)))
    kw = {} if name.startswith("linear") else {"alpha": alpha, "beta": beta}
    ours, theirs = (HALF_PRODUCTS[name](L, *map(L.tensor, (c, x, y)), **kw).numpy()
                    for L in (ember, torch))
    assert ours.dtype == theirs.dtype == np.float16
    mismatches = int((ours != theirs).sum())
    assert mismatches <= 2, mismatches    # float32 accumulation order: an element now and then


LINEAR_CASES = [((3, 4, 5), (6,)), ((3, 4, 5), ()), ((3, 4, 5), (1,)), ((4, 3, 5), (6,), True),
                ((2, 3, 4, 5), ()), ((4, 5), ()), ((5,), (6,)), ((5,), ()), ((4, 5), (4, 6)),
                ((3, 4, 5), (4, 6)), ((2, 3, 4, 5), (3, 1, 6))]


@pytest.mark.parametrize("case", LINEAR_CASES)
def test_linear_takes_torchs_path(case):
    """F.linear fuses into one addmm only for 2-D input, or contiguous input with a 1-D bias;
    otherwise matmul + add (so a bias broadcasting over leading dims works)."""
    shape, bshape, *transposed = case
    rng = np.random.default_rng(1)
    x, w, b, g = (rng.standard_normal(s).astype(np.float32)
                  for s in (shape, (6, 5), bshape, (*shape[:-1], 6)))
    outs = []
    for L in (ember, torch):
        xt, wt, bt = (L.tensor(a, requires_grad=True) for a in (x, w, b))
        inp = xt.transpose(0, 1).contiguous().transpose(0, 1) if transposed else xt
        out = L.nn.functional.linear(inp, wt, bt)
        fn = out.grad_fn
        names = [type(fn).__name__, type(fn.next_functions[0][0]).__name__]
        out.backward(L.tensor(g))
        outs.append((names, out.detach().numpy(), bt.grad.numpy(), wt.grad.numpy()))
    (n1, *a1), (n2, *a2) = outs
    assert n1 == n2
    for u, v in zip(a1, a2):
        np.testing.assert_allclose(u, v, rtol=1e-5, atol=1e-5)


def _module_api_tour(lib):
    nn = lib.nn
    out = []

    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, 2)
            self.calls = 0

        def get_extra_state(self):
            return {"calls": self.calls}

        def set_extra_state(self, state):
            self.calls = state["calls"]

    def attempt(fn):
        try:
            return fn()
        except Exception as e:  # noqa: BLE001
            return type(e).__name__, str(e).replace("ember", "torch")

    m = nn.Sequential(Counter(), nn.ReLU(), nn.Linear(2, 1))
    m[0].calls = 2
    sd = m.state_dict()
    out += [list(sd), sd["0._extra_state"]]
    m2 = nn.Sequential(Counter(), nn.ReLU(), nn.Linear(2, 1))
    out += [repr(m2.load_state_dict(sd)), m2[0].calls]
    sd2 = {k: v for k, v in sd.items() if k != "0._extra_state"}
    out += [attempt(lambda: m2.load_state_dict(sd2)), repr(m2.load_state_dict(sd2, strict=False))]
    out.append(attempt(lambda: nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
                       .load_state_dict(sd)))
    calls = []
    m.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: calls.append((prefix, keep_vars)))

    def post(mod, sd, prefix, meta):
        sd[prefix + "extra"] = 1

    h = m[2].register_state_dict_post_hook(post)
    out += [list(m.state_dict(keep_vars=True)), calls]
    h.remove()
    h = m.register_state_dict_post_hook(lambda *a: {})
    out.append(attempt(m.state_dict))
    out.append(attempt(lambda: m._register_state_dict_hook(m._state_dict_hooks[h.id])))
    h.remove()

    def lpost(mod, keys):
        out.append((type(mod).__name__, list(keys.missing_keys), list(keys.unexpected_keys)))
        keys.unexpected_keys.clear()

    m[0].register_load_state_dict_post_hook(lpost)
    m.register_load_state_dict_post_hook(lpost)
    out.append(repr(m.load_state_dict({**sd, "bogus": lib.zeros(1)})))
    m.register_load_state_dict_post_hook(lambda mod, keys: 1)
    out.append(attempt(lambda: m.load_state_dict(sd)))
    out += [str(m.bfloat16()[0].lin.weight.dtype), str(m.float()[2].bias.dtype)]
    m.set_submodule("0.lin", nn.Linear(2, 2, bias=False))
    for args in [("", nn.ReLU()), ("1", 3), ("0.nothing", nn.Tanh(), True),
                 ("0.calls", nn.Tanh()), ("5", nn.Tanh())]:
        out.append(attempt(functools.partial(m.set_submodule, *args)))
    out += [repr(m), attempt(lambda: nn.Linear(1, 1).get_extra_state()),
            attempt(lambda: nn.Linear(1, 1).set_extra_state(0))]
    s = nn.Sequential(nn.ReLU(), nn.Tanh())
    out += [repr(s * 2), repr(3 * nn.Sequential(nn.ReLU())), (s * 2)[2] is s[0]]
    s2 = nn.Sequential(nn.ReLU(), nn.Tanh())
    s2 *= 2
    out += [repr(s2), attempt(lambda: s * 0), attempt(lambda: s * 1.5),
            attempt(lambda: s.__imul__(-1))]
    return out


def test_module_extra_state_state_dict_hooks_bfloat16_set_submodule_sequential_mul():
    """Module.get_extra_state/set_extra_state, register_state_dict_pre_hook/post_hook,
    register_load_state_dict_post_hook, bfloat16, set_submodule and ``Sequential * n`` were
    missing."""
    assert _module_api_tour(ember) == _module_api_tour(torch)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int64, np.bool_])
@pytest.mark.parametrize("beta,alpha", [(1, 1), (0.5, 2.0), (0, 3), (2, 0), (1, -1)])
@pytest.mark.parametrize("self_shape", [(5, 4), (4,), (5, 1), ()])
def test_addr_is_torchs(dtype, beta, alpha, self_shape):
    """``torch.addr`` / ``Tensor.addr`` (and ``addr_``) were missing."""
    rng = np.random.default_rng(2)
    m, v1, v2 = (rng.standard_normal(s) * 3 for s in (self_shape, (5,), (4,)))
    m, v1, v2 = (a.astype(dtype) if dtype is not np.bool_ else a > 0 for a in (m, v1, v2))
    if dtype in (np.int64, np.bool_):
        beta, alpha = int(beta), int(alpha)

    def fn(L):
        return L.addr(*map(L.tensor, (m, v1, v2)), beta=beta, alpha=alpha)
    if dtype is np.bool_ and (beta not in (0, 1) or alpha not in (0, 1)):
        return
    np.testing.assert_array_equal(fn(ember).numpy(), fn(torch).numpy())
    for L in (ember, torch):
        full = L.tensor(np.broadcast_to(m, (5, 4)).copy())
        full.addr_(L.tensor(v1), L.tensor(v2), beta=beta, alpha=alpha)
        np.testing.assert_array_equal(full.numpy(), fn(torch).numpy())


def test_addr_gradients_errors_and_addmm_inplace():
    """``addr``'s AddrBackward0 and errors; ``Tensor.addmm_`` was missing."""
    rng = np.random.default_rng(3)
    m, v1, v2 = (rng.standard_normal(s) for s in ((5, 4), (5,), (4,)))
    grads = []
    for L in (ember, torch):
        ts = [L.tensor(a, requires_grad=True) for a in (m[0], v1, v2)]
        r = L.addr(*ts, beta=0.3, alpha=1.7)
        assert type(r.grad_fn).__name__ == "AddrBackward0"
        r.pow(2).sum().backward()
        grads.append([t.grad.numpy() for t in ts])
    for a, b in zip(*grads):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    assert ember.autograd.gradcheck(lambda a, b, c: ember.addr(a, b, c, beta=0.3, alpha=1.7),
                                    [ember.tensor(a, requires_grad=True) for a in (m, v1, v2)])
    f32 = [a.astype(np.float32) for a in (m, v1, v2)]
    for fn in [lambda L: L.addr(L.ones(3, 4), L.ones(3, 1), L.ones(4)),
               lambda L: L.addr(L.ones(3, 5), L.ones(3), L.ones(4)),
               lambda L: L.addr(L.ones(3, 4, dtype=L.long), L.ones(3, dtype=L.long),
                                L.ones(4, dtype=L.long), alpha=0.5),
               lambda L: L.ones(1, 4).addr_(L.ones(3), L.ones(4)),
               lambda L: L.ones(4).addmm_(L.ones(3, 2), L.ones(2, 4)),
               lambda L: L.ones(3, 4).addmm_(L.ones(3, 2), L.ones(3, 4)),
               lambda L: L.ones(3, 4).addmm_(L.ones(3, 2).double(), L.ones(2, 4))]:
        errors_alike(fn)
    outs = []
    for L in (ember, torch):
        a = L.tensor(f32[0], requires_grad=True) * 1
        a.addmm_(L.tensor(f32[0][:, :3]), L.tensor(f32[0][:3]), beta=0.5, alpha=2)
        names = [type(a.grad_fn).__name__, type(a.grad_fn.next_functions[0][0]).__name__]
        outs.append((names, a.detach().numpy(), L.addr(*map(L.tensor, f32)).dtype is L.float32))
    assert outs[0][0] == outs[1][0] and outs[0][2] and outs[1][2]
    np.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-6)  # BLAS summation order


def test_func_linearize_is_torchs():
    """``torch.func.linearize`` was missing."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal(4).astype(np.float32)

    def tour(L):
        out = []
        a = L.tensor(x)
        o, fn = L.func.linearize(L.sin, a)
        out += [o.numpy(), fn(L.ones(4)).numpy(), fn(L.arange(4.0)).numpy()]
        o, fn = L.func.linearize(lambda p, q: ((p * q).sum(), p.exp()), a, a * 2)
        out += [t.numpy() for t in (*o, *fn(L.ones(4), L.zeros(4)))]
        for bad in [lambda: fn(L.ones(4)), lambda: fn(L.ones(3), L.ones(4)),
                    lambda: fn(L.ones(4), L.ones(4).double())]:
            with pytest.raises(RuntimeError) as info:
                bad()
            out.append(str(info.value))
        return out
    for u, v in zip(tour(ember), tour(torch)):
        if isinstance(u, str):
            assert u == v
        else:
            np.testing.assert_allclose(u, v, rtol=1e-6)
    assert "linearize" in ember.func.__all__
