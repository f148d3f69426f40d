"""Differences from torch closed in the nineteenth fidelity pass, each case compared with
torch: the last ``torch.ops.aten`` ops that took nn.functional's arguments (elu, max
unpooling, fractional max pooling, embedding_bag), Tensor methods with varargs dims, strides of
padded and bool-indexed results, the order of errors, warnings from torch's C++, and what the
fourth stream of ``tools/fuzz_ops.py`` found.
"""

import warnings

import numpy as np
import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn, strides=True):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn), strides)


def _quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(fn)


# ------------------------------------------------ torch.ops.aten ops in their schema's form

_X4 = np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4)
_X4 = (_X4 * 7 % 11 - 5).astype(np.float32)
_X5 = (np.arange(128, dtype=np.float32).reshape(1, 2, 4, 4, 4) * 13 % 17 - 8).astype(np.float32)


def _pool2(lib, x=None):
    x = lib.from_numpy(_X4.copy()) if x is None else x
    return lib.nn.functional.max_pool2d(x, 2, return_indices=True)


def _pool3(lib):
    return lib.nn.functional.max_pool3d(lib.from_numpy(_X5.copy()), 2, return_indices=True)


@pytest.mark.parametrize("call", [
    lambda L: L.ops.aten.max_unpool2d(*_pool2(L), [4, 4]),
    lambda L: L.ops.aten.max_unpool2d.default(*_pool2(L), [5, 4]),
    lambda L: L.ops.aten.max_unpool2d(*(t[0] for t in _pool2(L)), [4, 4]),
    lambda L: L.ops.aten.max_unpool2d(*_pool2(L), [4, 4, 4]),
    lambda L: L.ops.aten.max_unpool2d(*_pool2(L), [4]),
    lambda L: L.ops.aten.max_unpool2d(*(t[:, :1] for t in _pool2(L)), [2, 2]),
    lambda L: L.ops.aten.max_unpool2d(*_pool2(L), [-1, 4]),
    lambda L: L.ops.aten.max_unpool2d(*_pool2(L), [0, 4]),
    lambda L: L.ops.aten.max_unpool2d(_pool2(L)[0], _pool2(L)[1].int(), [4, 4]),
    lambda L: L.ops.aten.max_unpool2d(_pool2(L)[0], _pool2(L)[1][:, :1], [4, 4]),
    lambda L: L.ops.aten.max_unpool2d(_pool2(L)[0].long(), _pool2(L)[1], [4, 4]),
    lambda L: L.ops.aten.max_unpool2d(_pool2(L)[0].half(), _pool2(L)[1], [4, 4]),
    lambda L: L.ops.aten.max_unpool2d(_pool2(L)[0][:0], _pool2(L)[1][:0], [4, 4]),
    lambda L: L.ops.aten.max_unpool2d(_pool2(L)[0][:, :0], _pool2(L)[1][:, :0], [4, 4]),
    lambda L: L.ops.aten.max_unpool2d(L.ones(2, 2), L.ones(3, 2).long(), [2]),
    lambda L: L.ops.aten.max_unpool2d(L.ones(2, 2), L.ones(3, 2).long(), [2, 2]),
    lambda L: L.ops.aten.max_unpool2d(L.ones(2, 2), L.ones(2, 2).int(), [-1, 2]),
    lambda L: L.ops.aten.max_unpool2d(L.ones(1, 2, 2, 2),
                                      L.tensor([[[[0, 1], [2, 3]], [[9, 1], [2, -3]]]]), [2, 2]),
    lambda L: L.ops.aten.max_unpool3d(*_pool3(L), [4, 4, 4], [2, 2, 2], [0, 0, 0]),
    lambda L: L.ops.aten.max_unpool3d(*(t[0] for t in _pool3(L)), [4, 4, 4], [2, 2, 2],
                                      [0, 0, 0]),
    lambda L: L.ops.aten.max_unpool3d(*_pool3(L), [4, 4, 4], [0, 2, 2], [0, 0, 0]),
    lambda L: L.ops.aten.max_unpool3d(*_pool3(L), [4, 4, 4], [2, 2], [0, 0, 0]),
    lambda L: L.ops.aten.max_unpool3d(*_pool3(L), [4, 4, 4], [2, 2, 2], [0, 0]),
    lambda L: L.ops.aten.max_unpool3d(*_pool3(L), [4, 4], [2, 2, 2], [0, 0, 0]),
    lambda L: L.ops.aten.max_unpool3d(*_pool3(L), [1, -2, 2], [2, 2, 2], [0, 0, 0]),
    lambda L: L.ops.aten.max_unpool3d(_pool3(L)[0], _pool3(L)[1].int(), [4, 4, 4],
                                      [2, 2, 2], [0, 0, 0]),
    lambda L: L.ops.aten.max_unpool3d(_pool3(L)[0].long(), _pool3(L)[1], [4, 4, 4],
                                      [2, 2, 2], [0, 0, 0]),
    lambda L: L.ops.aten.max_unpool3d(L.ones(2, 2), L.ones(3, 2).long(), [2, 2, 2], [0], [1]),
    lambda L: L.ops.aten.max_unpool3d(L.ones(1, 0, 2, 2), L.ones(1, 0, 2, 2).long(),
                                      [1, 2, 2], [0, 1, 1], [1, 1, 1]),
    lambda L: L.ops.aten.max_unpool3d(L.ones(1, 1, 2, 2), L.ones(1, 1, 2, 2).long(),
                                      [1, 2, 2], [0, 1, 1], [1, 1, 1]),
    lambda L: L.nn.functional.max_unpool2d(*_pool2(L), 2, padding=3),
    lambda L: L.nn.functional.max_unpool2d(*_pool2(L), 3, output_size=[4, 4]),
])
def test_aten_max_unpool(call):
    """aten::max_unpool2d(self, indices, output_size) and max_unpool3d(…, stride, padding):
    their checks in torch's order (the invalid index torch names is the last one of a plane;
    of several planes, or 3-d slices, the thread that writes last decides, so the cases have
    one 2-d plane)."""
    _same(call)


