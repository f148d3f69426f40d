# Models: a "matrix and tensor factorisation" unsupervised-learning lab in PyTorch: non-negative
# matrix factorisation with Lee & Seung's multiplicative updates (Frobenius and KL), FastICA
# with symmetric decorrelation after whitening by eigh, and a rank-3 CP decomposition of a
# 3-way tensor by alternating least squares with einsum Khatri-Rao products and pinv.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=4)

W_true = torch.rand(30, 4)
H_true = torch.rand(4, 20)
V = W_true @ H_true + 0.01 * torch.rand(30, 20)
print("V", V.shape, V.min().item() >= 0, V.mean().item())

eps = 1e-9
W = torch.rand(30, 4)
H = torch.rand(4, 20)
for it in range(200):
    H *= (W.T @ V) / (W.T @ W @ H + eps)
    W *= (V @ H.T) / (W @ H @ H.T + eps)
    if it % 50 == 0 or it == 199:
        print(f"frobenius it {it:3d} error {torch.linalg.norm(V - W @ H).item():.6f}")
W2, H2 = torch.rand(30, 4), torch.rand(4, 20)
for it in range(200):
    WH = W2 @ H2 + eps
    H2 *= (W2.T @ (V / WH)) / W2.sum(0)[:, None]
    WH = W2 @ H2 + eps
    W2 *= ((V / WH) @ H2.T) / H2.sum(1)[None, :]
kl = (V * torch.log(V / (W2 @ H2)) - V + W2 @ H2).sum()
print("KL divergence", kl.item(), "min entries", W2.min().item() >= 0, H2.min().item() >= 0)

t = torch.linspace(0, 8, 1000, dtype=torch.float64)
S = torch.stack([torch.sin(2 * t), torch.sign(torch.sin(3 * t)), (t * 1.3) % 2 - 1])
A = torch.tensor([[1.0, 1.0, 1.0], [0.5, 2.0, 1.0], [1.5, 1.0, 2.0]], dtype=torch.float64)
X = A @ S
Xc = X - X.mean(1, keepdim=True)
cov = Xc @ Xc.T / Xc.shape[1]
d, E = torch.linalg.eigh(cov)
print("covariance eigenvalues", d)
K = E @ torch.diag(d.rsqrt()) @ E.T
Z = K @ Xc
print("whitened covariance\n", Z @ Z.T / Z.shape[1])

g = torch.Generator().manual_seed(1)
Wica = torch.randn(3, 3, dtype=torch.float64, generator=g)


def sym_decorrelate(W):
    s, u = torch.linalg.eigh(W @ W.T)
    return u @ torch.diag(s.rsqrt()) @ u.T @ W


Wica = sym_decorrelate(Wica)
for it in range(200):
    wx = Wica @ Z
    gwx = torch.tanh(wx)
    g_wx = (1 - gwx**2).mean(1)
    W_new = sym_decorrelate(gwx @ Z.T / Z.shape[1] - g_wx[:, None] * Wica)
    lim = (torch.einsum("ij,ij->i", W_new, Wica).abs() - 1).abs().max()
    Wica = W_new
    if lim < 1e-10:
        break
print("fastica converged after", it + 1, "iterations")
S_est = Wica @ Z
corr = torch.corrcoef(torch.cat([S, S_est]))[:3, 3:]
print("|corr(true, estimated)|\n", corr.abs())
print("each source recovered:", bool((corr.abs().max(1).values > 0.95).all()))

I, J, Kd, R = 6, 5, 4, 3
A0, B0, C0 = torch.randn(I, R), torch.randn(J, R), torch.randn(Kd, R)
Tt = torch.einsum("ir,jr,kr->ijk", A0, B0, C0)
print("tensor", Tt.shape, Tt.norm().item())


def khatri_rao(U, Vm):
    return torch.einsum("ir,jr->ijr", U, Vm).reshape(-1, U.shape[1])


Af, Bf, Cf = torch.randn(I, R), torch.randn(J, R), torch.randn(Kd, R)
for it in range(60):
    Af = Tt.reshape(I, -1) @ torch.linalg.pinv(khatri_rao(Bf, Cf)).T
    Bf = Tt.permute(1, 0, 2).reshape(J, -1) @ torch.linalg.pinv(khatri_rao(Af, Cf)).T
    Cf = Tt.permute(2, 0, 1).reshape(Kd, -1) @ torch.linalg.pinv(khatri_rao(Af, Bf)).T
    if it % 20 == 0 or it == 59:
        rec = torch.einsum("ir,jr,kr->ijk", Af, Bf, Cf)
        print(f"cp-als it {it:2d} relative error {((rec - Tt).norm() / Tt.norm()).item():.3e}")
