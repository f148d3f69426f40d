"""to_dot / explain: the seed's graph made visible, numbers checked against the saved arrays."""

from __future__ import annotations

import io
import re
import shutil

import pytest

import ember
from ember.autograd.graph import explain, render, summary, to_dot


def seed_loss():
    ember.manual_seed(20200910)
    data_in = ember.randn(3, 5, requires_grad=True)
    data_mean = data_in.mean()
    data_2 = data_mean * 20200910.0 * 15.0
    data_2.retain_grad()
    loss = 2 * (data_2 + 55.0) / 2.0 + 89.2
    return data_in, data_2, loss


def test_dot_of_the_seed_loss():
    data_in, _, loss = seed_loss()
    dot = to_dot(loss, {"data_in": data_in})
    assert dot.startswith("digraph backward {") and dot.rstrip().endswith("}")
    labels = re.findall(r'label="([^"\\]+)', dot)
    ops = [x for x in labels if x.endswith("Backward0")]
    assert sorted(ops) == sorted(["AddBackward0", "DivBackward0", "MulBackward0",
                                  "AddBackward0", "MulBackward0", "MulBackward0",
                                  "MeanBackward0"])
    assert "data_in" in labels
    assert "(3, 5) float32" in dot and "requires_grad" in dot
    # every edge joins two declared nodes
    declared = set(re.findall(r"^\s+(\w+) \[", dot, re.M))
    for a, b in re.findall(r"^\s+(\w+) -> (\w+);", dot, re.M):
        assert a in declared and b in declared


def test_explain_counts_saved_bytes():
    x = ember.randn(4, 3, requires_grad=True)
    w = ember.randn(3, 2, requires_grad=True)
    e = x.exp()
    y = (e @ w).tanh().sum()
    expected = (x.nbytes        # ExpBackward0 keeps its result
                + e.nbytes + w.nbytes   # MmBackward0 keeps both operands
                + 4 * 2 * 4)    # TanhBackward0 keeps its (4, 2) result
    out = io.StringIO()
    totals = explain(y, {"x": x, "w": w}, file=out)
    assert totals["saved_bytes"] == expected
    assert totals["leaves"] == 2 and totals["nodes"] == 4
    assert f"{expected} bytes held for backward" in out.getvalue()
    y.backward()
    after = summary(y)
    assert after["saved_bytes"] == 0 and after["freed_nodes"] == 3


def test_explain_under_no_grad_is_zero():
    x = ember.randn(4, 3, requires_grad=True)
    with ember.no_grad():
        y = (x.exp() * x).sum()
    assert summary(y) == {"nodes": 0, "leaves": 0, "saved_tensors": 0, "saved_bytes": 0,
                          "freed_nodes": 0}


def test_explain_names_retained_and_leaves():
    data_in, _, loss = seed_loss()
    out = io.StringIO()
    explain(loss, {"data_in": data_in}, file=out)
    text = out.getvalue()
    assert "leaf data_in (3, 5): requires_grad=True, receives .grad after backward" in text
    assert "retains .grad" in text


def test_render(tmp_path):
    x = ember.ones(2, requires_grad=True)
    y = (x * 2).sum()
    if shutil.which("dot") is None:
        with pytest.raises(RuntimeError, match="apt-get install graphviz"):
            render(y, str(tmp_path / "g.svg"))
    else:
        path = render(y, str(tmp_path / "g.svg"))
        assert "<svg" in open(path).read()
