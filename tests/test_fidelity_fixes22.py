"""Differences from torch closed in the twenty-second fidelity pass: the argument-parser errors
of hand-written ops (what their Python code raised first, touching a wrong argument), the
function and method forms of one op told apart, the bound method's naming, the types a
tensor fits, how an argument is shown; each case compared with torch's class and message.

The sample runs ``tools/parser_sweep.py``'s calls of some of the functions and methods whose
every call now matches, many of which differed before; the specific cases follow.
"""

import sys

import pytest

import ember
from ember._ops import _error_path

from .helpers import errors_alike, outcome_of, same_outcome, sweep_alike, torch

SAMPLE = ["batch_norm", "conv1d", "conv2d", "group_norm", "Tensor.ormqr", "put",
          "addmv_", "diagonal", "histc", "Tensor.new_ones", "flatten", "Tensor.topk",
          "bincount", "svd", "clamp_", "kthvalue", "multinomial", "swapaxes",
          "Tensor.swapdims_", "Tensor.normal_", "moveaxis", "dsplit", "layer_norm",
          "alpha_dropout", "dropout_", "float_power", "inner", "lu_solve", "matrix_power",
          "Tensor.div_", "copysign", "kron", "Tensor.mm", "square"]


@pytest.mark.parametrize("spec", SAMPLE)
def test_sweep_sample(spec):
    sweep_alike(spec)


def _x(L):
    return L.ones(2, 3, 4)


def _v(L):
    return L.ones(3)


SPECIFIC = {
    # a hand-written op touching a wrong argument before any check (AttributeError …)
    "abs_str": lambda L: L.abs_("abc"),
    "abs_none": lambda L: L.abs_(None),
    "addmm_str": lambda L: L.addmm(_v(L), "abc"),
    "addmm_method_size": lambda L: _v(L).addmm(L.Size([2])),
    "adaptive_avg_pool1d_size": lambda L: L.adaptive_avg_pool1d(L.Size([2])),
    "addbmm_none_last": lambda L: L.addbmm(_v(L), _v(L), None),
    "alpha_dropout_str": lambda L: L.alpha_dropout(_v(L), "a"),
    "alpha_dropout_p_keyword": lambda L: L.alpha_dropout(_v(L), p=None),
    "square_str": lambda L: L.square("a"),
    "bartlett_window_list": lambda L: L.bartlett_window([1.5, 2.5]),
    # the function's form and the method's of one op told apart
    "kron_function": lambda L: L.kron(_v(L), "a"),
    "kron_method": lambda L: _v(L).kron("a"),
    "swapdims_function": lambda L: L.swapdims(_v(L), _v(L), None),
    "swapdims_method": lambda L: _v(L).swapdims(_v(L), None),
    "divide_function": lambda L: L.divide(_v(L), "a"),
    "divide_nothing": lambda L: L.divide(),
    "moveaxis_function": lambda L: L.moveaxis(_v(L), _v(L), None),
    # deprecated signatures of a function: a keyword alone fits none
    "addbmm_alpha_only": lambda L: L.addbmm(_v(L), alpha="a"),
    "addr_beta_only": lambda L: L.addr(_v(L), beta=None),
    # a tensor for an int / float / Number: one of no dims, not requiring grad
    "alpha_dropout_tensor_p": lambda L: L.alpha_dropout(_v(L), _v(L), "a"),
    "allclose_tensor_rtol": lambda L: L.allclose(_v(L), _v(L), _v(L), None),
    "swapdims_tensor_dim": lambda L: L.swapdims(_v(L), _v(L), 1),
    # an int list whose first element is not an int
    "amax_floats": lambda L: L.amax(_v(L), [1.5, 2.5]),
    "new_zeros_floats": lambda L: _v(L).new_zeros([1.5, 2.5]),
    # a tuple subclass shown by its type
    "fill_size": lambda L: L.fill(_v(L), value=L.Size([2])),
    "clamp_min_size": lambda L: L.clamp_min_(_v(L), L.Size([2])),
    # methods sharing one code object, named as the call named them
    "asinh_method_arg": lambda L: _v(L).asinh_("a"),
    "atanh_method_arg": lambda L: _v(L).atanh_(None),
    # an alias published as a copy of another op's function, by its own name
    "concat_tensor": lambda L: L.concat(_v(L), "a"),
    "concatenate_none": lambda L: L.concatenate(None),
    # a list for a tuple of Tensors: its parser throws at the first element not a tensor
    "vstack_floats": lambda L: L.vstack([1.5, 2.5]),
    "vstack_size": lambda L: L.vstack(L.Size([2])),
    "cat_second_int": lambda L: L.cat((_v(L), 1)),
    # hand-written ops that no longer reassign their parameters
    "rot90_dims_tensor": lambda L: L.rot90(_x(L), 1, _v(L)),
    "as_strided_size_tensor": lambda L: L.as_strided(_v(L), _v(L), (1,)),
    "empty_strided_str": lambda L: L.empty_strided("a", (1,)),
    "kaiser_window_str": lambda L: L.kaiser_window("a"),
    "kaiser_window_tensor_device": lambda L: L.kaiser_window(_v(L), device="a"),
    "affine_grid_generator_size_tensor": lambda L: L.affine_grid_generator(_v(L), _v(L), True),
    "rms_norm_shape_tensor": lambda L: L.rms_norm(_v(L), _v(L)),
    "nuclear_norm_dim_str": lambda L: L.nuclear_norm(L.ones(2, 2), "a"),
    "cosine_similarity_dim_size": lambda L: L.cosine_similarity(_v(L), _v(L), L.Size([2])),
    # factories with torch's out=: the parser's error for what the factory refuses
    "full_str": lambda L: L.full("a"),
    "full_tensor_size": lambda L: L.full(_v(L), "a"),
    "linspace_tensor_str": lambda L: L.linspace(_v(L), "a"),
    "zeros_out_str": lambda L: L.zeros(2, out="a"),
    "randint_str": lambda L: L.randint("a"),
    # a default given explicitly is part of the call
    "conv2d_bias_none": lambda L: L.conv2d(_x(L), bias=None),
    "dsplit_none": lambda L: L.dsplit(_x(L), None),
    "isin_keyword": lambda L: L.isin(_v(L), assume_unique="a"),
}


