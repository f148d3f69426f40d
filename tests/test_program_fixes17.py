"""Fixes found by the seventeenth batch of real-style programs (``tests/programs``), each
checked against torch: the functional channel dropouts' dimension checks, warnings and masks,
and the ``(Triggered internally at ...)`` line that torch's C++ warnings end with."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ember

from .helpers import torch


def _caught(L, fn):
    """(messages of the warnings ``fn`` raised, its outcome) under library ``L``."""
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        try:
            out = fn(L)
            out = repr([t.tolist() for t in out] if isinstance(out, tuple) else out.tolist())
        except Exception as e:      # noqa: BLE001 (the class and message are compared)
            out = (type(e).__name__, str(e))
    return [(w.category.__name__, str(w.message)) for w in got], out


def _same(fn):
    want, got = _caught(torch, fn), _caught(ember, fn)
    assert got == want
    return got


@pytest.mark.parametrize("name,shape", [
    ("dropout1d", (3, 4)), ("dropout1d", (2, 3, 4)), ("dropout1d", (2, 3, 4, 5)),
    ("dropout2d", (3, 4)), ("dropout2d", (2, 3, 4)), ("dropout2d", (2, 3, 4, 5)),
    ("dropout2d", (2, 3, 2, 2, 2)), ("dropout3d", (3, 4, 5)), ("dropout3d", (3, 4, 2, 2)),
    ("dropout3d", (2, 3, 2, 2, 2)), ("dropout3d", (2, 2, 3, 2, 2, 2)),
])
@pytest.mark.parametrize("inplace", [False, True])
def test_channel_dropouts_check_warn_and_mask_as_torch(name, shape, inplace):
    """dropout2d warns on inputs that are not 3-D or 4-D and takes a 3-D input as (N, C, L);
    dropout3d runs a 4-D input (and any other) with a unit batch dimension added; dropout1d
    refuses inputs that are not 2-D or 3-D."""
    def run(L):
        L.manual_seed(3)
        x = L.arange(1.0, 1.0 + np.prod(shape)).reshape(shape)
        return getattr(L.nn.functional, name)(x, 0.5, True, inplace)
    caught, _ = _same(run)
    silent = name == "dropout1d" or len(shape) == 4 or (name, len(shape)) == ("dropout3d", 5)
    assert bool(caught) != silent


def test_channel_dropout_checks_p_before_the_input():
    _same(lambda L: L.nn.functional.dropout1d(L.ones(5), 1.5))
    _same(lambda L: L.nn.functional.dropout3d(L.ones(2), -0.1))


_CPP_WARNINGS = """
L.meshgrid(L.arange(2), L.arange(3))
L.ones(3).var(0, correction=5)
L.std_mean(L.ones(1))
L.cov(L.ones(2, 1))
L.lu_solve(L.ones(2, 1), *L.lu(L.eye(2)))
L.tensor(2.0).T
L.ones(2, 3, 4).T
a = np.ones(2); a.setflags(write=False); L.from_numpy(a)
"""


def test_cpp_warnings_end_with_their_source_line():
    """Some of these warn once per process: each library runs them in a fresh interpreter."""
    import subprocess
    import sys
    code = ("import warnings, numpy as np\nimport {0} as L\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            + "".join(f"    {line}\n" for line in _CPP_WARNINGS.strip().splitlines())
            + "print([str(x.message) for x in w])\n")
    outs = [subprocess.run([sys.executable, "-c", code.format(lib)], capture_output=True,
                           text=True, check=True).stdout for lib in ("torch", "ember")]
    assert outs[0] == outs[1]
    assert outs[1].count("(Triggered internally at") == 9


def test_nn_modules_utils_helpers_and_consume_prefix():
    got = []
    for L in (torch, ember):
        u = L.nn.modules.utils
        sd = {"module.a": 1, "module.b.c": 2, "d": 3}
        u.consume_prefix_in_state_dict_if_present(sd, "module.")
        try:
            u._list_with_default([None, 4], [1])
        except ValueError as e:
            err = str(e)
        got.append((sd, u._pair(3), u._triple((1, 2, 3)), u._single([5]), u._quadruple(0),
                    u._pair.__name__, u._reverse_repeat_tuple((1, 2), 2),
                    u._list_with_default([None, 4], [7, 8, 9]), err))
    assert got[0] == got[1]


def test_module_state_dict_loads_after_the_dataparallel_prefix_is_consumed():
    got = []
    for L in (torch, ember):
        L.manual_seed(0)
        net = L.nn.Sequential(L.nn.Linear(2, 2))
        sd = {"module." + k: v for k, v in net.state_dict().items()}
        L.nn.modules.utils.consume_prefix_in_state_dict_if_present(sd, "module.")
        got.append((sorted(sd), str(net.load_state_dict(sd))))
    assert got[0] == got[1]


@pytest.mark.parametrize("name,module", [
    ("x", "tensor"), ("x", 3), ("x", [1]), (3, "relu"), ((1, 2), "relu"), ("a.b", "relu"),
])
def test_add_module_names_the_offending_type_as_torch_typename(name, module):
    """torch's messages name the value's type with ``torch.typename`` (``torch.FloatTensor``
    for a float tensor)."""
    def run(L):
        value = {"tensor": L.ones(1), "relu": L.nn.ReLU()}.get(module, module)
        return L.nn.Linear(1, 1).add_module(name, value)
    _same(run)


@pytest.mark.parametrize("equation,shapes", [
    ("......->", [(2, 2)]), ("..i.->", [(2, 2)]), ("i..", [(2,)]), ("...ij->...", [(2, 3, 2)]),
    ("...ij->......", [(2, 3, 2)]), ("...ij->..", [(2, 3, 2)]), ("...ij->.i", [(2, 3, 2)]),
    ("ij->i$", [(2, 2)]), (" ij$", [(2, 2)]), ("i j , j k -> i k", [(2, 2), (2, 2)]),
    ("ij,,jk", [(2, 2), (2, 2)]), ("ij->i->", [(2, 2)]), ("ij->i$i", [(2, 2)]),
    ("ij->ii$", [(2, 2)]), ("i...j->ji...", [(2, 3, 2)]), ("ij->...", [(2, 2)]),
])
def test_einsum_parses_and_refuses_equations_as_aten(equation, shapes):
    """One ellipsis per operand and in the output, stray dots, and error indices that count
    the equation's spaces."""
    _same(lambda L: L.einsum(equation, *[L.ones(s) for s in shapes]))


@pytest.mark.parametrize("args", [(), ("i",), ("i", []), ("i", ())])
def test_einsum_without_operands_is_a_value_error(args):
    def run(L):
        return L.einsum(*(L.ones(2) if a == "T" else a for a in args))
    _same(run)
    _same(lambda L: L.einsum(L.ones(2)))


@pytest.mark.parametrize("equation,shapes", [
    ("...i,...i->...", [(2, 3), (4, 3)]), ("i...,i...->i", [(2, 5, 3), (2, 4, 3)]),
    ("ij,jk->ik", [(2, 3), (4, 4)]), ("...,...->...", [(3, 1), (2, 4)]),
])
def test_einsum_size_mismatch_messages(equation, shapes):
    """An ellipsis dimension that does not broadcast names the operand's dimension (torch's
    message has no space before 'has')."""
    _same(lambda L: L.einsum(equation, *[L.ones(s) for s in shapes]))
