"""Differences from torch closed in the ninth fidelity pass, each case compared with torch.

The unsigned 16-64 bit dtypes (their few kernels and torch's errors elsewhere), the names of
torch's aliases, lazy conjugation, and what a differential fuzz of ops found.
"""

import numpy as np
import pytest

import ember

from .helpers import outcome_of, same_outcome, torch

# ------------------------------------------------------------- uint16, uint32, uint64


def _u(L, dt, values=(3, 1, 2)):
    return L.tensor(list(values), dtype=getattr(L, dt))


def _m(L, dt):
    return L.tensor([[3, 1], [2, 4]], dtype=getattr(L, dt))


_MASK = [True, False, True]

UNSIGNED = {
    "repr": lambda L, d: repr(getattr(L, d)),
    "attrs": lambda L, d: (getattr(L, d).is_signed, getattr(L, d).itemsize,
                           getattr(L, d).is_floating_point, getattr(L, d).is_complex),
    "iinfo": lambda L, d: repr(L.iinfo(getattr(L, d))),
    "iinfo fields": lambda L, d: (L.iinfo(getattr(L, d)).max, L.iinfo(getattr(L, d)).min,
                                  L.iinfo(getattr(L, d)).bits, L.iinfo(getattr(L, d)).dtype),
    "to_real": lambda L, d: getattr(L, d).to_real(),
    "to_complex": lambda L, d: getattr(L, d).to_complex(),
    "tensor": lambda L, d: _u(L, d),
    "tensor -1": lambda L, d: _u(L, d, [-1]),
    "tensor 1.7": lambda L, d: _u(L, d, [1.7]),
    "tensor 70000": lambda L, d: _u(L, d, [70000]),
    "tensor 2**40": lambda L, d: _u(L, d, [2 ** 40]),
    "tensor 2**63": lambda L, d: _u(L, d, [2 ** 63]),
    "tensor 2**64": lambda L, d: _u(L, d, [2 ** 64]),
    "tensor empty": lambda L, d: _u(L, d, []),
    "type()": lambda L, d: _u(L, d).type(),
    "element_size": lambda L, d: _u(L, d).element_size(),
    "full -1": lambda L, d: L.full((2,), -1, dtype=getattr(L, d)),
    "full 70000": lambda L, d: L.full((2,), 70000, dtype=getattr(L, d)),
    "arange": lambda L, d: L.arange(3, dtype=getattr(L, d)),
    "linspace": lambda L, d: L.linspace(0, 3, 4, dtype=getattr(L, d)),
    "eye": lambda L, d: L.eye(2, dtype=getattr(L, d)),
    "rand": lambda L, d: L.rand(3, dtype=getattr(L, d)),
    "randperm": lambda L, d: L.randperm(3, dtype=getattr(L, d)),
    "from float": lambda L, d: L.tensor([1.5, 2.5]).to(getattr(L, d)),
    "from int64": lambda L, d: L.tensor([-1, 2]).to(getattr(L, d)),
    "from bool": lambda L, d: L.tensor([True, False]).to(getattr(L, d)),
    "to float": lambda L, d: _u(L, d).float(),
    "to complex": lambda L, d: _u(L, d).to(L.complex64),
    "to bfloat16": lambda L, d: _u(L, d).to(L.bfloat16),
    "tolist": lambda L, d: _u(L, d).tolist(),
    "item": lambda L, d: _u(L, d)[0].item(),
    "numpy": lambda L, d: str(_u(L, d).numpy().dtype),
    "from_numpy": lambda L, d: L.from_numpy(np.array([1, 2], dtype=d)),
    "str 2-d": lambda L, d: str(L.tensor([[1, 2], [300, 4]], dtype=getattr(L, d))),
    "repr 0-d": lambda L, d: repr(L.tensor(5, dtype=getattr(L, d))),
    "index": lambda L, d: _u(L, d)[L.tensor([0, 2])],
    "mask index": lambda L, d: _u(L, d)[L.tensor(_MASK)],
    "setitem slice": lambda L, d: (lambda t: (t.__setitem__(slice(0, 2), 9), t)[1])(_u(L, d)),
    "setitem index": lambda L, d: _u(L, d).__setitem__(L.tensor([0, 2]), 5),
    "setitem mask": lambda L, d: _u(L, d).__setitem__(L.tensor(_MASK), 5),
    "cat": lambda L, d: L.cat([_u(L, d), _u(L, d)]),
    "cat int64": lambda L, d: L.cat([_u(L, d), L.tensor([1])]),
    "contiguous t": lambda L, d: _m(L, d).t().contiguous(),
    "flip": lambda L, d: _u(L, d).flip(0),
    "roll": lambda L, d: _u(L, d).roll(1),
    "eq": lambda L, d: _u(L, d) == _u(L, d, [1, 1, 2]),
    "ne 3": lambda L, d: _u(L, d) != 3,
    "lt": lambda L, d: _u(L, d) < _u(L, d, [1, 1, 2]),
    "ge 2": lambda L, d: _u(L, d) >= 2,
    "le 1.5": lambda L, d: _u(L, d) <= 1.5,
    "eq int64": lambda L, d: _u(L, d) == L.tensor([3, 1, 2]),
    "add": lambda L, d: _u(L, d) + _u(L, d),
    "add 1": lambda L, d: _u(L, d) + 1,
    "add 1.5": lambda L, d: _u(L, d) + 1.5,
    "add uint8": lambda L, d: _u(L, d) + L.tensor([1, 1, 1], dtype=L.uint8),
    "add_": lambda L, d: _u(L, d).add_(1),
    "mul_(1.5)": lambda L, d: _u(L, d).mul_(1.5),
    "sub": lambda L, d: _u(L, d) - 1,
    "rsub": lambda L, d: 1 - _u(L, d),
    "mul": lambda L, d: _u(L, d) * _u(L, d),
    "mul 0-d int64": lambda L, d: _u(L, d) * L.tensor(2),
    "mul True": lambda L, d: _u(L, d) * True,
    "mul bool tensor": lambda L, d: _u(L, d) * L.tensor(_MASK),
    "mul 2j": lambda L, d: _u(L, d) * 2j,
    "mul complex tensor": lambda L, d: _u(L, d) * L.tensor([1j]),
    "mul float16": lambda L, d: _u(L, d) * L.tensor([1.0], dtype=L.float16),
    "div": lambda L, d: _u(L, d) / _u(L, d, [1, 2, 2]),
    "floordiv": lambda L, d: _u(L, d) // 2,
    "div trunc": lambda L, d: L.div(_u(L, d), _u(L, d), rounding_mode="trunc"),
    "remainder": lambda L, d: _u(L, d) % 2,
    "fmod": lambda L, d: L.fmod(_u(L, d), _u(L, d)),
    "pow": lambda L, d: _u(L, d) ** 2,
    "rpow": lambda L, d: 2 ** _u(L, d),
    "pow 0.5": lambda L, d: _u(L, d) ** 0.5,
    "neg": lambda L, d: -_u(L, d),
    "abs": lambda L, d: _u(L, d).abs(),
    "sgn": lambda L, d: _u(L, d).sgn(),
    "sqrt": lambda L, d: _u(L, d).sqrt(),
    "floor": lambda L, d: _u(L, d).floor(),
    "trunc": lambda L, d: _u(L, d).trunc(),
    "frac": lambda L, d: _u(L, d).frac(),
    "and": lambda L, d: _u(L, d) & _u(L, d, [1, 2, 2]),
    "xor 1": lambda L, d: _u(L, d) ^ 1,
    "and bool": lambda L, d: _u(L, d) & L.tensor(_MASK),
    "not": lambda L, d: ~_u(L, d),
    "lshift": lambda L, d: _u(L, d) << 1,
    "sum": lambda L, d: _u(L, d).sum(),
    "sum dim": lambda L, d: _m(L, d).sum(1, keepdim=True),
    "sum dtype": lambda L, d: _u(L, d).sum(dtype=getattr(L, d)),
    "float sum dtype": lambda L, d: L.tensor([1.0, 2.0]).sum(dtype=getattr(L, d)),
    "prod": lambda L, d: _u(L, d).prod(),
    "prod dtype": lambda L, d: _u(L, d).prod(dtype=getattr(L, d)),
    "cumsum": lambda L, d: _u(L, d).cumsum(0),
    "cumsum dtype": lambda L, d: _u(L, d).cumsum(0, dtype=getattr(L, d)),
    "cumprod dtype": lambda L, d: _u(L, d).cumprod(0, dtype=getattr(L, d)),
    "mean": lambda L, d: _u(L, d).mean(),
    "mean dtype": lambda L, d: _u(L, d).mean(dtype=L.float32),
    "var": lambda L, d: _u(L, d).var(),
    "max": lambda L, d: _u(L, d).max(),
    "min dim": lambda L, d: _m(L, d).min(0),
    "amax": lambda L, d: _u(L, d).amax(),
    "aminmax": lambda L, d: _u(L, d).aminmax(),
    "argmax": lambda L, d: _u(L, d).argmax(),
    "maximum": lambda L, d: L.maximum(_u(L, d), _u(L, d)),
    "clamp": lambda L, d: _u(L, d).clamp(1, 2),
    "clamp min": lambda L, d: _u(L, d).clamp(min=2),
    "clamp max": lambda L, d: _u(L, d).clamp(max=2),
    "clamp tensors": lambda L, d: _u(L, d).clamp(_u(L, d), _u(L, d)),
    "clamp tensor min": lambda L, d: _u(L, d).clamp(min=_u(L, d)),
    "clamp floats": lambda L, d: _u(L, d).clamp(0.5, 1.5),
    "relu": lambda L, d: L.relu(_u(L, d)),
    "sort": lambda L, d: _u(L, d).sort(descending=True),
    "argsort": lambda L, d: _u(L, d).argsort(),
    "topk": lambda L, d: _u(L, d).topk(2),
    "unique": lambda L, d: _u(L, d).unique(return_inverse=True, return_counts=True),
    "where": lambda L, d: L.where(L.tensor(_MASK), _u(L, d), 0),
    "masked_fill": lambda L, d: _u(L, d).masked_fill(L.tensor(_MASK), 0),
    "masked_select": lambda L, d: _u(L, d).masked_select(L.tensor(_MASK)),
    "any": lambda L, d: _m(L, d).any(0),
    "nonzero": lambda L, d: _u(L, d).nonzero(),
    "count_nonzero": lambda L, d: _u(L, d).count_nonzero(),
    "equal": lambda L, d: L.equal(_u(L, d), _u(L, d)),
    "isclose": lambda L, d: L.isclose(_u(L, d), _u(L, d, [1, 1, 2])),
    "isnan": lambda L, d: _u(L, d).isnan(),
    "matmul": lambda L, d: _u(L, d) @ _u(L, d),
    "mm": lambda L, d: _m(L, d) @ _m(L, d),
    "mm float": lambda L, d: L.tensor([[1.0]]) @ L.tensor([[1]], dtype=getattr(L, d)),
    "bmm": lambda L, d: L.bmm(_m(L, d)[None], _m(L, d)[None]),
    "mv": lambda L, d: L.mv(_m(L, d), _u(L, d)[:2]),
    "einsum": lambda L, d: L.einsum("ij,jk->ik", _m(L, d), _m(L, d)),
    "outer": lambda L, d: L.outer(_u(L, d), _u(L, d)),
    "gather": lambda L, d: _u(L, d).gather(0, L.tensor([0, 0])),
    "index_select": lambda L, d: _u(L, d).index_select(0, L.tensor([1])),
    "scatter value": lambda L, d: _u(L, d).scatter(0, L.tensor([0]), 4),
    "index_put": lambda L, d: _u(L, d).index_put((L.tensor([0]),), _u(L, d, [9])),
    "index_fill": lambda L, d: _u(L, d).index_fill(0, L.tensor([0]), 7),
    "index_add": lambda L, d: _u(L, d).index_add(0, L.tensor([0]), _u(L, d, [1])),
    "take": lambda L, d: _u(L, d).take(L.tensor([0])),
    "bincount": lambda L, d: _u(L, d).bincount(),
    "histc": lambda L, d: _u(L, d).histc(),
    "searchsorted": lambda L, d: L.searchsorted(_u(L, d, [1, 2, 2]), _u(L, d)),
    "isin": lambda L, d: L.isin(_u(L, d), _u(L, d)),
    "tril": lambda L, d: _m(L, d).tril(),
    "diag": lambda L, d: _u(L, d).diag(),
    "repeat": lambda L, d: _u(L, d).repeat(2),
    "pad": lambda L, d: L.nn.functional.pad(_u(L, d), (1, 1)),
    "cummax": lambda L, d: _u(L, d).cummax(0),
    "median": lambda L, d: _u(L, d).median(),
    "logical_and": lambda L, d: L.logical_and(_u(L, d), _u(L, d)),
    "gcd": lambda L, d: L.gcd(_u(L, d), _u(L, d)),
    "heaviside": lambda L, d: L.heaviside(_u(L, d), _u(L, d)),
    "hypot": lambda L, d: L.hypot(_u(L, d), _u(L, d)),
    "atan2": lambda L, d: L.atan2(_u(L, d), _u(L, d)),
    "softmax": lambda L, d: _u(L, d).softmax(0),
    "norm": lambda L, d: _u(L, d).norm(),
    "diff": lambda L, d: _u(L, d).diff(),
    "view int": lambda L, d: _u(L, d).view(L.uint8),
    "result_type 1": lambda L, d: L.result_type(_u(L, d), 1),
    "result_type int64": lambda L, d: L.result_type(_u(L, d), L.tensor([1])),
    "result_type 0-d vs dim": lambda L, d: L.result_type(L.tensor(1, dtype=getattr(L, d)),
                                                         L.tensor([1])),
    "can_cast": lambda L, d: (L.can_cast(getattr(L, d), L.int64),
                              L.can_cast(L.float32, getattr(L, d))),
    "numpy scalar operand": lambda L, d: L.tensor([1, 2]) + np.dtype(d).type(3),
}
_PROMOTE_WITH = ["bool", "uint8", "int8", "int64", "uint16", "uint32", "uint64", "float16",
                 "bfloat16", "float64", "complex64", "float8_e4m3fn"]


