"""Tensors, sizes, dtypes and devices in plain Python and NumPy code (``len``, ``in``,
``format``, ``pickle``, ``copy``, ``numpy.asarray``, ``torch.Size`` arithmetic …): torch's
answers and errors, from a table run in both libraries."""

import copy
import pickle

import pytest

import ember

from .helpers import outcome

torch = pytest.importorskip("torch")

CASES = {
    "size_add": lambda L: repr(L.ones(2, 3).shape + (4,)),
    "size_radd": lambda L: repr((4,) + L.ones(2, 3).shape),
    "size_slice": lambda L: repr(L.ones(2, 3, 4).shape[1:]),
    "size_mul": lambda L: repr(L.ones(2, 3).shape * 2),
    "size_numel": lambda L: L.ones(2, 3).shape.numel(),
    "size_eq": lambda L: L.ones(2, 3).shape == (2, 3),
    "size_eq_list": lambda L: L.ones(2, 3).shape == [2, 3],
    "size_hash": lambda L: hash(L.ones(2, 3).shape) == hash((2, 3)),
    "size_ctor": lambda L: repr(L.Size([1, 2])),
    "size_str": lambda L: str(L.ones(2).shape),
    "size_type0": lambda L: type(L.ones(2, 3).shape[0]).__name__,
    "size_count": lambda L: L.Size([1, 1, 2]).count(1),
    "size_err": lambda L: L.ones(2).size(3),
    "size_neg": lambda L: L.ones(2, 3).size(-1),
    "size_dim_kw": lambda L: L.ones(2, 3).size(dim=1),
    "size_pickle": lambda L: repr(pickle.loads(pickle.dumps(L.Size([2, 3])))),
    "dtype_repr": lambda L: repr(L.float32),
    "dtype_str": lambda L: str(L.int64),
    "dtype_is_fp": lambda L: (
        L.float16.is_floating_point,
        L.int8.is_signed,
        L.bool.is_signed,
        L.complex64.is_complex,
    ),
    "dtype_itemsize": lambda L: (L.bfloat16.itemsize, L.float64.itemsize),
    "dtype_eq": lambda L: L.float == L.float32,
    "dtype_to_real": lambda L: repr(L.complex64.to_real()),
    "dtype_to_complex": lambda L: repr(L.float64.to_complex()),
    "finfo": lambda L: (
        L.finfo(L.float32).eps,
        L.finfo(L.float16).max,
        L.finfo(L.bfloat16).tiny,
        L.finfo().bits,
    ),
    "iinfo": lambda L: (L.iinfo(L.int8).min, L.iinfo(L.uint8).max, L.iinfo(L.int64).bits),
    "finfo_repr": lambda L: repr(L.finfo(L.float32)),
    "iinfo_repr": lambda L: repr(L.iinfo(L.int32)),
    "default_dtype": lambda L: repr(L.get_default_dtype()),
    "promote_types": lambda L: repr(L.promote_types(L.int32, L.float16)),
    "result_type": lambda L: repr(L.result_type(L.ones(2, dtype=L.int8), 2.5)),
    "can_cast": lambda L: L.can_cast(L.float32, L.int32),
    "device_repr": lambda L: repr(L.device("cpu")),
    "device_cpu0": lambda L: repr(L.device("cpu", 0)),
    "device_str": lambda L: str(L.ones(2).device),
    "device_type": lambda L: L.ones(2).device.type,
    "is_cuda": lambda L: L.ones(2).is_cuda,
    "tensor_type": lambda L: L.ones(2).type(),
    "tensor_type_long": lambda L: L.ones(2, dtype=L.long).type(),
    "is_tensor": lambda L: (L.is_tensor(L.ones(1)), L.is_tensor([1])),
    "numel": lambda L: L.numel(L.ones(2, 3)),
    "element_size": lambda L: L.ones(2, dtype=L.float16).element_size(),
    "nbytes": lambda L: L.ones(3).nbytes,
    "itemsize": lambda L: L.ones(3, dtype=L.int16).itemsize,
    "ndim": lambda L: L.ones(2, 3).ndim,
    "dim": lambda L: L.ones(2, 3).dim(),
    "deepcopy_grad": lambda L: (lambda t: repr(copy.deepcopy(t)))(L.ones(2, requires_grad=True)),
    "copy_leaf": lambda L: (lambda t: copy.copy(t).requires_grad)(L.ones(2, requires_grad=True)),
    "deepcopy_nonleaf": lambda L: copy.deepcopy(L.ones(2, requires_grad=True) * 2),
    "pickle_tensor": lambda L: repr(pickle.loads(pickle.dumps(L.arange(3.0)))),
    "hash_tensor": lambda L: isinstance(hash(L.ones(2)), int),
    "contains": lambda L: 2 in L.arange(3),
    "contains_t": lambda L: L.tensor(2) in L.arange(3),
    "len": lambda L: len(L.ones(4, 2)),
    "iter": lambda L: [repr(r) for r in L.arange(4.0).reshape(2, 2)],
    "bool_single": lambda L: bool(L.tensor([0.0])),
    "int_single": lambda L: int(L.tensor([3.7])),
    "index": lambda L: [10, 20, 30][L.tensor(1)],
    "format": lambda L: f"{L.tensor(3.14159):.2f}",
    "format_vec": lambda L: f"{L.tensor([1.5])}",
    "round_py": lambda L: repr(round(L.tensor(2.567), 1)),
    "abs_py": lambda L: repr(abs(L.tensor(-2))),
    "divmod": lambda L: repr(divmod(L.tensor(7), 2)),
    "complex_py": lambda L: complex(L.tensor(2.0)),
    "max_py": lambda L: repr(max(L.tensor([1.0, 3.0]))),
    "sum_py": lambda L: repr(sum(L.tensor([1.0, 3.0]))),
    "sorted_py": lambda L: repr(sorted(L.tensor([3.0, 1.0]))),
    "list_py": lambda L: repr(list(L.tensor([1, 2]))),
    "np_array": lambda L: repr(__import__("numpy").array(L.tensor([1.0, 2.0]))),
    "np_asarray_grad": lambda L: __import__("numpy").asarray(L.ones(2, requires_grad=True)),
    "np_add": lambda L: repr(__import__("numpy").float64(2.0) * L.ones(2)),
    "np_scalar_left": lambda L: repr(__import__("numpy").float32(2.0) + L.ones(2, dtype=L.float16)),
    "np_int_idx": lambda L: repr(L.arange(5)[__import__("numpy").int64(2)]),
    "np_arr_idx": lambda L: repr(L.arange(5)[__import__("numpy").array([1, 3])]),
    "set_printoptions": lambda L: (
        L.set_printoptions(precision=2),
        repr(L.tensor([1.23456])),
        L.set_printoptions(profile="default"),
    )[1],
}


def _shown(lib, r):
    return (repr(r) if isinstance(r, lib.Tensor) else r,)


@pytest.mark.parametrize("name", sorted(CASES))
def test_python_protocols_as_torch(name):
    got, want = outcome(ember, CASES[name], _shown), outcome(torch, CASES[name], _shown)
    assert repr(got).replace("ember", "torch") == repr(want)
