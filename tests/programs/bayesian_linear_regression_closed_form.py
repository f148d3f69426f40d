# Models: a Bishop-PRML-style Bayesian linear regression notebook: polynomial basis, conjugate
# Gaussian posterior over weights in closed form, posterior predictive variance, evidence
# maximisation (type-II ML) for alpha/beta with fixed-point updates, and sequential updates.
import torch

torch.manual_seed(41)
N = 30
x = torch.rand(N, dtype=torch.float64) * 2 - 1
t = 0.5 - 1.2 * x + 0.8 * x**3 + 0.15 * torch.randn(N, dtype=torch.float64)


def phi(v, degree=5):
    return torch.stack([v**k for k in range(degree + 1)], dim=1)


Phi = phi(x)
alpha, beta = 1.0, 10.0
for it in range(20):
    S_inv = alpha * torch.eye(Phi.shape[1], dtype=torch.float64) + beta * Phi.T @ Phi
    S = torch.linalg.inv(S_inv)
    m = beta * S @ Phi.T @ t
    lam = torch.linalg.eigvalsh(beta * Phi.T @ Phi)
    gamma = (lam / (alpha + lam)).sum()
    alpha = (gamma / (m @ m)).item()
    beta = ((N - gamma) / ((t - Phi @ m) ** 2).sum()).item()
    if it % 5 == 0 or it == 19:
        print(f"iter {it:2d} alpha {alpha:.5f} beta {beta:.5f} gamma {gamma.item():.4f}")
M = Phi.shape[1]
A = alpha * torch.eye(M, dtype=torch.float64) + beta * Phi.T @ Phi
mN = beta * torch.linalg.solve(A, Phi.T @ t)
E = beta / 2 * ((t - Phi @ mN) ** 2).sum() + alpha / 2 * mN @ mN
log_ev = (
    M / 2 * torch.log(torch.tensor(alpha, dtype=torch.float64))
    + N / 2 * torch.log(torch.tensor(beta, dtype=torch.float64))
    - E
    - 0.5 * torch.logdet(A)
    - N / 2 * torch.log(torch.tensor(2 * torch.pi, dtype=torch.float64))
)
print("posterior mean weights", mN)
print("log evidence", round(log_ev.item(), 6))
xs = torch.linspace(-1, 1, 5, dtype=torch.float64)
Ps = phi(xs)
SN = torch.linalg.inv(A)
pred_mean = Ps @ mN
pred_var = 1 / beta + (Ps @ SN * Ps).sum(1)
for a, b, c in zip(xs.tolist(), pred_mean.tolist(), pred_var.sqrt().tolist()):
    print(f"x={a:+.2f} y={b:+.5f} sd={c:.5f}")
m_seq = torch.zeros(M, dtype=torch.float64)
S_seq = torch.eye(M, dtype=torch.float64) / alpha
for i in range(N):
    p = Phi[i : i + 1]
    S_new = torch.linalg.inv(torch.linalg.inv(S_seq) + beta * p.T @ p)
    m_seq = S_new @ (torch.linalg.solve(S_seq, m_seq) + beta * p.squeeze() * t[i])
    S_seq = S_new
print(
    "sequential == batch",
    torch.allclose(m_seq, mN, atol=1e-8),
    torch.allclose(S_seq, SN, atol=1e-8),
)
post = torch.distributions.MultivariateNormal(mN, covariance_matrix=SN)
draws = post.sample((4,))
print(
    "posterior draws at x=0.5", (phi(torch.tensor([0.5], dtype=torch.float64)) @ draws.T).squeeze()
)
print("entropy of posterior", round(post.entropy().item(), 5))