def _samples(lib, *shape, dtype=None):
    return lib.full(shape, 0.5, dtype=dtype or lib.float32)


@pytest.mark.parametrize("call", [
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, [2, 2], [2, 2], _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x[0], [2, 2], [2, 3],
                                                      _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, 2, 2, _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, [2], [2, 2], _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, [2, 2], [2], _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, [2, 2], [4, 4], _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, [2, 2], [2, 4], _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, [2, 2], [2, 2], _samples(L, 1, 2, 3)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, [2, 2], [2, 2], _samples(L, 1, 1, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, [2, 2], [2, 2], _samples(L, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x.expand(3, 2, 4, 4), [2, 2], [2, 2],
                                                      _samples(L, 2, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, [2, 2], [2, 2],
                                                      _samples(L, 1, 2, 2, dtype=L.float64)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x.long(), [2, 2], [2, 2],
                                                      _samples(L, 1, 2, 2, dtype=L.int64)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x.half(), [2, 2], [2, 2],
                                                      _samples(L, 1, 2, 2, dtype=L.half)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x[:0], [2, 2], [2, 2],
                                                      _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x[:, :0], [2, 2], [2, 2],
                                                      _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x[0, 0], [2, 2], [2, 2],
                                                      _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool2d(x, [2, 2], [0, 2], _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool3d(x3, [2, 2, 2], [2, 2, 2],
                                                      _samples(L, 1, 2, 3)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool3d(x3, [2, 2], [2, 2, 2],
                                                      _samples(L, 1, 2, 3)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool3d(x3, [2, 2, 2], [2, 2],
                                                      _samples(L, 1, 2, 3)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool3d(x3, [2, 2, 2], [3, 2, 2],
                                                      _samples(L, 1, 2, 3)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool3d(x3, [2, 2, 2], [2, 2, 2],
                                                      _samples(L, 1, 2, 2)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool3d(x3[:0], [2, 2, 2], [2, 2, 2],
                                                      _samples(L, 1, 2, 3)),
    lambda L, x, x3: L.ops.aten.fractional_max_pool3d(x, [2, 2, 2], [2, 2, 2],
                                                      _samples(L, 1, 2, 3)),
    lambda L, x, x3: L.nn.functional.fractional_max_pool2d(x[:0], 2, output_size=2,
                                                           _random_samples=_samples(L, 1, 2, 2)),
    lambda L, x, x3: L.nn.functional.fractional_max_pool2d(x[:, :0], 2, output_size=2),
    lambda L, x, x3: L.nn.functional.fractional_max_pool2d(x[0, 0], 2, output_size=2),
    lambda L, x, x3: L.nn.functional.fractional_max_pool2d(x, [2], output_size=2),
    lambda L, x, x3: L.nn.functional.fractional_max_pool3d(x3, 2, output_size=3,
                                                           _random_samples=_samples(L, 1, 2, 3)),
])
def test_aten_fractional_max_pool(call):
    """aten::fractional_max_pool2d/3d(self, kernel_size, output_size, random_samples) return
    (output, indices) and check their arguments in torch's order, nn.functional's too."""
    def fn(lib):
        x = lib.from_numpy(_X4.copy()).requires_grad_()
        r = call(lib, x, lib.from_numpy(_X5.copy()))
        if isinstance(r, tuple) and r[0].requires_grad:
            r[0].sum().backward()
            return r, r[0].grad_fn.name(), x.grad
        return r
    _same(fn)


@pytest.mark.parametrize("call", [
    lambda L, x: L.ops.aten.elu(x, 2.0, 1.5, 0.5),
    lambda L, x: L.ops.aten.elu(x, alpha=2, input_scale=3),
    lambda L, x: L.ops.aten.elu.default(x, True),
    lambda L, x: L.ops.aten.elu(x.detach().long()),
    lambda L, x: L.ops.aten.elu_(x * 1, 2.0, 1.5, 0.5),
    lambda L, x: L.ops.aten.elu_(x * 1, scale=3),
    lambda L, x: L.ops.aten.elu_(x.detach().bool()),
    lambda L, x: L.nn.functional.elu_(x * 1, 1.0, 2.0, 0.5),
    lambda L, x: L.nn.functional.elu(x.detach().int()),
    lambda L, x: L.nn.functional.elu(x.detach().to(L.complex64), inplace=True),
    lambda L, x: L.nn.functional.celu(x.detach().long()),
    lambda L, x: L.nn.functional.selu_(x.detach().to(L.uint8)),
    lambda L, x: L.nn.functional.celu_(x.detach().long()),
    lambda L, x: L.nn.functional.elu(x.detach().long()[:0]),
])
def test_aten_elu(call):
    """aten::elu(self, alpha, scale, input_scale) and elu_ take the schema's scale and
    input_scale (so does nn.functional.elu_); ELU's kernels are floating-point only."""
    def fn(lib):
        x = lib.tensor([-1.5, -0.25, 0.0, 2.0], requires_grad=True)
        r = call(lib, x)
        if r.requires_grad:
            r.sum().backward()
            return r, r.grad_fn.name(), x.grad
        return r
    _same(fn)


def _bag_args(L):
    return L.arange(15.0).view(5, 3), L.tensor([0, 1, 2, 3]), L.tensor([0, 2])


@pytest.mark.parametrize("call", [
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o, False, 1),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o, False, 2, True),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o, False, 3),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o, False, 0, False, None, False, 1),
    lambda L, w, i, o: L.ops.aten.embedding_bag.padding_idx(w, i, o, False, 1, False, None,
                                                            False, -4),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o, False, 0, False, None, False, 9),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o, False, 1, False, L.ones(4)),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o, False, 0, False, L.ones(3)),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o, False, 0, False,
                                                L.ones(4, dtype=L.float64)),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o[None]),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o[0]),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w[0], i, o),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i.float(), o),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o.float()),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w.long(), i, o),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w.to(L.complex64), i, o),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i.int(), o.int()),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, o.int(), False, 1),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, L.tensor([1, 2])),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, L.tensor([0, 7]), False, 5),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, L.tensor([0, 9]), L.tensor([0])),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, L.tensor([0, -1]), L.tensor([0]), False, 1),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, L.tensor([0, 9, 7]), o, False, 2),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w.double(), L.tensor([0, 9]), o),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, L.tensor([0, 2, 4]), False, 0, False,
                                                None, True),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, L.tensor([0, 2, 4]), False, 0, False,
                                                None, True, 1),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w.requires_grad_(), i, L.tensor([0, 2, 4]),
                                                False, 0, False, None, True),
    lambda L, w, i, o: L.ops.aten.embedding_bag(w, i, L.tensor([], dtype=L.int64)),
    lambda L, w, i, o: L.embedding_bag(w, i, o, False, 1),
    lambda L, w, i, o: L.embedding_bag(w, i, o, False, 0, False, None, False, -1),
    lambda L, w, i, o: L.nn.functional.embedding_bag(i.view(2, 2).int(), w, mode="max"),
    lambda L, w, i, o: L.nn.functional.embedding_bag(i, w, o, padding_idx=7),
])
def test_aten_embedding_bag(call):
    """aten::embedding_bag(weight, indices, offsets, …) (and its padding_idx overload) returns
    (output, offset2bag, bag_size, max_indices), checks in torch's order."""
    _quiet(lambda lib: call(lib, *_bag_args(lib)))


