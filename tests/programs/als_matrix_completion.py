# Models: alternating least squares for a ratings matrix with missing entries: each user's and
# item's factors solved in closed form with batched torch.linalg.solve, weighted regularisation,
# RMSE on held-out ratings and top-k recommendations that skip seen items.
import torch

torch.manual_seed(0)
n_users, n_items, k_true = 30, 20, 3
U_true = torch.randn(n_users, k_true)
V_true = torch.randn(n_items, k_true)
R_full = (U_true @ V_true.T + 0.1 * torch.randn(n_users, n_items)).clamp(-3, 3)
observed = torch.rand(n_users, n_items) < 0.4
test_mask = (torch.rand(n_users, n_items) < 0.25) & ~observed
print("observed", observed.sum().item(), "test", test_mask.sum().item())
R = torch.where(observed, R_full, torch.zeros(()))
W = observed.float()


def solve_side(R, W, F, lam):
    n_obs = W.sum(1)
    A = torch.einsum("ui,ik,il->ukl", W, F, F) + lam * n_obs.clamp_min(1)[
        :, None, None
    ] * torch.eye(F.shape[1])
    b = (W * R) @ F
    return torch.linalg.solve(A, b.unsqueeze(-1)).squeeze(-1)


def rmse(P, mask):
    return ((P - R_full)[mask] ** 2).mean().sqrt().item()


for k in (2, 3, 5):
    g = torch.Generator().manual_seed(1)
    U = 0.1 * torch.randn(n_users, k, generator=g)
    V = 0.1 * torch.randn(n_items, k, generator=g)
    for it in range(12):
        U = solve_side(R, W, V, 0.05)
        V = solve_side(R.T, W.T, U, 0.05)
        if it in (0, 3, 11):
            P = U @ V.T
            tr, te = rmse(P, observed), rmse(P, test_mask)
            print(f"k={k} iter {it:2d} train rmse {tr:.4f} test rmse {te:.4f}")
P = U @ V.T
scores = P.masked_fill(observed, float("-inf"))
top = torch.topk(scores, 3, dim=1)
print("top-3 unseen items for users 0-4\n", top.indices[:5])
print("their predicted ratings\n", top.values[:5])
true_best = R_full.masked_fill(observed, float("-inf")).argmax(1)
hit = (top.indices == true_best[:, None]).any(1).float().mean()
print(f"hit rate @3 {hit:.4f}")
s = torch.linalg.svdvals(P)
print("singular values of the completion", s[:5])
print("effective rank", (s > 1e-3 * s[0]).sum().item())
