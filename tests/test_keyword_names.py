"""Every function and method takes torch's own parameter names as keywords.

The names come from torch itself: ``inspect.signature`` where torch's callable is Python, else
the ATen schemas behind torch's Python bindings (``torch._C._jit_get_schemas_for_operator``:
the same argument names the binding's parser accepts, ``self`` being ``input`` for functions).
For each schema overload a call is synthesised from the argument types; where torch accepts it
by position and by keyword, Ember must give torch's result both ways.
"""

from __future__ import annotations

import inspect
import itertools
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13")

# torch names Ember does not take, and why
NOT_TAKEN = {
    "out_dtype": "mm/bmm/addmm/baddbmm(out_dtype=) is not implemented on torch's CPU backend",
}
# callables whose synthesised calls are not meaningful comparisons (random or stateful)
SKIP = {"manual_seed", "seed", "initial_seed", "set_rng_state", "get_rng_state", "save",
        "load", "empty", "empty_like", "new_empty", "set_default_dtype", "set_printoptions",
        "data_ptr", "untyped_storage", "register_hook", "backward", "numpy", "tolist",
        "item", "is_grad_enabled", "is_inference_mode_enabled", "resize_", "set_",
        "uniform_", "normal_", "random_", "exponential_", "geometric_", "cauchy_",
        "log_normal_", "bernoulli_", "bernoulli", "multinomial", "dropout", "rand",
        "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like",
        "normal", "retain_grad", "requires_grad_", "share_memory_", "pin_memory",
        # (torch's unchecked constructor takes any tensors: the synthesised call is a batched
        # CSR of float "indices"; its keywords are checked in HAND_WRITTEN)
        "sparse_csr_tensor",
        # (the synthesised call passes 2-d offsets, which aten's op reads as flat memory past
        # their first row: torch's result or error depends on what lies there)
        "embedding_bag"}


def _schemas(name: str):
    """torch's Python-visible overloads of ``aten::name``: lists of schema arguments."""
    try:
        schemas = torch._C._jit_get_schemas_for_operator("aten::" + name)
    except RuntimeError:
        return []
    out = []
    for s in schemas:
        args = list(s.arguments)
        if any("Dimname" in str(a.type) for a in args):
            continue
        if any(a.alias_info is not None and a.alias_info.is_write and a.name != "self"
               for a in args):
            continue          # out= variants
        out.append(args)
    return out


