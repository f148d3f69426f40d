# Models: a statistics notebook on torch.cov and torch.corrcoef: rows as variables, correction
# (ddof) values, fweights (integer repeats) and aweights (reliability), their equivalence with
# repeating observations, corrcoef's clamping to [-1, 1], and the argument errors.
import torch

torch.manual_seed(2)
X = torch.randn(3, 8, dtype=torch.float64)
X[2] = 2 * X[0] + 0.01 * torch.randn(8, dtype=torch.float64)
print("cov\n", torch.cov(X))
print("correction 0\n", torch.cov(X, correction=0))
print("correction 2", torch.cov(X, correction=2)[0])
fw = torch.tensor([1, 2, 1, 3, 1, 1, 2, 1])
aw = torch.rand(8, dtype=torch.float64)
print("fweights\n", torch.cov(X, fweights=fw))
rep = X.repeat_interleave(fw, dim=1)
print("equals repeated", torch.allclose(torch.cov(X, fweights=fw), torch.cov(rep)))
print("aweights\n", torch.cov(X, aweights=aw))
print("both", torch.cov(X, fweights=fw, aweights=aw)[1])
print("corrcoef\n", torch.corrcoef(X))
print("1-d var", torch.cov(X[0]), X[0].var())
print("int input", torch.cov(torch.tensor([[1, 2, 3], [2, 4, 7]])))
for bad in [lambda: torch.cov(X, fweights=torch.ones(8)),
            lambda: torch.cov(X, fweights=-fw),
            lambda: torch.cov(X, aweights=-aw),
            lambda: torch.cov(X, fweights=fw[:5]),
            lambda: torch.cov(torch.ones(2, 2, 2))]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
