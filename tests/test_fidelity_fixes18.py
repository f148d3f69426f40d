"""Differences from torch closed in the eighteenth fidelity pass, each case compared with
torch: clamp/clip with a number and a tensor bound, float16 results of linspace and of complex
casts, complex32, the argument order of ``torch.ops.aten`` ops, and what the third stream of
``tools/fuzz_ops.py`` found.
"""

import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn, strides=True):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn), strides)


# ----------------------------------------------------------------- clamp with mixed bounds

_X = [-10.0, -1.0, 0.0, 3.0, 9.0]
_BOUNDS = [
    (-5, "t1"), ("t1", 5), (-5.0, "t1"), ("t1", None), (1, "t0"), ("t0", 2.5), ("t0i", 2.5),
    ("t0i", 2), ("t0", "t0"), ("t0g", 2.5), ("str", 2), (None, None), (True, "t0b"),
]


def _bound(lib, b):
    return {"t1": lambda: lib.tensor([1.0, 2.0, 2.0, 2.0, 2.0]), "t0": lambda: lib.tensor(2.0),
            "t0i": lambda: lib.tensor(1), "t0b": lambda: lib.tensor(True),
            "t0g": lambda: lib.tensor(2.0, requires_grad=True),
            "str": lambda: "a"}.get(b, lambda: b)() if isinstance(b, str) else b


@pytest.mark.parametrize("name", ["clamp", "clip"])
@pytest.mark.parametrize("lo,hi", _BOUNDS)
@pytest.mark.parametrize("form", ["function", "keywords", "method", "method_keywords", "out",
                                  "inplace", "int_input"])
def test_clamp_mixed_bounds(name, lo, hi, form):
    """torch's parser reads a 0-d tensor that needs no gradient as a number, so it goes with a
    number bound; a tensor bound of more dims with a number fits neither overload (the
    error names the function called, clip or clamp, and its keywords as given)."""
    def fn(lib):
        x = lib.tensor(_X, requires_grad=form in ("function", "method"))
        if form == "int_input":
            x = lib.tensor([-10, -1, 0, 3, 9])
        a, b = _bound(lib, lo), _bound(lib, hi)
        if form in ("function", "int_input"):
            r = getattr(lib, name)(x, a, b)
        elif form == "keywords":
            r = getattr(lib, name)(x, min=a, max=b)
        elif form == "method":
            r = getattr(x, name)(a, b)
        elif form == "method_keywords":
            r = getattr(x, name)(min=a, max=b)
        elif form == "out":
            o = lib.empty(5)
            r = getattr(lib, name)(x, a, b, out=o)
            assert r is o
        else:
            r = getattr(x, name + "_")(a, b)
            assert r is x
        if r.requires_grad:
            r.sum().backward()
            return r, x.grad, r.grad_fn.name()
        return r
    _same(fn)


@pytest.mark.parametrize("get", [lambda L: L.clip, lambda L: L.clamp, lambda L: L.Tensor.clip_])
def test_clamp_functions_pickle(get):
    import ember.masked  # noqa: F401 - (it wraps the functions it routes: they still pickle)
    fn = get(ember)
    assert pickle.loads(pickle.dumps(fn)) is fn


# ------------------------------------------------ float16/bfloat16 from doubles and complex

# doubles whose float16/bfloat16 rounding differs made directly and through float32
_V16 = 0.008274078729419865
_VBF = 1.00390625 + 2 ** -40


