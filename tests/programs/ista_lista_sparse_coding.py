# Models: sparse-coding notebooks: the lasso solved by ISTA and FISTA (soft thresholding with
# the step 1/L from the spectral norm), support recovery, LISTA (Gregor & LeCun) as an unrolled
# network with learned matrices and thresholds trained to imitate FISTA's codes, and
# coordinate descent for comparison.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=4, sci_mode=False)
M, N, S = 20, 40, 4
A = torch.randn(M, N) / M ** 0.5
A = A / A.norm(dim=0, keepdim=True)


def make_codes(n, gen):
    x = torch.zeros(n, N)
    idx = torch.rand(n, N, generator=gen).argsort(1)[:, :S]
    x.scatter_(1, idx, torch.randn(n, S, generator=gen) * 2)
    return x


gen = torch.Generator().manual_seed(1)
x_true = make_codes(256, gen)
y = x_true @ A.T + 0.01 * torch.randn(256, M, generator=gen)
L = torch.linalg.matrix_norm(A, ord=2) ** 2
lam = 0.05
print(f"Lipschitz constant {L:.4f}")


def soft(x, t):
    return torch.sign(x) * F.relu(x.abs() - t)


def objective(x):
    return (0.5 * (x @ A.T - y).pow(2).sum(1) + lam * x.abs().sum(1)).mean()


def ista(iters):
    x = torch.zeros(len(y), N)
    for _ in range(iters):
        x = soft(x - (x @ A.T - y) @ A / L, lam / L)
    return x


def fista(iters):
    x = torch.zeros(len(y), N)
    z, t = x, 1.0
    for _ in range(iters):
        x_new = soft(z - (z @ A.T - y) @ A / L, lam / L)
        t_new = (1 + (1 + 4 * t * t) ** 0.5) / 2
        z = x_new + (t - 1) / t_new * (x_new - x)
        x, t = x_new, t_new
    return x


for iters in [10, 50, 200]:
    obj_ista, obj_fista = objective(ista(iters)), objective(fista(iters))
    print(f"iters {iters:3d} ISTA obj {obj_ista:.5f} FISTA obj {obj_fista:.5f}")
x_ref = fista(500)
support = x_ref.abs() > 1e-3
true_support = x_true != 0
print("support precision:", (support & true_support).sum().item() / support.sum().item(),
      "recall:", (support & true_support).sum().item() / true_support.sum().item())
print("code 0 (true vs FISTA):\n", torch.stack([x_true[0], x_ref[0]])[:, :12])


def coordinate_descent(yv, sweeps=30):
    x = torch.zeros(N)
    r = yv.clone()
    col_sq = (A * A).sum(0)
    for _ in range(sweeps):
        for j in range(N):
            r = r + A[:, j] * x[j]
            x[j] = soft(A[:, j] @ r, lam) / col_sq[j]
            r = r - A[:, j] * x[j]
    return x


x_cd = coordinate_descent(y[0])
print(f"coordinate descent vs FISTA max diff {(x_cd - x_ref[0]).abs().max():.2e}, "
      f"objectives {0.5 * (A @ x_cd - y[0]).pow(2).sum() + lam * x_cd.abs().sum():.5f} "
      f"{0.5 * (A @ x_ref[0] - y[0]).pow(2).sum() + lam * x_ref[0].abs().sum():.5f}")


class LISTA(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.We = nn.Linear(M, N, bias=False)
        self.S = nn.Linear(N, N, bias=False)
        with torch.no_grad():
            self.We.weight.copy_(A.T / L)
            self.S.weight.copy_(torch.eye(N) - A.T @ A / L)
        self.theta = nn.Parameter(torch.full((layers,), lam / L.item()))

    def forward(self, yv):
        b = self.We(yv)
        x = soft(b, self.theta[0])
        for th in self.theta[1:]:
            x = soft(b + self.S(x), th)
        return x


model = LISTA(5)
with torch.no_grad():
    print(f"LISTA(5) at init (= 5 ISTA steps): obj {objective(model(y)):.5f} "
          f"vs ISTA {objective(ista(5)):.5f}")
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(60):
    for idx in torch.randperm(256).split(64):
        loss = F.mse_loss(model(y[idx]), x_ref[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 20 == 19:
        with torch.no_grad():
            print(f"epoch {epoch + 1} mse to FISTA {F.mse_loss(model(y), x_ref):.6f} "
                  f"obj {objective(model(y)):.5f}")
print("learned thresholds:", model.theta.detach())
