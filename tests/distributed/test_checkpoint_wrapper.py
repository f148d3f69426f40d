"""checkpoint_wrapper / apply_activation_checkpointing against torch's, in one process:
module names, parameter names and state-dict keys without ``_checkpoint_wrapped_module``,
loading between wrapped and unwrapped models, gradients equal to the unwrapped model's."""

import numpy as np
import pytest

from tests.helpers import ember, torch


def _ckpt(lib):
    import importlib
    return importlib.import_module(
        lib.__name__ + ".distributed.algorithms._checkpoint.checkpoint_wrapper")


def _net(lib):
    nn = lib.nn
    lib.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Sequential(nn.Linear(8, 8), nn.Tanh()),
                         nn.Linear(8, 2))


@pytest.mark.parametrize("impl", ["REENTRANT", "NO_REENTRANT"])
def test_apply_activation_checkpointing_matches_torch(impl):
    seen = []
    for lib in (torch, ember):
        ck = _ckpt(lib)
        m = _net(lib)
        plain = _net(lib)
        fn = lambda mod, ck=ck: ck.checkpoint_wrapper(mod, getattr(ck.CheckpointImpl, impl))  # noqa: E731
        ck.apply_activation_checkpointing(
            m, checkpoint_wrapper_fn=fn,
            check_fn=lambda mod, lib=lib: isinstance(mod, lib.nn.Linear))
        x = lib.randn(3, 4, generator=lib.Generator().manual_seed(1)).requires_grad_()
        m(x).sum().backward()
        plain(x.detach()).sum().backward()
        grads = [p.grad.numpy() for p in m.parameters()]
        for g, p in zip(grads, plain.parameters()):
            np.testing.assert_array_equal(g, p.grad.numpy())
        loaded = plain.load_state_dict(m.state_dict())
        back = m.load_state_dict(plain.state_dict())
        seen.append((repr(m), [n for n, _ in m.named_parameters()], list(m.state_dict()),
                     [n for n, _ in m.named_modules()], repr(loaded), repr(back), grads,
                     type(m[0]).__name__, m[0].in_features))
    t, e = seen
    assert t[:6] == e[:6]
    for a, b in zip(t[6], e[6]):
        np.testing.assert_array_equal(a, b)
    assert t[7:] == e[7:]


def test_reentrant_kwargs_and_custom_fn():
    for lib in (torch, ember):
        ck = _ckpt(lib)
        calls = []

        def my_checkpoint(fn, *args, calls=calls, **kw):
            calls.append(len(args))
            return fn(*args, **kw)

        class Scale(lib.nn.Module):
            def forward(self, x, factor=1.0):
                return x * factor

        w = ck.checkpoint_wrapper(Scale(), ck.CheckpointImpl.REENTRANT)
        x = lib.ones(2, requires_grad=True)
        out = w(x, factor=3.0)
        out.sum().backward()
        assert x.grad.tolist() == [3.0, 3.0]
        c = ck.checkpoint_wrapper(lib.nn.Linear(2, 2), checkpoint_fn=my_checkpoint)
        c(x)
        assert calls == [1]
        with pytest.raises(ValueError, match="Subclasses should implement forward"):
            ck.ActivationWrapper.forward(w)
