# Models: the parametrizations tutorial, second half: a Symmetric and a MatrixExponential
# parametrization, right_inverse for assignment, the original tensor, stacking parametrizations,
# parametrize.cached(), remove_parametrizations with leave_parametrized, and state_dict keys.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

torch.manual_seed(6)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)


layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
print(layer)
W = layer.weight
print("symmetric", torch.allclose(W, W.T))
print("original\n", layer.parametrizations.weight.original)
A = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0], [3.0, 5.0, 6.0]])
layer.weight = A
print("after assign original\n", layer.parametrizations.weight.original)
print("weight\n", layer.weight)
print("is_parametrized", P.is_parametrized(layer), P.is_parametrized(layer, "bias"))
print(sorted(layer.state_dict()))
P.register_parametrization(layer, "weight", MatrixExponential())
print("stacked", len(layer.parametrizations.weight))
print("weight after exp\n", layer.weight)
x = torch.randn(2, 3)
with P.cached():
    y1 = layer(x)
    y2 = layer(x)
print("cached equal", torch.equal(y1, y2))
(y1.sum() + y2.sum()).backward()
print("orig grad\n", layer.parametrizations.weight.original.grad)
P.remove_parametrizations(layer, "weight", leave_parametrized=True)
print("removed", P.is_parametrized(layer), type(layer.weight).__name__)
print("kept value\n", layer.weight)
lin = nn.Linear(2, 2)
P.register_parametrization(lin, "weight", Symmetric())
P.remove_parametrizations(lin, "weight", leave_parametrized=False)
print("original kept\n", lin.weight)
try:
    P.remove_parametrizations(lin, "weight")
except ValueError as e:
    print("ValueError:", e)
