"""The MLP training step's fast paths give what torch gives and what the general paths give:
``cross_entropy``'s common case (plain (N, C) float logits, in-range int64 classes, no weight,
the mean) computed and recorded directly: loss and gradients to the bit, the same nodes and
saved values, the other cases and the errors left to the general path."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import ember
from ember._ops import nn as N
from tests.helpers import errors_alike


def _bits(t):
    a = t.detach().numpy() if isinstance(t, torch.Tensor) else t._data
    return a.dtype.str, a.shape, np.ascontiguousarray(a).tobytes()


def _logits(n, c, dtype, seed, special=False):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((n, c)) * np.exp(rng.uniform(-2, 3))).astype(dtype)
    if special:
        flat = x.reshape(-1)
        flat[rng.integers(0, flat.size, max(1, flat.size // 20))] = rng.choice(
            np.array([-np.inf, 1e30, -1e30, 0.0, -0.0, 1e-40], dtype), max(1, flat.size // 20))
    return x, rng.integers(0, c, n)


def _graph(loss):
    """The names of the nodes under ``loss``, depth first, with their saved values."""
    out = []
    stack = [loss.grad_fn]
    while stack:
        node = stack.pop()
        if node is None:
            out.append(None)
            continue
        entry = [node.name()]
        for name in ("_saved_self", "_saved_result", "_saved_target", "_saved_weight",
                     "_saved_reduction", "_saved_ignore_index", "_saved_dim",
                     "_saved_total_weight"):
            try:
                v = getattr(node, name)
            except AttributeError:
                continue
            entry.append((name, _bits(v) if isinstance(v, (ember.Tensor, torch.Tensor))
                          else v))
        out.append(entry)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return out


def _general(lib, x, y, ignore_index=-100):
    """cross_entropy's general path, as its composition."""
    return lib.nn.functional.nll_loss(lib.nn.functional.log_softmax(x, 1), y,
                                      ignore_index=ignore_index)


CASES = [(1, 1), (1, 5), (5, 3), (7, 16), (128, 10), (33, 64), (300, 7), (16, 129)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n,c", CASES)
def test_cross_entropy_fast_path_matches_general_path_and_torch(n, c, dtype):
    for seed, special in ((0, False), (1, True)):
        x, y = _logits(n, c, dtype, seed + n * c, special)
        xe = ember.tensor(x, requires_grad=True)
        assert N.cross_entropy_common(xe, ember.tensor(y), -100) is not None   # (taken)
        losses, grads, graphs = [], [], []
        for lib, fn in ((ember, lambda L, a, b: L.nn.functional.cross_entropy(a, b)),
                        (ember, _general),
                        (torch, lambda L, a, b: L.nn.functional.cross_entropy(a, b))):
            xt = lib.tensor(x, requires_grad=True)
            loss = fn(lib, xt, lib.tensor(y))
            graphs.append(_graph(loss))
            loss.backward()
            losses.append(_bits(loss))
            grads.append(_bits(xt.grad))
        assert losses[0] == losses[1] == losses[2], (n, c, dtype, seed)
        assert grads[0] == grads[1] == grads[2], (n, c, dtype, seed)
        assert graphs[0] == graphs[1], (n, c, dtype)
        assert [g[0] if g else g for g in graphs[0]] == [g[0] if g else g for g in graphs[2]]


def test_cross_entropy_fast_path_modes_and_inputs():
    x, y = _logits(64, 10, "float32", 5)
    # no grad wanted: no graph
    for lib in (ember, torch):
        a = lib.nn.functional.cross_entropy(lib.tensor(x), lib.tensor(y))
        assert a.grad_fn is None and not a.requires_grad
        with lib.no_grad():
            b = lib.nn.functional.cross_entropy(lib.tensor(x, requires_grad=True),
                                                lib.tensor(y))
        assert b.grad_fn is None and not b.requires_grad
    e = ember.nn.functional.cross_entropy(ember.tensor(x), ember.tensor(y))
    t = torch.nn.functional.cross_entropy(torch.tensor(x), torch.tensor(y))
    assert _bits(e) == _bits(t)
    # a Parameter (a model's output layer fed straight in) and a second-order gradient
    got = []
    for lib in (ember, torch):
        p = lib.nn.Parameter(lib.tensor(x))
        loss = lib.nn.functional.cross_entropy(p, lib.tensor(y))
        (g,) = lib.autograd.grad(loss, p, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), p)
        got.append((_bits(loss), _bits(g), _bits(gg), g.grad_fn.name()))
    assert got[0] == got[1]
    # an ignore_index outside the targets' range takes the fast path
    for lib in (ember, torch):
        got.append(_bits(lib.nn.functional.cross_entropy(
            lib.tensor(x, requires_grad=True), lib.tensor(y), ignore_index=10)))
    assert got[-1] == got[-2]


@pytest.mark.parametrize("case", [
    "ignored", "weight", "sum", "none", "smoothing", "transposed", "int32_target",
    "out_of_range", "negative_target", "batch_mismatch", "one_dim", "probabilities"])
def test_cross_entropy_other_cases_take_the_general_path(case):
    x, y = _logits(12, 5, "float32", 9)
    y[3] = 0

    def run(lib):
        leaf = xt = lib.tensor(x, requires_grad=True)
        yt = lib.tensor(y)
        F = lib.nn.functional
        if case == "ignored":
            loss = F.cross_entropy(xt, yt, ignore_index=0)
        elif case == "weight":
            loss = F.cross_entropy(xt, yt, weight=lib.arange(1.0, 6.0))
        elif case in ("sum", "none"):
            loss = F.cross_entropy(xt, yt, reduction=case).sum()
        elif case == "smoothing":
            loss = F.cross_entropy(xt, yt, label_smoothing=0.2)
        elif case == "transposed":
            leaf = lib.tensor(np.ascontiguousarray(x.T), requires_grad=True)
            loss = F.cross_entropy(leaf.t(), yt)
        elif case == "int32_target":
            loss = F.cross_entropy(xt, yt.int())
        elif case == "out_of_range":
            loss = F.cross_entropy(xt, yt + 1)
        elif case == "negative_target":
            loss = F.cross_entropy(xt, yt - 1)
        elif case == "batch_mismatch":
            loss = F.cross_entropy(xt, yt[:-1])
        elif case == "one_dim":
            loss = F.cross_entropy(xt[0], yt[0])
        else:
            loss = F.cross_entropy(xt, lib.softmax(lib.tensor(x[::-1].copy()), 1))
        loss.backward()
        return loss, leaf.grad

    if case in ("int32_target", "out_of_range", "negative_target", "batch_mismatch"):
        assert N.cross_entropy_common(ember.tensor(x), ember.tensor(y), -100) is not None
        errors_alike(run)
        return
    (lt, gt), (le, ge) = run(torch), run(ember)
    assert _bits(le) == _bits(lt)
    assert _bits(ge) == _bits(gt)
    assert le.grad_fn.name() == lt.grad_fn.name()
