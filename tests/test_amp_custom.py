"""Autocast as torch dispatches it (casts before the ops' checks, only the listed ops) and
``torch.amp.custom_fwd`` / ``custom_bwd`` around a custom Function."""

from __future__ import annotations

import pytest

from tests.helpers import LIBS, errors_alike


def _run(lib):
    class MyMM(lib.autograd.Function):
        @staticmethod
        @lib.amp.custom_fwd(device_type="cpu", cast_inputs=lib.float32)
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a.mm(b)

        @staticmethod
        @lib.amp.custom_bwd(device_type="cpu")
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            seen.append((lib.is_autocast_enabled("cpu"), g.dtype))
            return g.mm(b.t()), a.t().mm(g)

    class Plain(lib.autograd.Function):
        @staticmethod
        @lib.amp.custom_fwd(device_type="cpu")
        def forward(ctx, a):
            return a.mm(a.t())

        @staticmethod
        @lib.amp.custom_bwd(device_type="cpu")
        def backward(ctx, g):
            seen.append((lib.is_autocast_enabled("cpu"), g.dtype))
            return g.mm(lib.ones(2, 3, dtype=g.dtype))

    seen = []
    a = lib.ones(2, 3, requires_grad=True)
    b = lib.full((3, 2), 0.5, requires_grad=True)
    with lib.autocast("cpu"):
        y = MyMM.apply(a.bfloat16(), b)
        z = Plain.apply(a)
    (y.sum() + z.float().sum()).backward()
    out = MyMM.apply(a, b)       # outside autocast: no casts
    return [str(y.dtype), str(z.dtype), str(out.dtype), a.grad.tolist(), b.grad.tolist(),
            [(e, str(d)) for e, d in seen]]


def test_custom_fwd_bwd_as_torch():
    assert _run(LIBS[1]) == _run(LIBS[0])


def test_device_type_must_be_a_string():
    errors_alike(lambda lib: lib.amp.custom_fwd(device_type=1))
    errors_alike(lambda lib: lib.amp.custom_bwd(device_type=None))


AUTOCAST_CASES = {
    "mm_mixed": lambda L, x, v: L.mm(x.bfloat16(), x),
    "addmm_mixed": lambda L, x, v: L.addmm(v, x, x.bfloat16()),
    "bmm_mixed": lambda L, x, v: L.bmm(x[None].bfloat16(), x[None]),
    "linear_chain": lambda L, x, v: L.nn.functional.linear(
        L.nn.functional.linear(x, x), x, v),
    "mv": lambda L, x, v: L.mv(x, v),
    "mv_mixed": lambda L, x, v: L.mv(x.bfloat16(), v),
    "addmv": lambda L, x, v: L.addmv(v, x, v),
    "dot": lambda L, x, v: L.dot(v, v),
    "matmul_1d": lambda L, x, v: L.matmul(v, v),
    "matmul_2d_1d_mixed": lambda L, x, v: L.matmul(x.bfloat16(), v),
    "matmul_double": lambda L, x, v: L.matmul(x.double(), x),
    "mm_double": lambda L, x, v: L.mm(x.double(), x),
    "outer": lambda L, x, v: L.outer(v, v),
    "einsum": lambda L, x, v: L.einsum("ij,jk->ik", x, x),
    "vecdot": lambda L, x, v: L.linalg.vecdot(x, x.bfloat16()),
    "multi_dot": lambda L, x, v: L.linalg.multi_dot([x, x.bfloat16(), x]),
    "conv2d": lambda L, x, v: L.conv2d(x[None, None], x[None, None, :2, :2].bfloat16()),
}


@pytest.mark.parametrize("name", sorted(AUTOCAST_CASES))
def test_autocast_casts_before_the_ops_checks(name):
    """torch casts at dispatch, before an op's own dtype checks (a float32 weight meets a
    bfloat16 activation in every layer after the first); ops off the list are not cast."""
    def outcome(lib):
        x = lib.tensor([[1.0, 2.0, 0.5], [0.25, -1.0, 3.0], [2.0, 0.0, 1.0]])
        v = lib.tensor([0.5, 1.5, -2.0])
        with lib.autocast("cpu"):
            try:
                r = AUTOCAST_CASES[name](lib, x, v)
            except RuntimeError as e:
                return "error", str(e)
        return str(r.dtype), r.float().tolist()
    assert outcome(LIBS[1]) == outcome(LIBS[0])
