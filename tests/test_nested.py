"""Nested tensors (strided layout) against torch: construction, printing byte for byte, the
regular sizes and torch's errors for the irregular ones, the ops torch has nested kernels for
(bit for bit, with torch's ``grad_fn`` names), to_padded_tensor, gradients through the
constituents, and torch's errors for what it refuses."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ember

from .helpers import torch

pytestmark = pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")

RS = np.random.RandomState(0)
A = RS.randn(5, 7).astype(np.float32)
B = RS.randn(3, 7).astype(np.float32)
W = RS.randn(4, 7).astype(np.float32)
BIAS = RS.randn(4).astype(np.float32)


def _nt(lib, requires_grad=False, dtype=None):
    parts = [lib.tensor(A), lib.tensor(B)]
    if dtype is not None:
        parts = [p.to(getattr(lib, dtype)) for p in parts]
    return lib.nested.nested_tensor(parts, requires_grad=requires_grad)


def _bits(t) -> np.ndarray:
    return np.ascontiguousarray(t.detach().numpy())


def _same(want, got) -> None:
    """Same nestedness, dtype, constituents' bits, grad_fn name and print."""
    if isinstance(want, (tuple, list)):
        assert len(want) == len(got)
        for w, g in zip(want, got):
            _same(w, g)
        return
    if not isinstance(want, torch.Tensor):
        assert want == got
        return
    assert want.is_nested == got.is_nested
    assert str(want.dtype) == str(got.dtype)
    assert want.requires_grad == got.requires_grad
    assert type(want.grad_fn).__name__ == type(got.grad_fn).__name__
    if want.is_nested:
        wp, gp = want.unbind(), got.unbind()
        assert len(wp) == len(gp)
        for w, g in zip(wp, gp):
            assert tuple(w.shape) == tuple(g.shape)
            assert _bits(w).tobytes() == _bits(g).tobytes()
    else:
        assert tuple(want.shape) == tuple(got.shape)
        assert _bits(want).tobytes() == _bits(got).tobytes()
    assert repr(want) == repr(got)