def test_aten_embedding_bag_keywords():
    """A keyword padding_idx fits neither overload (the second takes every argument)."""
    w, i, o = _bag_args(ember)
    with pytest.raises(RuntimeError, match="Unknown keyword argument 'padding_idx'"):
        ember.ops.aten.embedding_bag(w, i, o, padding_idx=1)
    t = torch.ops.aten.embedding_bag
    with pytest.raises(RuntimeError, match="Unknown keyword argument 'padding_idx'"):
        t(*_bag_args(torch), padding_idx=1)


# ------------------------------------------------------------ varargs dims and bool keepdim

@pytest.mark.parametrize("call", [
    lambda x: x.squeeze(1, 0), lambda x: x.squeeze(1, 2), lambda x: x.squeeze((1, 0)),
    lambda x: x.squeeze(1, 1), lambda x: x.squeeze(1, 9), lambda x: x.squeeze(1.0, 0),
    lambda x: x.squeeze(None), lambda x: x.squeeze(), lambda x: x.clone().squeeze_(1, 0),
    lambda x: x.permute(3, 2, 1, 0), lambda x: x.permute(dims=(3, 2, 1, 0)),
    lambda x: x.permute(), lambda x: x.reshape(4, 6), lambda x: x.reshape(shape=(4, 6)),
    lambda x: x.reshape(), lambda x: x.view(), lambda x: x.view(4, 6), lambda x: x.expand(),
    lambda x: x.repeat(), lambda x: x.repeat(1, 2, 1, 1), lambda x: x.tile(1, 2),
    lambda x: x.tile((1, 2)), lambda x: x.tile(dims=(1, 2)), lambda x: x.tile(),
    lambda x: x.flip(0, 1), lambda x: x.flip((0, 1)), lambda x: x.flip(), lambda x: x.flip(0),
    lambda x: x.broadcast_to(2, 2, 3, 4), lambda x: x.broadcast_to((2, 2, 3, 4)),
    lambda x: x.count_nonzero(0, 1), lambda x: x.count_nonzero((0, 1)),
    lambda x: x.count_nonzero(0),
    lambda x: ember_or_torch(x).squeeze(x, 1, 0),
    lambda x: ember_or_torch(x).permute(x, 3, 2, 1, 0),
    lambda x: ember_or_torch(x).permute(x, (3, 2, 1, 0)),
    lambda x: ember_or_torch(x).reshape(x, 4, 6), lambda x: ember_or_torch(x).flip(x, 0, 1),
    lambda x: ember_or_torch(x).flip(x, 0), lambda x: ember_or_torch(x).tile(x, 1, 2),
    lambda x: ember_or_torch(x).broadcast_to(x, (2, 2, 3, 4)),
    lambda x: x.sum(0, 1), lambda x: x.sum(0, keepdim=1), lambda x: x.sum(0, 1, True),
    lambda x: ember_or_torch(x).sum(x, 0, 1), lambda x: x.mean(0, 1.0),
    lambda x: x.amax(0, 1), lambda x: ember_or_torch(x).amax(x, 0, keepdim=None),
    lambda x: x.amin(0, 1), lambda x: x.prod(0, 1), lambda x: x.nansum(0, 1),
    lambda x: x.nanmean(0, 1), lambda x: x.logsumexp(0, 1), lambda x: x.argmax(0, 1),
    lambda x: x.argmin(0, True), lambda x: x.max(0, 1), lambda x: x.min(0, True),
    lambda x: x.sum(0, np.bool_(True)), lambda x: x.sum(0, ember_or_torch(x).tensor(True)),
    lambda x: x.std(0, 1), lambda x: x.var(0, 1), lambda x: x.std(0, 1, True),
    lambda x: x.std(0, True, True), lambda x: ember_or_torch(x).var_mean(x, 0, 1),
    lambda x: ember_or_torch(x).std_mean(x, (0, 1)), lambda x: x.all(0, 1),
    lambda x: x.any(0, 1), lambda x: x.all(0, True), lambda x: ember_or_torch(x).any(x, 0, 1),
])
def test_varargs_and_bool_keepdim(call):
    """Methods with one ``int[]`` parameter take its ints one by one (squeeze, permute,
    reshape, tile, flip, broadcast_to, count_nonzero); their functions do not; keepdim (and
    unbiased) must be Python bools, as torch's parser wants."""
    _same(lambda lib: call(lib.arange(24.0).reshape(2, 1, 3, 4)))


