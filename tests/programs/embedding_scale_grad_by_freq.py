# Models: a word-embedding training detail: nn.Embedding with scale_grad_by_freq dividing each
# row's gradient by its frequency in the batch, compared with the default, max_norm renorm of
# looked-up rows (in place on the weight), norm_type, and the sparse variant's refusal.
import torch
import torch.nn as nn

torch.manual_seed(0)
ids = torch.tensor([[1, 2, 1, 1], [3, 2, 0, 1]])
for scale in [False, True]:
    emb = nn.Embedding(5, 3, scale_grad_by_freq=scale)
    with torch.no_grad():
        emb.weight.copy_(torch.arange(15.0).reshape(5, 3))
    (emb(ids) * torch.arange(3.0)).sum().backward()
    print("scale_grad_by_freq", scale, "\n", emb.weight.grad)
emb = nn.Embedding(5, 3, max_norm=1.0)
with torch.no_grad():
    emb.weight.copy_(torch.arange(15.0).reshape(5, 3))
out = emb(torch.tensor([0, 4]))
print("looked up", out)
print("weight after lookup\n", emb.weight)
print("norms", emb.weight.norm(dim=1))
emb1 = nn.Embedding(3, 2, max_norm=1.0, norm_type=1.0)
with torch.no_grad():
    emb1.weight.copy_(torch.tensor([[3.0, 4.0], [0.1, 0.2], [-2.0, 2.0]]))
emb1(torch.tensor([0, 1, 2]))
print("l1 renorm\n", emb1.weight)
sp = nn.Embedding(5, 2, sparse=True, scale_grad_by_freq=True)
try:
    sp(torch.tensor([4, 4, 0])).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
sp2 = nn.Embedding(5, 2, sparse=True)
sp2(torch.tensor([4, 4, 0])).sum().backward()
g = sp2.weight.grad.coalesce()
print("sparse", g.indices(), g.values())
print(emb)
