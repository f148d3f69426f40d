# Models: the IterableDataset section of the data tutorial, single process: a streaming dataset
# reading "lines", get_worker_info() being None in the main process, automatic batching with
# drop_last, batch_size=None for unbatched streams, len() errors, and chaining two streams.
import torch
from torch.utils.data import ChainDataset, DataLoader, IterableDataset, get_worker_info


class LineStream(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        info = get_worker_info()
        print("worker info", info)
        for i in range(self.start, self.end):
            yield torch.tensor([i, i * i]), i % 2


ds = LineStream(0, 7)
for xb, yb in DataLoader(ds, batch_size=3):
    print(xb.tolist(), yb.tolist())
for xb, yb in DataLoader(ds, batch_size=3, drop_last=True):
    print("drop_last", xb.shape)
for item in DataLoader(LineStream(0, 2), batch_size=None):
    print("unbatched", item)
chain = ChainDataset([LineStream(0, 2), LineStream(10, 12)])
print("chain", [x.tolist() for x, _ in chain])
try:
    len(DataLoader(ds, batch_size=2))
except TypeError as e:
    print("TypeError:", e)
try:
    DataLoader(ds, shuffle=True)
except ValueError as e:
    print("ValueError:", e)


def collate(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs).float().mean(0), sum(ys)


for m, s in DataLoader(LineStream(0, 5), batch_size=2, collate_fn=collate):
    print("custom collate", m, s)