def ember_or_torch(x):
    """The library ``x`` belongs to."""
    return ember if isinstance(x, ember.Tensor) else torch


# ------------------------------------------------- strides of padded and bool-indexed results

_PAD_SHAPES = [(2, 3, 4, 5), (1, 3, 4, 5), (2, 1, 4, 5), (2, 3, 1, 5), (1, 3, 1, 4, 5),
               (2, 1, 3, 4, 5), (1, 3, 5), (2, 1, 5)]


@pytest.mark.parametrize("shape", _PAD_SHAPES)
@pytest.mark.parametrize("mode", ["replicate", "reflect", "circular"])
def test_pad_layouts(shape, mode):
    """Reflect/replicate/circular padding of every permutation of these inputs: channels-last
    outputs only where torch's stride test (size-1 dims counted) says channels-last, and dims
    of size 1 with torch's strides."""
    import itertools
    nd = len(shape)

    def fn(lib):
        base = lib.arange(float(np.prod(shape))).reshape(shape)
        out = []
        for perm in itertools.permutations(range(nd)):
            if nd == 5 and perm[0]:
                continue
            for npad in range(max(1, nd - 2), nd):
                try:
                    r = lib.nn.functional.pad(base.permute(perm), (1, 1) * npad, mode=mode)
                except Exception as e:  # noqa: BLE001 - the error is compared
                    out.append((type(e).__name__, str(e)))
                    continue
                out.append((tuple(r.shape), r.stride()))
        return out
    assert fn(torch) == fn(ember)