@pytest.mark.parametrize("dt", ["uint16", "uint32", "uint64"])
@pytest.mark.parametrize("case", list(UNSIGNED))
def test_unsigned_dtypes(case, dt):
    def fn(L):
        return UNSIGNED[case](L, dt)
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn))


@pytest.mark.parametrize("dt", ["uint16", "uint32", "uint64"])
@pytest.mark.parametrize("other", _PROMOTE_WITH)
def test_unsigned_promotion(dt, other):
    for a, b in ((dt, other), (other, dt)):
        def fn(L, a=a, b=b):
            return L.promote_types(getattr(L, a), getattr(L, b))
        same_outcome(outcome_of(torch, fn), outcome_of(ember, fn))


UNSIGNED_MORE = {
    "type(str)": lambda L: L.tensor([1, 2]).type("torch.UInt16Tensor"),
    "type(dtype)": lambda L: L.tensor([1, 2]).type(L.uint16),
    "str uint64 max": lambda L: str(L.tensor([2 ** 64 - 1, 5], dtype=L.uint64)),
    "str uint32 transposed": lambda L: str(L.tensor([[2 ** 32 - 1, 5]] * 3,
                                                    dtype=L.uint32).t()),
    "as_tensor uint64 array": lambda L: L.as_tensor(np.array([2 ** 63], dtype=np.uint64)),
    "tensor uint32 array": lambda L: L.tensor(np.array([70000], dtype=np.uint32)),
    "list with numpy uint16": lambda L: L.tensor([np.uint16(3), 2]),
    "randint out of range": lambda L: L.randint(0, 70000, (2,), dtype=L.uint16),
    "requires_grad": lambda L: L.tensor([1, 2], dtype=L.uint16).requires_grad_(),
    "__index__": lambda L: L.tensor([3], dtype=L.uint32).__index__(),
    "fill_ 3.7": lambda L: L.empty(2, dtype=L.uint16).fill_(3.7),
    "eq 2**40": lambda L: L.tensor([1], dtype=L.uint32) == 2 ** 40,
    "mul 2**40": lambda L: L.tensor([1], dtype=L.uint32) * 2 ** 40,
    "mul 2**63": lambda L: L.tensor([5], dtype=L.uint64) * 2 ** 63,
    "masked_fill_": lambda L: L.tensor([5], dtype=L.uint16).masked_fill_(L.tensor([True]), 1),
    "float to uint32": lambda L: L.tensor([-3.5, 1e10, float("nan")]).to(L.uint32),
    "float to uint16": lambda L: L.tensor([-3.5, 1e30]).to(L.uint16),
    "int64 to uint16": lambda L: L.tensor([-3, 70000]).to(L.uint16),
    "uint64 max to float": lambda L: L.tensor([2 ** 64 - 1], dtype=L.uint64).float(),
    "add 0-d float64": lambda L: L.tensor([3], dtype=L.uint16) + L.tensor(2.5, dtype=L.float64),
    "sum wraps": lambda L: L.sum(L.tensor([2 ** 64 - 1, 2], dtype=L.uint64)),
    "tensor bool uint64": lambda L: L.tensor([True, 3], dtype=L.uint64),
}


