# Models: the PyTorch "Parametrizations Tutorial" (torch.nn.utils.parametrize): Symmetric and
# Skew parametrizations, printing a ParametrizedLinear, parametrizations.weight.original,
# chaining parametrizations, right_inverse and initialisation, parametrize.cached(), removing
# with leave_parametrized=True/False, plus nn.utils.parametrizations.orthogonal/weight_norm/
# spectral_norm trained for a few steps.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize

torch.manual_seed(0)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
print(layer)
A = layer.weight
print(A)
print("symmetric:", torch.allclose(A, A.T))
print(
    "is_parametrized:",
    parametrize.is_parametrized(layer),
    parametrize.is_parametrized(layer, "bias"),
)
print(type(layer).__name__, type(layer).__bases__[0].__name__)
print(layer.parametrizations)
print(layer.parametrizations.weight.original)
print(sorted(k for k, _ in layer.named_parameters()))
print(list(layer.state_dict().keys()))


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


cnn = nn.Conv2d(in_channels=5, out_channels=8, kernel_size=3)
parametrize.register_parametrization(cnn, "weight", Skew())
print(cnn.weight[0, 1])
print(cnn.weight[2, 2])


class CayleyMap(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("Id", torch.eye(n))

    def forward(self, X):
        # (I + X)(I - X)^{-1}
        return torch.linalg.solve(self.Id - X, self.Id + X)


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Skew())
parametrize.register_parametrization(layer, "weight", CayleyMap(3))
X = layer.weight
print("orthogonal:", torch.dist(X.T @ X, torch.eye(3)).item() < 1e-5)
print(layer.parametrizations.weight)


class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)


layer_orthogonal = nn.Linear(3, 3)
parametrize.register_parametrization(layer_orthogonal, "weight", Skew())
parametrize.register_parametrization(layer_orthogonal, "weight", MatrixExponential())
X = layer_orthogonal.weight
print("exp orthogonal:", torch.dist(X.T @ X, torch.eye(3)).item() < 1e-5)
print("det:", round(torch.linalg.det(X).item(), 4))

# caching
layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
with parametrize.cached():
    w1 = layer.weight
    w2 = layer.weight
    print("cached same object:", w1 is w2)
print("uncached same object:", layer.weight is layer.weight)


# right_inverse: assigning to a parametrized weight
class Symmetric2(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric2())
X = torch.rand(3, 3)
X = X + X.T
layer.weight = X
print("assigned:", torch.allclose(layer.weight, X))
print(layer.parametrizations.weight.original)


class NoisyParametrization(nn.Module):
    def forward(self, X):
        return X

    def right_inverse(self, Z):
        return Z


# unsafe / wrong-shape errors
class Shrink(nn.Module):
    def forward(self, X):
        return X[:2]


lin = nn.Linear(3, 3)
try:
    parametrize.register_parametrization(lin, "weight", Shrink())
except ValueError as e:
    print("ValueError:", str(e).splitlines()[0])
try:
    parametrize.register_parametrization(lin, "nonexistent", Symmetric())
except ValueError as e:
    print("ValueError:", e)
try:
    parametrize.remove_parametrizations(nn.Linear(2, 2), "weight")
except ValueError as e:
    print("ValueError:", e)

# removing
layer = nn.Linear(4, 4)
parametrize.register_parametrization(layer, "weight", Symmetric())
print("before:", layer)
parametrize.remove_parametrizations(layer, "weight")
print("after (leave_parametrized=True):", layer)
print(layer.weight)
print("still symmetric:", torch.allclose(layer.weight, layer.weight.T))

layer = nn.Linear(4, 4)
w0 = layer.weight.detach().clone()
parametrize.register_parametrization(layer, "weight", Symmetric())
parametrize.remove_parametrizations(layer, "weight", leave_parametrized=False)
print("leave_parametrized=False restores original:", torch.equal(layer.weight, w0))
print(type(layer).__name__, type(layer.weight).__name__)

# the built-in parametrizations, trained
torch.manual_seed(1)
x = torch.randn(16, 4)
y = torch.randn(16, 4)
for name, make in [
    ("orthogonal", lambda m: nn.utils.parametrizations.orthogonal(m)),
    ("weight_norm", lambda m: nn.utils.parametrizations.weight_norm(m)),
    ("spectral_norm", lambda m: nn.utils.parametrizations.spectral_norm(m)),
]:
    torch.manual_seed(2)
    m = make(nn.Linear(4, 4))
    print(name, sorted(k for k, _ in m.named_parameters()), sorted(m.state_dict().keys()))
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    for step in range(5):
        opt.zero_grad()
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    print(f"  loss {loss.item():.5f}")
    W = m.weight
    if name == "orthogonal":
        print("  W^T W = I:", torch.allclose(W.T @ W, torch.eye(4), atol=1e-5))
    elif name == "weight_norm":
        print("  g:", m.parametrizations.weight.original0.view(-1))
        print("  row norms:", W.norm(dim=1))
    else:
        print("  sigma_max:", round(torch.linalg.matrix_norm(W, 2).item(), 3))
