"""The print vectors again, through ember's public API: ``repr(ember.tensor(...))``.

Every case whose dtype ember has (all but bfloat16, which NumPy cannot store) is built as an
ember tensor — a Parameter, a tensor requiring grad, or one carrying the case's grad_fn — and
printed with ember's own ``set_printoptions`` / ``set_default_dtype``.
"""

from __future__ import annotations

import pytest

import ember
from ember.autograd.graph import Node

from .test_printing_vectors import CASES, _build, _options

EMBER_CASES = [c for c in CASES if c["dtype"] != "bfloat16"]


def _named_node(name: str) -> Node:
    cls = type(name, (Node,), {"__slots__": (), "_name": name})
    node = cls()
    node.next_functions = ()
    return node


@pytest.fixture(autouse=True)
def _reset():
    yield
    ember.set_printoptions(profile="default")
    ember.set_default_dtype(ember.float32)


@pytest.mark.parametrize("case", EMBER_CASES, ids=[c["id"] for c in EMBER_CASES])
def test_repr_of_ember_tensor(case):
    if case["default_dtype"]:
        ember.set_default_dtype(getattr(ember, case["default_dtype"]))
    t = ember.from_numpy(_build(case))
    if case["is_parameter"]:
        nn = pytest.importorskip("ember.nn")
        t = nn.Parameter(t, requires_grad=case["requires_grad"])
    elif case["grad_fn"]:
        t.grad_fn = _named_node(case["grad_fn"])
    elif case["requires_grad"]:
        t.requires_grad_()
    ember.set_printoptions(**_options(case))
    assert repr(t) == case["repr"]
    assert str(t) == case["str"]


def test_seed_strings_through_real_ops():
    x = ember.tensor([0.0585], requires_grad=True).sum()
    assert repr(x) == "tensor(0.0585, grad_fn=<SumBackward0>)"
    assert repr(ember.tensor(1182591.0, requires_grad=True) * 1.0) == \
        "tensor(1182591., grad_fn=<MulBackward0>)"


def test_printoptions_are_exported():
    with ember._tensor_str.printoptions(precision=2):     # where torch has them
        assert repr(ember.tensor([1.2345])) == "tensor([1.23])"
        assert ember._tensor_str.get_printoptions()["precision"] == 2
    assert repr(ember.tensor([1.2345])) == "tensor([1.2345])"
