# Models: a graph signal processing notebook: a small graph's adjacency and (normalised)
# Laplacians, eigendecomposition, the heat kernel exp(-tL) via torch.linalg.matrix_exp vs the
# spectral formula, heat diffusion of a point source, diffusion distances, Fiedler-vector
# partitioning, and a graph Fourier low-pass filter of a noisy signal.
import torch

torch.manual_seed(63)
edges = torch.tensor(
    [[0, 1], [1, 2], [2, 0], [2, 3], [3, 4], [4, 5], [5, 3], [1, 6], [6, 7], [7, 1]]
)
n = 8
A = torch.zeros(n, n, dtype=torch.float64)
A[edges[:, 0], edges[:, 1]] = 1.0
A = A + A.T
deg = A.sum(1)
L = torch.diag(deg) - A
Dm = torch.diag(deg.rsqrt())
Ln = torch.eye(n, dtype=torch.float64) - Dm @ A @ Dm
print("degrees", deg.long().tolist(), "edges", int(A.sum().item() // 2))
evals, evecs = torch.linalg.eigh(L)
print("Laplacian spectrum", evals.numpy().round(6).tolist())
print("normalised spectrum", torch.linalg.eigvalsh(Ln).numpy().round(6).tolist())
print("connected components (zero eigenvalues)", int((evals.abs() < 1e-9).sum()))
for t in [0.1, 1.0, 5.0]:
    Ht = torch.linalg.matrix_exp(-t * L)
    Hs = evecs @ torch.diag(torch.exp(-t * evals)) @ evecs.T
    src = torch.zeros(n, dtype=torch.float64)
    src[0] = 1.0
    u = Ht @ src
    print(
        f"t={t}: matrix_exp == spectral {torch.allclose(Ht, Hs, atol=1e-10)}, heat "
        f"{u.numpy().round(4).tolist()}, mass {u.sum().item():.6f}"
    )
Ht = torch.linalg.matrix_exp(-1.0 * L)
dd = torch.cdist(Ht, Ht)
print("diffusion distances from node 0", dd[0].numpy().round(4).tolist())
fiedler = evecs[:, 1]
part = (fiedler > 0).long()
cut = (A * (part[:, None] != part[None, :])).sum() / 2
print(
    "Fiedler partition",
    part.tolist() if part[0] == 0 else (1 - part).tolist(),
    "cut edges",
    int(cut.item()),
)
signal = (evecs[:, 1] * 2 + evecs[:, 2]) + 0.3 * torch.randn(n, dtype=torch.float64)
coeffs = evecs.T @ signal
lowpass = evecs @ (coeffs * (evals < 2.0))
print("graph Fourier coefficients", coeffs.numpy().round(4).tolist())
print(
    "smoothness x^T L x: noisy",
    round((signal @ L @ signal).item(), 4),
    "filtered",
    round((lowpass @ L @ lowpass).item(), 4),
)
P = A / deg[:, None]
pi = deg / deg.sum()
print(
    "random walk stationary",
    torch.allclose(pi @ P, pi),
    torch.linalg.matrix_power(P, 200)[0].numpy().round(4).tolist(),
)