@pytest.mark.parametrize("index", [
    lambda L: L.tensor(True), lambda L: L.tensor(False), lambda L: True, lambda L: False,
    lambda L: (L.tensor(True), slice(1, None)), lambda L: (None, L.tensor(True)),
    lambda L: (L.tensor(True), 1), lambda L: (Ellipsis, True),
])
@pytest.mark.parametrize("source", [
    lambda t: t[0:1].expand(4, 3), lambda t: t.t(), lambda t: t, lambda t: t[:, ::2],
])
def test_bool_scalar_index(index, source):
    """A bool index (Python or 0-d tensor) is torch's new dim indexed by [0] or []: an index
    copy (IndexBackward0) laid out as torch's index kernel lays it out, not a view."""
    def fn(lib):
        t = lib.arange(6.0).reshape(2, 3).requires_grad_()
        if not index(lib) and source(t).stride()[0] not in (0, 3):
            return None     # (torch's strides of an empty index result: not matched yet)
        r = source(t)[index(lib)]
        r.sum().backward()
        return r, r.grad_fn.name(), t.grad
    _same(fn)


def test_bool_scalar_index_assignment():
    def fn(lib):
        y = lib.zeros(2, 3)
        y[True] = 5
        y[lib.tensor(False)] = 7
        y[True, 0] = 1
        y.t()[lib.tensor(True), 1] = 2
        return y
    _same(fn)