@pytest.mark.parametrize("case", list(UNSIGNED_MORE))
def test_unsigned_more(case):
    same_outcome(outcome_of(torch, UNSIGNED_MORE[case]), outcome_of(ember, UNSIGNED_MORE[case]))


# ------------------------------------------------------------- the names of torch's callables


def _public_callables(lib, where):
    import types
    space = lib.Tensor if where == "Tensor" else lib
    for part in where.split(".") if where not in ("", "Tensor") else ():
        space = getattr(space, part)
    for name in sorted(dir(space)):
        if name.startswith("__") if where == "Tensor" else name.startswith("_"):
            continue
        value = getattr(space, name, None)
        if callable(value) and not isinstance(value, (type, types.ModuleType)):
            yield name, value


@pytest.mark.parametrize("where", ["", "nn.functional", "linalg", "special", "fft", "Tensor"])
def test_callables_have_torchs_names(where):
    """``torch.absolute.__name__`` is "absolute", ``torch.linalg.det.__name__`` "linalg_det",
    ``Tensor.clip.__name__`` "clip": every public callable ember also has carries torch's
    name."""
    space = ember.Tensor if where == "Tensor" else ember
    for part in where.split(".") if where not in ("", "Tensor") else ():
        space = getattr(space, part)
    wrong = []
    for name, fn in _public_callables(torch, where):
        mine = getattr(space, name, None)
        if mine is None:
            continue
        if getattr(mine, "__name__", None) != fn.__name__:
            wrong.append((name, fn.__name__, getattr(mine, "__name__", None)))
    assert not wrong


