"""Every case of tests/data/rng_vectors.json through ember's public API.

Factories (``ember.randn`` …), in-place samplers on views (``x.t().uniform_()``),
generators, RNG state bytes, dropout and nn layer initialisation: each result equal to
torch's bit for bit, and the default generator's state hash after each case equal too.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest

import ember

DATA = json.loads((Path(__file__).parent / "data" / "rng_vectors.json").read_text())
CASES = DATA["cases"]


def _value(v):
    return float(v) if isinstance(v, str) else v


def check_result(got, expected):
    if isinstance(got, ember.Tensor):
        arr = got.detach().numpy()
        assert arr.dtype.name == expected["dtype"].replace("bool", "bool")
        assert list(arr.shape) == expected["shape"]
        if "values" in expected:
            want = np.array([_value(v) for v in expected["values"]], dtype=arr.dtype)
            np.testing.assert_array_equal(arr.ravel(), want)
        else:
            c = np.ascontiguousarray(arr)
            flat = c.ravel()
            np.testing.assert_array_equal(flat[:8], np.array(
                [_value(v) for v in expected["head"]], dtype=arr.dtype))
            np.testing.assert_array_equal(flat[-8:], np.array(
                [_value(v) for v in expected["tail"]], dtype=arr.dtype))
            assert hashlib.sha256(c.astype(c.dtype.newbyteorder("<")).tobytes()).hexdigest() \
                == expected["sha256"]
    elif isinstance(got, dict):
        assert list(got) == list(expected)
        for k in expected:
            check_result(got[k], expected[k])
    else:
        raise AssertionError(f"unexpected result {got!r}")


def _view(t, view):
    return {"none": lambda x: x, "T": lambda x: x.t(), "cols2": lambda x: x[:, ::2],
            "permute201": lambda x: x.permute(2, 0, 1)}[view](t)


def _state_summary(state: ember.Tensor) -> dict:
    b = state.numpy().tobytes()
    return {"size": len(b), "sha256": hashlib.sha256(b).hexdigest(),
            "initial_seed": int.from_bytes(b[0:8], "little"),
            "left": int.from_bytes(b[8:12], "little", signed=True),
            "seeded": int.from_bytes(b[12:16], "little", signed=True),
            "next": int.from_bytes(b[16:24], "little"),
            "normal_is_valid": int.from_bytes(b[5040:5044], "little", signed=True),
            "normal_y": float(np.frombuffer(b[5024:5032], "<f8")[0])
            if b[5040] else None,
            "float_normal_is_valid": bool(b[5052])}


def _module(call):
    nn = pytest.importorskip("ember.nn")
    kwargs = {k: (tuple(v) if isinstance(v, list) else v) for k, v in call.items()
              if k not in ("fn", "result")}
    cls = getattr(nn, call["fn"].split(".", 1)[1], None)
    if cls is None:
        pytest.skip(f"{call['fn']} not available yet")
    m = cls(**kwargs)
    return {name: p for name, p in m.named_parameters()}


def run_call(call, gens, states):
    fn = call["fn"]
    dtype = getattr(ember, call.get("dtype", "float32"))
    gen = gens.get(call.get("generator"))
    if fn in ("rand", "randn"):
        return getattr(ember, fn)(*call["size"], dtype=dtype, generator=gen)
    if fn == "randint":
        return ember.randint(call["low"], call["high"], tuple(call["size"]), dtype=dtype,
                             generator=gen)
    if fn == "randperm":
        return ember.randperm(call["n"], dtype=dtype, generator=gen)
    if fn in ("uniform_", "normal_", "random_", "bernoulli_", "exponential_"):
        base = ember.zeros(*(call.get("base_size") or call["size"]), dtype=dtype)
        target = _view(base, call.get("view", "none"))
        args = {"uniform_": ("from", "to"), "normal_": ("mean", "std"), "random_": (),
                "bernoulli_": ("p",), "exponential_": ("lambd",)}[fn]
        getattr(target, fn)(*[call[a] for a in args if a in call], generator=gen)
        return base
    if fn == "bernoulli":
        return ember.bernoulli(ember.tensor(call["p"], dtype=dtype), generator=gen)
    if fn == "normal_tensors":
        return ember.normal(ember.tensor(call["mean"], dtype=dtype),
                            ember.tensor(call["std"], dtype=dtype), generator=gen)
    if fn == "multinomial":
        return ember.multinomial(ember.tensor(call["probs"], dtype=dtype), call["num_samples"],
                                 call["replacement"], generator=gen)
    if fn == "dropout":
        F = pytest.importorskip("ember.nn.functional")
        return F.dropout(ember.tensor(call["input"], dtype=dtype), call["p"], call["training"])
    if fn == "Generator":
        g = ember.Generator()
        if "seed" in call:
            g.manual_seed(call["seed"])
        gens[call["name"]] = g
        return {"initial_seed": g.initial_seed()}
    if fn == "manual_seed":
        ember.manual_seed(call["seed"])
        return None
    if fn == "initial_seed":
        return {"initial_seed": (gen or ember.default_generator).initial_seed()}
    if fn == "get_rng_state":
        state = (gen.get_state() if gen else ember.get_rng_state())
        if "save_as" in call:
            states[call["save_as"]] = state
        summary = _state_summary(state)
        if call.get("full"):
            summary["hex"] = state.numpy().tobytes().hex()
        return summary
    if fn == "set_rng_state":
        ember.set_rng_state(states[call["name"]])
        return None
    if fn.startswith("nn."):
        return _module(call)
    if fn.startswith("init."):
        init = pytest.importorskip("ember.nn.init")
        t = ember.empty(*call["size"])
        getattr(init, fn.split(".", 1)[1])(t, **call.get("kwargs", {}))
        return t
    raise AssertionError(f"unknown call {fn}")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case):
    ember.manual_seed(case["seed"])
    gens, states = {}, {}
    for call in case["calls"]:
        got = run_call(call, gens, states)
        expected = call.get("result")
        if expected is None:
            continue
        if isinstance(got, dict) and not any(isinstance(v, ember.Tensor) for v in got.values()):
            for k, v in expected.items():
                if isinstance(v, float) and math.isnan(v):
                    assert math.isnan(got[k])
                else:
                    assert got[k] == v, k
        else:
            check_result(got, expected)
    final = case["final_default_state"]
    summary = _state_summary(ember.get_rng_state())
    assert summary["sha256"] == final["sha256"]


def test_seed_document_numbers():
    ember.manual_seed(20200910)
    assert repr(ember.randn(3, 5)).startswith("tensor([[ 0.2824, -0.3715,  0.9088, -1.7601")


def test_manual_seed_returns_the_default_generator():
    g = ember.manual_seed(0)
    assert g is ember.default_generator
    assert repr(g).startswith("<ember.Generator object at 0x")
