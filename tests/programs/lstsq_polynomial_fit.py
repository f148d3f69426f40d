# Models: "fit a polynomial three ways" course exercises: a Vandermonde matrix with
# torch.vander, the closed-form least-squares fit with torch.linalg.lstsq (and the normal
# equations via cholesky_solve / pinv), ridge regression, and gradient descent with Adam on the
# same problem; residuals, condition numbers and the solutions are compared.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=4, sci_mode=False)

n, deg = 40, 3
x = torch.linspace(-1, 1, n, dtype=torch.float64)
true_coef = torch.tensor([0.5, -1.0, 2.0, 0.7], dtype=torch.float64)  # c0 + c1 x + ...
X = torch.vander(x, N=deg + 1, increasing=True)
y = X @ true_coef + 0.05 * torch.randn(n, dtype=torch.float64)
print("design", tuple(X.shape), X.dtype)
print("first rows", X[:2])

sol = torch.linalg.lstsq(X, y.unsqueeze(1))
coef = sol.solution.squeeze(1)
print("lstsq coef", coef)
print("rank", sol.rank, "driver default residuals shape", tuple(sol.residuals.shape))
sol_gelsd = torch.linalg.lstsq(X, y.unsqueeze(1), driver="gelsd")
print("gelsd rank", sol_gelsd.rank.item(), "sv", sol_gelsd.singular_values)
print("gelsd agrees", torch.allclose(sol_gelsd.solution.squeeze(1), coef))

XtX, Xty = X.T @ X, X.T @ y
L = torch.linalg.cholesky(XtX)
coef_ne = torch.cholesky_solve(Xty.unsqueeze(1), L).squeeze(1)
print("normal equations agree", torch.allclose(coef_ne, coef))
print("pinv agrees", torch.allclose(torch.linalg.pinv(X) @ y, coef))
print(f"cond(X) {torch.linalg.cond(X).item():.3f}")
print(f"cond(XtX) {torch.linalg.cond(XtX).item():.3f}")
resid = y - X @ coef
print(f"rmse {resid.pow(2).mean().sqrt().item():.5f}")

for lam in [0.0, 0.1, 1.0, 10.0]:
    A = XtX + lam * torch.eye(deg + 1, dtype=torch.float64)
    c = torch.linalg.solve(A, Xty)
    print(f"ridge lambda={lam:5.1f} coef={[round(v, 4) for v in c.tolist()]} norm={c.norm():.4f}")

# gradient descent in float32
Xf, yf = X.float(), y.float()
w = torch.zeros(deg + 1, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
for step in range(1, 201):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(Xf @ w, yf)
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} loss {loss.item():.5f}")
print("gd coef", w.detach().round(decimals=2))
print("gd close to lstsq", torch.allclose(w.detach().double(), coef, atol=0.05))

# batched lstsq: fit several noisy targets at once
Y = X @ true_coef.unsqueeze(1) + 0.1 * torch.randn(n, 3, dtype=torch.float64)
multi = torch.linalg.lstsq(X, Y).solution
print("multi-target coef shape", tuple(multi.shape))
print(multi.T)
Xb = X.expand(2, n, deg + 1)
yb = torch.stack([y, 2 * y]).unsqueeze(-1)
print("batched", torch.linalg.lstsq(Xb, yb).solution.squeeze(-1))
print("polyval via Horner", torch.stack([x[:3] ** k for k in range(4)], 1) @ coef)
try:
    torch.linalg.lstsq(X, y[:10].unsqueeze(1))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.linalg.lstsq(X.float(), y.unsqueeze(1))
except RuntimeError as e:
    print("RuntimeError:", e)
