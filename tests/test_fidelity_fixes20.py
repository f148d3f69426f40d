"""Differences from torch closed in the twentieth fidelity pass: torch's argument-parser
errors (a wrong type, a missing or extra argument, an int list that does not unpack, a
generator or dtype of the wrong type) for calls torch's parser refuses, built on the error
path only; each case compared with torch's class and message.

The sample runs ``tools/parser_sweep.py``'s calls of some of the functions and methods whose
every call differed before and matches now; the specific cases follow.
"""

import pathlib
import sys

import pytest

import ember
from ember._ops import _signatures

from .helpers import errors_alike, outcome_of, same_outcome, sweep_alike, torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
import parser_sweep  # noqa: E402

SAMPLE = ["Tensor.chunk", "Tensor.cross", "Tensor.cumprod_", "Tensor.cumsum",
          "Tensor.index_select", "Tensor.renorm_", "Tensor.scatter_add_", "Tensor.select_scatter",
          "Tensor.stride", "arctanh", "argmin", "asin", "atan", "chunk", "clone", "cross",
          "digamma", "exp2", "gather", "isneginf", "lcm_", "log10", "log2_", "matrix_exp",
          "nanquantile", "reciprocal", "relu_", "scatter_add", "select", "signbit", "sinc",
          "sum", "tan_", "tanh_", "unbind"]


@pytest.mark.parametrize("spec", SAMPLE)
def test_sweep_sample(spec):
    sweep_alike(spec)


@pytest.mark.parametrize("name", ["clamp_min", "add", "squeeze", "max", "view", "rand"])
def test_signatures_are_torchs(name):
    """The exported table lists the signatures torch's own error lists."""
    for method, table in ((False, _signatures.FUNCTIONS), (True, _signatures.METHODS)):
        if name not in table:
            continue
        f = getattr(torch.ones(3), name) if method else getattr(torch, name)
        with pytest.raises(TypeError) as info:
            f(*[object()] * 30)
        listed = parser_sweep._listed(str(info.value))
        if listed is not None:
            assert tuple(ember._errors._shown(table[name])) == listed


def _x(L):
    return L.ones(3)


SPECIFIC = {
    # a required argument missing: torch's parser error, not CPython's
    "clamp_min_method": lambda L: _x(L).clamp_min(),
    "clamp_max_method_inplace": lambda L: _x(L).clamp_max_(),
    "mm_method": lambda L: _x(L).mm(),
    "abs_function": lambda L: L.abs(),
    "atan2_function": lambda L: L.atan2(_x(L)),
    "arctan2_alias": lambda L: L.arctan2(_x(L)),
    "acos_inplace_function": lambda L: L.acos_(),
    # a wrong type
    "add_alpha_size": lambda L: L.add(_x(L), _x(L), alpha=L.Size([2])),
    "add_other_str": lambda L: L.add(_x(L), "a"),
    "abs_none": lambda L: L.abs(None),
    "sum_tensor_dim": lambda L: _x(L).sum(_x(L), "a"),
    "sum_str": lambda L: _x(L).sum("a"),
    "squeeze_dim_twice": lambda L: _x(L).squeeze(0, dim=1),
    "window_tensor_length": lambda L: L.bartlett_window(_x(L), "a"),     # (read as a bool)
    "hann_window_tensor_length": lambda L: L.hann_window(_x(L)),
    # an int list that does not unpack
    "permute_nested": lambda L: _x(L).permute(0, (0,)),
    "permute_str": lambda L: _x(L).permute(0, "a"),
    "reshape_nested": lambda L: _x(L).reshape(0, (0,)),
    "permute_function_float": lambda L: L.permute(_x(L), (0, 1.5)),
    # a generator of the wrong type, a generator for a dtype
    "rand": lambda L: L.rand(2, generator="a"),
    "randn": lambda L: L.randn(2, generator="a"),
    "randn_dtype_generator": lambda L: L.randn(2, dtype=L.Generator()),
    "randint": lambda L: L.randint(3, (2,), generator="a"),
    "randperm": lambda L: L.randperm(3, generator="a"),
    "normal_tensors": lambda L: L.normal(_x(L), _x(L), generator="a"),
    "normal_size": lambda L: L.normal(0.0, 1.0, (2,), generator="a"),
    "bernoulli": lambda L: L.bernoulli(L.full((3,), 0.5), generator="a"),
    "multinomial": lambda L: L.multinomial(L.full((3,), 0.5), 1, generator="a"),
    "uniform_": lambda L: _x(L).uniform_(generator="a"),
    "normal_": lambda L: _x(L).normal_(generator="a"),
    "exponential_": lambda L: _x(L).exponential_(generator="a"),
    "random_": lambda L: _x(L).random_(generator="a"),
    "bernoulli_": lambda L: _x(L).bernoulli_(generator="a"),
    "cauchy_": lambda L: _x(L).cauchy_(generator="a"),
    "geometric_": lambda L: _x(L).geometric_(0.5, generator="a"),
    "log_normal_": lambda L: _x(L).log_normal_(generator="a"),
    "rand_like": lambda L: L.rand_like(_x(L), generator="a"),
}


