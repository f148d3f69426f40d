"""DistributedSampler against torch's for many (size, world, rank, seed, epoch, drop_last),
and with a DataLoader. Needs no process group: ``num_replicas`` and ``rank`` are given."""

import itertools

import pytest

import ember
from ember.utils.data import DataLoader, DistributedSampler, TensorDataset

torch = pytest.importorskip("torch")
from torch.utils.data.distributed import DistributedSampler as TorchSampler  # noqa: E402

CASES = [(n, w, r, shuffle, seed, epoch, drop_last)
         for n, w in itertools.product([1, 2, 5, 7, 10, 33, 100], [1, 2, 3, 4, 8])
         for r in range(w)
         for shuffle, seed, epoch, drop_last in itertools.product(
             [True, False], [0, 7], [0, 3], [False, True])]


def test_indices_equal_torch():
    for n, w, r, shuffle, seed, epoch, drop_last in CASES:
        ours = DistributedSampler(range(n), num_replicas=w, rank=r, shuffle=shuffle, seed=seed,
                                  drop_last=drop_last)
        theirs = TorchSampler(range(n), num_replicas=w, rank=r, shuffle=shuffle, seed=seed,
                              drop_last=drop_last)
        ours.set_epoch(epoch)
        theirs.set_epoch(epoch)
        assert list(ours) == list(theirs), (n, w, r, shuffle, seed, epoch, drop_last)
        assert len(ours) == len(theirs) and ours.total_size == theirs.total_size


def test_dataloader_with_sampler_equals_torch():
    data = list(range(50))
    ours = DataLoader(TensorDataset(ember.tensor(data)), batch_size=4,
                      sampler=DistributedSampler(range(50), num_replicas=3, rank=1, seed=3))
    theirs = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(torch.tensor(data)), batch_size=4,
        sampler=TorchSampler(range(50), num_replicas=3, rank=1, seed=3))
    assert [b.tolist() for (b,) in ours] == [b.tolist() for (b,) in theirs]


def test_bad_rank_is_torchs_error():
    for cls in (DistributedSampler, TorchSampler):
        with pytest.raises(ValueError, match=r"Invalid rank 3, rank should be in the interval "
                                             r"\[0, 2\]"):
            cls(range(5), num_replicas=3, rank=3)