@pytest.mark.parametrize("get", [lambda L: L.absolute, lambda L: L.linalg.det,
                                 lambda L: L.Tensor.absolute, lambda L: L.special.expit,
                                 lambda L: L.nn.functional.logsigmoid, lambda L: L.clip])
def test_renamed_callables_pickle(get):
    import pickle
    fn = get(ember)
    assert pickle.loads(pickle.dumps(fn)) is fn
    assert fn.__name__ == get(torch).__name__


# ------------------------------------------------------------- lazy conjugation


def _cx(L):
    return L.tensor([[1 + 2j, 3 - 4j], [5j, -1 + 0j]], dtype=L.complex128)


def _then(make, act, show):
    def fn(L):
        a = make(L)
        b = act(L, a)
        return show(a, b)
    return fn


def _flags(t):
    return (t, t.is_conj(), t._is_view())


CONJ = {
    "conj": lambda L: _flags(_cx(L).conj()),
    "conj of conj": lambda L: _flags(_cx(L).conj().conj()),
    "conj of real": lambda L: _flags(L.tensor([1.0]).conj()),
    "resolve_conj": lambda L: _flags(_cx(L).conj().resolve_conj()),
    "conj_physical": lambda L: _flags(_cx(L).conj_physical()),
    "clone": lambda L: _flags(_cx(L).conj().clone()),
    "view, slice, t, detach": lambda L: [_flags(f(_cx(L).conj())) for f in (
        lambda c: c.view(4), lambda c: c[0], lambda c: c.t(), lambda c: c.detach(),
        lambda c: c.contiguous(), lambda c: c.expand(3, 2, 2))],
    "real and imag": lambda L: [_flags(_cx(L).conj().real), _cx(L).conj().imag],
    "mH, adjoint": lambda L: [_flags(_cx(L).mH), _flags(_cx(L).adjoint())],
    "numpy": lambda L: _cx(L).conj().numpy(),
    "view_as_real": lambda L: L.view_as_real(_cx(L).conj()),
    "view_as_real resolved": lambda L: L.view_as_real(_cx(L).conj().resolve_conj()),
    "mul_ through conj": _then(_cx, lambda L, a: a.conj().mul_(2), lambda a, b: (a, b)),
    "setitem through conj": _then(_cx, lambda L, a: a.conj().__setitem__((0, 1), 7j),
                                  lambda a, b: a),
    "write through a view of conj": _then(_cx, lambda L, a: a.conj()[1].add_(1j),
                                          lambda a, b: a),
    "write through conj of conj": _then(_cx, lambda L, a: a.conj().conj().mul_(1j),
                                        lambda a, b: a),
    "write through conj of a column": _then(_cx, lambda L, a: a[:, 1].conj().zero_(),
                                            lambda a, b: a),
    "write through real of conj": _then(_cx, lambda L, a: a.conj().real.fill_(9),
                                        lambda a, b: a),
    "base write seen by conj": _then(_cx, lambda L, a: (a.conj(), a.mul_(2))[0],
                                     lambda a, b: b),
    "versions": _then(_cx, lambda L, a: a.conj().add_(1), lambda a, b: (a._version,
                                                                         b._version)),
    "grad_fn names": lambda L: (lambda a: (a.conj().grad_fn.name(), a.conj().is_conj(),
                                           a.conj().resolve_conj().grad_fn.name()))(
        _cx(L).requires_grad_()),
    "ops on conj": lambda L: (lambda c: (c @ c, c.sum(), c * 2, c.exp(), c.abs()))(
        _cx(L).conj()),
}


@pytest.mark.parametrize("case", list(CONJ))
def test_lazy_conjugation(case):
    same_outcome(outcome_of(torch, CONJ[case]), outcome_of(ember, CONJ[case]))


# ------------------------------------------------------------- found by tools/fuzz_ops.py


def _perm(L, dt="int64"):
    return L.arange(16).reshape(2, 2, 4).permute(2, 1, 0).to(getattr(L, dt))


def _expanded(L, dt="uint8"):
    return L.arange(4).reshape(4, 1, 1).to(getattr(L, dt)).expand(4, 4, 1)


