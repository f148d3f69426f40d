# Models: the "Annotated S4" / "Mamba from scratch" notebooks in PyTorch: a HiPPO-LegS state
# matrix, bilinear and zero-order-hold discretisation (torch.linalg.solve, matrix_exp), the
# SSM as a recurrence and as a long convolution computed with rfft/irfft, a diagonal complex
# S4D kernel, and a selective scan with input-dependent step sizes trained on a copy task.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=5, sci_mode=False)


def hippo_legs(N):
    P = torch.sqrt(1 + 2 * torch.arange(N, dtype=torch.float64))
    A = P[:, None] * P[None, :]
    A = torch.tril(A) - torch.diag(torch.arange(N, dtype=torch.float64))
    return -A


def discretize_bilinear(A, B, C, step):
    I = torch.eye(A.shape[0], dtype=A.dtype)
    BL = torch.linalg.inv(I - (step / 2.0) * A)
    Ab = BL @ (I + (step / 2.0) * A)
    Bb = (BL * step) @ B
    return Ab, Bb, C


def discretize_zoh(A, B, step):
    N = A.shape[0]
    M = torch.zeros(N + 1, N + 1, dtype=A.dtype)
    M[:N, :N] = A * step
    M[:N, N:] = B * step
    E = torch.linalg.matrix_exp(M)
    return E[:N, :N], E[:N, N:]


def scan(Ab, Bb, C, u):
    x = torch.zeros(Ab.shape[0], 1, dtype=Ab.dtype)
    ys = []
    for uk in u:
        x = Ab @ x + Bb * uk
        ys.append((C @ x).squeeze())
    return torch.stack(ys)


def kernel(Ab, Bb, C, L):
    out, x = [], Bb
    for _ in range(L):
        out.append((C @ x).squeeze())
        x = Ab @ x
    return torch.stack(out)


def causal_conv(u, K):
    L = u.shape[-1]
    ud = torch.fft.rfft(u, n=2 * L)
    Kd = torch.fft.rfft(K, n=2 * L)
    return torch.fft.irfft(ud * Kd, n=2 * L)[..., :L]


N, L = 4, 16
A = hippo_legs(N)
print(A)
B = torch.randn(N, 1, dtype=torch.float64)
C = torch.randn(1, N, dtype=torch.float64)
Ab, Bb, Cb = discretize_bilinear(A, B, C, step=1.0 / L)
print("eigenvalue moduli", torch.linalg.eigvals(Ab).abs().sort().values)
u = torch.randn(L, dtype=torch.float64)
y_rec = scan(Ab, Bb, Cb, u)
y_conv = causal_conv(u, kernel(Ab, Bb, Cb, L))
print("recurrence == convolution:", torch.allclose(y_rec, y_conv),
      (y_rec - y_conv).abs().max() < 1e-10)
Az, Bz = discretize_zoh(A, B, 1.0 / L)
print("zoh vs bilinear A", (Az - Ab).abs().max().item() < 1e-2)
print("zoh B", Bz.squeeze())


class S4D(nn.Module):
    def __init__(self, H, N=8):
        super().__init__()
        lo, hi = torch.log(torch.tensor(0.001)), torch.log(torch.tensor(0.1))
        self.log_dt = nn.Parameter(torch.rand(H) * (hi - lo) + lo)
        self.log_A_real = nn.Parameter(torch.log(0.5 * torch.ones(H, N // 2)))
        self.A_imag = nn.Parameter(torch.pi * torch.arange(N // 2).float().repeat(H, 1))
        self.C = nn.Parameter(torch.view_as_real(torch.randn(H, N // 2, dtype=torch.cfloat)))
        self.D = nn.Parameter(torch.randn(H))

    def forward(self, u):
        Lk = u.shape[-1]
        dt = self.log_dt.exp()
        A = -self.log_A_real.exp() + 1j * self.A_imag
        C = torch.view_as_complex(self.C)
        dtA = A * dt.unsqueeze(-1)
        K = dtA.unsqueeze(-1) * torch.arange(Lk)
        C = C * (torch.exp(dtA) - 1.0) / A
        K = 2 * torch.einsum("hn,hnl->hl", C, torch.exp(K)).real
        return causal_conv(u, K) + u * self.D.unsqueeze(-1)


class Selective(nn.Module):
    """A Mamba-style selective SSM: the step size, B and C depend on the input."""

    def __init__(self, H, N=4):
        super().__init__()
        self.A_log = nn.Parameter(torch.log(torch.arange(1, N + 1).float()).repeat(H, 1))
        self.proj = nn.Linear(H, 1 + 2 * N)
        self.N = N

    def forward(self, u):  # (B, L, H)
        dt, Bm, Cm = self.proj(u).split([1, self.N, self.N], dim=-1)
        dt = F.softplus(dt)
        A = -torch.exp(self.A_log)
        dA = torch.exp(dt.unsqueeze(-1) * A)
        dBu = dt.unsqueeze(-1) * Bm.unsqueeze(2) * u.unsqueeze(-1)
        x = torch.zeros(u.shape[0], u.shape[2], self.N)
        ys = []
        for t in range(u.shape[1]):
            x = dA[:, t] * x + dBu[:, t]
            ys.append(torch.einsum("bhn,bn->bh", x, Cm[:, t]))
        return torch.stack(ys, dim=1)


H = 4
s4d = S4D(H)
sel = Selective(H)
enc, dec = nn.Linear(1, H), nn.Linear(H, 1)
params = [*s4d.parameters(), *sel.parameters(), *enc.parameters(), *dec.parameters()]
print("params", sum(p.numel() for p in params))
opt = torch.optim.AdamW(params, lr=1e-2)
seq = torch.randn(8, 12, 1)
target = torch.roll(seq, shifts=2, dims=1)
target[:, :2] = 0
for step in range(25):
    h = enc(seq)
    h = h + s4d(h.transpose(1, 2)).transpose(1, 2)
    h = h + sel(F.gelu(h))
    loss = F.mse_loss(dec(h), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.6f}")
print("dt", s4d.log_dt.exp().detach())
