# Models: a text-classification tutorial's embedding section: Embedding.from_pretrained with
# freeze and padding_idx, fine-tuning only unfrozen rows, EmbeddingBag.from_pretrained with
# sum/mean/max modes, offsets, per_sample_weights, include_last_offset, and F.embedding calls.
import torch
import torch.nn as nn
import torch.nn.functional as F

vectors = torch.arange(15.0).reshape(5, 3) / 10
emb = nn.Embedding.from_pretrained(vectors)
print(emb, emb.weight.requires_grad)
print(emb(torch.tensor([[0, 4], [2, 2]])))
emb2 = nn.Embedding.from_pretrained(vectors, freeze=False, padding_idx=0)
out = emb2(torch.tensor([0, 1, 1, 3]))
out.sum().backward()
print("grad rows", emb2.weight.grad)
print(emb2)
for mode in ["sum", "mean", "max"]:
    bag = nn.EmbeddingBag.from_pretrained(vectors, mode=mode)
    print(mode, bag(torch.tensor([1, 2, 4, 0, 3]), torch.tensor([0, 2])))
bag = nn.EmbeddingBag.from_pretrained(vectors, mode="sum", freeze=False)
w = torch.tensor([1.0, 0.5, 2.0, -1.0])
print("weighted", bag(torch.tensor([1, 2, 3, 4]), torch.tensor([0, 1]), per_sample_weights=w))
print("last offset", nn.EmbeddingBag.from_pretrained(vectors, include_last_offset=True)(
    torch.tensor([1, 2, 3, 4]), torch.tensor([0, 1, 4])))
print("2d input", nn.EmbeddingBag.from_pretrained(vectors)(torch.tensor([[0, 1], [2, 3]])))
print("F.embedding", F.embedding(torch.tensor([3, 1]), vectors, max_norm=0.5))
print("vectors renormed in place?", vectors[3])
print("F.embedding_bag", F.embedding_bag(torch.tensor([0, 1, 2]), vectors, torch.tensor([0, 1]),
                                         mode="mean"))
opt = torch.optim.SGD(emb2.parameters(), lr=1.0)
opt.zero_grad()
emb2(torch.tensor([0, 2])).pow(2).sum().backward()
opt.step()
print("padding row unchanged", emb2.weight[0], "row 2 moved", emb2.weight[2])
try:
    nn.Embedding.from_pretrained(torch.ones(3))
except (AssertionError, ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    bag(torch.tensor([1, 2]), torch.tensor([0]), per_sample_weights=torch.ones(3))
except (ValueError, RuntimeError) as e:
    print(type(e).__name__ + ":", e)
