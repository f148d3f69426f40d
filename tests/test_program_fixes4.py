"""Regression tests for what the fourth round of real programs found, each against torch 2.13:
``grad_fn._saved_<name>`` / ``grad_fn._raw_saved_<name>`` (what a node keeps for backward, and
per-tensor saved-tensor hooks) were missing, and so was
``torch.autograd.graph.register_multi_grad_hook``."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import errors_alike, torch


def _leaf(lib, data):
    return lib.tensor(np.asarray(data, dtype=np.float32), requires_grad=True)


def test_saved_attributes_are_torchs():
    outs = []
    for lib in (ember, torch):
        a = _leaf(lib, [0.5, -1.0, 2.0])
        x = _leaf(lib, np.arange(12.0).reshape(3, 4))
        m = lib.ones(4, 2)
        y = a.pow(2)
        e = a.exp()
        s = x.sum(dim=1, keepdim=True)
        z = x.mm(m)
        outs.append((
            y.grad_fn._saved_self is a, y.grad_fn._saved_exponent,
            e.grad_fn._saved_result.tolist(), e.grad_fn._saved_result is e,
            e.grad_fn._saved_result.grad_fn is e.grad_fn,
            s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes,
            tuple(z.grad_fn._saved_mat2.shape), z.grad_fn._saved_self,
        ))
    assert outs[0] == outs[1]


def test_saved_attribute_errors_are_torchs():
    def after_backward(lib):
        y = _leaf(lib, [1.0, 2.0]).pow(2)
        y.sum().backward()
        return y.grad_fn._saved_self

    def hooks_after_backward(lib):
        y = _leaf(lib, [1.0, 2.0]).exp()
        y.sum().backward()
        y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)

    def hooks_on_none(lib):
        z = _leaf(lib, [[1.0, 2.0]]).mm(lib.ones(2, 1))
        z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)

    def hooks_twice(lib):
        y = _leaf(lib, [1.0, 2.0]).pow(2)
        raw = y.grad_fn._raw_saved_self
        raw.register_hooks(lambda t: t, lambda t: t)
        raw.register_hooks(lambda t: t, lambda t: t)

    def unknown(lib):
        return _leaf(lib, [1.0, 2.0]).pow(2).grad_fn._saved_foo

    for fn in (after_backward, hooks_after_backward, hooks_on_none, hooks_twice, unknown):
        errors_alike(fn)


def test_raw_saved_register_hooks_runs_pack_now_and_unpack_in_backward():
    logs = []
    for lib in (ember, torch):
        log = []
        a = _leaf(lib, [1.0, 2.0, 3.0])
        b = _leaf(lib, [2.0, 2.0, 2.0]) * 1
        y = a * b
        y.grad_fn._raw_saved_self.register_hooks(
            lambda t, log=log: log.append(("pack", t.tolist())) or t * 10,
            lambda t, log=log: log.append(("unpack", t.tolist())) or t)
        log.append(("saved", y.grad_fn._saved_self.tolist(), y.grad_fn._saved_self.requires_grad))
        y.sum().backward()
        log.append(("grads", a.grad.tolist()))
        logs.append(log)
    assert logs[0] == logs[1]


def _multi_log(lib):
    log = []
    a = _leaf(lib, [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])
    b = _leaf(lib, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    c = a * b
    d = a * b
    h = lib.autograd.graph.register_multi_grad_hook(
        (a, b, c, d), lambda grads: log.append([g is not None for g in grads]))
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    (c + d).sum().backward(retain_graph=True)
    h.remove()
    c.sum().backward(retain_graph=True)
    h = lib.autograd.graph.register_multi_grad_hook(
        (a, b), lambda g: log.append(("any", g.tolist())), mode="any")
    (a * 2 + b).sum().backward()
    h.remove()
    log.append(type(h).__name__)
    return log


def test_register_multi_grad_hook_is_torchs():
    assert _multi_log(ember) == _multi_log(torch)


def test_register_multi_grad_hook_errors_are_torchs():
    def bad_mode(lib):
        a = _leaf(lib, [1.0])
        lib.autograd.graph.register_multi_grad_hook((a,), print, mode="some")

    def leaf_in_grad(lib):
        a = _leaf(lib, [1.0])
        b = _leaf(lib, [2.0])
        lib.autograd.graph.register_multi_grad_hook((a, b), print)
        lib.autograd.grad((a * b).sum(), a)

    errors_alike(bad_mode)
    errors_alike(leaf_in_grad)


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__, "-q"])
