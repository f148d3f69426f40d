"""torch.linalg's argument-parser errors (and torch.special's and torch.fft's): the functions
of the namespaces known to :mod:`ember._ops._signatures` by torch's parser names
(``linalg_det``), a missing argument or one of a wrong type reported as torch's parser does,
and torch's keyword names taken; each case compared with torch's class and message.
"""

import pathlib
import sys

import numpy as np
import pytest

import ember
from ember import _errors
from ember._ops import _signatures

from .helpers import outcome_of, same_outcome, torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
import parser_sweep  # noqa: E402

LINALG = sorted(n for n in _signatures.FUNCTIONS if n.startswith("linalg_"))

# (known differences: the call binds in torch, or CPython refuses it before the function runs;
# see docs/differences.md)
KNOWN = {"linalg_matrix_exp": None,     # (the op itself, not a function of its own)
         "linalg_pinv": "rcond",        # (``rcond`` positional or by keyword)
         "linalg_norm": "keepdim", "linalg_vector_norm": "keepdim"}    # (not checked)


def _known(name, args, kwargs) -> bool:
    what = KNOWN.get(name, "")
    given = {p[1] for o in _signatures.FUNCTIONS[name]
             for p in _errors._signature(o)[:len(args)]}
    return what is None or bool(given & set(kwargs)) \
        or what == "rcond" and (len(args) > 1 or "rcond" in kwargs) \
        or what == "keepdim" and "keepdim" in kwargs


def test_all_linalg_functions_have_signatures():
    assert len(LINALG) == 41
    for space in ("special", "fft"):
        assert sum(n.startswith(space + "_") for n in _signatures.FUNCTIONS) == len(
            [n for n in dir(getattr(torch, space)) if not n.startswith("_")
             and callable(getattr(getattr(torch, space), n)) and n != "Tensor"])


@pytest.mark.parametrize("name", LINALG)
def test_linalg_sweep(name):
    """The sweep's calls (no arguments, a wrong type in each position and for each keyword)
    raise torch's parser errors (a keyword for an argument given positionally: CPython's
    error, naming the function by its ``__qualname__``)."""
    compared = 0
    for args, kwargs in parser_sweep.cases(name, False, _signatures.FUNCTIONS[name]):
        t = parser_sweep.run_case(torch, name, False, args, kwargs)
        if t[0] != "TypeError" or _known(name, args, kwargs):
            continue
        compared += 1
        assert parser_sweep.run_case(ember, name, False, args, kwargs) == t, (args, kwargs)
    assert compared > (-1 if name == "linalg_matrix_exp" else 3)


def _x(lib):
    return lib.tensor(np.array([[2.0, 0.5], [0.5, 3.0]]))


MISSING = [
    lambda lib: lib.linalg.solve_triangular(),
    lambda lib: lib.linalg.solve_triangular(_x(lib), _x(lib)),
    lambda lib: lib.linalg.solve_triangular(_x(lib), B=_x(lib), left=False),
    lambda lib: lib.linalg.lstsq(_x(lib)),
    lambda lib: lib.linalg.tensorsolve(_x(lib)),
    lambda lib: lib.linalg.solve(_x(lib)),
    lambda lib: lib.linalg.cross(_x(lib)),
    lambda lib: lib.linalg.vecdot(_x(lib)),
    lambda lib: lib.linalg.lu_solve(_x(lib), _x(lib)),
    lambda lib: lib.linalg.ldl_solve(_x(lib), _x(lib)),
    lambda lib: lib.linalg.householder_product(_x(lib)),
    lambda lib: lib.linalg.matrix_power(_x(lib)),
    lambda lib: lib.linalg.multi_dot(),
    lambda lib: lib.linalg.det(),
    lambda lib: lib.linalg.eigh(UPLO="U"),
    lambda lib: lib.linalg.solve_triangular(_x(lib), [1.0], upper=True),
    lambda lib: lib.linalg.tensorsolve(_x(lib), "b"),
    lambda lib: lib.linalg.norm("a"),
    lambda lib: lib.special.erf(),
    lambda lib: lib.special.xlogy(_x(lib)),
    lambda lib: lib.fft.fft(),
    lambda lib: lib.fft.fftn(_x(lib), norm=1),
]


@pytest.mark.parametrize("case", range(len(MISSING)))
def test_parser_error(case):
    same_outcome(outcome_of(torch, MISSING[case]), outcome_of(ember, MISSING[case]))


KEYWORDS = [
    lambda lib: lib.linalg.cholesky(input=_x(lib), upper=True),
    lambda lib: lib.linalg.cholesky_ex(input=_x(lib))[0],
    lambda lib: lib.linalg.solve_triangular(input=_x(lib), B=_x(lib), upper=False),
    lambda lib: lib.linalg.lstsq(input=_x(lib), b=_x(lib)).rank,
    lambda lib: lib.linalg.tensorsolve(input=_x(lib), other=_x(lib)[0]),
    lambda lib: lib.linalg.tensorinv(input=_x(lib), ind=1),
    lambda lib: lib.linalg.eigh(input=_x(lib), UPLO="U")[0],
    lambda lib: lib.linalg.eigvalsh(input=_x(lib)),
    lambda lib: lib.linalg.eigvals(input=_x(lib)),
    lambda lib: lib.linalg.eig(input=_x(lib))[0],
    lambda lib: lib.linalg.pinv(input=_x(lib), hermitian=True),
    lambda lib: lib.linalg.matrix_norm(input=_x(lib), ord="nuc"),
    lambda lib: lib.linalg.matrix_rank(input=_x(lib)),
    lambda lib: lib.linalg.norm(input=_x(lib), ord=2, dim=0),
    lambda lib: lib.linalg.norm(_x(lib), ord=1, dim=(0, 1)),
    lambda lib: lib.linalg.cond(input=_x(lib), p=1),
    lambda lib: lib.linalg.ldl_factor(input=_x(lib))[0],
    lambda lib: lib.linalg.ldl_factor_ex(input=_x(lib), hermitian=True)[0],
    lambda lib: lib.linalg.det(A=_x(lib)),
    lambda lib: lib.linalg.tensorsolve(_x(lib).reshape(2, 2, 1), _x(lib)[0], dims=(2,)),
    lambda lib: lib.special.airy_ai(x=_x(lib)),
    lambda lib: lib.special.scaled_modified_bessel_k1(x=_x(lib)),
    lambda lib: lib.special.spherical_bessel_j0(x=_x(lib)),
    lambda lib: lib.special.bessel_j0(input=_x(lib)),
    lambda lib: lib.special.hermite_polynomial_h(x=_x(lib), n=2),
    lambda lib: lib.special.chebyshev_polynomial_t(x=_x(lib), n=3),
]


@pytest.mark.parametrize("case", range(len(KEYWORDS)))
def test_torch_keyword_names(case):
    same_outcome(outcome_of(torch, KEYWORDS[case]), outcome_of(ember, KEYWORDS[case]))


def test_error_names_the_namespace_function():
    """torch.matmul and torch.linalg.matmul share Ember's code; each error names its own."""
    for fn in (lambda lib: lib.linalg.matmul(_x(lib), "b"),
               lambda lib: lib.matmul(_x(lib), "b"),
               lambda lib: lib.linalg.diagonal(),
               lambda lib: lib.linalg.vector_norm(_x(lib), dim="a")):
        same_outcome(outcome_of(torch, fn), outcome_of(ember, fn))
