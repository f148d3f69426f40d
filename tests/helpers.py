"""Shared helpers of the oracle tests: run one lambda with ``torch`` and with ``ember``.

``check(fn, *inputs)`` is tinygrad's ``helper_test_op``: ``fn(lib, *tensors)`` runs once with
``lib = torch`` and once with ``lib = ember`` on tensors made from the same data, and the two
runs must agree on values (dtype-appropriate tolerance), shapes, dtypes, ``grad_fn`` names,
the gradient of every input, and — when torch raises — the error class and message.
"""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pytest

_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if not os.path.exists(os.path.join(_SRC, "ember", "random.py")):  # pragma: no cover
    # ember.random is written concurrently; until it lands, use the stand-in module
    sys.path.insert(0, "/tmp/fake")
    import conftest_fake  # noqa: F401

import ember  # noqa: E402

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13 (pip install torch)")

LIBS = (torch, ember)

# dtype-appropriate tolerances (rtol, atol)
TOL = {"float16": (1e-2, 1e-2), "float32": (1e-5, 1e-6), "float64": (1e-10, 1e-12)}


class NC:
    """Mark an input array to be made a non-contiguous (transposed) tensor."""

    def __init__(self, arr):
        self.arr = np.asarray(arr)


class Raw:
    """Pass a value to the lambda as it is (a Python number, a shape …), not as a tensor."""

    def __init__(self, value):
        self.value = value


def dtype_name(dt) -> str:
    return str(dt).replace("torch.", "")


def lib_dtype(lib, name: str):
    return getattr(lib, name)


def make(lib, spec, requires_grad: bool):
    """A tensor of ``lib`` from an input spec (array, NC, Raw or a Python value)."""
    if isinstance(spec, Raw):
        return spec.value
    if isinstance(spec, NC):
        base = np.ascontiguousarray(np.swapaxes(spec.arr, -1, -2))
        t = lib.from_numpy(base.copy()).transpose(-1, -2)
        assert not t.is_contiguous() or spec.arr.shape[-1] == 1 or spec.arr.shape[-2] == 1
    elif isinstance(spec, np.ndarray):
        t = lib.from_numpy(spec.copy())
    else:
        return spec
    if requires_grad and t.dtype.is_floating_point:
        t.requires_grad_()
    return t


def _flat(out):
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res.extend(_flat(o))
        return res
    return [out]


def to_np(t):
    return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t)


def assert_close(a, b, dtype: str, msg: str = "", rtol=None, atol=None):
    """Values equal to a dtype's tolerance (exact for integers and bools); NaNs equal."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, f"{msg}: shape {a.shape} vs {b.shape}"
    if dtype in TOL:
        r, t = TOL[dtype]
        np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), equal_nan=True,
                                   rtol=rtol if rtol is not None else r,
                                   atol=atol if atol is not None else t, err_msg=msg)
    else:
        np.testing.assert_array_equal(a, b, err_msg=msg)


def compare_tensors(tt, et, where: str = "", rtol=None, atol=None, grad_fn=True):
    """One torch tensor against one ember tensor: type, shape, dtype, values, grad_fn name."""
    if not isinstance(tt, torch.Tensor):
        assert not isinstance(et, ember.Tensor), f"{where}: ember gave a tensor, torch {tt!r}"
        if isinstance(tt, torch.dtype):
            assert str(tt) == str(et), f"{where}: {tt} vs {et}"
        elif isinstance(tt, np.ndarray):
            assert isinstance(et, np.ndarray) and tt.dtype == et.dtype, f"{where}: {et!r}"
            assert_close(tt, et, str(tt.dtype), where, rtol, atol)
        elif isinstance(tt, float):
            assert type(et) is float, f"{where}: {tt!r} vs {et!r}"
            assert_close(tt, et, "float64" if rtol is None else "float32", where, rtol, atol)
        else:
            assert type(tt) is type(et) and tt == et, f"{where}: {tt!r} vs {et!r}"
        return
    assert isinstance(et, ember.Tensor), f"{where}: ember gave {type(et).__name__}"
    assert tuple(tt.shape) == tuple(et.shape), f"{where}: shape {tt.shape} vs {et.shape}"
    assert str(tt.dtype) == str(et.dtype), f"{where}: dtype {tt.dtype} vs {et.dtype}"
    assert tt.requires_grad == et.requires_grad, f"{where}: requires_grad differs"
    if grad_fn:
        tn = (type(tt.grad_fn).__name__, tt.grad_fn.name()) if tt.grad_fn is not None else None
        en = (type(et.grad_fn).__name__, et.grad_fn.name()) if et.grad_fn is not None else None
        assert tn == en, f"{where}: grad_fn {tn} vs {en}"
    assert_close(to_np(tt), to_np(et), dtype_name(tt.dtype), where, rtol, atol)


def run_both(fn, *args):
    """``fn(torch)`` and ``fn(ember)``; if torch raises, ember must raise alike (then None)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t_out = fn(torch, *args[0]) if args else fn(torch)
    except Exception as e:  # noqa: BLE001 (any torch error must be reproduced)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn(ember, *args[1]) if args else fn(ember)
        except Exception as ee:  # noqa: BLE001
            same_error(e, ee)
            return None
        raise AssertionError(
            f"ember did not raise; torch raised {type(e).__name__}: {e}") from None
    e_out = fn(ember, *args[1]) if args else fn(ember)
    return t_out, e_out


