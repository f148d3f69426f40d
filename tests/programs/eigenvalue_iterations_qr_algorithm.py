# Models: a numerical-linear-algebra lab on eigenvalues: power iteration with the Rayleigh
# quotient, inverse iteration with a shift (torch.linalg.solve), Rayleigh-quotient iteration's
# cubic convergence, deflation for the second eigenpair, the unshifted QR algorithm with
# torch.linalg.qr, all compared with torch.linalg.eigh, plus PageRank-style power iteration on
# a stochastic matrix and the Gershgorin discs that bound the spectrum.
import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
n = 6
Q, _ = torch.linalg.qr(torch.randn(n, n))
true_vals = torch.tensor([9.0, 5.0, 3.0, 2.0, -1.0, 0.5])
A = Q @ torch.diag(true_vals) @ Q.T
A = (A + A.T) / 2
evals, evecs = torch.linalg.eigh(A)
print("eigh:", evals)

v = torch.ones(n) / n ** 0.5
for k in range(60):
    w = A @ v
    v = w / w.norm()
    if k % 15 == 14:
        print(f"power it {k + 1}: rayleigh {(v @ A @ v).item():.12f}")
print("ratio |l2/l1| =", (5 / 9), "-> error", abs((v @ A @ v).item() - 9.0))
print("eigenvector alignment:", abs((v @ evecs[:, -1]).item()))

mu = 2.8
v = torch.ones(n)
for k in range(8):
    w = torch.linalg.solve(A - mu * torch.eye(n), v)
    v = w / w.norm()
print(f"inverse iteration near {mu}: {(v @ A @ v).item():.12f}")

v = torch.randn(n)
v /= v.norm()
lam = (v @ A @ v).item()
for k in range(6):
    try:
        w = torch.linalg.solve(A - lam * torch.eye(n), v)
    except RuntimeError:
        break
    v = w / w.norm()
    new = (v @ A @ v).item()
    print(f"RQI {k}: lambda {new:.14f} change {abs(new - lam):.2e}")
    if abs(new - lam) < 1e-14:
        break
    lam = new

# deflation
v1 = evecs[:, -1]
B = A - 9.0 * torch.outer(v1, v1)
v = torch.ones(n)
for _ in range(200):
    v = B @ v
    v /= v.norm()
print(f"second eigenvalue via deflation: {(v @ B @ v).item():.10f}")

Ak = A.clone()
for k in range(150):
    Qk, Rk = torch.linalg.qr(Ak)
    Ak = Rk @ Qk
print("QR algorithm diagonal:", torch.diagonal(Ak))
print("off-diagonal norm:", (Ak - torch.diag(torch.diagonal(Ak))).norm().item() < 1e-6)
print("sorted match:", torch.allclose(torch.diagonal(Ak).sort().values, evals, atol=1e-8))

# Gershgorin discs
centers = torch.diagonal(A)
radii = A.abs().sum(1) - centers.abs()
print("gershgorin bound:", (centers - radii).min().item() <= evals.min().item(),
      (centers + radii).max().item() >= evals.max().item())

# PageRank on a 5-node graph
adj = torch.tensor([[0, 1, 1, 0, 0], [0, 0, 1, 0, 0], [1, 0, 0, 1, 0], [0, 0, 0, 0, 1],
                    [0, 0, 1, 1, 0]], dtype=torch.float64)
P = adj / adj.sum(1, keepdim=True)
d = 0.85
G = d * P + (1 - d) / 5
r = torch.full((5,), 0.2)
for it in range(100):
    r_new = r @ G
    if (r_new - r).abs().sum() < 1e-12:
        break
    r = r_new
print(f"pagerank after {it} iterations:", r_new, "sum", r_new.sum().item())
vals, vecs = torch.linalg.eig(G.T)
i = vals.real.argmax()
print("eigenvalue 1:", vals[i].real.item(), "vector", (vecs[:, i].real / vecs[:, i].real.sum()))