def both(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = fn(torch)
    got = fn(ember)
    _same(want, got)


def raises(fn, prefix_only=False):
    """torch's error class and message (its first line where ``prefix_only``: a
    dispatcher error lists the backends)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as want:
            fn(torch)
    with pytest.raises(type(want.value)) as got:
        fn(ember)
    w, g = str(want.value), str(got.value)
    if prefix_only:
        w = w.split(" 'aten::")[0] if "is only available" in w else w
        g = g[:len(w)]
    assert w == g


# ----------------------------------------------------------------------------- construction

@pytest.mark.parametrize("make", [
    lambda lib: _nt(lib),
    lambda lib: _nt(lib, requires_grad=True),
    lambda lib: _nt(lib, dtype="float64"),
    lambda lib: lib.nested.nested_tensor([]),
    lambda lib: lib.nested.nested_tensor([[1, 2], [3, 4, 5]]),
    lambda lib: lib.nested.nested_tensor([[1.0, 2], [3]], dtype=lib.float16),
    lambda lib: lib.nested.nested_tensor([lib.tensor(1.0), lib.tensor(2.0)]),
    lambda lib: lib.nested.nested_tensor([lib.ones(2), lib.ones(3, dtype=lib.int64)]),
    lambda lib: lib.nested.nested_tensor([lib.ones(2, dtype=lib.int64), lib.ones(3)]),
    lambda lib: lib.nested.as_nested_tensor(lib.tensor(A)),
    lambda lib: lib.nested.as_nested_tensor([lib.tensor(A), lib.tensor(B)],
                                            dtype=lib.float64),
    lambda lib: lib.nested.as_nested_tensor((lib.tensor(A), lib.tensor(B))),
    lambda lib: lib.nested.nested_tensor([lib.ones(2, dtype=lib.float16) * 0.1] * 3)
    .sum(-1, keepdim=True),
], ids=["plain", "requires_grad", "float64", "empty", "lists", "float16", "scalars",
        "mixed_dtypes", "int_first", "as_from_tensor", "as_dtype", "as_tuple", "sum_float16"])
def test_construct_and_print(make):
    both(make)


def test_attributes():
    for lib in (torch, ember):
        nt = _nt(lib)
        assert (nt.is_nested, nt.dim(), nt.numel(), nt.size(0), nt.size(2), nt.size(-1),
                str(nt.dtype), str(nt.layout), nt.is_contiguous()) == \
            (True, 3, 56, 2, 7, 7, "torch.float32", "torch.strided", True)
        assert lib.ones(2).is_nested is False


@pytest.mark.parametrize("fn", [
    lambda lib: _nt(lib).size(1),
    lambda lib: _nt(lib).size(),
    lambda lib: _nt(lib).shape,
    lambda lib: _nt(lib).stride(),
    lambda lib: _nt(lib).size(3),
    lambda lib: len(_nt(lib)),
    lambda lib: list(_nt(lib)),
    lambda lib: _nt(lib).tolist(),
    lambda lib: _nt(lib).numpy(),
    lambda lib: _nt(lib)[2],
    lambda lib: _nt(lib).unbind(1),
    lambda lib: lib.nested.nested_tensor([lib.ones(2, 3), lib.ones(3)]),
    lambda lib: lib.nested.nested_tensor(lib.ones(2, 3)),
    lambda lib: lib.nested.nested_tensor([lib.ones(2)], layout=lib.sparse_coo),
    lambda lib: lib.nested.to_padded_tensor(_nt(lib), 0.0, (2, 5)),
    lambda lib: lib.nested.to_padded_tensor(_nt(lib), 0.0, (2, 4, 7)),
    lambda lib: lib.nested.nested_tensor([[1, 2], [3]], requires_grad=True),
    lambda lib: lib.nested.nested_tensor((lib.ones(2),)),
    lambda lib: lib.nested.as_nested_tensor(5),
    lambda lib: lib.nested.as_nested_tensor([1, 2]),
    lambda lib: _nt(lib).sum(-1, keepdim=True, dtype=lib.float64),
], ids=["size1", "size", "shape", "stride", "size3", "len", "list", "tolist", "numpy",
        "index_oob", "unbind1", "dims", "not_list", "layout", "padded_len", "padded_small",
        "int_requires_grad", "tuple", "as_number", "as_numbers", "sum_dtype"])
def test_errors(fn):
    raises(fn)


def test_indexing_and_unbind():
    both(lambda lib: _nt(lib)[0])
    both(lambda lib: _nt(lib)[-1])
    both(lambda lib: _nt(lib)[1, 0])
    both(lambda lib: _nt(lib).unbind())
    both(lambda lib: _nt(lib, requires_grad=True)[0])
    both(lambda lib: _nt(lib, requires_grad=True).unbind())
    both(lambda lib: _nt(lib)._nested_tensor_size())
    both(lambda lib: [p * 1 for p in _nt(lib)])


@pytest.mark.parametrize("args", [(0.0,), (-1.5,), (2.0, (2, 6, 9)), (1.0, [3, 5, 7])])
def test_to_padded_tensor(args):
    both(lambda lib: lib.nested.to_padded_tensor(_nt(lib), *args))
    both(lambda lib: _nt(lib).to_padded_tensor(*args))


def test_to_padded_tensor_of_dense():
    raises(lambda lib: lib.nested.to_padded_tensor(lib.ones(2, 3), 0.0), prefix_only=True)


# ----------------------------------------------------------------------------- ops

def _F(lib):
    return lib.nn.functional


OPS = {
    "relu": lambda lib, x: x.relu(),
    "torch.relu": lambda lib, x: lib.relu(x),
    "F.relu": lambda lib, x: _F(lib).relu(x),
    "F.gelu": lambda lib, x: _F(lib).gelu(x),
    "F.gelu_tanh": lambda lib, x: _F(lib).gelu(x, approximate="tanh"),
    "F.silu": lambda lib, x: _F(lib).silu(x),
    "tanh": lambda lib, x: x.tanh(),
    "neg": lambda lib, x: -x,
    "abs": lambda lib, x: x.abs(),
    "sin": lambda lib, x: x.sin(),
    "cos": lambda lib, x: x.cos(),
    "sqrt": lambda lib, x: x.abs().sqrt(),
    "sgn": lambda lib, x: x.sgn(),
    "add": lambda lib, x: x + x * 3,
    "sub": lambda lib, x: x - x.tanh(),
    "mul": lambda lib, x: x * x.sin(),
    "div": lambda lib, x: x / (x.abs() + 1),
    "add_alpha": lambda lib, x: lib.add(x, x, alpha=2),
    "add_scalar": lambda lib, x: x + 1.5,
    "radd_scalar": lambda lib, x: 1.5 + x,
    "sub_scalar": lambda lib, x: x - 0.25,
    "mul_scalar": lambda lib, x: x * 2.5,
    "rmul_scalar": lambda lib, x: 3 * x,
    "div_scalar": lambda lib, x: x / 3,
    "softmax": lambda lib, x: x.softmax(-1),
    "softmax1": lambda lib, x: x.softmax(1),
    "F.softmax": lambda lib, x: _F(lib).softmax(x, -1),
    "matmul": lambda lib, x: lib.matmul(x, x.transpose(1, 2)),
    "matmul_op": lambda lib, x: x @ x.transpose(-1, -2),
    "bmm": lambda lib, x: lib.bmm(x, x.transpose(1, 2)),
    "linear": lambda lib, x: _F(lib).linear(x, lib.tensor(W)),
    "linear_bias": lambda lib, x: _F(lib).linear(x, lib.tensor(W), lib.tensor(BIAS)),
    "transpose": lambda lib, x: x.transpose(1, 2),
    "reshape": lambda lib, x: x.reshape(2, -1, 7, 1),
    "view": lambda lib, x: x.view(2, -1, 7),
    "sum": lambda lib, x: x.sum(-1, keepdim=True),
    "clone": lambda lib, x: x.clone(),
    "double": lambda lib, x: x.double(),
    "to": lambda lib, x: x.to(lib.float64),
}


@pytest.mark.parametrize("name", list(OPS))
def test_op_values(name):
    both(lambda lib: OPS[name](lib, _nt(lib)))


# ops whose backward torch has no nested kernel for (tanh_backward …) or whose result
# to_padded_tensor refuses (a transposed, non-contiguous one): Ember computes those gradients
TORCH_NO_GRAD = ("tanh", "sgn", "sub", "transpose")


@pytest.mark.parametrize("name", [n for n in OPS if n not in TORCH_NO_GRAD])
def test_op_grads(name):
    """The node of the result, and the leaf's nested ``.grad`` through to_padded_tensor."""
    def run(lib):
        x = _nt(lib, requires_grad=True)
        y = OPS[name](lib, x)
        out = lib.nested.to_padded_tensor(y, 0.0)
        (out * out).sum().backward()
        return y.grad_fn.__class__.__name__, out, x.grad
    both(run)


@pytest.mark.parametrize("name", TORCH_NO_GRAD)
def test_torch_refuses_these_grads(name):
    x = _nt(torch, requires_grad=True)
    with warnings.catch_warnings(), pytest.raises((RuntimeError, NotImplementedError)):
        warnings.simplefilter("ignore")
        (torch.nested.to_padded_tensor(OPS[name](torch, x), 0.0) ** 2).sum().backward()


@pytest.mark.parametrize("mode", ["both", "unbind", "self_only"])
@pytest.mark.parametrize("sa,sb", [
    ([(5, 7), (3, 7)], [(7, 5), (7, 3)]),                        # padded: ATen's own loop
    ([(30, 17), (21, 17), (9, 17)], [(17, 12), (17, 40), (17, 3)]),  # MKL's batched gemm
    ([(3, 26, 20), (3, 14, 20)], [(3, 20, 9), (3, 20, 33)]),       # 4-d, batch dims folded
])
def test_matmul_is_the_padded_product(sa, sb, mode):
    """``matmul_nested`` multiplies the zero-padded tensors, and its backward pads again
    (the bits of a constituent's own product differ on MKL's AVX-512 kernels)."""
    rng = np.random.default_rng(len(sa) + len(sa[0]))
    xa = [rng.standard_normal(s).astype(np.float32) for s in sa]
    xb = [rng.standard_normal(s).astype(np.float32) for s in sb]

    def run(lib):
        a = lib.nested.nested_tensor([lib.tensor(x) for x in xa], requires_grad=True)
        b = lib.nested.nested_tensor([lib.tensor(x) for x in xb],
                                     requires_grad=mode != "self_only")
        y = lib.matmul(a, b)
        if mode == "unbind":
            y.unbind()[1].pow(2).sum().backward()
        else:
            lib.nested.to_padded_tensor(y, 0.0).pow(2).sum().backward()
        return y, a.grad, b.grad
    both(run)


def test_to_padded_tensor_refuses_non_contiguous():
    raises(lambda lib: _nt(lib).transpose(1, 2).to_padded_tensor(0.0))
    both(lambda lib: _nt(lib).transpose(1, 2).is_contiguous())
    both(lambda lib: _nt(lib).transpose(1, 2).contiguous().to_padded_tensor(0.0))


def test_as_nested_tensor_grads_reach_the_inputs():
    def run(lib):
        a, b = lib.tensor(A, requires_grad=True), lib.tensor(B, requires_grad=True)
        nt = lib.nested.as_nested_tensor([a, b])
        nt.to_padded_tensor(0.0).pow(2).sum().backward()
        return nt, a.grad, b.grad
    both(run)


def test_nested_tensor_copies_without_history():
    def run(lib):
        a = lib.tensor(A, requires_grad=True)
        nt = lib.nested.nested_tensor([a, lib.tensor(B)])
        return nt.requires_grad, nt.is_leaf
    both(run)


@pytest.mark.parametrize("fn", [
    lambda lib, x: x.add_(x * 2),
    lambda lib, x: x.add_(x, alpha=3),
    lambda lib, x: x.mul_(x.abs()),
    lambda lib, x: x.mul_(1.5),
    lambda lib, x: x.add_(2),
], ids=["add_", "add_alpha", "mul_", "mul_scalar", "add_scalar"])
def test_in_place(fn):
    def run(lib):
        x = _nt(lib)
        y = fn(lib, x)
        return y is x, x
    both(run)


@pytest.mark.parametrize("fn", [
    lambda lib, x: x.softmax(0),
    lambda lib, x: x.transpose(0, 1),
    lambda lib, x: x.reshape(-1, 7),
    lambda lib, x: x.view(3, -1, 7),
    lambda lib, x: x.sum(-1),
    lambda lib, x: x.sum(1, keepdim=True),
    lambda lib, x: x + lib.ones(7),
    lambda lib, x: x + lib.nested.nested_tensor([lib.tensor(B), lib.tensor(A)]),
    lambda lib, x: x * lib.nested.nested_tensor([lib.tensor(A)]),
    lambda lib, x: lib.matmul(x, lib.ones(7, 2)),
    lambda lib, x: _F(lib).linear(x, lib.ones(4, 6)),
    lambda lib, x: _F(lib).linear(x, lib.ones(1, 4, 7)),
    lambda lib, x: x.unbind(1),
    lambda lib, x: x.add_(lib.ones(7)),
    lambda lib, x: x.mul_(lib.nested.nested_tensor([lib.tensor(B), lib.tensor(A)])),
], ids=["softmax0", "transpose0", "reshape_batch", "view_batch", "sum_keepdim", "sum_dim1",
        "add_dense", "add_structure", "mul_count", "matmul_dense", "linear_shape",
        "linear_dims", "unbind1", "add__dense", "mul__structure"])
def test_op_errors(fn):
    raises(lambda lib: fn(lib, _nt(lib)))


@pytest.mark.parametrize("fn", [
    lambda lib, x: x.exp(),
    lambda lib, x: lib.exp(x),
    lambda lib, x: x.sigmoid(),
    lambda lib, x: x.sum(),
    lambda lib, x: x[0:1],
], ids=["exp", "torch.exp", "sigmoid", "sum_all", "slice"])
def test_no_nested_kernel(fn):
    raises(lambda lib: fn(lib, _nt(lib)), prefix_only=True)


def test_dense_ops_untouched():
    x = ember.tensor(A)
    assert not x.is_nested
    assert ember.matmul(x, x.t()).shape == (5, 5)
    with pytest.raises(RuntimeError, match="batch1 must be a 3D tensor"):
        ember.bmm(x, x)
