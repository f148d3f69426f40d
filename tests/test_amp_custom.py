"""``torch.amp.custom_fwd`` / ``custom_bwd`` around a custom Function, as torch runs them."""

from __future__ import annotations

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