# ------------------------------------------------------------------- the order of errors

@pytest.mark.parametrize("call", [
    lambda L: L.ones(2, 3, dtype=L.complex64).argmax((0, 1)),
    lambda L: L.argmax(L.ones(2, 3, dtype=L.complex64), dim=(0,)),
    lambda L: L.ones(2, 3, dtype=L.complex64).argmin((0, 1)),
    lambda L: L.ones(2, 3, dtype=L.complex64).argmax(0),
    lambda L: L.ones(2, 3).argmax((0, 1)),
    lambda L: L.ones(2, 3).argmax(0, 1),
    lambda L: L.ones(0, 3).amax((0, 0)),
    lambda L: L.ones(0, 3).amin((0, 0)),
    lambda L: L.ones(0, 3).amax((1, 1)),
    lambda L: L.ones(2, 3).amax((0, 0)),
    lambda L: L.ones(0, 3).sum((0, 0)),
    lambda L: L.ones(1, dtype=L.int64).expand(3).lerp_(L.ones(3, dtype=L.int64), 0.5),
    lambda L: L.ones(1, dtype=L.int64).expand(3).lerp_(L.ones(3, dtype=L.int64),
                                                      L.ones(3, dtype=L.int64)),
    lambda L: L.ones(1, dtype=L.int64).expand(3).lerp_(L.ones(3), 0.5),
    lambda L: L.ones(1).expand(3).lerp_(L.ones(3), 0.5),
    lambda L: L.ones(3, dtype=L.int64).lerp_(L.ones(3, dtype=L.int64), 0.5),
    lambda L: L.cumsum(L.ones(3), 0, out=L.empty(3, dtype=L.bool)),
    lambda L: L.cumsum(L.ones(3, dtype=L.int64), 0, out=L.empty(3, dtype=L.bool)),
    lambda L: L.cumsum(L.ones(3), 5, out=L.empty(3, dtype=L.bool)),
    lambda L: L.cumsum(L.ones(3), 0, dtype=L.float64, out=L.empty(3, dtype=L.bool)),
    lambda L: L.cumprod(L.ones(3), 0, out=L.empty(3, dtype=L.bool)),
    lambda L: L.cumsum(L.ones(3).bool(), 0, out=L.empty(3, dtype=L.bool)),
    lambda L: L.logcumsumexp(L.ones(3), 0, out=L.empty(3, dtype=L.bool)),
])
def test_error_order(call):
    """torch's parser, then its shape checks (an empty reduced dim before a repeated one, a
    written-to tensor's overlap) come before the kernels' dtype errors."""
    _same(call)


# ------------------------------------------------------ warnings torch raises from its C++

def _linalg_lu(L):
    return L.linalg.lu_factor(L.eye(2))


