# Models: nn.Embedding options used in NLP code: padding_idx rows that stay zero and get no
# gradient, max_norm renormalising looked-up rows in place (norm_type), from_pretrained with
# freeze, scale_grad_by_freq, sparse gradients with SparseAdam, EmbeddingBag with offsets.
import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(6, 4, padding_idx=0)
print(emb)
print(emb.weight[0])
idx = torch.tensor([[0, 2, 2, 5], [1, 0, 3, 0]])
out = emb(idx)
out.sum().backward()
print(emb.weight.grad)

e2 = nn.Embedding(5, 3, max_norm=1.0)
with torch.no_grad():
    e2.weight.mul_(3)
print(e2.weight.norm(dim=1))
y = e2(torch.tensor([1, 3, 3]))
print(y.norm(dim=1))
print(e2.weight.norm(dim=1))
e3 = nn.Embedding(5, 3, max_norm=0.5, norm_type=1.0)
e3(torch.tensor([0, 4]))
print(e3.weight.abs().sum(1))

pre = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
fe = nn.Embedding.from_pretrained(pre)
print(fe.weight.requires_grad, fe(torch.tensor([2, 0])))
fe2 = nn.Embedding.from_pretrained(pre, freeze=False, padding_idx=1)
print(fe2)
e4 = nn.Embedding(4, 2, scale_grad_by_freq=True)
e4(torch.tensor([1, 1, 1, 2])).sum().backward()
print(e4.weight.grad)

se = nn.Embedding(10, 3, sparse=True)
opt = torch.optim.SparseAdam(se.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    se(torch.tensor([1, 4, 4])).pow(2).sum().backward()
    opt.step()
print(se.weight.grad.is_sparse, se.weight.grad.coalesce().indices())
print(se.weight[[1, 4, 5]])
bag = nn.EmbeddingBag(6, 3, mode="mean", padding_idx=0)
inp = torch.tensor([1, 2, 0, 4, 5, 0, 0, 3])
offsets = torch.tensor([0, 3, 5])
print(bag(inp, offsets))
print(nn.functional.embedding(torch.tensor([1]), pre, padding_idx=-1))
try:
    nn.Embedding(3, 2, padding_idx=3)
except AssertionError as e:
    print("AssertionError", e)
try:
    emb(torch.tensor([6]))
except IndexError as e:
    print(e)
