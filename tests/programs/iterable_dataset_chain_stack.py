# Models: streaming-data pipelines with torch.utils.data: an IterableDataset yielding
# (x, y) pairs, get_worker_info() in the main process, ChainDataset of two streams,
# StackDataset of tuple/dict form, Dataset addition, DataLoader(batch_size=None) for
# pre-batched streams, default_collate on namedtuples / dicts / numbers / strings,
# default_convert, and a len() on an IterableDataset loader.
from collections import namedtuple

import numpy as np
import torch
from torch.utils.data import (
    ChainDataset,
    DataLoader,
    IterableDataset,
    StackDataset,
    TensorDataset,
    get_worker_info,
)
from torch.utils.data._utils.collate import default_collate, default_convert

torch.manual_seed(0)


class Counter(IterableDataset):
    def __init__(self, start, end):
        super().__init__()
        self.start, self.end = start, end

    def __iter__(self):
        info = get_worker_info()
        print("worker info:", info)
        for i in range(self.start, self.end):
            yield torch.tensor([float(i)]), i % 2


ds = Counter(0, 7)
for xb, yb in DataLoader(ds, batch_size=3):
    print(xb.squeeze(1).tolist(), yb)
for xb, yb in DataLoader(ds, batch_size=3, drop_last=True):
    print("drop_last", xb.shape)
chain = ChainDataset([Counter(0, 2), Counter(10, 12)])
print([int(x.item()) for x, _ in chain])


class PreBatched(IterableDataset):
    def __iter__(self):
        for i in range(2):
            yield torch.arange(4) + 4 * i


print([b for b in DataLoader(PreBatched(), batch_size=None)])


class Sized(IterableDataset):
    def __iter__(self):
        return iter(range(5))

    def __len__(self):
        return 5


print(len(DataLoader(Sized(), batch_size=2)), list(DataLoader(Sized(), batch_size=2)))

images = TensorDataset(torch.randn(4, 2))
labels = TensorDataset(torch.arange(4))
st = StackDataset(images, labels)
print(len(st), st[1][1])
sd = StackDataset(img=images, label=labels)
print(sorted(sd[2].keys()), sd[2]["label"])
for batch in DataLoader(sd, batch_size=2):
    print(type(batch).__name__, sorted(batch), batch["label"])
both = images + TensorDataset(torch.zeros(2, 2))
print(type(both).__name__, len(both), both[5])

Point = namedtuple("Point", ["x", "y"])
print(default_collate([Point(1, 2.0), Point(3, 4.0)]))
print(default_collate([{"a": 1, "s": "u"}, {"a": 2, "s": "v"}]))
print(default_collate([(torch.ones(2), 1), (torch.zeros(2), 0)]))
print(default_collate([[1, 2], [3, 4]]))
print(default_convert({"n": [1, 2], "t": (3,)}))
print(default_collate([np.array([1.0, 2.0]), np.array([3.0, 4.0])]))
print(default_convert(np.arange(3)))
try:
    default_collate([torch.ones(2), torch.ones(3)])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    default_collate([object()])
except TypeError as e:
    print("TypeError:", str(e).split(";")[0][:80])
