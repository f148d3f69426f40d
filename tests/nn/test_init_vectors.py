"""nn default initialisation and dropout against torch 2.13's recorded RNG vectors.

Every case of tests/data/rng_vectors.json that constructs a layer (``nn.Linear``,
``nn.Conv2d``, …), calls ``nn.init.*`` or ``F.dropout`` is replayed through ember's public
API from ``manual_seed(seed)``; each parameter must equal torch's bit for bit, and the
default generator's final state must match too.
"""

from __future__ import annotations

import hashlib
import json
import pathlib

import numpy as np
import pytest

ember = pytest.importorskip("ember")
try:
    import ember.random  # noqa: F401
    HAVE_RNG = hasattr(ember.random, "Generator") and hasattr(
        ember.random.default_generator, "_get_state_bytes")
except ImportError:  # pragma: no cover
    HAVE_RNG = False

import ember.nn as nn  # noqa: E402
import ember.nn.functional as F  # noqa: E402

pytestmark = pytest.mark.skipif(not HAVE_RNG, reason="ember.random (the mt19937 generator) "
                                "is not available yet")

DATA = json.loads((pathlib.Path(__file__).parents[1] / "data" / "rng_vectors.json").read_text())
NN_FNS = ("nn.", "init.")
CASES = [c for c in DATA["cases"]
         if any(k["fn"].startswith(NN_FNS) or k["fn"] == "dropout" for k in c["calls"])]
DT = {"float32": ember.float32, "float64": ember.float64, "int64": ember.int64,
      "bool": ember.bool}


def _expected(res):
    conv = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf}
    vals = [conv.get(v, v) if isinstance(v, str) else v for v in res["values"]]
    return np.array(vals, dtype=res["dtype"]).reshape(res["shape"])


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.itemsize}") if a.dtype.kind == "f" else a


def _same(actual: np.ndarray, res: dict, where: str) -> None:
    assert str(actual.dtype) == res["dtype"], where
    assert list(actual.shape) == res["shape"], where
    flat = np.ascontiguousarray(actual).reshape(-1)
    if "values" in res:
        assert np.array_equal(_bits(flat), _bits(_expected(res).reshape(-1))), where
        return
    for part, got in (("head", flat[:8]), ("tail", flat[-8:])):
        exp = np.array(res[part], dtype=res["dtype"])
        assert np.array_equal(_bits(got), _bits(exp)), f"{where} ({part})"
    digest = hashlib.sha256(flat.astype(flat.dtype.newbyteorder("<")).tobytes()).hexdigest()
    assert digest == res["sha256"], where


def _module(call):
    kw = {k: v for k, v in call.items() if k not in ("fn", "result")}
    for k in ("kernel_size",):
        if k in kw and isinstance(kw[k], list):
            kw[k] = tuple(kw[k])
    return getattr(nn, call["fn"][3:])(**kw)


def _run(call):
    fn = call["fn"]
    if fn.startswith("nn."):
        m = _module(call)
        for name, exp in call["result"].items():
            _same(getattr(m, name).detach().numpy(), exp, f"{fn}.{name}")
        return
    if fn.startswith("init."):
        t = ember.empty(*call["size"])
        getattr(nn.init, fn[5:])(t, **call.get("kwargs", {}))
        _same(t.numpy(), call["result"], fn)
        return
    if fn == "dropout":
        x = ember.tensor(call["input"], dtype=DT[call["dtype"]])
        out = F.dropout(x, call["p"], call["training"])
        _same(out.numpy(), call["result"], f"dropout p={call['p']}")
        return
    if fn == "bernoulli_":
        out = ember.empty(*call["size"], dtype=DT[call["dtype"]]).bernoulli_(call["p"])
    elif fn == "bernoulli":
        out = ember.bernoulli(ember.tensor(call["p"], dtype=DT[call["dtype"]]))
    elif fn == "exponential_":
        out = ember.empty(*call["size"], dtype=DT[call["dtype"]]).exponential_(call["lambd"])
    elif fn == "multinomial":
        out = ember.multinomial(ember.tensor(call["probs"], dtype=DT[call["dtype"]]),
                                call["num_samples"], call["replacement"])
    else:  # pragma: no cover - a new kind of call in the vectors
        pytest.fail(f"unknown call {fn}")
    _same(out.numpy(), call["result"], fn)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case):
    ember.manual_seed(case["seed"])
    for call in case["calls"]:
        _run(call)
    raw = ember.random.default_generator._get_state_bytes()
    final = case["final_default_state"]
    assert hashlib.sha256(np.asarray(raw, np.uint8).tobytes()).hexdigest() == final["sha256"]


def test_layers_in_sequential_follow_construction_order():
    import torch
    torch.manual_seed(3)
    t = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.Linear(4, 5),
                            torch.nn.Embedding(3, 4), torch.nn.GRU(2, 3))
    ember.manual_seed(3)
    e = nn.Sequential(nn.Conv2d(1, 2, 3), nn.Linear(4, 5), nn.Embedding(3, 4), nn.GRU(2, 3))
    for (kt, vt), (ke, ve) in zip(t.state_dict().items(), e.state_dict().items()):
        assert kt == ke
        assert np.array_equal(vt.numpy(), ve.numpy()), kt
