# Models: an einsum-everywhere tutorial model: bilinear attention between two sequences written
# with einsum (batch, heads, positions), an einsum Linear, a trace/diag/outer section, and a
# tiny training loop whose losses and grad_fn names are printed.
import torch
import torch.nn as nn

torch.manual_seed(8)


class EinsumAttn(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.wq = nn.Parameter(torch.randn(h, d, d // h) * 0.3)
        self.wk = nn.Parameter(torch.randn(h, d, d // h) * 0.3)
        self.wv = nn.Parameter(torch.randn(h, d, d // h) * 0.3)
        self.out = nn.Parameter(torch.randn(h, d // h, 2) * 0.3)

    def forward(self, a, b):
        q = torch.einsum("bid,hde->bhie", a, self.wq)
        k = torch.einsum("bjd,hde->bhje", b, self.wk)
        v = torch.einsum("bjd,hde->bhje", b, self.wv)
        att = torch.einsum("bhie,bhje->bhij", q, k).div(q.shape[-1] ** 0.5).softmax(-1)
        ctx = torch.einsum("bhij,bhje->bhie", att, v)
        return torch.einsum("bhie,hec->bc", ctx, self.out) / a.shape[1], att


m = EinsumAttn(8, 2)
a, b = torch.randn(6, 5, 8), torch.randn(6, 7, 8)
y = torch.tensor([0, 1, 1, 0, 1, 0])
opt = torch.optim.SGD(m.parameters(), lr=0.5)
for step in range(8):
    logits, att = m(a, b)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(att.shape, att[0, 0].sum(-1))
print(logits.grad_fn.name(), att.grad_fn.name())
M = torch.arange(9.0).reshape(3, 3)
print("trace", torch.einsum("ii", M), "diag", torch.einsum("ii->i", M))
print("outer\n", torch.einsum("i,j->ij", torch.arange(3.0), torch.arange(4.0)))
print("transpose\n", torch.einsum("ij->ji", M))
print("batch diag", torch.einsum("bii->bi", torch.arange(18.0).reshape(2, 3, 3)))
print("sum all", torch.einsum("ij->", M), torch.einsum(M, [0, 1], [1]))