def same_error(te: BaseException, ee: BaseException) -> None:
    """Same exception class name (builtins by isinstance) and the same message."""
    tcls, ecls = type(te), type(ee)
    if tcls.__module__ == "builtins":
        assert isinstance(ee, tcls), f"{ecls.__name__}({ee}) vs torch {tcls.__name__}({te})"
    else:
        assert tcls.__name__ == ecls.__name__ or any(
            c.__module__ == "builtins" and isinstance(ee, c) for c in tcls.__mro__[1:2]), \
            f"{ecls.__name__} vs torch {tcls.__name__}"
    assert str(te) == str(ee), f"message:\n torch: {te}\n ember: {ee}"


def errors_alike(fn) -> None:
    """``fn(lib)`` must raise in both libraries with the same class and message."""
    with pytest.raises(Exception) as t_info:
        fn(torch)
    try:
        fn(ember)
    except Exception as ee:  # noqa: BLE001
        same_error(t_info.value, ee)
        return
    raise AssertionError(f"ember did not raise; torch raised {t_info.value!r}")


def check(fn, *inputs, grad: bool = True, rtol=None, atol=None, grad_rtol=None, grad_atol=None,
          seed: int = 0):
    """Run ``fn(lib, *tensors)`` with torch and ember and compare everything (see module doc).

    Returns ``(torch_outputs, ember_outputs)`` (None when both raised).
    """
    t_in = [make(torch, s, grad) for s in inputs]
    e_in = [make(ember, s, grad) for s in inputs]
    res = run_both(fn, t_in, e_in)
    if res is None:
        return None
    t_out, e_out = _flat(res[0]), _flat(res[1])
    assert len(t_out) == len(e_out), "number of outputs differs"
    for k, (a, b) in enumerate(zip(t_out, e_out)):
        compare_tensors(a, b, f"output {k}", rtol, atol)
    diff = [k for k, a in enumerate(t_out) if isinstance(a, torch.Tensor) and a.requires_grad]
    if not grad or not diff:
        return res
    rng = np.random.default_rng(seed)
    t_loss = e_loss = 0
    for k in diff:
        g = rng.standard_normal(t_out[k].shape).astype(to_np(t_out[k]).dtype)
        t_loss = t_loss + (t_out[k] * torch.from_numpy(g.copy())).sum()
        e_loss = e_loss + (e_out[k] * ember.from_numpy(g.copy())).sum()
    t_loss.backward()
    e_loss.backward()
    for k, (a, b) in enumerate(zip(t_in, e_in)):
        if isinstance(a, torch.Tensor) and a.requires_grad:
            if a.grad is None:
                assert b.grad is None, f"input {k}: ember has a grad, torch None"
                continue
            assert b.grad is not None, f"input {k}: ember grad is None"
            compare_tensors(a.grad, b.grad, f"grad of input {k}",
                            grad_rtol if grad_rtol is not None else rtol,
                            grad_atol if grad_atol is not None else atol, grad_fn=False)
    return res