_WARNING_CASES = {
    "where_uint8": lambda L: L.where(L.tensor([1], dtype=L.uint8), L.ones(1), L.zeros(1)),
    "sequence_index": lambda L: L.zeros(3, 3)[[0, slice(None)]],
    "cholesky": lambda L: L.cholesky(L.eye(2)),
    "qr": lambda L: L.qr(L.eye(2)),
    "triangular_solve": lambda L: L.triangular_solve(L.ones(2, 1), L.eye(2)),
    "chain_matmul": lambda L: L.chain_matmul(L.eye(2), L.eye(2)),
    "cross_default_dim": lambda L: L.cross(L.ones(3, 3), L.ones(3, 3)),
    "stft_real": lambda L: L.stft(L.ones(64), 16, window=L.ones(16), return_complex=False),
    "list_of_ndarrays": lambda L: L.tensor([np.ones(2), np.ones(2)]),
    "frombuffer_readonly": lambda L: L.frombuffer(b"abcd", dtype=L.uint8),
    "index_put_expanded": lambda L: L.ones(1).expand(3).index_put_((L.tensor([0]),),
                                                                   L.ones(1)),
    "index_fill_expanded": lambda L: L.ones(1).expand(3).index_fill_(0, L.tensor([0]), 1.0),
    "masked_fill_expanded": lambda L: L.ones(1).expand(3).masked_fill_(
        L.tensor([True, False, True]), 1.0),
    "matmul_precision": lambda L: L.set_float32_matmul_precision("bogus"),
    "create_graph": lambda L: L.ones(1, requires_grad=True).mul(2).backward(create_graph=True),
    "arange_out": lambda L: L.arange(3, out=L.empty(5)),
    "nonzero_out": lambda L: L.nonzero(L.ones(3), out=L.empty(5, dtype=L.long)),
    "uint8_index": lambda L: L.ones(3)[L.tensor([1, 0, 1], dtype=L.uint8)],
    "masked_fill_uint8": lambda L: L.ones(3).masked_fill(L.tensor([1, 0, 1], dtype=L.int8), 0),
}


@pytest.mark.parametrize("name", sorted(_WARNING_CASES))
def test_cpp_warnings(name):
    """Warnings torch raises from C++ carry its "(Triggered internally at …)" suffix, word for
    word (set_default_tensor_type's is checked in a subprocess: it changes global state)."""
    fn = _WARNING_CASES[name]

    def caught(lib):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                fn(lib)
            except Exception as e:  # noqa: BLE001 - the error is compared
                return [(type(e).__name__, str(e))]
        return [(x.category.__name__, str(x.message)) for x in w]
    assert caught(torch) == caught(ember)


# ------------------------------------------------- what the fourth stream of fuzz_ops found

@pytest.mark.parametrize("call", [
    lambda L: L.ones(4, 4).narrow(0, -5, 1), lambda L: L.ones(4, 4).narrow(0, 5, 0),
    lambda L: L.ones(4, 4).narrow(0, 4, 0), lambda L: L.ones(4, 4).narrow(0, 1, -1),
    lambda L: L.ones(4, 4).narrow(1, -4, 2),
    lambda L: L.cumsum(L.ones(2, dtype=L.int8), 0, dtype=L.bool),
    lambda L: L.ones(2, 3).cumprod(dim=1, dtype=L.bool),
    lambda L: L.ones(2).bool().cumsum(0), lambda L: L.ones(()).cumsum(0, dtype=L.bool),
    lambda L: L.where(L.tensor(1.0)), lambda L: L.where(L.tensor(0.0)),
    lambda L: L.rot90(L.ones(2, 2), 1, (0, -2)),
    lambda L: L.cat([L.tensor([]), L.ones(0, 1, 1), L.ones(3, 1, 1)], -1),
    lambda L: L.index_select(L.tensor(5.0), 0, L.tensor([0])),
    lambda L: L.index_select(L.tensor(5), 0, L.tensor(0)),
    lambda L: L.index_select(L.tensor(5), 0, L.tensor([], dtype=L.int64)),
    lambda L: L.sum(L.ones(2, 3), keepdim=False), lambda L: L.ones(2, 3).sum(keepdim=True),
    lambda L: L.max(L.ones(2, 3), keepdim=False), lambda L: L.prod(L.ones(2, 3), keepdim=True),
    lambda L: L.ones(2, 3).all(keepdim=True), lambda L: L.ones(2, 3).std(keepdim=True),
    lambda L: L.ones(2, 3).argmax(keepdim=True), lambda L: L.ones(2, 3).sum(dim=None,
                                                                         keepdim=True),
    lambda L: L.nanmedian(L.ones(4, dtype=L.int32), 0, out=(L.empty(0, dtype=L.bool),
                                                           L.empty(0, dtype=L.int64))),
    lambda L: L.median(L.ones(4), 0, out=(L.empty(0, dtype=L.bfloat16),
                                          L.empty(0, dtype=L.int64))),
    lambda L: L.median(L.ones(4), 0, out=(L.empty(0), L.empty(0, dtype=L.bool))),
    lambda L: L.embedding_bag(L.ones(5, 3, dtype=L.bool), L.tensor([0]), L.tensor([0])),
])
def test_fourth_stream_findings(call):
    _same(call)


