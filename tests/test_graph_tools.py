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
        text = open(path).read()
        assert "<svg" in text and ">x<" in text        # the leaf named by its variable


def _mlp(lib):
    lib.manual_seed(0)
    nn = lib.nn
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Sequential(nn.Linear(4, 2)))


def test_leaves_named_by_a_modules_qualified_names():
    model = _mlp(ember)
    loss = model(ember.ones(5, 3)).sum()
    out = io.StringIO()
    explain(loss, model, file=out)
    named = re.findall(r"leaf (\S+) \(", out.getvalue())
    torch = pytest.importorskip("torch")
    expected = [n for n, _ in _mlp(torch).named_parameters()]   # 0.weight … 2.0.bias
    assert sorted(named) == sorted(expected)
    labels = re.findall(r'label="([^"\\]+)\\n\(', to_dot(loss, model))
    assert sorted(x for x in labels if x != "output") == sorted(expected)


def test_leaves_named_by_the_callers_variables():
    weight = ember.randn(3, requires_grad=True)
    bias = ember.zeros(1, requires_grad=True)
    loss = (weight * 2 + bias).sum()
    out = io.StringIO()
    explain(loss, file=out)
    text = out.getvalue()
    assert "leaf weight (3,)" in text and "leaf bias (1,)" in text
    dot = to_dot(loss)
    assert 'label="weight\\n(3,)' in dot and 'label="bias\\n(1,)' in dot
    # a name given in params wins over the variable's
    assert 'label="w\\n(3,)' in to_dot(loss, {"w": weight})


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("fmt,magic", [("svg", b"<svg"), ("png", b"\x89PNG")])
def test_render_with_the_graphviz_package(tmp_path, fmt, magic):
    pytest.importorskip("graphviz", reason="the [viz] extra is not installed")
    weight = ember.randn(3, requires_grad=True)
    loss = (weight.exp() * 2).sum()
    path = render(loss, str(tmp_path / f"g.{fmt}"))
    data = open(path, "rb").read()
    assert magic in data[:400]
    if fmt == "svg":
        assert b">weight<" in data and b"ExpBackward0" in data
