# Models: a DataLoader feeding dict samples as NLP/vision pipelines do: default_collate of
# dicts, tuples, numbers, strings and numpy arrays, a custom collate_fn padding variable lengths,
# drop_last, batch_size=None, len() of loaders, and default_convert.
import numpy as np
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.dataloader import default_collate, default_convert


class Toy(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {
            "ids": torch.arange(i % 3 + 1),
            "label": i % 2,
            "score": float(i) / 2,
            "name": f"s{i}",
            "feat": np.full(2, i, dtype=np.float32),
            "pair": (i, torch.tensor(i * 1.5)),
        }


def pad_collate(batch):
    ids = pad_sequence([b["ids"] for b in batch], batch_first=True, padding_value=-1)
    rest = default_collate([{k: v for k, v in b.items() if k != "ids"} for b in batch])
    rest["ids"] = ids
    rest["lengths"] = torch.tensor([len(b["ids"]) for b in batch])
    return rest


ds = Toy(7)
loader = DataLoader(ds, batch_size=3, collate_fn=pad_collate)
print("len", len(loader))
for batch in loader:
    print(sorted(batch))
    print("ids", batch["ids"], "lengths", batch["lengths"])
    print("label", batch["label"], batch["label"].dtype)
    print("score", batch["score"], batch["score"].dtype)
    print("name", batch["name"], "feat", batch["feat"], "pair", batch["pair"])
dl = DataLoader(ds, batch_size=3, drop_last=True, collate_fn=pad_collate)
print("drop_last len", len(dl), [b["label"].tolist() for b in dl])
try:
    next(iter(DataLoader(ds, batch_size=3)))
except RuntimeError as e:
    print("RuntimeError:", e)
single = DataLoader([torch.tensor([1, 2]), torch.tensor([3, 4])], batch_size=None)
print("batch_size=None", list(single))
print("collate tuples", default_collate([(1, 2.0), (3, 4.0)]))
print("collate np", default_collate([np.array([1, 2]), np.array([3, 4])]))
print("collate bools", default_collate([True, False]))
print("collate nested", default_collate([{"a": [1, 2]}, {"a": [3, 4]}]))
print("convert", default_convert({"x": np.arange(3), "y": [np.float64(1.5)]}))
print("convert scalar", default_convert(np.float32(2.5)), default_convert("text"))
try:
    default_collate([torch.ones(2), torch.ones(3)])
except RuntimeError as e:
    print("RuntimeError:", e)
