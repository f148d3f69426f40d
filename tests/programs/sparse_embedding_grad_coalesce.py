# Models: sparse gradients in recommendation models: nn.Embedding(sparse=True) producing sparse COO
# grads, printing them, coalescing duplicates, SparseAdam and SGD steps on them, to_dense
# comparisons with the dense gradient, and EmbeddingBag with per_sample_weights.
import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(6, 3, sparse=True)
dense = nn.Embedding(6, 3)
dense.weight.data.copy_(emb.weight.data)
idx = torch.tensor([[1, 2, 1], [4, 1, 0]])
(emb(idx) ** 2).sum().backward()
(dense(idx) ** 2).sum().backward()
g = emb.weight.grad
print("layout", g.layout, "is_sparse", g.is_sparse, "coalesced", g.is_coalesced())
print("nnz before", g._nnz(), "indices", g._indices())
gc = g.coalesce()
print("nnz after", gc._nnz(), "indices", gc.indices())
print("values", gc.values())
print("dense equal", torch.allclose(gc.to_dense(), dense.weight.grad))
opt = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
opt.step()
print("rows touched", (emb.weight.data != dense.weight.data).any(1))
opt.zero_grad()
print("grad after zero_grad", emb.weight.grad)
emb2 = nn.Embedding(5, 2, sparse=True)
sgd = torch.optim.SGD(emb2.parameters(), lr=0.5)
before = emb2.weight.detach().clone()
emb2(torch.tensor([3, 3])).sum().backward()
sgd.step()
print("sgd delta", emb2.weight.detach() - before)
try:
    torch.optim.Adam(nn.Embedding(3, 2, sparse=True).parameters(), lr=0.1).step()
    print("no grad adam ok")
except RuntimeError as e:
    print("RuntimeError:", e)
e3 = nn.Embedding(3, 2, sparse=True)
e3(torch.tensor([1])).sum().backward()
try:
    torch.optim.Adam(e3.parameters(), lr=0.1).step()
except RuntimeError as e:
    print("RuntimeError:", e)
bag = nn.EmbeddingBag(6, 2, mode="sum")
inp = torch.tensor([0, 2, 4, 5])
offsets = torch.tensor([0, 2])
psw = torch.tensor([1.0, 0.5, 2.0, -1.0])
print("bag weighted", bag(inp, offsets, per_sample_weights=psw))
try:
    nn.EmbeddingBag(6, 2, mode="mean")(inp, offsets, per_sample_weights=psw)
except (NotImplementedError, ValueError) as e:
    print(type(e).__name__ + ":", e)
print("sparse grad sum", torch.sparse.sum(g).item())
