"""Regression tests for what the second round of real programs found, each against torch 2.13:
``tensor[index] = value`` drops the value's leading size-1 dims (a GAE loop writes a ``[1, N]``
row into ``advantages[t]``) and skips no-op slices (``c[:] = x`` records ``CopyBackwards``);
``index_put_``'s "shape mismatch" check; ``copy_`` from a source with more dims; NumPy arrays
with negative strides refused; ``Tensor.numpy()`` a fresh array object each call."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import errors_alike, torch


def same(e, t, exact=True):
    a, b = e.detach().numpy(), t.detach().numpy()
    assert a.shape == b.shape and a.dtype == b.dtype, (a, b)
    if exact:
        np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


SETITEM_CASES = [
    ((4,), (slice(None),), (1, 4)),
    ((4,), (Ellipsis,), (1, 1, 4)),
    ((3, 4), (1,), (1, 1, 4)),
    ((3, 4), (slice(0, 2),), (1, 2, 1)),
    ((3, 4), ([0, 2],), (1, 1, 4)),
    ((3, 4, 5), (slice(1, None), [0, 1], [[1], [2]]), (1, 2, 2, 1)),
    ((3, 4, 5), ([0, 1], slice(None), [1, 2]), (1, 4)),
]


@pytest.mark.parametrize("shape,index,vshape", SETITEM_CASES)
def test_setitem_drops_leading_ones_of_the_value(shape, index, vshape):
    def go(lib):
        x = lib.ones(vshape, requires_grad=True)
        dst = lib.zeros(shape)
        idx = tuple(lib.tensor(i) if isinstance(i, list) else i for i in index)
        dst[idx] = x * lib.arange(1.0, 1.0 + vshape[-1])
        (dst * lib.arange(float(dst.numel())).view(shape)).sum().backward()
        return dst, x.grad, dst.grad_fn.name()
    (e, eg, en), (t, tg, tn) = go(ember), go(torch)
    same(e, t)
    same(eg, tg)
    assert en == tn


@pytest.mark.parametrize("index", [(slice(None),), (Ellipsis,), (slice(None), slice(0, 3)),
                                   (slice(0, 2, 1),), (slice(0, 1),), (0,)])
def test_setitem_through_a_no_op_slice_is_a_copy(index):
    def go(lib):
        c = lib.zeros(2, 3)
        c[index] = lib.ones(2, 3, requires_grad=True)[index] * 2
        return c.grad_fn.name()
    assert go(ember) == go(torch)


@pytest.mark.parametrize("vshape", [(3,), (2, 1, 4), (2, 4, 1), (5,)])
def test_setitem_value_shape_errors(vshape):
    errors_alike(lambda lib: lib.zeros(4).__setitem__(slice(None), lib.ones(vshape)))
    errors_alike(lambda lib: lib.zeros(3, 4).__setitem__(lib.tensor([0, 1]), lib.ones(vshape)))
    errors_alike(lambda lib: lib.zeros(3, 4, 5).__setitem__(
        (lib.tensor([0, 1]), slice(None), lib.tensor([1, 2])), lib.ones(vshape)))


@pytest.mark.parametrize("vshape", [(3,), (1, 1, 4), (2, 1, 4)])
@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_shape_mismatch(vshape, accumulate):
    errors_alike(lambda lib: lib.zeros(3, 4).index_put_((lib.tensor([0, 1]),), lib.ones(vshape),
                                                        accumulate=accumulate))
    errors_alike(lambda lib: lib.zeros(3, 4).index_put((lib.tensor([0, 1]),), lib.ones(vshape),
                                                       accumulate=accumulate))


def test_index_put_broadcasts_a_value():
    for lib_pair in [(ember, torch)]:
        e, t = (lib.zeros(3, 4).index_put_((lib.tensor([2, 0]),), lib.arange(4.0))
                for lib in lib_pair)
        same(e, t)


@pytest.mark.parametrize("src", [(1, 4), (2, 4), (3,)])
def test_copy_from_a_larger_or_clashing_source(src):
    errors_alike(lambda lib: lib.zeros(4).copy_(lib.ones(src)))


@pytest.mark.parametrize("make", [lambda: np.arange(4.0)[::-1],
                                  lambda: np.arange(6.0).reshape(2, 3)[:, ::-1],
                                  lambda: np.zeros((2, 1))[:, ::-1]])
@pytest.mark.parametrize("fn", ["from_numpy", "as_tensor", "tensor", "asarray"])
def test_negative_strides_refused(make, fn):
    errors_alike(lambda lib: getattr(lib, fn)(make()))


def test_positive_strided_arrays_share_memory():
    a = np.arange(12.0).reshape(3, 4)[:, ::2]
    e, t = ember.from_numpy(a), torch.from_numpy(a)
    assert e.stride() == t.stride() == (4, 2)
    a[0, 0] = 7
    assert e[0, 0].item() == t[0, 0].item() == 7
    same(ember.from_numpy(np.zeros((2, 0))[::-1]), torch.from_numpy(np.zeros((2, 0))[::-1]))


def test_numpy_returns_a_new_array_sharing_memory():
    for lib in (ember, torch):
        t = lib.zeros(2, 3)
        n = t.numpy()
        assert n is not t.numpy() and n.base is not None
        n.shape = (3, 2)          # the array's shape is its own
        n[0, 0] = 5
        assert tuple(t.shape) == (2, 3) and t[0, 0].item() == 5


def _views(lib):
    base = lib.arange(12.0).reshape(3, 4)
    return {"base": base, "row": base[1], "col": base[:, 2], "t": base.t(),
            "exp": base[0, :1].expand(3, 2), "other": lib.ones(2), "p": lib.nn.Parameter(base)}


@pytest.mark.parametrize("writer,reader", [("ember", "ember"), ("ember", "torch"),
                                           ("torch", "ember")])
def test_save_load_keeps_storage_shared_between_views(writer, reader, tmp_path):
    libs = {"ember": ember, "torch": torch}
    w, r = libs[writer], libs[reader]
    w.save(_views(w), tmp_path / "v.pt")
    got = r.load(tmp_path / "v.pt")
    want = _views(torch)
    for k, v in want.items():
        g = got[k]
        assert tuple(g.shape) == tuple(v.shape) and g.stride() == v.stride(), k
        assert g.storage_offset() == v.storage_offset(), k
        np.testing.assert_array_equal(g.detach().numpy(), v.detach().numpy())
    got["row"][0] = 100.0
    assert got["base"][1, 0].item() == 100.0 and got["col"][1].item() == 6.0
    with r.no_grad():
        got["p"][0, 0] = -1.0
    assert got["base"][0, 0].item() == -1.0 and got["exp"][2, 1].item() == -1.0
    assert got["other"].sum().item() == 2.0


def test_save_writes_one_record_per_storage(tmp_path):
    import zipfile
    for lib in (ember, torch):
        lib.save(_views(lib), tmp_path / f"{lib.__name__}.pt")
        with zipfile.ZipFile(tmp_path / f"{lib.__name__}.pt") as zf:
            records = sorted(n.split("/data/")[1] for n in zf.namelist() if "/data/" in n)
        assert records == ["0", "1"], (lib.__name__, records)


def _conv_case(lib, fn, xdt, wdt, bdt):
    F = lib.nn.functional
    x = lib.ones((1, 2, 5, 5) if "2d" in fn else (1, 2, 5), dtype=getattr(lib, xdt))
    w = lib.ones((2, 2, 2, 2) if "2d" in fn else (2, 2, 2), dtype=getattr(lib, wdt))
    b = None if bdt is None else lib.ones(2, dtype=getattr(lib, bdt))
    return getattr(F, fn)(x, w, b)


@pytest.mark.parametrize("fn", ["conv1d", "conv2d", "conv_transpose2d"])
@pytest.mark.parametrize("xdt,wdt,bdt", [("float64", "float32", "float32"),
                                         ("float64", "float32", None),
                                         ("float32", "float64", "float32"),
                                         ("float32", "float64", "float64"),
                                         ("float64", "float64", "float32"),
                                         ("int64", "float32", None),
                                         ("complex64", "float32", None),
                                         ("bfloat16", "float32", None)])
def test_convolution_refuses_mixed_dtypes(fn, xdt, wdt, bdt):
    if fn == "conv_transpose2d" and xdt == wdt:
        e, t = (_conv_case(lib, fn, xdt, wdt, bdt) for lib in (ember, torch))
        same(e, t)
        return
    errors_alike(lambda lib: _conv_case(lib, fn, xdt, wdt, bdt))


def test_convolution_dtype_checked_before_channels():
    errors_alike(lambda lib: lib.nn.functional.conv2d(
        lib.ones(1, 2, 3, 3, dtype=lib.float64), lib.ones(1, 1, 2, 2), lib.ones(1)))


@pytest.mark.parametrize("shape", [(3, 4), (4,), (2, 3, 4)])
@pytest.mark.parametrize("dt", ["int64", "float64"])
def test_linear_with_bias_names_addmm_dtypes(shape, dt):
    def go(lib):
        lin = lib.nn.Linear(4, 2)
        return lin(lib.ones(shape, dtype=getattr(lib, dt)))
    errors_alike(go)


@pytest.mark.parametrize("args", [((2,), "int64", (3, 4), "float32", (5, 2), "float32"),
                                  ((2,), "float32", (3, 4), "int64", (5, 2), "float32"),
                                  ((2,), "float64", (3, 4), "float32", (5, 2), "float32"),
                                  ((2,), "float32", (3, 4), "float64", (4, 2), "float64")])
def test_addmm_checks_dtypes_before_shapes(args):
    s, sd, a, ad, b, bd = args
    errors_alike(lambda lib: lib.addmm(lib.ones(s, dtype=getattr(lib, sd)),
                                       lib.ones(a, dtype=getattr(lib, ad)),
                                       lib.ones(b, dtype=getattr(lib, bd))))


@pytest.mark.parametrize("tdt", ["int64", "uint8", "bool"])
@pytest.mark.parametrize("kw", [{}, {"pos_weight": [1.0, 2.0, 0.5]}, {"weight": [1.0, 2, 3]},
                                {"reduction": "none"}])
def test_bce_with_logits_refuses_integral_targets(tdt, kw):
    def go(lib):
        k = {n: (lib.tensor(v) if isinstance(v, list) else v) for n, v in kw.items()}
        target = lib.tensor([1, 0, 1]).to(getattr(lib, tdt))
        return lib.nn.functional.binary_cross_entropy_with_logits(lib.randn(3), target, **k)
    errors_alike(go)


@pytest.mark.parametrize("xdt,tdt", [("float64", "float32"), ("float32", "float64"),
                                     ("float32", "float32")])
def test_bce_with_logits_takes_the_target_dtype(xdt, tdt):
    def go(lib):
        x = lib.tensor([0.3, -1.2, 2.0], dtype=getattr(lib, xdt), requires_grad=True)
        t = lib.tensor([1.0, 0.0, 0.25], dtype=getattr(lib, tdt))
        loss = lib.nn.functional.binary_cross_entropy_with_logits(x, t, pos_weight=lib.ones(3))
        loss.backward()
        return loss, x.grad
    (el, eg), (tl, tg) = go(ember), go(torch)
    same(el, tl, exact=False)
    same(eg, tg, exact=False)


@pytest.mark.parametrize("tdt", ["int64", "float64", "bool"])
def test_bce_requires_the_input_dtype(tdt):
    errors_alike(lambda lib: lib.nn.functional.binary_cross_entropy(
        lib.rand(3), lib.tensor([1, 0, 1]).to(getattr(lib, tdt))))


@pytest.mark.parametrize("fn,shape,k", [("max_pool2d", (1, 1, 2, 2), 3),
                                        ("avg_pool2d", (2, 3, 4, 4), (5, 2)),
                                        ("max_pool2d", (3, 4, 4), (1, 5)),
                                        ("max_pool1d", (1, 2, 2), 3),
                                        ("avg_pool1d", (1, 2, 2), 3),
                                        ("max_pool3d", (1, 2, 2, 2, 2), 3),
                                        ("avg_pool3d", (1, 2, 3, 3, 3), 4)])
def test_pooling_output_too_small(fn, shape, k):
    errors_alike(lambda lib: getattr(lib.nn.functional, fn)(lib.randn(shape), k, stride=1))


def test_max_pool1d_with_indices_output_too_small():
    errors_alike(lambda lib: lib.nn.functional.max_pool1d(lib.randn(1, 2, 2), 3,
                                                          return_indices=True))


@pytest.mark.parametrize("dims", [(0, 0), (0, 1, 1), (1, 0, 0), (-1, 2, 0)])
def test_permute_duplicate_dims(dims):
    errors_alike(lambda lib: lib.zeros([2, 3, 4][:len(dims)]).permute(*dims))


@pytest.mark.parametrize("std", [-1.0, -1.5, -1e-5, -123456789.0, -2])
def test_normal_negative_std_printed_as_cpp(std):
    errors_alike(lambda lib: lib.normal(0.0, std, size=(2,)))
    errors_alike(lambda lib: lib.zeros(2).normal_(0.0, std))


def test_batch_norm_one_value_per_channel_names_the_size():
    errors_alike(lambda lib: lib.nn.BatchNorm1d(4)(lib.randn(1, 4)))
    errors_alike(lambda lib: lib.nn.BatchNorm2d(4)(lib.randn(1, 4, 1, 1)))


@pytest.mark.parametrize("shape,k,pad", [((1, 2, 2, 3, 3), 3, 1), ((2, 2, 3, 3), (2, 4, 1), 0)])
def test_avg_pool3d_kernel_larger_than_input(shape, k, pad):
    errors_alike(lambda lib: lib.nn.functional.avg_pool3d(lib.randn(shape), k, stride=1,
                                                          padding=pad))


LEAF_CASES = [
    lambda lib: [lib.tensor(1.5), 2, 3.0],
    lambda lib: [lib.tensor(1, dtype=lib.int8), 2],
    lambda lib: [np.float32(1), 2.0],
    lambda lib: [np.float64(1), 2.5],
    lambda lib: [np.int32(3), 4],
    lambda lib: [lib.tensor(1.5, dtype=lib.float16), 2.0],
    lambda lib: [lib.tensor(1, dtype=lib.int32), 2.0],
    lambda lib: [lib.tensor(2.0, dtype=lib.float64), 1],
    lambda lib: [[lib.tensor(1.0), 2], [3, 4]],
    lambda lib: [lib.tensor(True), 2],
    lambda lib: [lib.tensor(1.0), 1j],
    lambda lib: [np.float16(1), np.int64(2)],
    lambda lib: [lib.tensor(1.0, dtype=lib.bfloat16), 2],
    lambda lib: [lib.tensor([1.0]), lib.tensor([3.0])],          # one-element tensors: scalars
    lambda lib: [[lib.tensor(1)], [lib.tensor([2])]],
    lambda lib: (lib.tensor([[7]]), 8),
]


@pytest.mark.parametrize("make", LEAF_CASES)
def test_tensor_from_a_list_holding_tensors_and_numpy_scalars(make):
    e, t = ember.tensor(make(ember)), torch.tensor(make(torch))
    assert e.dtype.name == str(t.dtype).replace("torch.", "")
    assert tuple(e.shape) == tuple(t.shape)
    np.testing.assert_array_equal(e.float().numpy(), t.float().numpy())


@pytest.mark.parametrize("make", [
    lambda lib: [lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])],
    lambda lib: [lib.tensor([1, 2]), lib.tensor([3, 4])],
    lambda lib: [lib.tensor([1]), 2, lib.tensor([1, 2])],
    lambda lib: (lib.tensor([True, False]), lib.tensor([True, True])),
    lambda lib: [lib.zeros(0), lib.zeros(0)]])
def test_tensor_from_a_list_of_larger_tensors_raises(make):
    errors_alike(lambda lib: lib.tensor(make(lib)))


def test_tensor_from_a_list_of_arrays_warns_once():
    """torch warns the first time in a process only (TORCH_WARN_ONCE), at the user's line."""
    import subprocess
    import sys
    code = ("import warnings, numpy as np, {lib} as lib\n"
            "for k in range(2):\n"
            "    with warnings.catch_warnings(record=True) as w:\n"
            "        warnings.simplefilter('always')\n"
            "        t = lib.tensor([np.ones(2, np.float32), np.zeros(2, np.float32)])\n"
            "    print(tuple(t.shape), [(str(x.message), x.lineno) for x in w])\n")
    out = [subprocess.run([sys.executable, "-c", code.format(lib=lib)], capture_output=True,
                          text=True, check=True).stdout for lib in ("torch", "ember")]
    assert out[0] == out[1]
    assert "list of numpy.ndarrays is extremely slow" in out[0].splitlines()[0]