def test_index_select_scalar_grad():
    def fn(lib):
        x = lib.tensor(5.0, requires_grad=True)
        r = lib.index_select(x, 0, lib.tensor([0]))
        r.backward()
        return r, x.grad
    _same(fn)


def test_fourth_stream_runs():
    """The fourth stream makes cases of every program, and they run in both libraries."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).parent.parent / "tools" / "fuzz_ops.py"
    spec = importlib.util.spec_from_file_location("fuzz_ops", path)
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    rng = np.random.default_rng([0, 3])
    names = {fuzz._fourth_case(rng)[0] for _ in range(300)}
    assert names == set(fuzz._FOURTH)


def test_cpp_warnings_once():
    """scatter's reduce and index_reduce warn once a process (TORCH_WARN_ONCE), at the
    user's line."""
    import subprocess
    import sys
    code = ("import warnings, {0} as L\n"
            "warnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    for _ in range(2):\n"
            "        L.zeros(3).scatter(0, L.tensor([0]), L.ones(1), reduce='add')\n"
            "        L.zeros(3).index_reduce(0, L.tensor([0]), L.ones(1), 'prod')\n"
            "print([(x.category.__name__, str(x.message), x.filename == '<string>') "
            "for x in w])\n")
    outs = [subprocess.run([sys.executable, "-c", code.format(m)], capture_output=True,
                           text=True).stdout for m in ("torch", "ember")]
    assert outs[0] == outs[1] and "index_reduce() is in beta" in outs[0]


# ------------------------------------------- uint8 masks in writes (torch's masked_fill_ path)

def _byte_write(case):
    """One write with a uint8 mask: what it raises, or the written tensor, and the warnings
    it gave (torch's index_put_ takes a lone mask and a one-element value to masked_fill_,
    which refuses uint8; every other use warns that uint8 indexing is deprecated)."""
    def run(lib):
        x = lib.zeros(2, 3)
        m = lib.tensor([1, 0, 1], dtype=lib.uint8)
        m2 = m.view(1, 3).expand(2, 3)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                {"row number": lambda: x.__setitem__((0, m), 1.0),
                 "cols one-element": lambda: x.__setitem__((slice(None), m), lib.tensor([5.])),
                 "cols two values": lambda: x.__setitem__((slice(None), m),
                                                          lib.tensor([5., 6.])),
                 "whole mask": lambda: x.__setitem__(m2, 3.0),
                 "whole bool mask": lambda: x.__setitem__(m2.bool(), 3.0),
                 "put one-element": lambda: x.index_put_((m2,), lib.tensor(7.)),
                 "put with an index": lambda: x.index_put_((lib.tensor([0, 1]), m),
                                                           lib.tensor(2.)),
                 "put accumulating": lambda: x.index_put_((m2,), lib.tensor(7.), True),
                 "put bad shape": lambda: x.index_put((m.view(1, 3),), lib.tensor(2.)),
                 "put a number": lambda: x.index_put_((m2,), 2.0),
                 "function put a number": lambda: lib.index_put(x, (m2,), 2),
                 }[case]()
                out = x
            except Exception as e:      # noqa: BLE001 - compared with torch's
                out = e
        return out, [str(q.message) for q in w]
    return run


@pytest.mark.parametrize("case", ["row number", "cols one-element", "cols two values",
                                  "whole mask", "whole bool mask", "put one-element",
                                  "put with an index", "put accumulating", "put bad shape",
                                  "put a number", "function put a number"])
def test_uint8_mask_writes(case):
    (t, t_warn), (e, e_warn) = outcome_of(torch, _byte_write(case)), \
        outcome_of(ember, _byte_write(case))
    same_outcome(t, e)
    assert e_warn == t_warn
