"""Differences from torch closed in the twelfth fidelity pass (what ``tools/fuzz_ops.py``
found), each case compared with torch: the argument parser's errors for calls that fit none of
an op's signatures (out= given to an op without one, keywords, positional counts), torch's
Python-level names in binding errors, and op-level values.
"""

import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn))


def _x(L):
    return L.tensor([[1.5, -2.0, 0.0], [3.0, 0.5, -1.0]])


# ------------------------------------------------------------- parser errors

PARSER_CALLS = {
    "var_mean_out_kw": lambda L: L.var_mean(_x(L), dim=0, keepdim=True, out=L.empty(0)),
    "std_mean_out": lambda L: L.std_mean(_x(L), dim=1, out=L.empty(0)),
    "var_mean_out_pos": lambda L: L.var_mean(_x(L), 0, out=L.empty(0)),
    "var_positional_overflow": lambda L: L.var(_x(L), 0, True, True, 5),
    "var_method_overflow": lambda L: _x(L).var(0, True, True, 5),
    "var_unbiased_correction": lambda L: L.var(_x(L), unbiased=True, correction=1),
    "std_method_keywords": lambda L: _x(L).std(keepdim=True, unbiased=False),
    "std_dim_unbiased_correction": lambda L: L.std(_x(L), 0, True, correction=0),
    "max_dim_kw_out_tensor": lambda L: L.max(_x(L), dim=-1, out=L.empty(0)),
    "max_dim_out_tensor": lambda L: L.max(_x(L), 0, out=L.empty(0)),
    "min_keepdim_only": lambda L: L.min(_x(L), keepdim=True),
    "min_dim_none_keepdim": lambda L: L.min(_x(L), None, True),
    "max_keepdim_int": lambda L: L.max(_x(L), 0, keepdim=1),
    "max_method_keepdim_int": lambda L: _x(L).max(0, 1),
    "min_method_bool_dim": lambda L: _x(L).min(True),
    "max_out_tuple_all": lambda L: L.max(_x(L), out=(L.empty(0), L.empty(0))),
    "max_out_all": lambda L: (L.max(_x(L), out=L.empty(0)),),
    "sort_out_tensor": lambda L: L.sort(_x(L), out=L.empty(0)),
    "sort_out_tensor_kw": lambda L: L.sort(_x(L), descending=True, out=L.empty(0)),
    "sort_stable_positional": lambda L: L.sort(_x(L), 0, False, True),
    "sort_method_stable_positional": lambda L: _x(L).sort(0, True, True),
    "argsort_stable_positional": lambda L: L.argsort(_x(L), 0, True, True),
    "sum_out_all": lambda L: L.sum(_x(L), out=L.empty(0)),
    "sum_out_dtype": lambda L: L.sum(_x(L), dtype=L.float32, out=L.empty(0)),
    "prod_out_all": lambda L: L.prod(_x(L), out=L.empty(0)),
    "prod_out_dtype": lambda L: L.prod(_x(L), dtype=L.int64, out=L.empty(0)),
    "prod_method_dim_none": lambda L: _x(L).prod(dim=None),
    "prod_float_dim": lambda L: L.prod(_x(L), 0.5),
    "prod_method_bool": lambda L: _x(L).prod(True),
    "isclose_out": lambda L: L.isclose(_x(L), 1.5, out=L.empty(0)),
    "isclose_other_kw": lambda L: L.isclose(_x(L), other=1.5),
    "isclose_method_overflow": lambda L: _x(L).isclose(_x(L), 1, 2, 3, 4),
    "equal_method_missing": lambda L: _x(L).equal(),
    "equal_method_overflow": lambda L: _x(L).equal(_x(L), _x(L)),
    "allclose_number": lambda L: L.allclose(_x(L), 2),
    "unique_out": lambda L: L.unique(_x(L), out=L.empty(0)),
    "unique_inverse_out": lambda L: L.unique(_x(L), True, True, out=L.empty(0)),
    "unique_counts_out": lambda L: L.unique(_x(L), return_counts=True, out=L.empty(0)),
    "unique_both_overflow": lambda L: L.unique(_x(L), True, True, True, 0, 5),
    "unique_method_out": lambda L: _x(L).unique(out=L.empty(0)),
    "unique_missing_input": lambda L: L.unique(return_inverse=True),
}


@pytest.mark.parametrize("name", PARSER_CALLS)
def test_parser_error(name):
    _same(PARSER_CALLS[name])


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_mean_pairs_still_take_their_overloads(name):
    for call in (lambda L: getattr(L, name)(_x(L)), lambda L: getattr(L, name)(_x(L), 1),
                 lambda L: getattr(L, name)(_x(L), 1, False, True),
                 lambda L: getattr(L, name)(_x(L), dim=0, correction=0, keepdim=True)):
        _same(call)
