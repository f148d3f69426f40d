# Models: a "tensor products for ML" notebook (feature crosses, bilinear pooling and tensor
# networks): nn.Bilinear against its einsum formula, torch.tensordot, torch.kron, outer
# products, cartesian_prod/combinations for pairwise feature interactions (a factorization
# machine), block_diag, torch.linalg.cross, and a small bilinear model trained on XOR-like data.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

bil = nn.Bilinear(3, 4, 2)
a, b = torch.randn(5, 3), torch.randn(5, 4)
out = bil(a, b)
manual = torch.einsum("ni,oij,nj->no", a, bil.weight, b) + bil.bias
print("bilinear", tuple(out.shape), "matches einsum:", torch.allclose(out, manual, atol=1e-6))
print(bil)
print("weight shape", tuple(bil.weight.shape))
print("F.bilinear", F.bilinear(a[:2], b[:2], bil.weight, bil.bias))

A = torch.arange(24.0).reshape(2, 3, 4)
B = torch.arange(12.0).reshape(4, 3)
print("tensordot dims=1", torch.tensordot(A, B, dims=1).shape)
print("tensordot pairs", torch.tensordot(A, B, dims=([1, 2], [1, 0])))
print(
    "tensordot 0", torch.tensordot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]), dims=0)
)
print("kron", torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print("outer", torch.outer(torch.arange(3.0), torch.arange(1.0, 3.0)))
print("block_diag", torch.block_diag(torch.ones(1, 2), 2 * torch.ones(2, 1), torch.tensor(3.0)))
print("cross", torch.linalg.cross(torch.eye(3), torch.roll(torch.eye(3), 1, 0)))
print("cartesian_prod", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
print("combinations", torch.combinations(torch.arange(4), r=2))
print(
    "combinations w/ replacement",
    torch.combinations(torch.arange(3), r=2, with_replacement=True).tolist(),
)


class FactorizationMachine(nn.Module):
    def __init__(self, n_features, k):
        super().__init__()
        self.linear = nn.Linear(n_features, 1)
        self.v = nn.Parameter(0.1 * torch.randn(n_features, k))

    def forward(self, x):
        sq_of_sum = (x @ self.v) ** 2
        sum_of_sq = (x**2) @ (self.v**2)
        return self.linear(x).squeeze(1) + 0.5 * (sq_of_sum - sum_of_sq).sum(1)

    def pairwise_explicit(self, x):
        idx = torch.combinations(torch.arange(x.shape[1]), r=2)
        vv = (self.v[idx[:, 0]] * self.v[idx[:, 1]]).sum(1)
        return self.linear(x).squeeze(1) + (x[:, idx[:, 0]] * x[:, idx[:, 1]] * vv).sum(1)


fm = FactorizationMachine(6, 3)
xf = torch.randn(4, 6)
print(
    "FM trick equals explicit pairs:", torch.allclose(fm(xf), fm.pairwise_explicit(xf), atol=1e-6)
)

# XOR-like data: label = sign(x0 * x1) needs the interaction term
x = torch.randn(200, 2)
y = (x[:, 0] * x[:, 1] > 0).float()
for name, model in [("linear", nn.Linear(2, 1)), ("bilinear", nn.Bilinear(2, 2, 1))]:
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for step in range(150):
        opt.zero_grad()
        logit = model(x) if name == "linear" else model(x, x)
        loss = F.binary_cross_entropy_with_logits(logit.squeeze(1), y)
        loss.backward()
        opt.step()
    acc = ((logit.squeeze(1) > 0).float() == y).float().mean().item()
    print(f"{name:8s} loss {loss.item():.4f} acc {acc:.3f}")
W = model.weight.detach()[0]
print("learned interaction (symmetrised)", ((W + W.T) / 2).round(decimals=2))

# gradient of a bilinear form x^T M y
M = torch.randn(3, 3, requires_grad=True)
u, v = torch.randn(3, requires_grad=True), torch.randn(3)
s = u @ M @ v
s.backward()
print("dM equals outer(u, v):", torch.allclose(M.grad, torch.outer(u.detach(), v)))
print("du equals M v:", torch.allclose(u.grad, M.detach() @ v))
try:
    bil(a, b[:, :3])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensordot(A, B, dims=([1], [1, 0]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.linalg.cross(torch.ones(2), torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)