@pytest.mark.parametrize("case", SPECIFIC)
def test_parser_error(case):
    errors_alike(SPECIFIC[case])


class _Right:
    def __radd__(self, other):
        return "radd"

    def __rmul__(self, other):
        return "rmul"


UNCHANGED = {
    # what torch's parser takes keeps its own outcome
    "operator_reflected": lambda L: (_x(L) + _Right(), _x(L) * _Right()),
    "operator_str": lambda L: _x(L) + "a",
    "view_noncontiguous": lambda L: L.ones(2, 3).t().view(6),
    "rand_generator_none": lambda L: L.rand(2, generator=None).shape,
    "generator_given": lambda L: L.rand(2, generator=L.Generator().manual_seed(0)),
    "sum_int_dim": lambda L: _x(L).sum(0),
    "clamp_min_number": lambda L: _x(L).clamp_min(0.5),
    "permute_varargs": lambda L: L.ones(2, 3).permute(1, 0).shape,
    "out_cast_error": lambda L: L.xlogy(_x(L), _x(L), out=L.empty(3, dtype=L.int64)),
    "dim_out_of_range": lambda L: _x(L).sum(5),
}


@pytest.mark.parametrize("case", UNCHANGED)
def test_refused_calls_only(case):
    same_outcome(outcome_of(torch, UNCHANGED[case]), outcome_of(ember, UNCHANGED[case]))


# ------------------------------------------------------------- fuzz leftovers

def _bad_outs(L):
    return (L.empty(0, dtype=L.float16), L.empty(0, dtype=L.int32))


@pytest.mark.parametrize("name", ["median", "nanmedian", "kthvalue", "mode", "cummax", "cummin"])
@pytest.mark.parametrize("dtype", ["complex64", "bool"])
def test_out_dtypes_before_the_dispatch_error(name, dtype):
    args = (1,) if name == "kthvalue" else (0,)
    errors_alike(lambda L: getattr(L, name)(L.tensor([1, 0]).to(getattr(L, dtype)), *args,
                                            out=_bad_outs(L)))


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_unique_consecutive_dim_layout(dim):
    def fn(L):
        return L.unique_consecutive(L.arange(24).reshape(2, 3, 4) % 2, dim=dim,
                                    return_inverse=True, return_counts=True)
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn))


def _inference(L):
    with L.inference_mode():
        return L.ones(3)


INFERENCE = {
    # torch's op checks come first; the op writes, then the write's count refuses
    "add_number": lambda L, t: t.add_(1),
    "add_broadcast": lambda L, t: t.add_(L.ones(4)),
    "add_complex": lambda L, t: t.add_(L.ones(3, dtype=L.complex64)),
    "copy_shape": lambda L, t: t.copy_(L.ones(4)),
    "requires_grad_operand": lambda L, t: t.add_(L.ones(3, requires_grad=True)),
    "view_of_inference": lambda L, t: t[0:2].mul_(2),
    "setitem": lambda L, t: t.__setitem__(0, 9.0),
    "resize_grows": lambda L, t: t.resize_(4),
    "resize_same": lambda L, t: t.resize_(3),
}


@pytest.mark.parametrize("case", INFERENCE)
def test_inference_tensor_writes(case):
    def fn(L):      # (the message, the shape, and what the first 3 elements hold: a grown
        t = _inference(L)   # storage's new element is not set in torch)
        try:
            INFERENCE[case](L, t)
        except RuntimeError as e:
            return str(e), tuple(t.shape), t.reshape(-1)[:3]
        return "ok", tuple(t.shape), t.reshape(-1)[:3]
    same_outcome(fn(torch), fn(ember))


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(3, 2).sum(lib.tensor(0)),
    lambda lib: lib.ones(3, 2).mean(lib.tensor(1), keepdim=True),
    lambda lib: lib.ones(3, 2).amax(lib.tensor(-1)),
    lambda lib: lib.ones(3, 2).std(lib.tensor(0)),
    lambda lib: lib.ones(3, 2).sum(__import__("numpy").int64(1)),
    lambda lib: lib.ones(3, 2).sum(lib.tensor(5)),
])
def test_a_zero_dim_integer_tensor_is_one_dim(call):
    """``int[1]?`` dims take a 0-d integer tensor (or NumPy integer) as one dim, as
    torch's parser does (``x.sum(torch.tensor(0))``)."""
    same_outcome(outcome_of(torch, call), outcome_of(ember, call))
