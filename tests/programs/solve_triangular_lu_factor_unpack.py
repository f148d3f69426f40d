# Models: a numerical-methods lab on triangular systems and LU: solve_triangular for upper/lower,
# left/right and unitriangular, lu_factor/lu_solve for multiple right-hand sides, lu_unpack
# rebuilding P L U, linalg.lu, det from the LU diagonal, and batched solves.
import torch

torch.manual_seed(8)
A = torch.randn(4, 4, dtype=torch.float64) + 4 * torch.eye(4, dtype=torch.float64)
B = torch.randn(4, 2, dtype=torch.float64)
U = A.triu()
L = A.tril()
X = torch.linalg.solve_triangular(U, B, upper=True)
print("upper residual", (U @ X - B).abs().max().item() < 1e-12)
Xl = torch.linalg.solve_triangular(L, B, upper=False, unitriangular=True)
L1 = L.clone()
L1.diagonal().fill_(1.0)
print("unitriangular residual", (L1 @ Xl - B).abs().max().item() < 1e-12)
Xr = torch.linalg.solve_triangular(U, B.T, upper=True, left=False)
print("right residual", (Xr @ U - B.T).abs().max().item() < 1e-12)
LU, piv = torch.linalg.lu_factor(A)
print("pivots", piv)
sol = torch.linalg.lu_solve(LU, piv, B)
print("lu_solve", sol)
print("matches solve", torch.allclose(sol, torch.linalg.solve(A, B)))
P, Lm, Um = torch.lu_unpack(LU, piv)
print("P L U == A", torch.allclose(P @ Lm @ Um, A))
P2, L2, U2 = torch.linalg.lu(A)
print("linalg.lu same", torch.allclose(P2, P), torch.allclose(U2, Um))
sign = torch.linalg.det(P)
print("det", torch.linalg.det(A).item(), (sign * Um.diagonal().prod()).item())
Ab = torch.randn(3, 3, 3, dtype=torch.float64) + 3 * torch.eye(3, dtype=torch.float64)
bb = torch.randn(3, 3, dtype=torch.float64)
print("batched solve", torch.linalg.solve(Ab, bb).shape)
print("triangular_solve legacy", torch.triangular_solve(B, U, upper=True).solution.shape)
LUa, pa = torch.linalg.lu_factor(A)
print("adjoint lu_solve", torch.allclose(torch.linalg.lu_solve(LUa, pa, B, adjoint=True),
                                         torch.linalg.solve(A.T, B)))
try:
    torch.linalg.lu_factor(torch.zeros(2, 2, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
