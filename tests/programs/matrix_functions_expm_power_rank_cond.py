# Models: a numerical linear algebra lab: matrix_exp of rotation generators and nilpotent
# matrices, matrix_power with negative exponents, matrix_rank with tolerances, cond in several
# norms, matrix_norm / vector_norm variants, pinv of a rank-deficient matrix, and slogdet signs.
import math

import torch

theta = math.pi / 6
G = torch.tensor([[0.0, -theta], [theta, 0.0]], dtype=torch.float64)
R = torch.matrix_exp(G)
print("rotation\n", R)
print("det", torch.linalg.det(R))
N = torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]], dtype=torch.float64)
print("nilpotent exp\n", torch.linalg.matrix_exp(N))
A = torch.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=torch.float64)
print("A^-2\n", torch.linalg.matrix_power(A, -2))
print("A^0\n", torch.linalg.matrix_power(A, 0))
print("check", torch.linalg.matrix_power(A, -2) @ A @ A)
torch.manual_seed(0)
low = torch.randn(5, 2, dtype=torch.float64) @ torch.randn(2, 4, dtype=torch.float64)
noisy = low + 1e-9 * torch.eye(5, 4, dtype=torch.float64)
print("rank", torch.linalg.matrix_rank(low), torch.linalg.matrix_rank(noisy))
print("rank atol", torch.linalg.matrix_rank(noisy, atol=1e-6))
print("hermitian rank", torch.linalg.matrix_rank(A, hermitian=True))
for p in [None, 1, -1, 2, -2, float("inf"), "fro", "nuc"]:
    print("cond", p, torch.linalg.cond(A, p).item())
print("matrix norms", [round(torch.linalg.matrix_norm(A, o).item(), 10)
                       for o in ["fro", "nuc", 1, 2, -2]])
v = torch.tensor([3.0, -4.0, 0.0])
print("vector norms", [torch.linalg.vector_norm(v, o).item()
                       for o in [0, 1, 2, float("inf"), -float("inf"), 0.5]])
P = torch.linalg.pinv(low)
print("pinv props", torch.allclose(low @ P @ low, low), P.shape)
M = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
print("slogdet", torch.linalg.slogdet(M), torch.linalg.slogdet(-torch.eye(3)))
print("det batch", torch.linalg.det(torch.stack([A, 2 * A])))
print("eigvalsh", torch.linalg.eigvalsh(A))
try:
    torch.linalg.matrix_power(torch.zeros(2, 2), -1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.linalg.cond(torch.ones(2, 3), 1)
except RuntimeError as e:
    print("RuntimeError:", e)
