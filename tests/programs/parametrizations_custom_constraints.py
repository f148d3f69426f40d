# Models: the "Parametrizations" tutorial's custom constraints: Symmetric and SkewSymmetric
# via register_parametrization, right_inverse so assignment works, MatrixExponential on top
# of Skew (an orthogonal map), a chained parametrization (original, parametrizations.weight[i]),
# parametrize.cached(), remove_parametrizations(leave_parametrized=False), state_dict keys,
# and a small training run keeping the constraint.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

torch.manual_seed(0)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)


class CayleyMap(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("Id", torch.eye(n))

    def forward(self, X):
        return torch.linalg.solve(self.Id - X, self.Id + X)


layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
print(torch.dist(A, A.T).item(), A)
print(layer)
print(layer.parametrizations.weight.original.shape, type(layer.parametrizations).__name__)
print(sorted(layer.state_dict().keys()))
S = torch.rand(3, 3)
S = S + S.T
layer.weight = S
print(
    torch.allclose(layer.weight, S),
    torch.allclose(layer.parametrizations.weight.original, S.triu()),
)

layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Skew())
P.register_parametrization(layer, "weight", MatrixExponential())
Q = layer.weight
print("orthogonal:", torch.dist(Q.T @ Q, torch.eye(3)).item() < 1e-5)
print(layer.parametrizations.weight)
layer2 = nn.Linear(3, 3)
P.register_parametrization(layer2, "weight", Skew())
P.register_parametrization(layer2, "weight", CayleyMap(3))
X = layer2.weight
print("cayley orthogonal:", torch.dist(X.T @ X, torch.eye(3)).item() < 1e-5)

calls = [0]


class Counting(nn.Module):
    def forward(self, X):
        calls[0] += 1
        return X * 2


m = nn.Linear(2, 2)
P.register_parametrization(m, "weight", Counting())
x = torch.randn(4, 2)
for _ in range(3):
    m(x)
print("uncached calls", calls[0])
calls[0] = 0
with P.cached():
    for _ in range(3):
        m(x)
print("cached calls", calls[0])
w_before = m.weight.detach().clone()
P.remove_parametrizations(m, "weight", leave_parametrized=False)
print(torch.allclose(m.weight * 2, w_before), P.is_parametrized(m), type(m.weight).__name__)

model = nn.Linear(4, 4, bias=False)
P.register_parametrization(model, "weight", Symmetric())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
target = torch.randn(4, 4)
target = target + target.T
xs = torch.randn(16, 4)
for step in range(20):
    loss = (model(xs) - xs @ target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(
            f"step {step} loss {loss.item():.5f} symmetric "
            f"{torch.allclose(model.weight, model.weight.T)}"
        )
print([n for n, _ in model.named_parameters()])
try:
    P.register_parametrization(nn.Linear(3, 2), "weight", Symmetric())
except Exception as e:
    print(type(e).__name__, str(e)[:80])
