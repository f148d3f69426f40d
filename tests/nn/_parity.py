"""Helpers: run the same layer (weights copied from torch) in torch and in ember, compare."""

from __future__ import annotations

import numpy as np
import torch

import ember

RTOL, ATOL = 1e-5, 1e-6


def to_ember(t, requires_grad=False):
    e = ember.tensor(t.detach().numpy().copy())
    if requires_grad:
        e.requires_grad_(True)
    return e


def close(e, t, what, rtol=RTOL, atol=ATOL):
    a = e.detach().numpy() if hasattr(e, "detach") else np.asarray(e)
    b = t.detach().numpy()
    assert a.shape == b.shape, f"{what}: shape {a.shape} != {b.shape}"
    assert a.dtype == b.dtype, f"{what}: dtype {a.dtype} != {b.dtype}"
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=what)


def copy_params(tm, em):
    """Load torch module ``tm``'s state into ember module ``em`` (keys must agree)."""
    sd = {k: to_ember(v) for k, v in tm.state_dict().items()}
    assert list(sd) == list(em.state_dict()), "state_dict keys differ"
    em.load_state_dict(sd)


def _flat(out):
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res.extend(_flat(o))
        return res
    return [out]


def check_module(tm, em, *inputs, grad_fn=True, rtol=RTOL, atol=ATOL, seed=0):
    """Forward the same inputs through both modules, backward the same upstream grads, and
    compare outputs, input grads, parameter grads and the output's grad_fn name."""
    copy_params(tm, em)
    tin = [x.detach().clone().requires_grad_(x.is_floating_point()) for x in inputs]
    ein = [to_ember(x, x.is_floating_point()) for x in inputs]
    tout = _flat(tm(*tin))
    eout = _flat(em(*ein))
    assert len(tout) == len(eout)
    g = torch.Generator().manual_seed(seed)
    tl, el = 0, 0
    for i, (to, eo) in enumerate(zip(tout, eout)):
        close(eo, to, f"output {i}", rtol, atol)
        if grad_fn and to.grad_fn is not None:
            assert eo.grad_fn is not None and eo.grad_fn.name() == to.grad_fn.name(), \
                f"grad_fn {eo.grad_fn} != {to.grad_fn.name()}"
        if to.requires_grad:
            up = torch.randn(to.shape, generator=g, dtype=to.dtype)
            tl = tl + (to * up).sum()
            el = el + (eo * to_ember(up)).sum()
    if not isinstance(tl, int):
        tl.backward()
        el.backward()
    for i, (t, e) in enumerate(zip(tin, ein)):
        if t.grad is not None:
            close(e.grad, t.grad, f"input grad {i}", rtol, atol)
    for (n, tp), (_, ep) in zip(tm.named_parameters(), em.named_parameters()):
        if tp.grad is None:
            assert ep.grad is None, n
        else:
            close(ep.grad, tp.grad, f"grad of {n}", rtol, atol)
    for (n, tb), (_, eb) in zip(tm.named_buffers(), em.named_buffers()):
        close(eb, tb, f"buffer {n}", rtol, atol)
    return tout, eout


def check_fn(tfn, efn, *inputs, grad_fn=True, rtol=RTOL, atol=ATOL, seed=0):
    """``check_module`` for functions: ``tfn(*torch_tensors)`` vs ``efn(*ember_tensors)``."""
    class TM(torch.nn.Module):
        def forward(self, *a):
            return tfn(*a)

    class EM(ember.nn.Module):
        def forward(self, *a):
            return efn(*a)
    return check_module(TM(), EM(), *inputs, grad_fn=grad_fn, rtol=rtol, atol=atol, seed=seed)