FUZZ = {
    # a tensor-only operand given a number: torch's method counts positions without self
    "maximum method number": lambda L: L.tensor([1.0]).maximum(2),
    "maximum function number": lambda L: L.maximum(L.tensor([1.0]), 2),
    "atan2_ number": lambda L: L.tensor([1.0]).atan2_(2),
    "logical_and method number": lambda L: L.tensor([1]).logical_and(2.5),
    "fmax method number": lambda L: L.tensor([1.0]).fmax(2.5),
    "hypot_ bool": lambda L: L.tensor([1.0]).hypot_(True),
    "igamma_ number": lambda L: L.tensor([1.0]).igamma_(2.0),
    "heaviside number": lambda L: L.heaviside(L.tensor([1.0]), 0),
    "heaviside method number": lambda L: L.tensor([1.0]).heaviside(0),
    "heaviside dtypes": lambda L: L.heaviside(L.tensor([1]), L.tensor([1.0])),
    "gcd number": lambda L: L.tensor([4]).gcd(3),
    "gcd_ number float": lambda L: L.tensor([4.0]).gcd_(3),
    "lcm function number": lambda L: L.lcm(L.tensor([4]), -2),
    "ldexp number": lambda L: L.ldexp(L.tensor([1.0]), 1e10),
    "nextafter number": lambda L: L.nextafter(L.tensor([1.0 + 1j]), 3),
    "logaddexp number": lambda L: L.logaddexp(L.tensor([1.0]), 2),
    "logaddexp int and float": lambda L: L.logaddexp(L.tensor([1.0], dtype=L.float64),
                                                     L.tensor([2], dtype=L.int8)),
    "logaddexp2 ints": lambda L: L.logaddexp2(L.tensor([True]), L.tensor([2], dtype=L.int8)),
    "dist int and float": lambda L: L.dist(L.tensor([1, 2], dtype=L.uint8),
                                           L.tensor([0.5, 4.0], dtype=L.float16)),
    "dist number": lambda L: L.dist(L.tensor([1.0]), 2.5),
    "dist bool": lambda L: L.dist(L.tensor([1, 2]), L.tensor([True, False])),
    "dist ints": lambda L: L.dist(L.tensor([1, 2]), L.tensor([3, 4])),
    "t_ 3-d": lambda L: L.ones(2, 2, 2).t_(),
    "t_ 3-d leaf": lambda L: L.ones(2, 2, 2, requires_grad=True).t_(),
    "argmin bool": lambda L: L.tensor([True, False]).argmin(),
    "argmax bool dim": lambda L: L.tensor([[True, False]]).argmax(1),
    "mvlgamma no domain check": lambda L: L.tensor([0.1, 5.0], dtype=L.float64).mvlgamma(3),
    "mvlgamma int": lambda L: L.tensor([1, 2], dtype=L.int32).mvlgamma(1),
    "mvlgamma bool": lambda L: L.tensor([True]).mvlgamma(1),
    "mvlgamma p 0": lambda L: L.tensor([1.0]).mvlgamma(0),
    "mvlgamma_ uint8": lambda L: L.tensor([1], dtype=L.uint8).mvlgamma_(1),
    "softmax empty int": lambda L: L.zeros(2, 0, dtype=L.int64).softmax(0),
    "log_softmax empty int8": lambda L: L.zeros(2, 0, dtype=L.int8).log_softmax(1),
    "softmax int": lambda L: L.tensor([1]).softmax(0),
    "cumsum_ dtype": lambda L: L.tensor([1], dtype=L.int8).cumsum_(0, dtype=L.int32),
    "cumprod_ dtype": lambda L: L.tensor([1.0]).cumprod_(0, dtype=L.float64),
    "cumsum_ same dtype": lambda L: L.tensor([1.0]).cumsum_(0, dtype=L.float32),
    "mean dtype int": lambda L: L.tensor([1.0]).mean(dtype=L.int64),
    "mean dim dtype int": lambda L: L.tensor([1]).mean(0, dtype=L.int64),
    "nanmean dtype int": lambda L: L.tensor([1.0]).nanmean(dtype=L.int64),
    "bitwise_not_ bfloat16": lambda L: L.tensor([1.0], dtype=L.bfloat16).bitwise_not_(),
    "bitwise_not half": lambda L: L.tensor([1.0], dtype=L.float16).bitwise_not(),
    "__rfloordiv__ bfloat16": lambda L: L.tensor([1.0], dtype=L.bfloat16).__rfloordiv__(
        L.tensor([3.0], dtype=L.bfloat16)),
    "zeta bfloat16": lambda L: L.special.zeta(L.tensor([2.0], dtype=L.bfloat16), 1.0),
    "zeta half and float": lambda L: L.special.zeta(L.tensor([2.0], dtype=L.float16),
                                                    L.tensor([1.0])),
    "xlog1py complex": lambda L: L.special.xlog1py(L.tensor([1j]), 1.0),
    # layouts: a converted input's copy, reductions, rsub, logcumsumexp
    "tan of expanded uint8": lambda L: L.tan(_expanded(L)),
    "relu of expanded bfloat16": lambda L: L.relu(_expanded(L, "bfloat16")),
    "add of expanded int and float": lambda L: _expanded(L, "int32") + L.ones(
        4, 1, dtype=L.float16),
    "sum int of permuted": lambda L: _perm(L).sum(0),
    "sum half of permuted": lambda L: _perm(L, "float16").sum(2),
    "prod of permuted": lambda L: _perm(L).prod(0),
    "amax of permuted": lambda L: _perm(L, "float32").amax(2),
    "amin of permuted": lambda L: _perm(L, "bfloat16").amin(0),
    "nansum of permuted": lambda L: _perm(L, "uint8").nansum(-1),
    "any of permuted": lambda L: _perm(L).any(0),
    "all of permuted": lambda L: _perm(L, "float64").all(2),
    "count_nonzero of permuted": lambda L: _perm(L).count_nonzero(0),
    "mean half of permuted": lambda L: _perm(L, "float16").mean(0),
    "std half of permuted": lambda L: _perm(L, "float16").std(2),
    "logsumexp half of permuted": lambda L: _perm(L, "float16").logsumexp(0),
    "aminmax of permuted": lambda L: _perm(L, "float32").aminmax(dim=0),
    "var_mean half of permuted": lambda L: L.var_mean(_perm(L, "float16"), 0),
    "norm half of permuted": lambda L: _perm(L, "float16").norm(dim=0),
    "rsub transposed": lambda L: L.rsub(_perm(L, "float32"), _perm(L, "float32").contiguous()),
    "rsub alpha": lambda L: L.rsub(L.tensor([1, 2]), L.tensor([5, 5]), alpha=2),
    "logcumsumexp of permuted": lambda L: _perm(L, "float32").logcumsumexp(1),
    "logcumsumexp half of permuted": lambda L: _perm(L, "float16").logcumsumexp(1),
}


