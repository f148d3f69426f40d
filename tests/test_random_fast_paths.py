"""The chunked fast paths of the random kernels (float32 ``normal_``, float32 ``uniform_``,
integer ``random_``) against torch and against the reference formulations they replace."""

import warnings

import numpy as np
import pytest

import ember
import ember.random as R

# 131072 elements = one chunk of the float32 normal kernel (65536 lanes)
SIZES = [0, 1, 3, 15, 16, 17, 31, 32, 33, 1000, 65536 + 7, 131072, 131072 + 16, 131072 + 5,
         262144 + 3]


def _torch():
    return pytest.importorskip("torch")


def _same(a, b) -> bool:
    return a.detach().numpy().tobytes() == b.detach().numpy().tobytes()


def _same_state(torch) -> bool:
    return torch.get_rng_state().numpy().tobytes() == ember.get_rng_state().numpy().tobytes()


def _call(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - compare whatever torch raises
        return type(e).__name__, str(e)


def test_fast_normal_polynomials_equal_reference_exhaustively():
    """The float32 normal kernel's radius and sincos, rebuilt in fewer passes, equal the
    reference :func:`_log_f32` / :func:`_sincos_f32` for all 2**24 uniforms."""
    step = 1 << 20
    w = R._Lanes(step)
    fma = R._Fma32(step)
    for start in range(0, 1 << 24, step):
        k = np.arange(start, start + step, dtype=np.int32)
        u = (k * 2.0 ** -24).astype(np.float32)
        ref = R._log_f32(R._ONE - u, fma)
        ref *= np.float32(-2.0)
        np.sqrt(ref, out=ref)
        assert R._rho_fast(k, w).tobytes() == ref.tobytes()
        for got, exp in zip(R._sincos_fast(k, w), R._sincos_f32(u * R._TWO_PI_F, fma)):
            assert got.tobytes() == exp.tobytes()


def test_fast_normal_equals_reference_fill():
    g1, g2 = R.Generator().manual_seed(3), R.Generator().manual_seed(3)
    for n in (16, 17, 48, 131072 + 9):
        for mean, std in ((0.0, 1.0), (1.5, 0.25)):
            out = np.empty(n, np.float32)
            R._normal_fast_f32(g1, n, np.float32(mean), np.float32(std), out)
            ref = R._normal_fill_f32(g2._u24(n), g2, np.float32(mean), np.float32(std))
            assert out.tobytes() == ref.tobytes()
            assert g1._get_state_bytes().tobytes() == g2._get_state_bytes().tobytes()


def test_fast_normal_f64_equals_reference_fill():
    g1, g2 = R.Generator().manual_seed(8), R.Generator().manual_seed(8)
    for n in (16, 17, 48, 65536 + 16, 65536 + 9):
        for mean, std in ((0.0, 1.0), (1.5, 0.25)):
            out = np.empty(n)
            R._normal_fast_f64(g1, n, mean, std, out)
            ref = R._normal_fill_f64(g2._u53(n), g2, mean, std)
            assert out.tobytes() == ref.tobytes()
            assert g1._get_state_bytes().tobytes() == g2._get_state_bytes().tobytes()


@pytest.mark.parametrize("seed", [0, 12345])
def test_normal_sizes_dtypes_match_torch(seed):
    torch = _torch()
    torch.manual_seed(seed)
    ember.manual_seed(seed)
    for n in SIZES:
        for dt in ("float32", "float64", "float16", "bfloat16"):
            for mean, std in ((0, 1), (1.5, 0.3), (-2.0, 0.0)):
                a = torch.empty(n, dtype=getattr(torch, dt)).normal_(mean, std)
                b = ember.empty(n, dtype=getattr(ember, dt)).normal_(mean, std)
                assert _same(a.float(), b.float()), (n, dt, mean, std)
                assert _same_state(torch)
        assert _same(torch.randn(n), ember.randn(n))
        assert _same(torch.randn(3), ember.randn(3))     # the serial path and its cache
        assert _same(torch.randn(2, n), ember.randn(2, n))
        assert _same_state(torch)


def test_randn_generators_and_state_round_trip():
    torch = _torch()
    gt, ge = torch.Generator().manual_seed(5), ember.Generator().manual_seed(5)
    for n in (17, 1000, 131072 + 5, 1):
        assert _same(torch.randn(n, generator=gt), ember.randn(n, generator=ge))
        assert gt.get_state().numpy().tobytes() == ge.get_state().numpy().tobytes()
    torch.manual_seed(1)
    torch.randn(5)                      # leaves a cached normal
    state = torch.get_rng_state()
    expect = [torch.randn(77), torch.rand(1000), torch.randn(3), torch.randn(40000)]
    ember.set_rng_state(ember.tensor(state.numpy()))
    got = [ember.randn(77), ember.rand(1000), ember.randn(3), ember.randn(40000)]
    for a, b in zip(expect, got):
        assert _same(a, b)
    assert _same_state(torch)


UNIFORM_BOUNDS = [(0, 1), (-0.3, 0.3), (-1, 1), (2, 5), (-2.5, 3.7), (1e6, 1e6 + 1e-3),
                  (1e6, 1e6 + 1), (-1e-30, 1e-30), (-1e-30, 1.0), (0, 1e-40), (-0.0, 1.0),
                  (1, 1), (-3e38, 3e38), (0.1, 0.1000001), (-7.5, 1e-3),
                  (-1 / 3 ** 0.5, 1 / 3 ** 0.5)]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_uniform_bounds_match_torch(dtype):
    torch = _torch()
    torch.manual_seed(4)
    ember.manual_seed(4)
    for n in (0, 1, 17, 1000, 65536, 65537, 200003):
        for lo, hi in UNIFORM_BOUNDS:
            a, b = (_call(lambda L=L, n=n, lo=lo, hi=hi:
                          L.empty(n, dtype=getattr(L, dtype)).uniform_(lo, hi))
                    for L in (torch, ember))
            if isinstance(a, tuple) or isinstance(b, tuple):
                assert a == b
                continue
            assert _same(a, b), (n, lo, hi)
            assert _same_state(torch)
        assert _same(torch.rand(n, dtype=getattr(torch, dtype)),
                     ember.rand(n, dtype=getattr(ember, dtype)))
        assert _same_state(torch)


def test_uniform_top_value_replaced_by_low():
    """Bounds where the largest uniform rounds up to ``to``: that value becomes ``from``,
    the others are ``fma(u, w, a)``."""
    a, b = np.float32(1.0), np.float32(1.0000001)
    w = b - a
    assert np.float32((1 - 2.0 ** -24) * float(w) + float(a)) == b
    k = np.array([0xFFFFFF, 0, 1, 0x800000, 0xFFFFFE, 0x1FFFFFF], np.uint64)
    g = R.Generator()
    g._u32 = lambda m: np.resize(k, m)
    arr = np.empty(6, np.float32)
    g._uniform_(arr, float(a), float(b))
    u = ((k & np.uint64(0xFFFFFF)).astype(np.float64) * 2.0 ** -24).astype(np.float32)
    ref = R._fma32(u, w, a, check_subnormal=True)
    ref[ref == b] = a
    assert arr.tobytes() == ref.tobytes()
    assert arr[0] == a and arr[-1] == a


def test_nn_init_matches_torch():
    torch = _torch()
    for seed in (1, 2):
        torch.manual_seed(seed)
        ember.manual_seed(seed)
        for make in (lambda L: L.nn.Linear(300, 200), lambda L: L.nn.Conv2d(16, 32, 3),
                     lambda L: L.nn.Embedding(100, 20), lambda L: L.nn.LSTM(10, 20)):
            mt, me = make(torch), make(ember)
            for (_, pt), (_, pe) in zip(mt.named_parameters(), me.named_parameters()):
                assert _same(pt, pe)
            assert _same_state(torch)
        for name in ("kaiming_uniform_", "xavier_uniform_", "kaiming_normal_",
                     "xavier_normal_", "uniform_", "normal_"):
            a = getattr(torch.nn.init, name)(torch.empty(64, 50))
            b = getattr(ember.nn.init, name)(ember.empty(64, 50))
            assert _same(a, b), name
            assert _same_state(torch)


RANGES = [(0, 10), (-5, 17), (0, 2 ** 28 - 1), (0, 2 ** 28), (-2 ** 40, 2 ** 40), (3, 2 ** 31),
          (-2 ** 63, 2 ** 63 - 1), (0, 1), (10 ** 9, 10 ** 9 + 7)]


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "uint8", "float32", "float64",
                                   "bool"])