@pytest.mark.parametrize("shape", [(-2, 6), (3, -3), (3, -5), (-1, -2)])
@pytest.mark.parametrize("how", ["view", "reshape"])
def test_invalid_shape_dimension_names_index_and_shape(shape, how):
    errors_alike(lambda lib: getattr(lib.arange(12), how)(*shape))


@pytest.mark.parametrize("value", [lambda lib: lib.ones(1, dtype=lib.long),
                                   lambda lib: lib.ones(1, dtype=lib.float64),
                                   lambda lib: lib.ones(1), lambda lib: 3])
def test_register_parameter_names_the_tensor_type(value):
    errors_alike(lambda lib: lib.nn.Module().register_parameter("w", value(lib)))
    errors_alike(lambda lib: setattr(lib.nn.Linear(1, 1), "weight", value(lib)))


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_special_zeta_values_bit_exact(dt):
    g = np.random.default_rng(0)
    x = np.concatenate([g.random(500) * 10 + 1.0001, [0.5, 1.0, 2.0, 2.0, 2.5, 3.0, 30.0, 1.5,
                                                      4.0, 2.0, 1.01, 7.0]])
    q = np.concatenate([g.random(500) * 20 - 5, [1.0, 1.0, -1.0, -1.5, -1.5, 1e-3, 0.5, 1e5,
                                                 -2.5, 0.3, 1.0, 100.0]])
    e = ember.special.zeta(ember.tensor(x.astype(dt)), ember.tensor(q.astype(dt)))
    t = torch.special.zeta(torch.tensor(x.astype(dt)), torch.tensor(q.astype(dt)))
    same(e, t)


