"""Empty tensors in reductions and reshapes: torch's results, and torch's errors (never
NumPy's "zero-size array to reduction operation …" from deep inside a kernel)."""

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")


def _empty(lib):
    return lib.ones(0, 3)


CASES = {
    "max": lambda lib: _empty(lib).max(),
    "max_dim0": lambda lib: _empty(lib).max(0),
    "max_dim1": lambda lib: _empty(lib).max(1),
    "max_neg_dim": lambda lib: _empty(lib).max(-2, keepdim=True),
    "min_dim0": lambda lib: lib.min(_empty(lib), 0),
    "max_long": lambda lib: lib.ones(0, 3, dtype=lib.long).max(0),
    "amax": lambda lib: _empty(lib).amax(),
    "amax_dim0": lambda lib: _empty(lib).amax(0),
    "amax_dim1": lambda lib: _empty(lib).amax(1),
    "amax_dims": lambda lib: _empty(lib).amax((1, 0)),
    "amin_dim0": lambda lib: _empty(lib).amin(0),
    "argmax": lambda lib: _empty(lib).argmax(),
    "argmax_dim0": lambda lib: _empty(lib).argmax(0),
    "argmax_dim1": lambda lib: _empty(lib).argmax(1),
    "argmin": lambda lib: _empty(lib).argmin(),
    "argmin_1d": lambda lib: lib.ones(0).argmin(0),
    "sum_dim0": lambda lib: _empty(lib).sum(0),
    "mean": lambda lib: _empty(lib).mean(),
    "logsumexp_dim0": lambda lib: _empty(lib).logsumexp(0),
    "reshape_ambiguous": lambda lib: _empty(lib).reshape(-1, 0),
    "view_ambiguous": lambda lib: _empty(lib).view(0, -1, 2),
    "reshape_bad": lambda lib: lib.ones(2, 3).reshape(-1, 0),
    "reshape_fine": lambda lib: _empty(lib).reshape(5, -1),
}


def _outcome(lib, fn):
    try:
        r = fn(lib)
    except Exception as e:       # noqa: BLE001 - the error is what is compared
        return type(e).__name__, str(e)
    r = r[0] if isinstance(r, tuple) else r
    return tuple(r.shape), str(r.dtype), np.asarray(r.numpy()).tolist()


@pytest.mark.parametrize("name", sorted(CASES))
def test_empty_as_torch(name):
    got, want = _outcome(ember, CASES[name]), _outcome(torch, CASES[name])
    assert repr(got).replace("ember", "torch") == repr(want)
