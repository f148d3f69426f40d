"""ember.random against torch 2.13's CPU generator: recorded vectors, errors, properties.

The vectors (tests/data/rng_vectors.json, produced by torch) are replayed at the NumPy
level through the Generator's fill kernels; every result and the sha256 of the default
generator's 5056 state bytes after each case must match bit for bit.

Skipped vector cases (they construct nn modules or call nn.init, which live elsewhere):
nn_init_seed0, nn_init_seed1, nn_init_seed2024, nn_linear_3_2_seed0, nn_linear_3_2_seed1,
nn_linear_3_2_seed2024. Dropout calls inside other cases are replayed with a NumPy version
of F.dropout (bernoulli_(1 - p), divide by 1 - p, multiply).
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys

import numpy as np
import pytest

try:
    import ember.random as R
except ImportError:  # running from a checkout without an installed package
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "src"))
    import ember.random as R

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "rng_vectors.json").read_text())
CASES = {c["id"]: c for c in DATA["cases"]}
NEEDS_NN = {cid for cid, c in CASES.items()
            if any(k["fn"].startswith(("nn.", "init.")) for k in c["calls"])}
RUN_CASES = [cid for cid in CASES if cid not in NEEDS_NN]


# ---------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------

def _expected_array(values, dtype, shape):
    conv = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}
    vals = [conv.get(v, v) if isinstance(v, str) else v for v in values]
    return np.array(vals, dtype=dtype).reshape(shape)


def _check_result(actual: np.ndarray, res: dict, where: str) -> None:
    assert str(actual.dtype) == res["dtype"], where
    assert list(actual.shape) == res["shape"], where
    flat = np.ascontiguousarray(actual).reshape(-1)
    if "values" in res:
        exp = _expected_array(res["values"], actual.dtype, actual.shape).reshape(-1)
        _bitwise_equal(flat, exp, where)
    else:
        _bitwise_equal(flat[:8], _expected_array(res["head"], actual.dtype, (-1,)), where)
        _bitwise_equal(flat[-8:], _expected_array(res["tail"], actual.dtype, (-1,)), where)
        assert hashlib.sha256(flat.astype(flat.dtype.newbyteorder("<")).tobytes()).hexdigest() \
            == res["sha256"], where


def _bitwise_equal(a: np.ndarray, e: np.ndarray, where: str) -> None:
    assert a.shape == e.shape, where
    if a.dtype.kind == "f":
        ui = np.dtype(f"u{a.dtype.itemsize}")
        same = (a.view(ui) == e.view(ui)) | (np.isnan(a) & np.isnan(e))
        bad = np.flatnonzero(~same)
        assert bad.size == 0, f"{where}: first mismatch at {bad[:5]}: {a[bad[:5]]} vs {e[bad[:5]]}"
    else:
        assert np.array_equal(a, e), f"{where}: {a} vs {e}"


def _view(base: np.ndarray, kind: str | None) -> np.ndarray:
    if kind in (None, "none"):
        return base
    if kind == "T":
        return base.T
    if kind == "cols2":
        return base[:, ::2]
    if kind == "permute201":
        return base.transpose(2, 0, 1)
    raise AssertionError(kind)


def _dropout(gen: R.Generator, x: np.ndarray, p: float, training: bool) -> np.ndarray:
    """F.dropout at the NumPy level (spec §6)."""
    if p == 0 or not training or x.size == 0:
        return x
    if p == 1:
        return x * np.zeros((), x.dtype)
    q = 1 - p
    noise = np.empty_like(x)
    gen._bernoulli_scalar_(noise, q)
    noise = noise / x.dtype.type(q)
    return x * noise


def _state_fields(b: np.ndarray) -> dict:
    raw = b.tobytes()
    return {
        "size": b.size,
        "sha256": hashlib.sha256(raw).hexdigest(),
        "initial_seed": int.from_bytes(raw[0:8], "little"),
        "left": int.from_bytes(raw[8:12], "little", signed=True),
        "seeded": int.from_bytes(raw[12:16], "little", signed=True),
        "next": int.from_bytes(raw[16:24], "little"),
        "normal_is_valid": int.from_bytes(raw[5040:5044], "little", signed=True),
        "normal_y": float(np.frombuffer(raw[5024:5032], "<f8")[0]) if raw[5040] else None,
        "float_normal_is_valid": bool(raw[5052]),
    }


def _run_call(call: dict, gens: dict, saved: dict) -> None:
    fn = call["fn"]
    gen = gens[call["generator"]] if "generator" in call else R.default_generator
    res = call.get("result")
    dtype = np.dtype(call.get("dtype", "float32"))
    where = json.dumps({k: v for k, v in call.items() if k != "result"})[:200]
    if fn in ("rand", "randn"):
        arr = np.empty(call["size"], dtype=dtype)
        if fn == "rand":
            gen._uniform_(arr, 0.0, 1.0)
        else:
            gen._normal_(arr, 0.0, 1.0)
        _check_result(arr, res, where)
    elif fn == "randint":
        arr = np.empty(call["size"], dtype=dtype)
        gen._random_(arr, call["low"], call["high"])
        _check_result(arr, res, where)
    elif fn == "randperm":
        _check_result(gen._randperm(call["n"], dtype), res, where)
    elif fn in ("uniform_", "normal_", "random_", "bernoulli_", "exponential_"):
        base = np.zeros(call.get("base_size") or call["size"], dtype=dtype)
        view = _view(base, call.get("view"))
        if fn == "uniform_":
            gen._uniform_(view, call["from"], call["to"])
        elif fn == "normal_":
            gen._normal_(view, call["mean"], call["std"])
        elif fn == "random_":
            gen._random_(view)
        elif fn == "bernoulli_":
            gen._bernoulli_scalar_(view, call["p"])
        else:
            gen._exponential_(view, call["lambd"])
        _check_result(base, res, where)
    elif fn == "bernoulli":
        _check_result(gen._bernoulli_tensor(np.array(call["p"], dtype=dtype)), res, where)
    elif fn == "normal_tensors":
        out = gen._normal_tensors(np.array(call["mean"], dtype=dtype),
                                  np.array(call["std"], dtype=dtype))
        _check_result(out, res, where)
    elif fn == "dropout":
        x = np.array(call["input"], dtype=dtype)
        _check_result(_dropout(gen, x, call["p"], call["training"]), res, where)
    elif fn == "multinomial":
        out = gen._multinomial(np.array(call["probs"], dtype=dtype), call["num_samples"],
                               call["replacement"])
        _check_result(out, res, where)
    elif fn == "manual_seed":
        assert R.manual_seed(call["seed"]) is R.default_generator
    elif fn == "initial_seed":
        assert gen.initial_seed() == res["initial_seed"], where
    elif fn == "Generator":
        g = R.Generator() if "seed" not in call else R.Generator().manual_seed(call["seed"])
        gens[call["name"]] = g
        assert g.initial_seed() == res["initial_seed"], where
    elif fn == "get_rng_state":
        b = gen._get_state_bytes()
        assert b.dtype == np.uint8
        fields = _state_fields(b)
        for key, value in res.items():
            if key == "hex":
                assert b.tobytes().hex() == value, where
            else:
                assert fields[key] == value, (where, key)
        if "save_as" in call:
            saved[call["save_as"]] = b
    elif fn == "set_rng_state":
        gen._set_state_bytes(saved[call["name"]])
    else:
        raise AssertionError(f"unknown call {fn}")


# ---------------------------------------------------------------------------------------
# vectors
# ---------------------------------------------------------------------------------------

def test_vector_file_covers_expected_cases():
    assert DATA["count"] == len(CASES) == 135
    assert len(NEEDS_NN) == 6
    assert all(cid.startswith(("nn_init_", "nn_linear_")) for cid in NEEDS_NN)


@pytest.mark.parametrize("case_id", RUN_CASES)
def test_vector_case(case_id):
    case = CASES[case_id]
    R.manual_seed(case["seed"])
    gens: dict = {}
    saved: dict = {}
    for call in case["calls"]:
        _run_call(call, gens, saved)
    final = case["final_default_state"]
    fields = _state_fields(R.default_generator._get_state_bytes())
    for key in ("sha256", "next", "left", "normal_is_valid"):
        assert fields[key] == final[key], key


@pytest.mark.parametrize("entry", DATA["raw_draws"], ids=lambda e: str(e["seed"]))
def test_raw_draws(entry):
    g = R.Generator().manual_seed(entry["seed"])
    assert g.initial_seed() == entry["initial_seed"]
    key = np.frombuffer(g._get_state_bytes().tobytes()[24:24 + 8 * 624], "<u8")
    assert key[:8].tolist() == entry["seeded_key_first8"]
    block1 = g._u32(624).tolist()
    block2 = g._u32(624).tolist()
    assert block1[:16] == entry["u32_block1_first16"]
    assert block2[:16] == entry["u32_block2_first16"]


# ---------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------

def _draw_mix(g: R.Generator) -> list:
    out = []
    for dt, n in ((np.float32, 5), (np.float32, 40), (np.float64, 3), (np.float64, 33)):
        a = np.empty(n, dt)
        g._normal_(a, 0.5, 2.0)
        out.append(a.copy())
        g._uniform_(a, -1.0, 3.0)
        out.append(a.copy())
    b = np.empty(7, np.int64)
    g._random_(b, -3, 10)
    out.append(b.copy())
    out.append(g._randperm(50))
    return out


def _same(xs, ys) -> bool:
    return all(x.dtype == y.dtype and x.tobytes() == y.tobytes() for x, y in zip(xs, ys))


def test_seed_plus_2_32_same_stream_different_initial_seed():
    g1 = R.Generator().manual_seed(12345)
    g2 = R.Generator().manual_seed(12345 + 2 ** 32)
    assert _same(_draw_mix(g1), _draw_mix(g2))
    assert g1.initial_seed() == 12345 and g2.initial_seed() == 12345 + 2 ** 32


def test_state_round_trip_including_cache():
    g = R.Generator().manual_seed(99)
    a = np.empty(3)
    g._normal_(a)                          # leaves a cached value
    state = g._get_state_bytes()
    assert state.size == 5056 and state[5040] == 1
    first = _draw_mix(g)
    g._set_state_bytes(state)
    assert g._get_state_bytes().tobytes() == state.tobytes()
    assert _same(first, _draw_mix(g))
    h = R.Generator()
    h._set_state_bytes(state)
    assert h.initial_seed() == 99
    assert _same(first, _draw_mix(h))


def test_fresh_and_exhausted_positions_in_state():
    g = R.Generator().manual_seed(0)
    f = _state_fields(g._get_state_bytes())
    assert (f["left"], f["next"]) == (1, 0)
    g._u32(624)
    f = _state_fields(g._get_state_bytes())
    assert (f["left"], f["next"]) == (1, 624)
    g._u32(1)
    f = _state_fields(g._get_state_bytes())
    assert (f["left"], f["next"]) == (624, 1)


def test_generators_independent_of_default_and_own_cache():
    R.manual_seed(5)
    before = R.default_generator._get_state_bytes()
    g = R.Generator().manual_seed(5)
    a = np.empty(3)
    g._normal_(a)                          # g caches, default untouched
    assert R.default_generator._get_state_bytes().tobytes() == before.tobytes()
    b = np.empty(3)
    R.default_generator._normal_(b)
    assert a.tobytes() == b.tobytes()
    c1, c2 = np.empty(1), np.empty(1)
    g._normal_(c1)                         # each takes its own cached value
    R.default_generator._normal_(c2)
    assert c1.tobytes() == c2.tobytes()
    assert g._normal is None and R.default_generator._normal is None


def test_generator_basics():
    g = R.Generator()
    assert g.initial_seed() == 67280421310721
    assert repr(g).startswith("<ember.Generator object at 0x")
    assert str(g.device) == "cpu"
    assert g.manual_seed(-1) is g and g.initial_seed() == 2 ** 64 - 1
    assert g.manual_seed(-2 ** 63).initial_seed() == 2 ** 63
    s = g.seed()
    assert 0 <= s < 2 ** 64 and g.initial_seed() == s
    assert R._gen(None) is R.default_generator and R._gen(g) is g
    assert R.manual_seed(1.9).initial_seed() == 1
    assert R.manual_seed("17").initial_seed() == 17
    assert R.manual_seed(True).initial_seed() == 1
    assert R.initial_seed() == 1
    assert 0 <= R.seed() < 2 ** 64


def test_normal_paths_and_cache_rules():
    # path A for small or non-contiguous tensors uses the cache; paths B/C ignore it
    g = R.Generator().manual_seed(3)
    one = np.empty(1)
    g._normal_(one)
    cached = g._normal
    assert cached is not None
    g._normal_(np.empty(16, np.float32))
    g._normal_(np.empty(40))
    assert g._normal == cached
    g._normal_(np.empty((7, 3), np.float32).T)     # non-contiguous: path A, uses the cache
    assert g._normal is None                       # 1 cached + 20 fresh: nothing left over
    g._normal_(np.empty((1, 3)))
    assert g._normal is not None


def test_noncontiguous_memory_order():
    g1 = R.Generator().manual_seed(8)
    g2 = R.Generator().manual_seed(8)
    base = np.zeros((6, 4))
    g1._uniform_(base.T, -1.0, 2.0)
    ref = np.zeros(24)
    g2._uniform_(ref, -1.0, 2.0)
    assert base.reshape(-1).tobytes() == ref.tobytes()


def test_fma_emulations_against_exact_arithmetic():
    from fractions import Fraction
    rng = np.random.default_rng(0)
    a = rng.standard_normal(20000) * 2.0 ** rng.integers(-30, 30, 20000)
    b = rng.standard_normal(20000)
    c = -a * b * (1 + rng.standard_normal(20000) * 1e-9) + rng.standard_normal(20000) * 1e-20
    r = R._fma64(a, b, c)
    exact = [float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)]
    assert r.tobytes() == np.array(exact).tobytes()
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    c32 = (-(a32.astype(np.float64) * b32) * (1 + 2.0 ** -25)).astype(np.float32)
    r32 = R._fma32(a32, b32, c32, check_subnormal=True)
    exact32 = np.array([float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                        for x, y, z in zip(a32, b32, c32)]).astype(np.float32)
    assert r32.tobytes() == exact32.tobytes()
    assert R._fma64(np.array([-0.0]), np.array([1.0]), np.array([0.0]))[0] == 0.0
    assert not np.signbit(R._fma64(np.array([-0.0]), np.array([1.0]), np.array([0.0]))[0])


def test_checked_wide_fma_is_the_single_rounding_fma():
    rng = np.random.default_rng(1)
    a = (rng.standard_normal(20000) * 2.0 ** rng.integers(-20, 20, 20000)).astype(np.float32)
    b = rng.standard_normal(20000).astype(np.float32)
    c = (-(a.astype(np.float64) * b) * (1 + 2.0 ** -25)).astype(np.float32)
    # (1 + 2**-23) + 2**-24 - 2**-70 rounds to a float32 midpoint in float64, then to even:
    # one rounding gives 1 + 2**-23
    a[0], b[0], c[0] = 1 + 2.0 ** -23, 2.0 ** -24 * (1 - 2.0 ** -23), 1 + 2.0 ** -23
    out = np.empty_like(a)
    R._Fma32(a.size, check=True)(a.astype(np.float64), b.astype(np.float64),
                                 c.astype(np.float64), out)
    assert out.tobytes() == R._fma32(a, b, c).tobytes()
    unchecked = R._Fma32(a.size)(a.astype(np.float64), b.astype(np.float64),
                                 c.astype(np.float64), np.empty_like(a))
    assert out[0] == np.float32(1 + 2.0 ** -23) != unchecked[0]
    assert unchecked[1:].tobytes() == out[1:].tobytes()


def test_normal_kernel_polynomials_need_no_midpoint_fixup():
    """The float32 normal kernel evaluates torch's log and sincos polynomials with the
    unchecked fma: over every input they can be given (1 - u and 2*pi*u for the 2**24
    uniforms u) the checked and unchecked evaluations agree bit for bit."""
    step = 1 << 20
    checked, unchecked = R._Fma32(step, check=True), R._Fma32(step)
    for start in range(0, 1 << 24, step):
        u = (np.arange(start, start + step) * 2.0 ** -24).astype(np.float32)
        u1 = R._ONE - u
        assert R._log_f32(u1.copy(), checked).tobytes() == \
            R._log_f32(u1.copy(), unchecked).tobytes()
        a = u * R._TWO_PI_F
        for x, y in zip(R._sincos_f32(a, checked), R._sincos_f32(a, unchecked)):
            assert x.tobytes() == y.tobytes()


# ---------------------------------------------------------------------------------------
# against torch directly (errors, dtypes outside the vectors)
# ---------------------------------------------------------------------------------------

def _torch_error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - compare whatever torch raises
        return type(e), str(e)
    return None


def _ember_error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e), str(e)
    return None


G = R.Generator()
NP = {"float16": np.float16, "float32": np.float32, "float64": np.float64,
      "int64": np.int64, "int32": np.int32, "int16": np.int16, "int8": np.int8,
      "uint8": np.uint8, "bool": np.bool_}

ERROR_CASES = [
    ("uniform_", "float32", (2.0, 1.0)), ("uniform_", "int64", ()), ("uniform_", "bool", ()),
    ("uniform_", "float32", (-1e39, 1.0)), ("uniform_", "float32", (-3e38, 3e38)),
    ("uniform_", "float64", (float("-inf"), 1.0)), ("uniform_", "float16", (0.0, 1e5)),
    ("uniform_", "float32", (float("nan"), 1.0)),
    ("normal_", "float32", (0.0, -1.0)), ("normal_", "float32", (0.0, -1.5)),
    ("normal_", "int64", ()), ("normal_", "int64", (0.0, -1.0)),
    ("normal_", "float32", (0.0, float("nan"))),
    ("exponential_", "float32", (-1.0,)), ("exponential_", "float32", (0.0,)),
    ("exponential_", "int64", ()), ("exponential_", "int64", (-1.0,)),
    ("log_normal_", "float32", (1.0, -1.0)), ("log_normal_", "float32", (1.0, 0.0)),
    ("log_normal_", "int64", ()),
    ("cauchy_", "float32", (0.0, -1.0)), ("cauchy_", "int32", ()),
    ("geometric_", "float32", (0.0,)), ("geometric_", "float32", (1.0,)),
    ("geometric_", "float32", (1.5,)), ("geometric_", "float32", (float("nan"),)),
    ("bernoulli_", "float32", (1.5,)), ("bernoulli_", "float32", (-0.1,)),
    ("bernoulli_", "float32", (float("nan"),)),
    ("random_", "float32", (5, 5)), ("random_", "float32", (0,)),
    ("random_", "uint8", (0, 300)), ("random_", "uint8", (-1, 3)),
    ("random_", "int8", (0, 129)), ("random_", "int16", (0, 2 ** 15 + 1)),
    ("random_", "int32", (0, 2 ** 31 + 1)), ("random_", "bool", (0, 3)),
    ("random_", "float32", (0, 2 ** 63)), ("random_", "float16", (0, 70000)),
    ("random_", "int32", (-2 ** 63, None)), ("random_", "float16", (-2 ** 63, None)),
    ("random_", "bool", (-2 ** 63, None)), ("random_", "bool", (5, None)),
    ("random_", "float32", (2 ** 62 + 12345, None)),
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("method,dtype,args", ERROR_CASES)
def test_kernel_errors_match_torch(method, dtype, args):
    torch = pytest.importorskip("torch")
    tdt = getattr(torch, dtype)
    expected = _torch_error(lambda: getattr(torch.zeros(3, dtype=tdt), method)(*args))
    assert expected is not None
    arr = np.zeros(3, NP[dtype])
    if method == "random_":
        call = lambda: G._random_(arr, *args)  # noqa: E731
    elif method == "bernoulli_":
        call = lambda: G._bernoulli_scalar_(arr, *args)  # noqa: E731
    else:
        call = lambda: getattr(G, "_" + method)(arr, *args)  # noqa: E731
    got = _ember_error(call)
    assert got is not None
    assert got[1] == expected[1]
    assert issubclass(got[0], expected[0]) or got[0] is expected[0]


def test_other_errors_match_torch():
    torch = pytest.importorskip("torch")
    t = torch.tensor
    checks = [
        (lambda: torch.Generator().manual_seed(1.5), lambda: R.Generator().manual_seed(1.5)),
        (lambda: torch.Generator().manual_seed(True), lambda: R.Generator().manual_seed(True)),
        (lambda: torch.Generator().manual_seed("17"), lambda: R.Generator().manual_seed("17")),
        (lambda: torch.Generator().manual_seed(2 ** 64),
         lambda: R.Generator().manual_seed(2 ** 64)),
        (lambda: torch.Generator().manual_seed(-2 ** 63 - 1),
         lambda: R.Generator().manual_seed(-2 ** 63 - 1)),
        (lambda: torch.manual_seed(2 ** 64), lambda: R.manual_seed(2 ** 64)),
        (lambda: torch.manual_seed(None), lambda: R.manual_seed(None)),
        (lambda: torch.Generator().set_state(torch.zeros(10, dtype=torch.uint8)),
         lambda: R.Generator()._set_state_bytes(np.zeros(10, np.uint8))),
        (lambda: torch.Generator().set_state(torch.zeros(5056, dtype=torch.uint8)),
         lambda: R.Generator()._set_state_bytes(np.zeros(5056, np.uint8))),
        (lambda: torch.Generator().set_state(torch.zeros(5056)),
         lambda: R.Generator()._set_state_bytes(np.zeros(5056, np.float32))),
        (lambda: torch.randperm(-1), lambda: G._randperm(-1)),
        (lambda: torch.randperm(300, dtype=torch.int8), lambda: G._randperm(300, np.int8)),
        (lambda: torch.randperm(2 ** 24 + 2, dtype=torch.float32),
         lambda: G._randperm(2 ** 24 + 2, np.float32)),
        (lambda: torch.randperm(3, dtype=torch.bool), lambda: G._randperm(3, np.bool_)),
        (lambda: torch.bernoulli(t([1.5])), lambda: G._bernoulli_tensor(np.array([1.5]))),
        (lambda: torch.bernoulli(t([1, 0])), lambda: G._bernoulli_tensor(np.array([1, 0]))),
        (lambda: torch.normal(torch.zeros(3), t([1.0, -1.0, 1.0])),
         lambda: G._normal_tensors(np.zeros(3, np.float32), np.array([1, -1, 1], np.float32))),
    ]
    for probs, n, repl in [([0.5, -1.0], 1, False), ([0.0, 0.0], 1, False),
                           ([0.5, 0.5], 3, False), ([0.5, float("nan")], 1, False),
                           ([0.5, -1.0], 2, True), ([0.0, 0.0], 2, True),
                           ([0.5, float("inf")], 2, True), ([0.5, float("nan")], 2, True),
                           ([0.5, 0.5], 0, False), ([[[1.0]]], 1, False)]:
        checks.append((lambda p=probs, n=n, r=repl: torch.multinomial(t(p), n, r),
                       lambda p=probs, n=n, r=repl: G._multinomial(np.array(p, np.float32), n, r)))
    checks.append((lambda: torch.multinomial(t([1, 2]), 1),
                   lambda: G._multinomial(np.array([1, 2]), 1)))
    for tf, ef in checks:
        expected, got = _torch_error(tf), _ember_error(ef)
        assert expected is not None and got is not None, (expected, got)
        assert got == expected


def _torch_vs_ember(torch, seed, tfn, efn):
    torch.manual_seed(seed)
    t_out = tfn()
    t_state = torch.get_rng_state().numpy().tobytes()
    g = R.Generator().manual_seed(seed)
    e_out = efn(g)
    assert t_out.numpy().tobytes() == e_out.tobytes()
    assert hashlib.sha256(t_state).digest() == hashlib.sha256(
        g._get_state_bytes().tobytes()).digest()


@pytest.mark.filterwarnings("ignore:to - 1 is out of bounds")
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("n", [1, 5, 16, 17, 37, 1000])
def test_continuous_kernels_match_torch(dtype, n):
    torch = pytest.importorskip("torch")
    tdt, ndt = getattr(torch, dtype), NP[dtype]

    def both(name, *args, seed=7):
        def efn(g):
            a = np.zeros(n, ndt)
            getattr(g, name)(a, *args)
            return a
        meth = {"_bernoulli_scalar_": "bernoulli_"}.get(name, name[1:])
        _torch_vs_ember(torch, seed, lambda: getattr(torch.zeros(n, dtype=tdt), meth)(*args),
                        efn)

    both("_uniform_", 0.0, 1.0)
    both("_uniform_", -2.5, 3.7)
    both("_normal_", 0.0, 1.0)
    both("_normal_", 1.5, 0.3)
    both("_exponential_", 1.7)
    both("_log_normal_", 0.2, 0.5)
    both("_cauchy_", 0.5, 2.0)
    both("_geometric_", 0.3)
    both("_bernoulli_scalar_", 0.3)
    both("_random_")
    both("_random_", -5, 17)
    both("_random_", 0, 2 ** 29 if dtype != "float16" else 2000)


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8", "bool"])
def test_integer_kernels_match_torch(dtype):
    torch = pytest.importorskip("torch")
    tdt, ndt = getattr(torch, dtype), NP[dtype]
    hi = 2 if dtype == "bool" else 100
    for args in [(), (0, hi), (None,)]:
        def efn(g, args=args):
            a = np.zeros(33, ndt)
            if args == (None,):
                g._random_(a, 1 if dtype != "bool" else 0, None)
            else:
                g._random_(a, *args)
            return a

        def tfn(args=args):
            z = torch.zeros(33, dtype=tdt)
            if args == (None,):
                return z.random_(1 if dtype != "bool" else 0, None)
            return z.random_(*args)
        _torch_vs_ember(torch, 3, tfn, efn)
    for p in (0.0, 0.4, 1.0):
        def efn2(g, p=p):
            a = np.zeros((3, 11), ndt)
            g._bernoulli_scalar_(a.T, p)
            return a
        _torch_vs_ember(torch, 4, lambda p=p: torch.zeros(3, 11, dtype=tdt).t().bernoulli_(p).t(),
                        efn2)


def test_misc_match_torch():
    torch = pytest.importorskip("torch")
    _torch_vs_ember(torch, 11, lambda: torch.randperm(1000), lambda g: g._randperm(1000))
    _torch_vs_ember(torch, 11, lambda: torch.randperm(2049, dtype=torch.float16),
                    lambda g: g._randperm(2049, np.float16))
    p = torch.rand(4, 6)
    _torch_vs_ember(torch, 12, lambda: torch.bernoulli(p.t()),
                    lambda g: g._bernoulli_tensor(p.t().numpy()))
    _torch_vs_ember(torch, 12, lambda: torch.bernoulli(p.half()),
                    lambda g: g._bernoulli_tensor(p.half().numpy()))
    probs = torch.rand(3, 7, dtype=torch.float64)
    for n, repl in ((1, False), (5, False), (1, True), (9, True)):
        _torch_vs_ember(torch, 13, lambda n=n, r=repl: torch.multinomial(probs, n, r),
                        lambda g, n=n, r=repl: g._multinomial(probs.numpy(), n, r))
        _torch_vs_ember(torch, 13, lambda n=n, r=repl: torch.multinomial(probs.half(), n, r),
                        lambda g, n=n, r=repl: g._multinomial(probs.half().numpy(), n, r))
    _torch_vs_ember(torch, 14, lambda: torch.randn(7, 5, 3, dtype=torch.float64).permute(2, 0, 1),
                    lambda g: _randn_permuted(g))


def test_uniform_rounding_up_to_high_gives_low():
    torch = pytest.importorskip("torch")
    for dt in ("float32", "float16"):
        lo, hi = (1e6, 1e6 + 1) if dt == "float32" else (-2.5, 3.7)
        tdt, ndt = getattr(torch, dt), NP[dt]

        def efn(g, lo=lo, hi=hi, ndt=ndt):
            a = np.zeros(20000, ndt)
            g._uniform_(a, lo, hi)
            return a
        _torch_vs_ember(torch, 3, lambda lo=lo, hi=hi, tdt=tdt: torch.zeros(
            20000, dtype=tdt).uniform_(lo, hi), efn)


def test_multinomial_ties_match_torch():
    torch = pytest.importorskip("torch")
    for k, n in ((10, 10), (40, 21), (300, 151), (1000, 4)):
        p = torch.zeros(k)
        p[:3] = torch.tensor([0.2, 0.5, 0.3])
        p[5] = 0.5
        _torch_vs_ember(torch, k, lambda p=p, n=n: torch.multinomial(p, n),
                        lambda g, p=p, n=n: g._multinomial(p.numpy(), n, False))
    rs = np.random.default_rng(0)
    for n in (5, 17, 100, 700, 3000):
        v = rs.integers(0, 4, n).astype(np.float64)
        v[rs.integers(0, n, 2)] = np.nan
        for k in (1, 2, n // 2, n):
            assert R._topk_largest(v, k).tolist() == torch.topk(torch.from_numpy(v),
                                                                 k).indices.tolist()


def _randn_permuted(g):
    a = np.empty((7, 5, 3))
    g._normal_(a)
    return a.transpose(2, 0, 1)


@pytest.mark.parametrize("args,kwargs", [
    ((7,), {}), ((), {"to": 7}), ((2, 9), {}), ((), {"from": 2, "to": 9}), ((2, None), {}),
    ((), {"from": 2, "to": None}), ((), {}),
])
def test_random_overloads_match_torch(args, kwargs):
    torch = pytest.importorskip("torch")

    def efn(g):
        a = np.zeros(20, np.int32)
        g._random_(a, *args, **kwargs)
        return a
    _torch_vs_ember(torch, 21, lambda: torch.zeros(20, dtype=torch.int32).random_(*args, **kwargs),
                    efn)


def test_get_state_returns_tensor_when_available():
    pytest.importorskip("ember._tensor")
    g = R.Generator().manual_seed(4)
    t = g.get_state()
    assert t._data.dtype == np.uint8 and t._data.shape == (5056,)
    g._u32(5)
    h = R.Generator().set_state(t)
    assert h._get_state_bytes().tobytes() == t._data.tobytes()
    R.set_rng_state(R.get_rng_state())
