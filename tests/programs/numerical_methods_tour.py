# Models: a scientific-computing notebook in torch (the "PyTorch as NumPy" tutorials): finite
# differences with torch.diff and torch.gradient-free stencils, trapezoid and cumulative
# integrals, a linear ODE solved with torch.matrix_exp (and its gradient against the rate),
# polynomial fitting with torch.vander and lstsq, covariance/correlation of samples,
# quantiles, a log-space running sum, grids from cartesian_prod/combinations, and
# block-diagonal systems.
import math

import torch

torch.manual_seed(5)
torch.set_printoptions(precision=5)

x = torch.linspace(0, math.pi, 9, dtype=torch.float64)
y = torch.sin(x)
h = x[1] - x[0]
print("forward differences", torch.diff(y) / h)
print("second differences", torch.diff(y, n=2) / h ** 2)
print("trapezoid", torch.trapezoid(y, x).item(), "with dx", torch.trapezoid(y, dx=h.item()).item())
print("cumulative", torch.cumulative_trapezoid(y, x))

rate = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
A = torch.stack([torch.stack([-rate, torch.tensor(1.0, dtype=torch.float64)]),
                 torch.stack([torch.tensor(0.0, dtype=torch.float64), -2 * rate])])
state0 = torch.tensor([1.0, 1.0], dtype=torch.float64)
for t in (0.5, 1.0, 2.0):
    print(f"x({t}) =", torch.matrix_exp(A * t) @ state0)
final = (torch.matrix_exp(A * 2.0) @ state0).sum()
final.backward()
print("d final / d rate", round(rate.grad.item(), 10))

xs = torch.linspace(-1, 1, 20, dtype=torch.float64)
ys = 1 - 2 * xs + 3 * xs ** 2 + 0.01 * torch.randn(20, dtype=torch.float64)
V = torch.vander(xs, N=3, increasing=True)
coef = torch.linalg.lstsq(V, ys.unsqueeze(1)).solution.squeeze(1)
print("polynomial coefficients", coef)

samples = torch.randn(3, 200, dtype=torch.float64)
samples[1] += 0.5 * samples[0]
print("cov\n", torch.cov(samples))
print("corrcoef\n", torch.corrcoef(samples))
print("quantiles", torch.quantile(samples[0], torch.tensor([0.05, 0.5, 0.95],
                                                          dtype=torch.float64)))
print("aminmax", torch.aminmax(samples[2]))

logits = torch.randn(6, dtype=torch.float64)
print("logcumsumexp", torch.logcumsumexp(logits, 0))
print("last equals logsumexp", torch.allclose(torch.logcumsumexp(logits, 0)[-1],
                                              torch.logsumexp(logits, 0)))

grid = torch.cartesian_prod(torch.tensor([0, 1, 2]), torch.tensor([10, 20]))
print("grid", grid.tolist())
print("pairs", torch.combinations(torch.arange(4)).tolist())
blocks = torch.block_diag(torch.tensor([[2.0, 1.0], [1.0, 2.0]]), torch.tensor([[3.0]]))
rhs = torch.tensor([1.0, 2.0, 3.0])
print("block system", torch.linalg.solve(blocks, rhs))
print("matrix_power", torch.matrix_power(blocks, 3))
print("broadcast", torch.broadcast_shapes((3, 1), (1, 4), (2, 1, 1)))
print("tril indices", torch.tril_indices(3, 3).tolist())
print("frexp", torch.frexp(torch.tensor([8.0, 0.3, -5.0])))
print("logaddexp", torch.logaddexp(torch.tensor([0.0, 100.0]), torch.tensor([0.0, 100.0])))
print("sinc", torch.sinc(torch.tensor([0.0, 0.5, 1.0])))
print("gcd/lcm", torch.gcd(torch.tensor([12, 18]), torch.tensor([8, 27])),
      torch.lcm(torch.tensor([4, 6]), torch.tensor([6, 8])))