@pytest.mark.parametrize("case", SPECIFIC)
def test_parser_error(case):
    errors_alike(SPECIFIC[case])


def _bound_call(lib, name, arg):
    f = getattr(lib.ones(3), name)
    return f(arg)


@pytest.mark.parametrize("name", ["abs", "neg", "sigmoid"])
def test_bound_method_of_no_arguments(name):
    """A method of no arguments given one: ``x.abs(1)`` names the class that defines it
    (``TensorBase.abs``), a call of the bound method object the tensor's class."""
    errors_alike(lambda L: getattr(L.ones(3), name)(1))
    errors_alike(lambda L: _bound_call(L, name, 1))


RUNS = {
    # what still runs runs as torch's
    "mm": lambda L: L.mm(L.ones(2, 3), L.ones(3, 2)),
    "addmm_method": lambda L: L.ones(2, 2).addmm(L.ones(2, 3), L.ones(3, 2), beta=2),
    "alpha_dropout_eval": lambda L: L.alpha_dropout(_v(L), 0.5, False),
    "swapdims_scalar_tensor": lambda L: L.swapdims(_x(L), L.tensor(0), 1),
    "conv1d_int_dilation": lambda L: L.conv1d(L.ones(1, 1, 5), L.ones(1, 1, 2), dilation=1),
    "square": lambda L: L.square(_v(L)),
    "abs_": lambda L: L.abs_(L.tensor([-1.0, 2.0])),
    "rot90": lambda L: L.rot90(_x(L), 1, [1, 2]),
    "kaiser_window": lambda L: L.kaiser_window(5),
    "rms_norm": lambda L: L.rms_norm(_x(L), [4]),
    "cosine_similarity_int": lambda L: L.cosine_similarity(L.ones(2, 3, dtype=L.int64),
                                                           L.ones(1, 3), 1),
    "rms_norm_eps": lambda L: L.rms_norm(_x(L), [3, 4], None, 1e-3),
    "nuclear_norm_keepdim": lambda L: L.nuclear_norm(L.ones(2, 2), True),
    "kaiser_window_beta": lambda L: L.kaiser_window(4, False, 3.0),
    "as_strided": lambda L: L.as_strided(_v(L), (2,), (1,), 1),
}


@pytest.mark.parametrize("case", RUNS)
def test_runs_as_torch(case):
    same_outcome(outcome_of(torch, RUNS[case]), outcome_of(ember, RUNS[case]))


def test_error_path_keeps_other_errors():
    """The error path rewritten into a function passes on what its hook does not replace,
    with its traceback, and leaves the exception being handled outside as it was."""
    def hook(err):
        return ValueError("replaced") if isinstance(err, KeyError) else None

    def f(x):
        if x == 1:
            raise KeyError(x)
        try:
            return {}[x]
        except KeyError:
            pass
        for i in range(2):
            if x == 2:
                raise IndexError(i)
        return x

    assert _error_path.with_error_path(f, hook)
    assert f(0) == 0
    with pytest.raises(ValueError, match="replaced") as info:
        f(1)
    assert info.value.__suppress_context__
    with pytest.raises(IndexError) as info:
        f(2)
    assert info.traceback[-1].name == "f"
    try:
        raise OSError("outer")
    except OSError:
        with pytest.raises(ValueError):
            f(1)
        assert isinstance(sys.exc_info()[1], OSError)

    def gen():
        yield 1
    assert not _error_path.with_error_path(gen, hook)
    many = {}
    exec("def big():\n" + "".join(f"    x = {i}\n" for i in range(300)) + "    return x\n",
         many)
    assert not _error_path.with_error_path(many["big"], hook)
    assert many["big"]() == 299


def test_error_path_given_once():
    """A function given the error path twice (its family loaded again …) has it once."""
    def f(x):
        return x["a"]

    def hook(err):
        return None
    assert _error_path.with_error_path(f, hook)
    code = f.__code__
    assert _error_path.with_error_path(f, hook)
    assert f.__code__ is code


@pytest.mark.parametrize("first", ["", "import ember.sparse._sparse, ember._ops.householder\n"])
def test_lazy_method_first_read(first):
    """A method whose module loads on its first read (or when something else imports it)
    errs as torch's on that first call."""
    import subprocess
    code = (f"{first}import ember\nx = ember.ones(3)\n"
            "for f in (lambda: x.ormqr(), lambda: x.coalesce(1)):\n    try:\n        f()\n"
            "    except TypeError as e:\n        print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip().split("\n")
    assert out == ['ormqr() missing 2 required positional argument: "input2", "input3"',
                   "TensorBase.coalesce() takes no arguments (1 given)"]
