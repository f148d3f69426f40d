"""Warnings that torch gives real programs, with torch's category and text (and, for its
``TORCH_WARN_ONCE`` sites, once per process)."""

import warnings

import numpy as np
import pytest

import ember
from ember import _factories, _tensor

torch = pytest.importorskip("torch")


def _warnings(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return [(x.category.__name__, str(x.message).split(" (Triggered internally")[0]) for x in w]


CASES = {
    "log_softmax_without_dim": lambda lib: lib.nn.functional.log_softmax(lib.ones(2, 3)),
    "softmin_without_dim": lambda lib: lib.nn.functional.softmin(lib.ones(2, 3)),
    "upsample": lambda lib: lib.nn.functional.upsample(lib.ones(1, 1, 2, 2), scale_factor=2),
    "mse_loss_sizes": lambda lib: lib.nn.functional.mse_loss(lib.ones(3, 1), lib.ones(3)),
    "tensor_of_a_tensor": lambda lib: lib.tensor(lib.ones(2)),
    "grad_of_a_non_leaf": lambda lib: (lib.ones(2, requires_grad=True) * 2).grad,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_warnings_as_torch(name):
    assert _warnings(lambda: CASES[name](ember)) == _warnings(lambda: CASES[name](torch))


def test_reversing_t_warns_once_each(monkeypatch):
    monkeypatch.setattr(_tensor, "_t_warned", {0: False, "other": False})
    got = _warnings(lambda: [ember.tensor(1.0).T, ember.tensor(1.0).T, ember.ones(3).T,
                             ember.ones(2, 3).T])
    assert [m for _, m in got] == [
        "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
        "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
        "deprecated and it will throw an error in a future release. Consider `x.mT` to "
        "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
        "reverse the dimensions of a tensor."]


def test_read_only_numpy_array_warns_once(monkeypatch):
    monkeypatch.setattr(_factories, "_writable_warned", [False])
    a = np.ones(3)
    a.flags.writeable = False
    got = _warnings(lambda: [ember.as_tensor(a, dtype=ember.float32), ember.as_tensor(a),
                             ember.from_numpy(a)])
    assert len(got) == 1 and got[0][1].startswith("The given NumPy array is not writable")