@pytest.mark.parametrize("case", list(FUZZ))
def test_fuzz_findings(case):
    same_outcome(outcome_of(torch, FUZZ[case]), outcome_of(ember, FUZZ[case]))


def _norm_case(shape, dim, p, keepdim=False, transpose=False):
    def fn(L):
        a = L.from_numpy((np.random.default_rng(5).standard_normal(shape) * 1e20)
                         .astype(np.float32))
        if transpose:
            a = a.permute(*range(a.ndim - 1, -1, -1))
        return L.linalg.vector_norm(a, ord=p, dim=dim, keepdim=keepdim)
    return fn


FUZZ_MORE = {
    "norm over size-1 dims": _norm_case((1, 1, 3), 0, 2),
    "norm over size-1 dims keepdim": _norm_case((1, 1, 3), (0, 1), 2, True),
    "norm of one element": _norm_case((1,), 0, 2),
    "norm p=3 size-1 transposed": _norm_case((3, 1, 2), 1, 3, False, True),
    "norm p=0.5 size-1": _norm_case((1, 3, 1), (0, 2), 0.5),
    "aminmax bfloat16": lambda L: L.tensor([[1.0, 2.5], [3, -1]], dtype=L.bfloat16).aminmax(),
    "aminmax bfloat16 dim": lambda L: L.tensor([[1.0, 2.5], [3, -1]],
                                               dtype=L.bfloat16).aminmax(dim=0),
    "var of empty complex": lambda L: L.tensor([], dtype=L.complex64).var(-1, correction=0),
    "std of empty complex dim": lambda L: L.zeros(0, 2, dtype=L.complex64).std(0),
    "fmod empty int by zero": lambda L: L.fmod(L.zeros(0, 2, dtype=L.int16),
                                               L.tensor([[True, False]])),
    "remainder empty by 0": lambda L: L.remainder(L.zeros(0, dtype=L.int64), 0),
    "floordiv empty by 0": lambda L: L.zeros(0, dtype=L.int64) // 0,
    "floordiv by 0": lambda L: L.ones(2, dtype=L.int64) // 0,
    "dot bool": lambda L: L.tensor([True, False]) @ L.tensor([True, True]),
    "dot dtypes before sizes": lambda L: L.tensor([1, 2], dtype=L.uint8) @ L.tensor(
        [1.0], dtype=L.float64),
    "vdot dtypes before sizes": lambda L: L.vdot(L.tensor([1, 2]), L.tensor([1.0])),
    "polar half": lambda L: L.polar(L.tensor([1.0], dtype=L.float16),
                                    L.tensor([1.0], dtype=L.float16)),
    "logaddexp2 complex": lambda L: L.logaddexp2(L.tensor([1j]), L.tensor([1j])),
    "gcd promoted float": lambda L: L.gcd(L.tensor([1.0]), L.tensor([1.0], dtype=L.float64)),
    "gcd bool": lambda L: L.gcd(L.tensor([True]), L.tensor([True])),
    "lcm bfloat16 and half": lambda L: L.lcm(L.tensor([1], dtype=L.bfloat16),
                                             L.tensor([1.0], dtype=L.float16)),
    "nansum complex": lambda L: L.nansum(L.tensor([1j])),
    "nansum complex dtype": lambda L: L.nansum(L.tensor([1.0], dtype=L.float16),
                                               dtype=L.complex64),
    "cumprod_ bool": lambda L: L.tensor([True]).cumprod_(0),
    "cumsum_ bool": lambda L: L.tensor([True]).cumsum_(0),
    "msort contiguous": lambda L: L.arange(16.0).reshape(4, 4).msort(),
    "sort dim 0 contiguous": lambda L: L.arange(16.0).reshape(4, 4).sort(0),
    "argsort dim 0": lambda L: L.arange(16).reshape(4, 4).argsort(0),
    "sort dim 0 transposed": lambda L: L.tensor([[3, 1], [2, 4]]).t().sort(0),
    "ravel sliced": lambda L: L.arange(6.0).reshape(3, 2)[::2].ravel(),
    "ravel expanded": lambda L: L.ravel(L.ones(3, 1).expand(3, 3)),
    "ravel contiguous is a view": lambda L: L.arange(4.0).ravel()._is_view(),
}


@pytest.mark.parametrize("case", list(FUZZ_MORE))
def test_fuzz_findings_more(case):
    same_outcome(outcome_of(torch, FUZZ_MORE[case]), outcome_of(ember, FUZZ_MORE[case]))


def _ldexp_case(dt, int_exponent=False):
    def fn(L):
        rng = np.random.default_rng(3)
        v = (rng.standard_normal(64) * 1e5).astype(dt)
        w = rng.standard_normal(64) * 20
        w = np.round(w).astype(np.int64) if int_exponent else w.astype(dt)
        return L.ldexp(L.from_numpy(v), L.from_numpy(w))
    return fn


def _isclose_case(dt, rtol, atol, equal_nan):
    def fn(L):
        rng = np.random.default_rng(1)
        v = rng.standard_normal(50).astype(np.float32)
        w = (v + rng.standard_normal(50) * 0.05).astype(np.float32)
        v[:3], w[1] = np.nan, np.nan
        return L.isclose(L.from_numpy(v).to(getattr(L, dt)), L.from_numpy(w).to(getattr(L, dt)),
                         rtol=rtol, atol=atol, equal_nan=equal_nan)
    return fn


FUZZ_VALUES = {
    "ldexp float32": _ldexp_case(np.float32),
    "ldexp float64": _ldexp_case(np.float64),
    "ldexp int exponent": _ldexp_case(np.float32, True),
    "ldexp int16 and 0-d float": lambda L: L.ldexp(L.tensor([-3, 5], dtype=L.int16),
                                                   L.tensor(15.7)),
    "isclose bfloat16": _isclose_case("bfloat16", 1e-5, 1e-8, False),
    "isclose bfloat16 nan": _isclose_case("bfloat16", 0.1, 0.01, True),
    "isclose half": _isclose_case("float16", 0.0, 0.5, False),
    "rad2deg half": lambda L: L.tensor([-0.5, 3.3, 100.0, -41.9], dtype=L.float16).rad2deg(),
    "deg2rad half": lambda L: L.tensor([-0.5, 3.3, 100.0, 1e4], dtype=L.float16).deg2rad(),
}