def test_special_zeta_scalars_promotion_grads_and_errors():
    for make in [lambda lib: lib.special.zeta(lib.tensor([2, 3]), lib.tensor([1, 2])),
                 lambda lib: lib.special.zeta(2.0, lib.tensor([1.0, 2.5])),
                 lambda lib: lib.special.zeta(lib.tensor([2.0, 3.0], dtype=lib.float64), 1.5),
                 lambda lib: lib.special.zeta(lib.tensor(2.0, dtype=lib.float64),
                                              lib.tensor([1.0, 2.0]))]:
        same(make(ember), make(torch))
    for lib_pair in [(ember, torch)]:
        res = []
        for lib in lib_pair:
            q = lib.tensor([1.0, 2.0], requires_grad=True)
            z = lib.special.zeta(3.0, q)
            z.sum().backward()
            z2 = lib.special.zeta(lib.tensor([2.0, 3.0], requires_grad=True), q)
            z3 = lib.special.zeta(lib.tensor([2.0, 3.0], requires_grad=True), 2.0)
            res.append((q.grad, z.grad_fn.name(), z2.grad_fn.name(), z3.grad_fn.name()))
        same(res[0][0], res[1][0])
        assert res[0][1:] == res[1][1:]
    errors_alike(lambda lib: lib.special.zeta(lib.tensor([2.0], requires_grad=True),
                                              2.0).sum().backward())
    errors_alike(lambda lib: lib.special.zeta(2.0, 3.0))
    errors_alike(lambda lib: lib.special.zeta(lib.tensor([2.0], dtype=lib.float16), 1.0))
