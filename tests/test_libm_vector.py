"""glibc's ``logf`` and ``log1pf`` as NumPy computes them (``ember._ops._libm``): the bits
of the C library's own functions, which torch's one-by-one loops call, on every kind of
argument, and the ops that use them (``binary_cross_entropy``, ``xlogy``, ``kl_div``)."""

import numpy as np
import pytest

from ember._ops import _libm

NAMES = ["logf", "log1pf"]


def _glibc_is_the_reference(name):
    if _libm.float_fn(name[:-1]) is not getattr(_libm, name):
        pytest.skip(f"this C library's {name} is not glibc's algorithm")


@pytest.mark.parametrize("name", NAMES)
def test_every_kind_of_argument_gives_glibcs_bits(name):
    _glibc_is_the_reference(name)
    rng = np.random.default_rng(12)
    c = _libm.c_float(name)
    samples = [
        rng.integers(0, 2 ** 32, 300_000, dtype=np.uint32).view(np.float32),  # every kind
        rng.random(200_000).astype(np.float32) * np.float32(8) - np.float32(1),
        (rng.standard_normal(100_000) * 1e-6).astype(np.float32),            # near 0 / 1
        np.float32(1) + (rng.standard_normal(100_000) * 1e-4).astype(np.float32),
        np.arange(256, dtype=np.uint32).view(np.float32),                    # subnormals
        (np.arange(256, dtype=np.uint32) << np.uint32(23)).view(np.float32),  # powers of 2
        np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 1.0, 2.0 ** -29, 2.0 ** -54,
                  0.41421, -0.2929, 2.0 ** 53, 3e38], np.float32),
    ]
    f = getattr(_libm, name)
    for x in samples:
        with np.errstate(all="ignore"):
            assert np.array_equal(f(x).view(np.uint32), c(x).view(np.uint32))


@pytest.mark.parametrize("name", NAMES)
def test_shapes_and_layouts_are_kept(name):
    x = np.random.default_rng(1).random((70, 1000)).astype(np.float32)   # pieces of 32768
    f, c = getattr(_libm, name), _libm.c_float(name)
    for a in (x, x.T, x[::3, 1:], np.float32(0.25), np.zeros((0, 3), np.float32)):
        assert np.array_equal(f(a), c(a)) and np.shape(f(a)) == np.shape(a)


def test_the_losses_that_call_them_are_torchs():
    torch = pytest.importorskip("torch")
    import ember
    rng = np.random.default_rng(2)
    p = rng.random((64, 50)).astype(np.float32)
    t = (rng.random((64, 50)) > 0.5).astype(np.float32)
    for L in (torch, ember):
        F = L.nn.functional
        x = L.tensor(p, requires_grad=True)
        bce = F.binary_cross_entropy(x, L.tensor(t), reduction="none")
        kl = F.kl_div(L.tensor(np.log(p)), x, reduction="none")
        xl = L.xlogy(L.tensor(t), x)
        (bce.sum() + kl.sum() + xl.sum()).backward()
        out = [a.detach().numpy() for a in (bce, kl, xl, x.grad)]
        if L is torch:
            want = out
    for w, g in zip(want, out):
        assert np.array_equal(w, g)