@pytest.mark.parametrize("case", list(FUZZ_VALUES))
def test_fuzz_value_findings(case):
    same_outcome(outcome_of(torch, FUZZ_VALUES[case]), outcome_of(ember, FUZZ_VALUES[case]))


def _x23(L):
    return L.arange(6.0).reshape(2, 3)


def _xt(L):
    return L.arange(12.0).reshape(3, 4).t()


_I = [0, 2]

FUZZ_SHAPES = {
    # no negative index where torch refuses one, with torch's error for each op
    "gather negative": lambda L: _x23(L).gather(1, L.tensor([[-1], [0]])),
    "scatter negative": lambda L: _x23(L).scatter(1, L.tensor([[-1], [0]]), 5.0),
    "scatter_add negative": lambda L: _x23(L).scatter_add(1, L.tensor([[-1], [0]]),
                                                          L.ones(2, 1)),
    "scatter_reduce negative": lambda L: _x23(L).scatter_reduce(1, L.tensor([[-1], [0]]),
                                                                L.ones(2, 1), "sum"),
    "index_select negative 1-d": lambda L: L.arange(4.0).index_select(0, L.tensor([-1])),
    "index_select negative last dim": lambda L: _x23(L).index_select(1, L.tensor([0, -2])),
    "index_select past the end last dim": lambda L: _x23(L).int().index_select(
        1, L.tensor([0, 5])),
    "index_select negative first dim": lambda L: _x23(L).index_select(0, L.tensor([-1])),
    "index_select 0-d": lambda L: L.tensor(5.0).index_select(0, L.tensor([1])),
    "index_select empty 1-d": lambda L: L.tensor([]).index_select(-1, L.tensor([0])),
    "index_add negative 2-d": lambda L: _x23(L).index_add(0, L.tensor([-1]), L.ones(1, 3)),
    "index_add past the end": lambda L: _x23(L).index_add(1, L.tensor([3]), L.ones(2, 1)),
    "index_add negative 1-d": lambda L: L.arange(4.0).index_add(0, L.tensor([-1]), L.ones(1)),
    "index_copy negative": lambda L: L.arange(4.0).index_copy(0, L.tensor([-1]), L.ones(1)),
    "index_reduce negative": lambda L: _x23(L).index_reduce(1, L.tensor([-1]), L.ones(2, 1),
                                                            "prod"),
    "index_fill negative wraps": lambda L: _x23(L).index_fill(1, L.tensor([-1]), 5.0),
    "take negative wraps": lambda L: _x23(L).take(L.tensor([-1])),
    "take from empty": lambda L: L.tensor([]).take(L.tensor([0])),
    "put into empty": lambda L: L.tensor([]).put(L.tensor([0]), L.tensor([1.0])),
    # layouts: torch's clone keeps the input's, some results are contiguous
    "index_put transposed": lambda L: _xt(L).index_put((L.tensor(_I),), L.tensor(5.0)),
    "index_fill transposed": lambda L: _xt(L).index_fill(1, L.tensor(_I), 2.0),
    "put transposed": lambda L: _xt(L).put(L.tensor(_I), L.ones(2)),
    "flip expanded": lambda L: L.ones(1, 3).expand(4, 3).flip(0),
    "fliplr expanded": lambda L: L.arange(3.0).reshape(1, 3).expand(4, 3).fliplr(),
    "slice_scatter expanded": lambda L: L.ones(1, 3).expand(4, 3).slice_scatter(
        L.zeros(4, 1), 1, 0, 1),
    "diagonal_scatter expanded": lambda L: L.ones(1, 3).expand(4, 3).diagonal_scatter(
        L.zeros(3)),
    "repeat transposed": lambda L: _xt(L).repeat(1, 1),
    "renorm transposed": lambda L: _xt(L).renorm(2, 0, 1.0),
    "polar transposed": lambda L: L.polar(_xt(L), _xt(L)).stride(),
    "complex transposed": lambda L: L.complex(_xt(L), _xt(L)),
    # messages and missing kernels
    "fill_ 1-d value": lambda L: L.ones(2).fill_(L.tensor([3.0])),
    "mv 3-d": lambda L: L.mv(L.ones(4, 3, 3), L.ones(3)),
    "mv matrix vec": lambda L: L.mv(L.ones(3, 3), L.ones(3, 3)),
    "inner dtypes": lambda L: L.inner(L.ones(2), L.ones(2, dtype=L.float64)),
    "histc range": lambda L: L.histc(L.tensor([-5.96484375, float("inf")],
                                                dtype=L.float16)),
    "trace bool": lambda L: L.tensor([[True]]).trace(),
    "bincount bool": lambda L: L.tensor([True, False]).bincount(),
    "searchsorted bool": lambda L: L.searchsorted(L.tensor([True, False]), L.tensor([True])),
    "copy_ broadcast to empty": lambda L: L.ones(3, 2, 1).copy_(L.ones(0)),
    "copy_ more dims": lambda L: L.ones(3).copy_(L.ones(1, 3)),
    "chunk empty": lambda L: L.zeros(0).chunk(3),
    "chunk empty 2-d": lambda L: L.zeros(2, 0).chunk(2, 1),
    "trapezoid ints": lambda L: L.trapezoid(L.tensor([1, 2, 4])),
    "trapezoid ints dx": lambda L: L.trapezoid(L.tensor([1, 2, 4]), dx=2),
    "trapezoid ints x": lambda L: L.trapezoid(L.tensor([1, 2, 4]), L.tensor([0, 1, 3])),
    "trapezoid bool": lambda L: L.trapezoid(L.tensor([True, False])),
    "cumulative_trapezoid ints": lambda L: L.cumulative_trapezoid(L.tensor([1, 2, 4])),
    "cumulative_trapezoid ints x": lambda L: L.cumulative_trapezoid(L.tensor([1, 2, 4]),
                                                                    L.tensor([0, 1, 3])),
}