def arr(shape, dtype="float32", seed: int = 0, low=-2.0, high=2.0, positive=False):
    """Deterministic test data of a shape and dtype name."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return np.asarray(rng.random(shape) > 0.5)
    if dtype in ("int8", "int16", "int32", "int64", "uint8"):
        lo = 0 if dtype == "uint8" or positive else -5
        return np.asarray(rng.integers(lo if not positive else 1, 6, size=shape), dtype=dtype)
    x = rng.uniform(0.1 if positive else low, high, size=shape)
    return np.asarray(x, dtype=dtype)


def caught_warnings(fn, lib):
    """The (category name, message) of each warning ``fn(lib)`` emits."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn(lib)
    return [(x.category.__name__, str(x.message).split("(Triggered internally")[0].rstrip())
            for x in w]


def outcome(lib, fn, shown=None):
    """``("ok", value)`` of ``fn(lib)`` (``shown(lib, value)`` when given), or ``("err", error
    class name, message)`` when it raises: how the parity tables compare one call in the two
    libraries (warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = fn(lib)
        except Exception as e:  # noqa: BLE001 - the error is what is compared
            return "err", type(e).__name__, str(e)
        return ("ok", value) if shown is None else ("ok",) + tuple(shown(lib, value))


def outcome_of(lib, fn):
    """``fn(lib)``, or the exception it raised."""
    try:
        return fn(lib)
    except Exception as e:  # noqa: BLE001 - the class and message are compared
        return e


def same_outcome(t, e, strides=True):
    """Ember's outcome ``e`` is torch's ``t``: the same error class and message, or the same
    values bit for bit (NaNs alike), dtype, shape, strides and repr, item by item."""
    if isinstance(t, BaseException):
        assert isinstance(e, BaseException), f"torch raised {t!r}, ember gave {e!r}"
        assert type(e).__name__ == type(t).__name__, (t, e)
        assert str(e) == str(t)
        return
    assert not isinstance(e, BaseException), f"ember raised {e!r}, torch gave {t!r}"
    if isinstance(t, (tuple, list)):
        assert len(t) == len(e)
        for a, b in zip(t, e):
            same_outcome(a, b, strides)
        return
    if not isinstance(t, torch.Tensor):
        if isinstance(t, (torch.dtype, torch.iinfo)):
            assert repr(t) == repr(e)
            return
        assert type(t) is type(e) and t == e, (t, e)
        return
    assert str(e.dtype) == str(t.dtype)
    assert tuple(e.shape) == tuple(t.shape)
    if strides:
        assert e.stride() == t.stride(), (t.stride(), e.stride())
    assert repr(e) == repr(t)
    a, b = t.detach().resolve_conj().resolve_neg(), e.detach().resolve_conj()
    if t.dtype in (torch.bfloat16, torch.float16):
        a, b = a.double(), b.double()
    assert np.array_equal(a.numpy(), b.numpy(),
                          equal_nan=t.dtype.is_floating_point or t.dtype.is_complex)


def same_printed_text(program, normalize=None) -> str:
    """Run ``program(lib, out)`` for torch and for ember (each after ``manual_seed(0)``,
    warnings silenced); what it prints followed by the ``out`` items, one a line (through
    ``normalize`` when given), must agree. Returns ember's text."""
    import contextlib
    import io
    texts = []
    for lib in LIBS:
        out: list = []
        lib.manual_seed(0)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            program(lib, out)
        text = buf.getvalue() + "\n".join(str(o) for o in out)
        texts.append(normalize(text) if normalize else text)
    assert texts[0] == texts[1]
    return texts[1]


def sweep_alike(spec: str) -> None:
    """``tools/parser_sweep.py``'s calls of one function (``"add"``) or Tensor method
    (``"Tensor.add"``) err (or run) in ember as in torch; more than four of them are
    torch's TypeErrors (the sample tests something)."""
    import pathlib

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
    import parser_sweep

    from ember._ops import _signatures
    method = spec.startswith("Tensor.")
    name = spec.removeprefix("Tensor.")
    options = (_signatures.METHODS if method else _signatures.FUNCTIONS)[name]
    outcomes = [(parser_sweep.run_case(torch, name, method, args, kwargs),
                 parser_sweep.run_case(ember, name, method, args, kwargs), args, kwargs)
                for args, kwargs in parser_sweep.cases(name, method, options)]
    assert sum(t[0] == "TypeError" for t, *_ in outcomes) > 4
    for t, e, args, kwargs in outcomes:
        assert e == t, (spec, args, kwargs)