def test_randint_ranges_match_torch(dtype):
    torch = _torch()
    torch.manual_seed(9)
    ember.manual_seed(9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in (0, 7, 100003):
            for lo, hi in RANGES:
                def run(lib, lo=lo, hi=hi, n=n):
                    try:
                        return lib.randint(lo, hi, (n,), dtype=getattr(lib, dtype))
                    except Exception as e:  # noqa: BLE001 - compare whatever torch raises
                        return type(e).__name__, str(e)
                a, b = run(torch), run(ember)
                if isinstance(a, tuple) or isinstance(b, tuple):
                    assert a == b
                    continue
                assert _same(a, b), (n, lo, hi)
                assert _same_state(torch)
            a = torch.empty(n, dtype=getattr(torch, dtype)).random_()
            b = ember.empty(n, dtype=getattr(ember, dtype)).random_()
            assert _same(a, b)
            assert _same_state(torch)


def test_umod_is_remainder():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2 ** 64, 10000, dtype=np.uint64)
    for d in (1, 3, 10, 2 ** 28, 2 ** 53 + 1, 2 ** 63 + 5):
        assert np.array_equal(R._umod(x.copy(), d), x % np.uint64(d))
    y = x.astype(np.uint32)
    for d in (1, 7, 2 ** 24 + 1, 2 ** 28 - 1):
        assert np.array_equal(R._umod(y.copy(), d), y % np.uint32(d))


