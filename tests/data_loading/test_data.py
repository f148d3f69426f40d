"""Oracle tests for ember.utils.data: same seed, same batches as torch; collate equal to torch's."""

from __future__ import annotations

import collections
import os
import warnings

import numpy as np
import pytest

_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    "src")
if not os.path.exists(os.path.join(_SRC, "ember", "random.py")):  # pragma: no cover
    pytest.skip("ember.random is not there yet: the RNG-matching tests need it",
                allow_module_level=True)

import ember  # noqa: E402
import ember.utils.data as ED  # noqa: E402

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13")
import torch.utils.data as TD  # noqa: E402

LIBS = ((torch, TD), (ember, ED))


def _same(fn):
    out = [fn(lib, D) for lib, D in LIBS]
    assert out[0] == out[1], out
    return out[0]


def _idx(batches):
    return [b[0].tolist() for b in batches]


@pytest.mark.parametrize("kw", [dict(batch_size=3, shuffle=True), dict(batch_size=4),
                                dict(batch_size=4, shuffle=True, drop_last=True),
                                dict(batch_size=None, shuffle=True)])
def test_shuffle_same_batches_two_epochs(kw):
    def run(lib, D):
        lib.manual_seed(0)
        ds = D.TensorDataset(lib.arange(23), lib.arange(23) * 2)
        dl = D.DataLoader(ds, **kw)
        if kw.get("batch_size") is None:
            return [[int(x[0]) for x in dl] for _ in range(2)]
        return [_idx(dl) for _ in range(2)] + [len(dl)]
    _same(run)


def test_generator_argument_and_after_draws():
    def run(lib, D):
        lib.manual_seed(3)
        g = lib.Generator().manual_seed(5)
        ds = D.TensorDataset(lib.arange(17))
        dl = D.DataLoader(ds, batch_size=5, shuffle=True, generator=g)
        first = [_idx(dl), _idx(dl)]
        return first + [lib.rand(3).tolist()]   # the default generator was not consumed
    _same(run)


def test_random_split_and_subset():
    def run(lib, D):
        lib.manual_seed(7)
        a = [s.indices for s in D.random_split(range(10), [3, 7])]
        b = [s.indices for s in D.random_split(range(11), [0.3, 0.3, 0.4],
                                               generator=lib.Generator().manual_seed(1))]
        sub = D.random_split(list(range(100, 110)), [4, 6])[0]
        return a, b, [sub[i] for i in range(len(sub))]
    _same(run)


def test_samplers():
    def run(lib, D):
        g = lib.Generator().manual_seed(2)
        w = list(D.WeightedRandomSampler([0.1, 0.5, 0.2, 0.2], 12, generator=g))
        w2 = list(D.WeightedRandomSampler([1.0, 2.0, 3.0, 4.0, 5.0], 4, replacement=False,
                                          generator=g))
        r = list(D.RandomSampler(range(7), replacement=True, num_samples=40, generator=g))
        r2 = list(D.RandomSampler(range(7), num_samples=17, generator=g))
        s = list(D.SubsetRandomSampler([10, 20, 30, 40], generator=g))
        b = list(D.BatchSampler(D.SequentialSampler(range(10)), 3, drop_last=False))
        b2 = list(D.BatchSampler(range(10), 3, drop_last=True))
        lib.manual_seed(11)
        r3 = list(D.RandomSampler(range(9)))
        return w, w2, r, r2, s, b, b2, r3
    _same(run)


def test_custom_sampler_and_batch_sampler():
    def run(lib, D):
        ds = D.TensorDataset(lib.arange(10) * 3)
        a = _idx(D.DataLoader(ds, batch_size=2, sampler=[9, 1, 4, 4, 0]))
        b = _idx(D.DataLoader(ds, batch_sampler=[[1, 2], [7], [3, 3, 3]]))
        return a, b
    _same(run)


Point = collections.namedtuple("Point", "x y")


def _describe(x):
    if isinstance(x, (torch.Tensor, ember.Tensor)):
        return ("T", str(x.dtype).replace("torch.", "").replace("ember.", ""),
                tuple(x.shape), x.tolist())
    if isinstance(x, dict):
        return {k: _describe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_describe(v) for v in x])
    return x


def test_default_collate():
    def run(lib, D):
        batch = [
            {"a": 1, "f": 2.5, "b": True, "s": "x", "arr": np.array([1.0, 2.0], np.float32),
             "t": lib.tensor([[1, 2]]), "np": np.int32(3), "npf": np.float64(1.5),
             "tup": (1, 2.0), "lst": [3, 4], "pt": Point(1, 2.0)},
            {"a": 2, "f": 3.5, "b": False, "s": "y", "arr": np.array([3.0, 4.0], np.float32),
             "t": lib.tensor([[3, 4]]), "np": np.int32(4), "npf": np.float64(2.5),
             "tup": (3, 4.0), "lst": [5, 6], "pt": Point(3, 4.0)},
        ]
        out = D.default_collate(batch)
        return _describe(out), type(out["pt"]).__name__
    _same(run)


