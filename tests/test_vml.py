"""MKL's VML as the kernel of float exp, log, sin …: torch's bits where MKL is installed."""

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import ember
from ember._ops import _vml

needs_mkl = pytest.mark.skipif(not _vml.available(), reason="MKL's runtime is not installed")

# op -> (ember/torch name, input transform putting most values in the domain)
OPS = {
    "exp": lambda x: x, "log": abs, "log2": abs, "log10": abs, "sqrt": abs,
    "sin": lambda x: x, "cos": lambda x: x, "tan": lambda x: x, "tanh": lambda x: x,
    "asin": lambda x: x * 0.3, "acos": lambda x: x * 0.3, "atan": lambda x: x,
    "erf": lambda x: x, "erfc": lambda x: x, "erfinv": lambda x: x * 0.3,
}
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 1e30, -1e30, 88.7, -103.9,
           1.0, -1.0, 0.5, 710.0, 1e-310]


def _inputs(dtype):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((64, 77)) * 3).astype(dtype)
    with np.errstate(over="ignore"):
        x.flat[:len(SPECIAL)] = np.array(SPECIAL).astype(dtype)
    return x


def _same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype
    both_nan = np.isnan(a) & np.isnan(b)
    bits = a.dtype.str.replace("f", "u")
    return bool(np.all((a.view(bits) == b.view(bits)) | both_nan))


@needs_mkl
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(OPS))
def test_bits_match_torch(name, dtype):
    x = OPS[name](_inputs(dtype))
    layouts = [lambda t: t, lambda t: t.t(), lambda t: t[:, ::3], lambda t: t[5, 7],
               lambda t: t[:0], lambda t: t.flip(0)]
    for layout in layouts:
        got = getattr(layout(ember.tensor(x)), name)().numpy()
        want = getattr(layout(torch.tensor(x)), name)().numpy()
        assert _same_bits(got, want), (name, layout)


@needs_mkl
@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 1000, 4099])
def test_lengths_and_offsets(n):
    x = _inputs(np.float32).ravel()
    for start in (0, 1, 3):
        a = x[start:start + n]
        assert _same_bits(ember.tensor(a).exp().numpy(), torch.tensor(a).exp().numpy())


@needs_mkl
def test_inplace_logsumexp_pow_and_gradients():
    x = _inputs(np.float64)[:, 16:] * 0.1
    e, t = ember.tensor(x), torch.tensor(x)
    assert _same_bits(e.clone().sin_().numpy(), t.clone().sin_().numpy())
    for dim in (0, 1):
        assert _same_bits(e.t().logsumexp(dim).numpy(), t.t().logsumexp(dim).numpy())
    assert _same_bits(e.abs().pow(0.5).numpy(), t.abs().pow(0.5).numpy())
    e.requires_grad_()
    t.requires_grad_()
    (e.sin() * e.erf()).sum().backward()
    (t.sin() * t.erf()).sum().backward()
    assert _same_bits(e.grad.numpy(), t.grad.numpy())


@needs_mkl
def test_chunks_give_the_same_bits(monkeypatch):
    x = _inputs(np.float64)
    whole = _vml.call("Ln", np.abs(x))
    monkeypatch.setattr(_vml, "_CHUNK", 100)
    assert _same_bits(_vml.call("Ln", np.abs(x)), whole)


def test_other_dtypes_are_left_to_numpy():
    assert _vml.call("Exp", np.arange(4)) is None
    assert _vml.call("Exp", np.ones(3, np.complex64)) is None
    assert _vml.call("Exp", np.ones(3, np.float16)) is None
    z = ember.tensor([1 + 1j, 0.5j]).exp()
    assert np.allclose(z.numpy(), np.exp(np.array([1 + 1j, 0.5j], np.complex64)))


def test_switched_off_by_environment():
    code = ("import numpy as np, ember; from ember._ops import _vml; "
            "print(_vml.available(), ember.tensor([0.0, 1.0]).exp().tolist())")
    env = dict(os.environ, EMBER_MKL="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split(maxsplit=1)
    assert out[0] == "False"
    assert np.allclose(eval(out[1]), [1.0, np.e])


@needs_mkl
def test_loaded_in_the_background_and_before_a_fork():
    """``import ember`` starts loading MKL on a thread; the first product and ``os.fork``
    wait for it, and a child forked at once computes with MKL as its parent does."""
    code = """
import os, sys, threading
import numpy as np
import ember
a = ember.tensor(np.arange(12, dtype=np.float32).reshape(3, 4) / 7)
pid = os.fork()
if pid == 0:
    ok = ember._mkl.library() is not None and (a @ a.T).sum().item() > 0
    os._exit(0 if ok else 3)
_, status = os.waitpid(pid, 0)
product = (a @ a.T).numpy()
alive = [t.name for t in threading.enumerate() if t.name == "ember-mkl-load"]
print(os.waitstatus_to_exitcode(status), alive, ember._mkl.library() is not None)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split(maxsplit=1)
    assert out == ["0", "[] True\n"]


def _train(lib, name, kw):
    w0 = np.random.default_rng(0).standard_normal((20, 30)).astype(np.float32)
    p = lib.nn.Parameter(lib.tensor(w0))
    opt = getattr(lib.optim, name)([p], lr=1e-2, **kw)
    rng = np.random.default_rng(1)
    for _ in range(15):
        g = lib.tensor(rng.standard_normal((20, 30)).astype(np.float32))
        opt.zero_grad()
        (p * g).sum().backward()
        opt.step()
    return p.detach().numpy()


@needs_mkl
@pytest.mark.parametrize("name, kw", [
    ("Adam", {}), ("Adam", {"amsgrad": True}), ("AdamW", {}), ("NAdam", {}),
    ("RMSprop", {}), ("RMSprop", {"centered": True}), ("Adagrad", {}), ("Adadelta", {}),
    ("RAdam", {})])
def test_optimizers_with_sqrt_are_bit_exact(name, kw):
    """torch's optimizers take sqrt with at::sqrt (VML): with MKL, every bit agrees."""
    assert _same_bits(_train(ember, name, kw), _train(torch, name, kw))


@needs_mkl
def test_numpy_scalars_give_scalars():
    out = _vml.call("Sqrt", np.float32(2.0))
    assert isinstance(out, np.float32)
    assert _same_bits(out, torch.tensor(2.0).sqrt().numpy())


@needs_mkl
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_logit_is_mkls_log_of_the_odds(dtype):
    x = (np.random.default_rng(5).random((37, 53)) * 1.2 - 0.1).astype(dtype)
    x.flat[:3] = [0, 1, 0.5]
    for eps in (None, 1e-6, 0.1, -1.0):
        assert _same_bits(ember.logit(ember.tensor(x), eps).numpy(),
                          torch.logit(torch.tensor(x), eps).numpy())