def _swap_loop(js, n):
    perm = list(range(n))
    for i, j in enumerate(js.tolist()):
        perm[i], perm[j] = perm[j], perm[i]
    return np.array(perm, dtype=np.int64)


def test_swap_shuffle_equals_the_loop():
    bg = np.random.MT19937(1)
    for n in list(range(2, 40)) + [255, 256, 257, 258, 300, 1000, 4097, 30011]:
        for _ in range(3):
            raw = bg.random_raw(n - 1)
            js = (raw % np.arange(n, 1, -1, dtype=np.uint64)).astype(np.int64)
            js += np.arange(n - 1)
            assert np.array_equal(R._swap_shuffle(js, n), _swap_loop(js, n)), n
    # targets all equal to the last position, and all self-swaps
    for n in (300, 1000):
        for js in (np.full(n - 1, n - 1), np.arange(n - 1)):
            assert np.array_equal(R._swap_shuffle(js, n), _swap_loop(js, n))


def test_randperm_matches_torch():
    torch = _torch()
    for seed in (0, 5):
        torch.manual_seed(seed)
        ember.manual_seed(seed)
        for n in (0, 1, 2, 7, 256, 257, 1000, 10 ** 5 + 3):
            for dt in ("int64", "int32", "float32", "float64"):
                assert _same(torch.randperm(n, dtype=getattr(torch, dt)),
                             ember.randperm(n, dtype=getattr(ember, dt))), (n, dt)
            assert _same_state(torch)


@pytest.mark.parametrize("seed", [1, 77, 2 ** 40 + 5])
def test_randn_float32_chunk_boundaries_match_torch(seed):
    """The float32 kernel draws in chunks of 65536 (4096 blocks): sizes around a chunk
    and a block boundary, from a stream position shifted by other draws."""
    torch = _torch()
    torch.manual_seed(seed)
    ember.manual_seed(seed)
    for n in (16, 31, 65520, 65536, 65537, 65551, 65552, 65553, 131087, 100003):
        shift = seed % 97 + n % 5
        assert _same(torch.rand(shift), ember.rand(shift))
        assert _same(torch.randn(n), ember.randn(n)), n
        a = torch.empty(n).normal_(-0.5, 1.7)
        b = ember.empty(n).normal_(-0.5, 1.7)
        assert _same(a, b), n
        assert _same_state(torch)


@pytest.mark.parametrize("seed", [0, 7, 2 ** 32 + 3, 123456789])
def test_randn_many_sizes_and_arguments_match_torch(seed):
    """The float32/float64 normal kernels against torch over sizes below, at and above 16,
    non-multiples of 16, around a chunk, with mean/std, ``normal_``, ``randn_like``,
    generators and ``out=``; the state must agree afterwards."""
    torch = _torch()
    torch.manual_seed(seed)
    ember.manual_seed(seed)
    rng = np.random.default_rng(seed % 2 ** 32)
    sizes = [1, 2, 15, 16, 17, 47, 64, 100, 1023, 4096 + 3] + \
        [int(v) for v in rng.integers(16, 300000, 3)]
    for n in sizes:
        for dt in ("float32", "float64"):
            tdt, edt = getattr(torch, dt), getattr(ember, dt)
            assert _same(torch.randn(n, dtype=tdt), ember.randn(n, dtype=edt)), (n, dt)
            assert _same(torch.empty(n, dtype=tdt).normal_(0.25, 3.0),
                         ember.empty(n, dtype=edt).normal_(0.25, 3.0)), (n, dt)
            assert _same(torch.normal(-1.0, 0.5, size=(n,), dtype=tdt),
                         ember.normal(-1.0, 0.5, size=(n,), dtype=edt)), (n, dt)
            assert _same(torch.randn_like(torch.empty(n, dtype=tdt)),
                         ember.randn_like(ember.empty(n, dtype=edt))), (n, dt)
        assert _same_state(torch)
    gt, ge = torch.Generator().manual_seed(seed), ember.Generator().manual_seed(seed)
    for n in (33, 70000):
        ot, oe = torch.empty(3), ember.empty(3)     # resized by the factory
        rt = torch.randn(n, generator=gt, out=ot)
        re = ember.randn(n, generator=ge, out=oe)
        assert re is oe and _same(rt, re)
        ot, oe = torch.empty(n), ember.empty(n)
        assert _same(torch.rand(n, generator=gt, out=ot), ember.rand(n, generator=ge, out=oe))
    assert gt.get_state().numpy().tobytes() == ge.get_state().numpy().tobytes()
    assert _same_state(torch)


