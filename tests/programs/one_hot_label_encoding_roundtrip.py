# Models: a preprocessing notebook on turning labels into vectors: F.one_hot with inferred
# and explicit num_classes, multi-dimensional labels, scatter_ as the manual alternative,
# multi-hot from lists, argmax back to labels, torch.unique(return_inverse) as a label
# encoder, and the errors.
import torch
import torch.nn.functional as F

labels = torch.tensor([2, 0, 1, 2, 3])
print(F.one_hot(labels))
print(F.one_hot(labels, num_classes=6).dtype, F.one_hot(labels, num_classes=6).shape)
grid = torch.tensor([[0, 1], [2, 0]])
print(F.one_hot(grid).shape, F.one_hot(grid).permute(2, 0, 1))
manual = torch.zeros(5, 4).scatter_(1, labels.unsqueeze(1), 1.0)
print("scatter", manual)
print("back", manual.argmax(1), F.one_hot(labels).argmax(-1))
tags = [[0, 2], [1], [], [0, 1, 3]]
multi = torch.zeros(len(tags), 4)
for i, t in enumerate(tags):
    multi[i, t] = 1
print("multi-hot\n", multi)
words = ["cat", "dog", "cat", "bird", "dog", "cat"]
vocab = sorted(set(words))
codes = torch.tensor([vocab.index(w) for w in words])
uniq, inv, counts = torch.unique(codes, return_inverse=True, return_counts=True)
print("unique", uniq, inv, counts)
raw = torch.tensor([10, 30, 10, 20, 30])
u, enc = torch.unique(raw, sorted=True, return_inverse=True)
print("label encoder", u, enc)
print("embedding via one_hot", F.one_hot(enc, 3).float() @ torch.arange(6.0).reshape(3, 2))
for bad in [lambda: F.one_hot(torch.tensor([0, 5]), num_classes=3),
            lambda: F.one_hot(torch.tensor([-1, 0])),
            lambda: F.one_hot(torch.tensor([0.0, 1.0])),
            lambda: F.one_hot(torch.tensor([], dtype=torch.long))]:
    try:
        print(bad())
    except RuntimeError as e:
        print("RuntimeError:", e)