@pytest.mark.parametrize("case", list(FUZZ_SHAPES))
def test_fuzz_shape_findings(case):
    same_outcome(outcome_of(torch, FUZZ_SHAPES[case]), outcome_of(ember, FUZZ_SHAPES[case]))


def _s(L):
    return L.tensor(2.5)


FUZZ_ZERO_D = {
    "masked_fill 0-d": lambda L: _s(L).masked_fill(L.tensor(True), 1.5),
    "masked_fill 0-d int": lambda L: L.tensor(3).masked_fill(L.tensor(False), 1.5),
    "masked_fill_ 0-d": lambda L: _s(L).masked_fill_(L.tensor(True), 1.0),
    "squeeze 0-d dim": lambda L: _s(L).squeeze(0),
    "squeeze_ 0-d dim": lambda L: _s(L).squeeze_(-1),
    "fill_ uint8 from a float tensor": lambda L: L.zeros(2, dtype=L.uint8).fill_(
        L.tensor(373.7)),
    "fill_ uint8 from a negative tensor": lambda L: L.zeros(2, dtype=L.uint8).fill_(
        L.tensor(-3)),
    "fill_ int8 from an int tensor": lambda L: L.zeros(2, dtype=L.int8).fill_(L.tensor(300)),
    "fill_ uint8 number": lambda L: L.zeros(2, dtype=L.uint8).fill_(373.7),
    "mv bool": lambda L: L.ones(2, 2, dtype=L.bool) @ L.ones(2, dtype=L.bool),
    "mm bool": lambda L: L.ones(2, 2, dtype=L.bool) @ L.ones(2, 2, dtype=L.bool),
    "bmm bool": lambda L: L.ones(1, 2, 2, dtype=L.bool) @ L.ones(1, 2, 2, dtype=L.bool),
    "index_fill expanded bfloat16": lambda L: L.ones(1, 2, dtype=L.bfloat16).expand(
        2, 2).index_fill(0, L.tensor([0]), 2.0),
    "var complex 0-d": lambda L: L.tensor(1j).var(0, keepdim=True),
    "heaviside complex first": lambda L: L.heaviside(L.tensor([1j]), L.tensor(1)),
    "index_add empty source": lambda L: L.zeros(0, 2, 3).index_add(
        2, L.tensor([-3, 0]), L.zeros(0, 2, 2)),
    "index_select 0-d two indices": lambda L: _s(L).index_select(0, L.tensor([0, 0])),
    "index_put 0-d": lambda L: _s(L).index_put((L.tensor([0, 1]),), L.tensor(1.0)),
    "narrow 0-d": lambda L: _s(L).narrow(0, 0, 1),
    "unbind 0-d": lambda L: _s(L).unbind(0),
    "roll 0-d dim": lambda L: _s(L).roll(1, 0),
    "trapezoid 0-d": lambda L: L.trapezoid(_s(L), dim=0),
    "adjoint 0-d": lambda L: _s(L).adjoint(),
    "adjoint 0-d complex": lambda L: L.tensor(1j).adjoint(),
    "mT 0-d": lambda L: _s(L).mT,
    "mH 0-d complex": lambda L: (L.tensor(1j).mH, L.tensor(1j).mH.is_conj()),
    "mT 1-d": lambda L: L.ones(3).mT,
    "tril transposed": lambda L: L.ones(3, 1).t().tril(),
    "tril permuted 3-d": lambda L: L.arange(12).reshape(1, 3, 4).permute(2, 1, 0).tril(),
    "triu permuted 3-d": lambda L: L.arange(12).reshape(1, 3, 4).permute(2, 1, 0).triu(1),
}


@pytest.mark.parametrize("case", list(FUZZ_ZERO_D))
def test_fuzz_zero_d_findings(case):
    same_outcome(outcome_of(torch, FUZZ_ZERO_D[case]), outcome_of(ember, FUZZ_ZERO_D[case]))


FUZZ_MISC = {
    "expm1 of a 0-d float64 zero": lambda L: L.tensor(0.0, dtype=L.float64).expm1(),
    "expm1_ of a 0-d float64": lambda L: L.tensor(1e-300, dtype=L.float64).expm1_(),
    "log1p of a 0-d float64": lambda L: L.tensor(-1e-310, dtype=L.float64).log1p(),
    "flatten of empty from dim 1": lambda L: L.zeros(0, 1, 1).flatten(1),
    "flatten of empty dims 0-1": lambda L: L.zeros(2, 0, 3).flatten(0, 1),
    "nansum int8 to complex": lambda L: L.nansum(L.tensor([1, 2], dtype=L.int8),
                                                 dtype=L.complex64),
    "trapezoid of empty int32": lambda L: L.trapezoid(L.zeros(0, 1, 3, dtype=L.int32), dim=0),
    "narrow_copy 0-d": lambda L: L.tensor(1.0).narrow_copy(0, 0, 1),
}


@pytest.mark.parametrize("case", list(FUZZ_MISC))
def test_fuzz_misc_findings(case):
    same_outcome(outcome_of(torch, FUZZ_MISC[case]), outcome_of(ember, FUZZ_MISC[case]))


@pytest.mark.parametrize("shape,dim,index", [
    ((3, 4, 1), 1, [-1]), ((2, 3), 1, [5]), ((2, 3), 0, [5]), ((2, 3, 4), 1, [-1]),
    ((2, 3, 4), 2, [9]), ((2, 3, 4), 0, [9]), ((4,), 0, [9])])
def test_index_select_out_of_range_errors(shape, dim, index):
    def fn(L):
        return L.ones(*shape).index_select(dim, L.tensor(index))
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn))


def test_cumprod_inplace_dtype_checked_before_bool():
    def fn(L):
        return L.tensor([[True], [False]]).cumprod_(0, dtype=L.int64)
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn))