def _python_names(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    return [p.name for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self"]


def _is_python(fn) -> bool:
    return inspect.isfunction(inspect.unwrap(fn))


def _pairs():
    for name in sorted(dir(ember)):
        e, t = getattr(ember, name), getattr(torch, name, None)
        if name.startswith("_") or t is None or inspect.isclass(e) or inspect.ismodule(e) \
                or not callable(e) or name in SKIP:
            continue
        yield f"torch.{name}", name, e, t, False
    for name in sorted(dir(ember.Tensor)):
        e, t = getattr(ember.Tensor, name), getattr(torch.Tensor, name, None)
        if name.startswith("_") or t is None or not callable(e) or isinstance(e, property) \
                or name in SKIP:
            continue
        yield f"Tensor.{name}", name, e, t, True


PAIRS = list(_pairs())


def _ember_params(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    return sig


# ----------------------------------------------------------------------------- signatures

@pytest.mark.parametrize("label,name,e,t,method", PAIRS, ids=[p[0] for p in PAIRS])
def test_python_signature_names(label, name, e, t, method):
    """Where torch's callable is Python, Ember's takes each of its parameter names."""
    if not _is_python(t):
        pytest.skip("a builtin: checked by calls below")
    names = _python_names(t)
    sig = _ember_params(e)
    if names is None or sig is None:
        pytest.skip("no signature")
    params = sig.parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        pytest.skip("Ember takes **kwargs")
    missing = [n for n in names if n not in params and n not in NOT_TAKEN]
    assert not missing, f"{label}: torch's names {missing} not taken ({list(params)})"


# ----------------------------------------------------------------------------- calls

def _tensor(kind="float"):
    if kind == "long":
        return torch.tensor([[0, 1, 0], [1, 0, 1]])
    if kind == "index":
        return torch.tensor([1, 0])
    if kind == "bool":
        return torch.tensor([[True, False, True], [False, True, False]])
    if kind == "tall":
        return torch.tensor([[0.9, 1.3], [0.6, 1.1], [0.7, 1.4]])
    if kind == "square":
        return torch.tensor([[1.9, 0.3], [0.6, 1.1]])
    if kind == "vector":
        return torch.tensor([0.8, 1.2, 0.5])
    if kind == "batch":
        return torch.tensor([[[1.9, 0.3], [0.6, 1.1]], [[0.7, 0.2], [0.4, 1.5]]])
    return torch.tensor([[0.9, 1.3, 0.6], [1.1, 0.7, 1.4]])


_KINDS = ("float", "tall", "square", "long", "index", "bool", "vector", "batch")


# values to try for an argument, by its schema type (dtypes are ints in schemas: by name)
_POOLS = {
    "Tensor": lambda: [_tensor(k) for k in _KINDS],
    "Optional[Tensor]": lambda: [None, _tensor()],
    "List[Tensor]": lambda: [[_tensor(), _tensor()]],
    "List[Optional[Tensor]]": lambda: [[_tensor("index")]],
    "int": lambda: [1, 0, 2],
    "Optional[int]": lambda: [None, 1],
    "List[int]": lambda: [[0], [1, 0], [3, 2], [1], [2, 3]],
    "Optional[List[int]]": lambda: [None, [0], [3, 2]],
    "number": lambda: [2, 0.5],
    "Optional[number]": lambda: [None, 2],
    "float": lambda: [0.5],
    "Optional[float]": lambda: [None, 0.5],
    "bool": lambda: [False, True],
    "Optional[bool]": lambda: [None, False],
}
_BY_NAME = {"dtype": [torch.float64], "layout": [None], "device": [None],
            "memory_format": [None], "pin_memory": [False]}


def _pool(arg):
    if arg.name in _BY_NAME:
        return _BY_NAME[arg.name]
    make = _POOLS.get(str(arg.type))
    return None if make is None else make()


def _clone(v):
    if isinstance(v, torch.Tensor):
        return v.clone()
    if isinstance(v, list):
        return [_clone(x) for x in v]
    return v


def _to_ember(v):
    if isinstance(v, torch.Tensor):
        return ember.tensor(v.numpy())
    if isinstance(v, torch.dtype):
        return getattr(ember, str(v).split(".")[1])
    if isinstance(v, list):
        return [_to_ember(x) for x in v]
    return v


def _plain(r):
    if isinstance(r, (torch.Tensor, ember.Tensor)) and r.is_sparse:
        # its parts: a synthesised call may build one torch cannot densify
        return ("sparse", tuple(r.shape), _plain(r._indices()), _plain(r._values()))
    if isinstance(r, (torch.Tensor, ember.Tensor)) and r.is_sparse_csr:
        return ("csr", tuple(r.shape), _plain(r.crow_indices()), _plain(r.col_indices()),
                _plain(r.values()))
    if isinstance(r, (torch.Tensor, ember.Tensor)):
        return ("T", str(r.dtype).split(".")[-1], tuple(r.shape), r.detach().numpy().copy())
    if isinstance(r, (tuple, list)):
        return tuple(_plain(x) for x in r)
    if isinstance(r, (torch.dtype, ember.dtype)):
        return str(r).split(".")[-1]
    return r


def _same(a, b) -> bool:
    if isinstance(a, tuple) and a and a[0] == "T":
        if not (isinstance(b, tuple) and b and b[0] == "T" and a[1:3] == b[1:3]):
            return False
        x, y = a[3], b[3]
        if x.dtype.kind in "fc":
            return np.allclose(x, y, rtol=1e-6, atol=1e-6, equal_nan=True)
        return np.array_equal(x, y)
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float):
        return b == pytest.approx(a, rel=1e-6, nan_ok=True)
    return a == b


def _call(lib, fn, name, method, args, kwargs):
    """``fn(*args, **kwargs)`` (a method: on ``args[0]``) after seeding, warnings off."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.manual_seed(0)
        if method:
            return getattr(args[0], name)(*args[1:], **kwargs)
        return fn(*args, **kwargs)


def _try(fn, name, method, args, kwargs):
    try:
        return True, _call(torch, fn, name, method, [_clone(a) for a in args],
                           {k: _clone(v) for k, v in kwargs.items()})
    except Exception:    # noqa: BLE001 - a combination torch refuses is not a case
        return False, None


def _cases(name, t, method):
    """Per overload: ``(names, values, optional)`` that torch takes by position and keyword."""
    for args in _schemas(name):
        if method and (not args or args[0].name != "self"):
            continue
        required = [a for a in args if a.default_value is None and a.name not in _BY_NAME
                    and not str(a.type).startswith("Optional") and not a.kwarg_only]
        # an op that needs one of its optional arguments (clamp's min): try each in turn
        maybe = [a for a in args if a not in required and not a.kwarg_only
                 and a.default_value is None and a.name not in _BY_NAME]
        for extra_arg in [None, *maybe]:
            chosen = [a for a in args if a in required or a is extra_arg]
            found = _first_case(name, t, method, args, chosen, extra_arg)
            if found is not None:
                yield found
                break


def _first_case(name, t, method, args, chosen, extra_arg):
    pools = [_pool(a) for a in chosen]
    if any(p is None for p in pools):
        return None
    if extra_arg is not None:
        i = chosen.index(extra_arg)
        pools[i] = [v for v in pools[i] if v is not None]
    names = ["input" if a.name == "self" else a.name for a in chosen]
    optional = {a.name: a.default_value for a in args
                if a not in chosen and a.name not in NOT_TAKEN and a.name != "out"}
    for values in itertools.islice(itertools.product(*pools), 400):
        ok, res = _try(t, name, method, list(values), {})
        if not ok:
            continue
        head = list(values[:1]) if method else []
        kw = dict(zip(names[len(head):], values[len(head):]))
        for extra in (optional, {}):
            ok, res_kw = _try(t, name, method, head, {**kw, **extra})
            if ok:
                return names, list(values), res, head, {**kw, **extra}, res_kw
        return None
    return None


COMPARE_OWN = {"svd": "torch's LAPACK and NumPy's may pick other signs: Ember's keyword call "
                      "is compared with its positional call"}


@pytest.mark.parametrize("label,name,e,t,method", PAIRS, ids=[p[0] for p in PAIRS])
def test_call_by_position_and_keyword(label, name, e, t, method):
    if _is_python(t):
        pytest.skip("a Python function in torch: its signature is checked above")
    tried = 0
    for names, values, res, head, kw, res_kw in _cases(name, t, method):
        tried += 1
        er = _call(ember, e, name, method, [_to_ember(v) for v in values], {})
        er_kw = _call(ember, e, name, method, [_to_ember(v) for v in head],
                      {k: _to_ember(v) for k, v in kw.items()})
        if name in COMPARE_OWN:
            res = res_kw = er
        assert _same(_plain(res), _plain(er)), f"{label}{tuple(names)} by position"
        assert _same(_plain(res_kw), _plain(er_kw)), f"{label}({sorted(kw)}) by keyword"
    if not tried:
        pytest.skip("no synthesised call that torch accepts")


# callables without an ATen schema of their own (bindings written by hand in torch)
HAND_WRITTEN = {
    "promote_types": lambda lib: lib.promote_types(type1=lib.int32, type2=lib.float32),
    "can_cast": lambda lib: lib.can_cast(from_=lib.int32, to=lib.float32),
    "asarray": lambda lib: lib.asarray(obj=[1.5, 2.0], dtype=lib.float64, requires_grad=True),
    "asarray_copy": lambda lib: lib.asarray(obj=lib.ones(2), copy=True),
    "tensor": lambda lib: lib.tensor(data=[1, 2], dtype=lib.int32, requires_grad=False),
    "is_nonzero": lambda lib: lib.is_nonzero(input=lib.tensor([1])),
    "new_tensor": lambda lib: lib.ones(2).new_tensor(data=[1, 2], dtype=lib.float64),
    "type": lambda lib: lib.ones(2).type(dtype=lib.float64),
    "where": lambda lib: lib.arange(3.).where(condition=lib.arange(3) > 0, other=-1.),
    "split_with_sizes": lambda lib: lib.arange(3.).split_with_sizes(split_sizes=[1, 2], dim=0),
    "unflatten": lambda lib: lib.unflatten(lib.arange(6.), dim=0, sizes=(2, 3)),
    "view_dtype": lambda lib: lib.arange(2.).view(dtype=lib.int32),
    "flip": lambda lib: lib.arange(3.).flip(dims=[0]),
    "sparse_csr_tensor": lambda lib: lib.sparse_csr_tensor(
        crow_indices=lib.tensor([0, 1, 3]), col_indices=lib.tensor([1, 0, 2]),
        values=lib.tensor([1.0, 2.0, 3.0]), size=(2, 3), dtype=lib.float64).to_dense(),
}


@pytest.mark.parametrize("case", list(HAND_WRITTEN))
def test_hand_written_bindings(case):
    fn = HAND_WRITTEN[case]
    assert _same(_plain(fn(torch)), _plain(fn(ember)))
