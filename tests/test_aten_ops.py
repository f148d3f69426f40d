"""``torch.ops.aten``: operator packets and overloads resolve to Ember's ops, as torch's do."""

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")


def _calls(lib):
    A = lib.ops.aten
    x = lib.arange(6.0).reshape(2, 3)
    y = lib.ones(2, 3)
    a = x.clone()
    A.add_.Tensor(a, y)
    return [A.add(x, y), A.add.Tensor(x, y, alpha=2), A.add.Scalar(x, 2), a,
            A.neg.default(x), A.t.default(x), A.transpose.int(x, 0, 1), A.clone.default(x),
            A.gelu(x, approximate="tanh"), A.maximum.default(x, y), A.sum.dim_IntList(x, [1]),
            A.relu.default(x - 2)]


def test_aten_calls_as_torchs():
    for t, e in zip(_calls(torch), _calls(ember)):
        np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-6)
        assert str(e.dtype) == str(t.dtype)


def test_names_and_errors_as_torchs():
    for lib in (torch, ember):
        A = lib.ops.aten
        assert A.neg.default.name() == "aten::neg"
        assert A.add.Tensor.name() == "aten::add.Tensor"
        assert str(A.add) == "aten.add" and str(A.add.Tensor) == "aten.add.Tensor"
        assert repr(A.neg.default) == "<OpOverload(op='aten.neg', overload='default')>"
        assert A.add.Tensor.overloadpacket is A.add
        with pytest.raises(AttributeError, match="'_OpNamespace' 'aten' object has no "
                                                 "attribute 'no_such_op'"):
            A.no_such_op  # noqa: B018
