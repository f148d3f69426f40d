# Models: torch.nn.utils.parametrizations in library code: orthogonal (matrix_exp, cayley,
# householder maps; use_trivialization), spectral_norm with power iterations in train/eval,
# weight_norm (the parametrization version) and its original0/original1, cached() context,
# register_parametrization with right_inverse, remove_parametrizations(leave_parametrized),
# and the state_dict keys each leaves.
import torch
import torch.nn.utils.parametrize as P
from torch import nn
from torch.nn.utils import parametrizations as PZ

torch.manual_seed(0)
for orth_map in ("matrix_exp", "cayley", "householder"):
    lin = PZ.orthogonal(nn.Linear(4, 4), orthogonal_map=orth_map)
    W = lin.weight
    print(orth_map, torch.allclose(W @ W.T, torch.eye(4), atol=1e-5),
          sorted(lin.state_dict().keys()))
lin = PZ.orthogonal(nn.Linear(5, 3), use_trivialization=False)
print(torch.allclose(lin.weight @ lin.weight.T, torch.eye(3), atol=1e-5),
      lin.parametrizations.weight.original.shape)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    lin(torch.randn(8, 5)).pow(2).sum().backward()
    opt.step()
print("still orthogonal:", torch.allclose(lin.weight @ lin.weight.T, torch.eye(3), atol=1e-4))

sn = PZ.spectral_norm(nn.Linear(6, 4), n_power_iterations=3)
print(sorted(sn.state_dict().keys()))
sn.train()
for _ in range(5):
    w = sn.weight
print("sigma(train):", torch.linalg.matrix_norm(w, 2).item())
sn.eval()
print("sigma(eval):", torch.linalg.matrix_norm(sn.weight, 2).item())
print(sn.parametrizations.weight[0]._u.shape, sn.parametrizations.weight[0]._v.shape)
conv = PZ.spectral_norm(nn.Conv2d(2, 3, 3), dim=0)
print(conv.weight.shape, conv.parametrizations.weight.original.shape)

wn = PZ.weight_norm(nn.Linear(3, 2), dim=0)
print(wn.parametrizations.weight.original0.shape, wn.parametrizations.weight.original1.shape)
g = wn.parametrizations.weight.original0
v = wn.parametrizations.weight.original1
print(torch.allclose(wn.weight, g * v / v.norm(dim=1, keepdim=True)))
print(sorted(wn.state_dict().keys()))


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class PositiveDiag(nn.Module):
    def forward(self, X):
        return X - torch.diag_embed(X.diagonal()) + torch.diag_embed(X.diagonal().exp())

    def right_inverse(self, A):
        return A - torch.diag_embed(A.diagonal()) + torch.diag_embed(A.diagonal().log())


layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
P.register_parametrization(layer, "weight", PositiveDiag())
print(layer.parametrizations.weight)
print(P.is_parametrized(layer), P.is_parametrized(layer, "bias"),
      P.type_before_parametrizations(layer))
S = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0], [3.0, 5.0, 6.0]])
layer.weight = S
print(layer.parametrizations.weight.original)
print(layer.weight)
with P.cached():
    a = layer.weight
    b = layer.weight
    print("cached same object:", a is b)
print("uncached same object:", layer.weight is layer.weight)
P.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(type(layer.weight).__name__, layer.weight.shape, P.is_parametrized(layer))
layer2 = nn.Linear(2, 2)
P.register_parametrization(layer2, "weight", Symmetric())
P.remove_parametrizations(layer2, "weight", leave_parametrized=False)
print(layer2.weight)
try:
    P.remove_parametrizations(layer2, "weight")
except ValueError as e:
    print("ValueError:", e)
print(repr(PZ.orthogonal(nn.Linear(2, 2))))