def test_randn_million_matches_torch():
    torch = _torch()
    for seed in (0, 99):
        torch.manual_seed(seed)
        ember.manual_seed(seed)
        assert _same(torch.randn(10 ** 6), ember.randn(10 ** 6))
        assert _same(torch.rand(10 ** 6), ember.rand(10 ** 6))
        assert _same_state(torch)


class _LowFirst:
    """A generator whose 64-bit words hold the first draw of a pair in the low half."""

    def __init__(self, seed):
        self.g = R.Generator().manual_seed(seed)

    def _u32(self, n):
        return self.g._u32(n)

    def _u32_pairs(self, n):
        r = self.g._u32(2 * n).astype(np.uint64)
        return r[0::2] | (r[1::2] << np.uint64(32))


def test_fast_normal_either_half_order_of_the_words(monkeypatch):
    """The kernel puts results back in draw order whichever half of NumPy's 64-bit words
    holds the first draw (a compiler choice, asked once at run time)."""
    assert R._pairs_high_first() == (int(R.Generator().manual_seed(5)._u32_pairs(1)[0]) >> 32
                                     == int(R.Generator().manual_seed(5)._u32(1)[0]))
    for n in (16, 17, 48, 131072 + 9):
        expect = np.empty(n, np.float32)
        R._normal_fast_f32(R.Generator().manual_seed(4), n, np.float32(0), np.float32(1),
                           expect)
        got = np.empty(n, np.float32)
        monkeypatch.setattr(R, "_PAIRS_HIGH_FIRST", [False])
        if R._pairs_high_first() == (int(R.Generator().manual_seed(5)._u32_pairs(1)[0]) >> 32
                                     == int(R.Generator().manual_seed(5)._u32(1)[0])):
            gen = R.Generator().manual_seed(4)      # this NumPy is low first itself
        else:
            gen = _LowFirst(4)
        R._normal_fast_f32(gen, n, np.float32(0), np.float32(1), got)
        monkeypatch.undo()
        assert got.tobytes() == expect.tobytes(), n


@pytest.mark.parametrize("seed", [3, 2 ** 33 + 1])
def test_normal_vector_thresholds_match_torch(seed):
    """The sizes and layouts on either side of the vector kernels' thresholds: 16 reals
    contiguous (complex tensors: 8 elements, the real view's 16), whole blocks of 16 and
    the redrawn tail, float64's chunk of 4096 blocks, and tensors of 16 or more elements
    that are not contiguous (the serial kernel in memory order)."""
    torch = _torch()
    torch.manual_seed(seed)
    ember.manual_seed(seed)
    for n in (7, 8, 9, 15, 16, 17, 24, 33):
        for dt in ("complex64", "complex128"):
            tdt, edt = getattr(torch, dt), getattr(ember, dt)
            assert _same(torch.randn(n, dtype=tdt), ember.randn(n, dtype=edt)), (n, dt)
            assert _same(torch.empty(n, dtype=tdt).normal_(0.5, 2.0),
                         ember.empty(n, dtype=edt).normal_(0.5, 2.0)), (n, dt)
        assert _same_state(torch)
    for n in (65536 - 16, 65536 - 1, 65536, 65536 + 1, 65536 + 15, 65536 + 16, 65536 + 17):
        assert _same(torch.randn(n, dtype=torch.float64), ember.randn(n, dtype=ember.float64)), n
        assert _same_state(torch)
    for shape, view in (((4, 8), lambda t: t.t()), ((8, 6), lambda t: t[:, ::2]),
                        ((2, 17), lambda t: t.t()), ((3, 16), lambda t: t[::2])):
        for dt in ("float32", "float64", "float16"):
            a = view(torch.zeros(shape, dtype=getattr(torch, dt))).normal_(-1.0, 0.5)
            b = view(ember.zeros(shape, dtype=getattr(ember, dt))).normal_(-1.0, 0.5)
            assert _same(a.float(), b.float()), (shape, dt)
            assert _same_state(torch)