@pytest.mark.parametrize("make", [
    lambda L: L.linspace(_V16, _V16, 1, dtype=L.float16),
    lambda L: L.linspace(_V16, 2 * _V16, 2, dtype=L.float16),
    lambda L: L.linspace(np.float64(_V16), 1.0, 5, dtype=L.float16),
    lambda L: L.linspace(_VBF, _VBF, 1, dtype=L.bfloat16),
    lambda L: L.linspace(_VBF, 2 * _VBF, 3, dtype=L.bfloat16),
    lambda L: L.arange(_VBF, 3, 1, dtype=L.bfloat16),
    lambda L: L.arange(0, 300, 1.3, dtype=L.bfloat16),
    lambda L: L.tensor([complex(_V16, 1)], dtype=L.complex128).to(L.float16),
    lambda L: L.tensor([complex(_VBF, 1)], dtype=L.complex128).to(L.bfloat16),
    lambda L: L.zeros(1, dtype=L.float16).copy_(L.tensor([complex(_V16, 1)],
                                                         dtype=L.complex128)),
    lambda L: L.tensor([1j, 0j, 2 + 0j]).to(L.bool),
    lambda L: L.tensor([1j, 0j, 2.7 + 0j], dtype=L.complex128).to(L.int32),
])
def test_double_rounding_to_half_types(make):
    """torch makes c10::Half/BFloat16 from a float: a double (a Python number, a complex128
    value's real part) is rounded to float32 first."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(make)


def test_complex_to_real_copy_warns_once():
    """torch's copy into a real dtype warns once in the process (not into bool), and NumPy's
    own ComplexWarning does not leak."""
    code = ("import warnings, {0} as L\n"
            "warnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    L.tensor([1j]).to(L.bool)\n"
            "    L.tensor([1j]).float(); L.tensor([1j]).double()\n"
            "    L.zeros(1).copy_(L.tensor([1j]))\n"
            "print([(x.category.__name__, str(x.message)) for x in w])\n")
    outs = [subprocess.run([sys.executable, "-c", code.format(m)], capture_output=True,
                           text=True, env=dict(os.environ, PYTHONWARNINGS="always")).stdout
            for m in ("torch", "ember")]
    assert outs[0] == outs[1] and "UserWarning" in outs[0]


# ------------------------------------------------------- torch.ops.aten follows the schema

def _aten_f_names():
    """The aten ops Ember serves with an nn.functional function (of parameters of its own)."""
    from ember import _aten
    from ember.export._schemas import SCHEMAS
    out = []
    for name in sorted(SCHEMAS):
        if not hasattr(torch.ops.aten, name) or ember._ops.function(name) \
                or ember._ops.FUNCTIONS.get(name) or hasattr(ember.Tensor, name) \
                or name in _aten._METHODS:
            continue
        if getattr(ember.nn.functional, name, None) is not None \
                or _aten._nn_form(name) is not None:
            out.append(name)
    return out


@pytest.mark.parametrize("name", _aten_f_names())
def test_aten_ops_take_the_schema_arguments(name):
    """torch.ops.aten.X takes aten::X's arguments (positions, names, defaults), not those of
    the nn.functional function Ember computes it with."""
    import inspect
    packet = getattr(torch.ops.aten, name)
    overloads = packet.overloads()
    schema = getattr(packet, "default" if "default" in overloads else overloads[0])._schema
    want = [(a.name, a.kwarg_only) for a in schema.arguments]
    sig = inspect.signature(getattr(ember.ops.aten, name)._fn)
    got = [(p.name, p.kind is p.KEYWORD_ONLY) for p in sig.parameters.values()]
    assert got == want


@pytest.mark.parametrize("call", [
    lambda L, x, y: L.ops.aten.mse_loss(x, y, 2),
    lambda L, x, y: L.ops.aten.mse_loss.default(x, y, 0),
    lambda L, x, y: L.ops.aten.mse_loss(x, y, reduction=1),
    lambda L, x, y: L.ops.aten.smooth_l1_loss(x, y, 1, 0.5),
    lambda L, x, y: L.ops.aten.smooth_l1_loss.default(x, y, 0),
    lambda L, x, y: L.ops.aten.l1_loss(x, y, 2),
    lambda L, x, y: L.ops.aten.binary_cross_entropy(x.sigmoid(), y.clamp(0, 1), None, 2),
    lambda L, x, y: L.ops.aten.nll_loss(x.log_softmax(1), L.tensor([0, 2]), None, 2, 1),
    lambda L, x, y: L.ops.aten.kl_div(x, y, 2),
    lambda L, x, y: L.ops.aten.batch_norm(x, y[0], None, None, None, True, 0.1, 1e-5, False),
    lambda L, x, y: L.ops.aten.layer_norm(x, [3], None, None, 1e-5, True),
    lambda L, x, y: L.ops.aten.dropout(x, 0.5, False),
    lambda L, x, y: L.ops.aten.unfold(x, 1, 2, 1),
    lambda L, x, y: L.ops.aten.mse_loss(x, y, 1, 2),
    lambda L, x, y: L.ops.aten.mse_loss(x, y, size_average=True),
])
def test_aten_schema_calls(call):
    def fn(lib):
        x = lib.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
        y = lib.tensor([[0.0, 2.5, 1.0], [1.0, 1.0, 2.0]])
        r = call(lib, x, y)
        if r.requires_grad:
            r.sum().backward()
            return r, x.grad
        return r
    t, e = outcome_of(torch, fn), outcome_of(ember, fn)
    if isinstance(t, BaseException):     # (torch's dispatcher words its errors otherwise)
        assert type(e) is type(t)
        return
    same_outcome(t, e)


@pytest.mark.parametrize("padding_idx", [-1, 1, 3])
def test_aten_embedding(padding_idx):
    """aten::embedding(weight, indices, padding_idx=-1, …): a negative padding_idx is none
    (nn.functional's counts from the end)."""
    def fn(lib):
        w = lib.arange(12.0).reshape(4, 3).requires_grad_()
        i = lib.tensor([0, 3, 1, 3])
        r = lib.ops.aten.embedding(w, i, padding_idx)
        r.sum().backward()
        return r, w.grad
    _same(fn)


# ------------------------------------------------------------- the fuzz round's third stream

def _warned(fn):
    def run(lib):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            res = fn(lib)
        return res, [(x.category.__name__, str(x.message)) for x in w]
    return run


@pytest.mark.parametrize("op", ["add", "mul", "exp", "eq", "neg", "clamp", "where"])
@pytest.mark.parametrize("x_dt", ["float32", "int64", "bool"])
@pytest.mark.parametrize("out_dt", ["float32", "float64", "int64", "bool", "float16"])
@pytest.mark.parametrize("out_shape", [(4,), (0,), (2, 3)])
def test_out_resize_warnings(op, x_dt, out_dt, out_shape):
    """TensorIterator resizes an out= of another dtype than its computation's twice (and
    warns twice); a comparison computes in its operands' dtype, and a bool out= takes its
    result as it is. clamp by numbers checks the out= dtype as a unary op."""
    def fn(lib):
        x = lib.tensor([[1, 0, 3], [-2, 5, 1]]).to(getattr(lib, x_dt))
        out = lib.zeros(out_shape, dtype=getattr(lib, out_dt))
        f = {"add": lambda: lib.add(x, x, out=out), "mul": lambda: lib.mul(x, 2, out=out),
             "exp": lambda: lib.exp(x, out=out), "eq": lambda: lib.eq(x, 0, out=out),
             "neg": lambda: lib.neg(x, out=out), "clamp": lambda: lib.clamp(x, 0, 1, out=out),
             "where": lambda: lib.where(x > 0, x, 0, out=out)}[op]
        return f(), out
    same_outcome(outcome_of(torch, _warned(fn)), outcome_of(ember, _warned(fn)))


@pytest.mark.parametrize("eq", ["ij->ji->", "ij-->ji", "ij->j-i", "i-j->ij", "ij>ji",
                                "i.j->ij", "ij->j.", "i1j->ij", "i j - > j i", " i j->j 1",
                                "ij,k1->i", "i..j->ij", "i j -> j i"])
def test_einsum_subscript_errors(eq):
    """einsum's error names the index in the equation as given (spaces counted), a '-'
    and '>' apart are no arrow, and a lone '.' has its own message."""
    _same(lambda L: L.einsum(eq, L.ones(2, 3)) if "," not in eq else
          L.einsum(eq, L.ones(2, 3), L.ones(2)))


@pytest.mark.parametrize("name", ["median", "nanmedian", "mode", "cummax", "cummin",
                                  "softmax", "logcumsumexp", "unbind", "kthvalue"])
@pytest.mark.parametrize("dim", [(0, 0), [0], 1.0])
def test_int_dim_of_another_type(name, dim):
    args = (1,) if name == "kthvalue" else ()
    _same(lambda L: getattr(L, name)(L.ones(2, 3), *args, dim=dim))


@pytest.mark.parametrize("make", [lambda L: L.arange(24, dtype=L.uint8).reshape(6, 2, 2)[::2],
                                  lambda L: L.arange(6.0).reshape(2, 3).t(),
                                  lambda L: L.arange(48.0).reshape(2, 3, 2, 4).permute(
                                      0, 2, 3, 1),
                                  lambda L: L.ones(2, 3)])
@pytest.mark.parametrize("fmt", ["contiguous_format", "channels_last", "preserve_format"])
def test_to_memory_format_aliases(make, fmt):
    """``to(memory_format=)`` returns the tensor itself where its strides already suggest that
    format (torch's to_will_alias), without a dtype change or copy=True."""
    def fn(L):
        t = make(L)
        f = getattr(L, fmt)
        r = t.to(memory_format=f)
        return r is t, r.stride(), t.to(L.float64, memory_format=f).stride(), \
            t.to(t.dtype, copy=True, memory_format=f) is t
    _same(fn)


@pytest.mark.parametrize("write", [
    lambda y: y.copy_(y.t()), lambda y: y.copy_(y), lambda y: y[1:].copy_(y[:-1]),
    lambda y: y.__setitem__(slice(1, None), y[:-1]), lambda y: y[0].copy_(y[:, 0]),
    lambda y: y[0].copy_(y[1]), lambda y: y.view(9)[1:].copy_(y.view(9)[:-1]),
    lambda y: y.copy_(y[0]), lambda y: y.copy_(y.flip(0)), lambda y: y[:, :2].copy_(y[:, 1:]),
    lambda y: y.copy_(y.double()),
])
def test_copy_partial_overlap(write):
    """copy_ from a tensor that shares part of the written tensor's memory (both dense):
    torch's TensorIterator refuses it; the same elements in the same order are a no-op."""
    def fn(L):
        y = L.arange(9.0).reshape(3, 3)
        write(y)
        return y
    _same(fn)


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("dim", [(0, -1), (), (0, 0)])
@pytest.mark.parametrize("keepdim", [None, True])
def test_max_tuple_dim(name, dim, keepdim):
    kw = {} if keepdim is None else {"keepdim": keepdim}
    _same(lambda L: getattr(L, name)(L.ones(2, 3), dim=dim, **kw))


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("call", [
    lambda L, f, x: f(x, dim=None), lambda L, f, x: f(x, None), lambda L, f, x: f(x),
    lambda L, f, x: f(x, None, True), lambda L, f, x: f(x, dim=1),
])
@pytest.mark.parametrize("method", [False, True])
def test_max_min_explicit_dim_none(name, call, method):
    """An explicit ``dim=None`` fits none of max/min's overloads (torch's TypeError); no
    ``dim`` at all is the overall extreme."""
    def fn(L):
        x = L.arange(6.0).reshape(2, 3)
        f = getattr(x, name) if method else getattr(L, name)
        return call(L, (lambda *a, **k: f(*a[1:], **k)) if method else f, x)
    _same(fn)


@pytest.mark.parametrize("call", [
    lambda L, x: x.squeeze(dim=None), lambda L, x: x.squeeze(None),
    lambda L, x: L.squeeze(x, None), lambda L, x: L.squeeze(x, dim=None),
    lambda L, x: x.squeeze_(None), lambda L, x: x.squeeze_(dim=None),
    lambda L, x: x.squeeze_(foo=1), lambda L, x: x.squeeze_(1, 2), lambda L, x: x.squeeze_(1, 0),
    lambda L, x: x.squeeze_(), lambda L, x: x.squeeze_(dim=(1,)), lambda L, x: x.squeeze(),
])
def test_squeeze_explicit_dim_none(call):
    """squeeze/squeeze_ take no dim, an int or ints, never None (torch's TypeError)."""
    def fn(L):
        x = L.zeros(2, 1)
        r = call(L, x)
        return r, x.shape
    _same(fn)


@pytest.mark.parametrize("name", ["any", "all"])
@pytest.mark.parametrize("dim", [(), []])
@pytest.mark.parametrize("dt", ["float32", "uint8", "bool"])
def test_any_all_empty_dims_reduce_nothing(name, dim, dt):
    _same(lambda L: (getattr(L, name)(L.tensor([[1.0, 0, 2], [0, 0, 3]]).to(getattr(L, dt)),
                                      dim=dim),
                     getattr(L, name)(L.tensor(2.0), dim=dim, keepdim=True)))


@pytest.mark.parametrize("call", [
    lambda L, x: x.to(L.float32, False, True), lambda L, x: x.to(L.float32, True, False),
    lambda L, x: x.to("cpu", L.float32, False, True), lambda L, x: x.to(x, False, True),
])
def test_to_positional_copy(call):
    """``to(dtype, non_blocking, copy)``: the second positional flag is copy."""
    def fn(L):
        x = L.arange(4.0).expand(3, 4)
        r = call(L, x)
        return r is x, r.stride()
    _same(fn)


@pytest.mark.parametrize("dt", ["bfloat16", "float16", "float32"])
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_antialias_half_types(dt, mode):
    _same(lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4, dtype=getattr(L, dt)),
                                                scale_factor=0.5, mode=mode, antialias=True))


@pytest.mark.parametrize("pad", [(0, 0), (0, 0, 0, 0), (1, 0), (0, -1), (-1, 0, -1, 0),
                                 (0, -4), (-2, -2)])
@pytest.mark.parametrize("make", [
    lambda L: L.arange(96).reshape(4, 3, 4, 2).permute(3, 2, 1, 0),
    lambda L: L.arange(96.0).reshape(4, 3, 4, 2).permute(3, 2, 1, 0).requires_grad_(),
    lambda L: L.ones(2, 3).expand(4, 2, 3),
])
def test_constant_pad_without_growth(make, pad):
    """constant_pad_nd with no positive pad is a clone of the narrowed input (its layout
    kept), and a crop past a dim's size is narrow's error (empty results aside: torch keeps
    the narrowed strides of an empty result, Ember lays it out anew)."""
    def fn(L):
        x = make(L)
        r = L.nn.functional.pad(x, pad)
        if not r.numel():
            return tuple(r.shape)
        if r.requires_grad:
            r.sum().backward()
            return r, x.grad
        return r
    _same(fn)