def test_default_convert_and_no_batching():
    def run(lib, D):
        conv = D.default_convert([np.array([1, 2]), (np.float32(1.0), "s")])
        ds = [(np.array([i, i + 1]), float(i)) for i in range(3)]
        dl = list(D.DataLoader(ds, batch_size=None))
        return _describe(conv), _describe(dl)
    _same(run)


def test_collate_errors():
    for _lib, D in LIBS:
        with pytest.raises(RuntimeError, match="each element in list of batch should be"):
            D.default_collate([[1, 2], [1]])
        with pytest.raises(TypeError, match="default_collate: batch must contain"):
            D.default_collate([object(), object()])


def test_datasets():
    def run(lib, D):
        c = D.ConcatDataset([list(range(3)), list(range(10, 15))])
        s = D.StackDataset(list(range(3)), ["a", "b", "c"])
        return len(c), [c[i] for i in range(len(c))], c[-1], c.cumulative_sizes, s[1], len(s)
    _same(run)
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        ED.TensorDataset(ember.zeros(2), ember.zeros(3))


class _Range(ED.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = ED.get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))

    def __len__(self):
        return self.n


class _RangeT(TD.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = TD.get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))

    def __len__(self):
        return self.n


class _Seeds(ED.Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        info = ED.get_worker_info()
        return (i, info.id, info.seed, int(np.random.randint(0, 1000)),
                float(ember.rand(()).item()))


class _SeedsT(TD.Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        info = TD.get_worker_info()
        return (i, info.id, info.seed, int(np.random.randint(0, 1000)),
                float(torch.rand(()).item()))


def test_iterable_dataset():
    def run(lib, D):
        R = _RangeT if lib is torch else _Range
        a = [b.tolist() for b in D.DataLoader(R(7), batch_size=3)]
        b = [b.tolist() for b in D.DataLoader(R(7), batch_size=3, drop_last=True)]
        return a, b, len(D.DataLoader(R(7), batch_size=3))
    _same(run)
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        ED.DataLoader(_Range(3), shuffle=True)


def test_workers_in_order_and_seeded():
    def run(lib, D):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.manual_seed(0)
            ds = D.TensorDataset(lib.arange(20), lib.arange(20) * 2)
            shuffled = _idx(D.DataLoader(ds, batch_size=3, shuffle=True, num_workers=2))
            R = _RangeT if lib is torch else _Range
            it = [b.tolist() for b in D.DataLoader(R(11), batch_size=2, num_workers=3)]
            lib.manual_seed(1)
            S = _SeedsT if lib is torch else _Seeds
            seeds = [[x.tolist() for x in b]
                     for b in D.DataLoader(S(), batch_size=2, num_workers=2)]
        return shuffled, it, seeds
    _same(run)


def test_persistent_workers_keep_their_seed_across_epochs():
    """A persistent iterator is made once: later epochs draw no new base seed (only the
    sampler's own), and an iterable dataset starts over in each worker."""
    def run(lib, D):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.manual_seed(0)
            ds = D.TensorDataset(lib.arange(10))
            loader = D.DataLoader(ds, batch_size=3, shuffle=True, num_workers=2,
                                  persistent_workers=True)
            epochs = [_idx(loader) for _ in range(3)]
            R = _RangeT if lib is torch else _Range
            it = D.DataLoader(R(7), batch_size=2, num_workers=2, persistent_workers=True)
            ranges = [[b.tolist() for b in it] for _ in range(2)]
            after = lib.rand(2).tolist()
        return epochs, ranges, after
    _same(run)


class _Boom(ED.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise ValueError("bad sample")
        return i


def test_worker_exception_is_reraised():
    dl = ED.DataLoader(_Boom(), batch_size=1, num_workers=2)
    with pytest.raises(ValueError, match="Caught ValueError in DataLoader worker process 0"):
        list(dl)


def test_dataloader_argument_errors():
    ds = ED.TensorDataset(ember.arange(4))
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        ED.DataLoader(ds, sampler=[0, 1], shuffle=True)
    with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive"):
        ED.DataLoader(ds, batch_sampler=[[0]], batch_size=2)
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        ED.DataLoader(ds, num_workers=-1)
    dl = ED.DataLoader(ds)
    with pytest.raises(ValueError, match="batch_size attribute should not be set"):
        dl.batch_size = 3
