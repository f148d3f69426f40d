# Models: classical state-space and reservoir-computing notebooks in PyTorch: an echo state
# network (a random reservoir rescaled to a spectral radius via linalg.eigvals, leaky tanh
# updates, washout, a ridge-regression readout by linalg.solve and by lstsq), Mackey-Glass-like
# prediction, and a Kalman filter / RTS smoother for a constant-velocity model with
# MultivariateNormal likelihoods, Cholesky factors and a differentiable noise fit.
import torch
from torch.distributions import MultivariateNormal

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)

# ---- echo state network -----------------------------------------------------------------------
T = 400
series = torch.zeros(T)
series[:20] = 0.9
for t in range(20, T):
    series[t] = (
        series[t - 1] + 0.2 * series[t - 17] / (1 + series[t - 17] ** 10) - 0.1 * series[t - 1]
    )
print("series stats:", series.mean(), series.std(), series[-3:])

N_RES, LEAK, RADIUS = 60, 0.3, 0.9
W_in = (torch.rand(N_RES, 2) - 0.5) * 1.0
W = torch.rand(N_RES, N_RES) - 0.5
W = W * (torch.rand(N_RES, N_RES) < 0.2)
rho = torch.linalg.eigvals(W).abs().max()
W = W * (RADIUS / rho)
print("spectral radius:", torch.linalg.eigvals(W).abs().max())

states = torch.zeros(T, N_RES)
x = torch.zeros(N_RES)
for t in range(T - 1):
    u = torch.stack([torch.tensor(1.0), series[t]])
    x = (1 - LEAK) * x + LEAK * torch.tanh(W_in @ u + W @ x)
    states[t] = x
washout, train_end = 80, 300
S = torch.cat([torch.ones(T, 1), series[:, None], states], 1)[washout:train_end]
target = series[washout + 1 : train_end + 1]
ridge = 1e-6
W_out = torch.linalg.solve(S.T @ S + ridge * torch.eye(S.shape[1]), S.T @ target)
W_ls = torch.linalg.lstsq(S, target[:, None]).solution.squeeze(1)
pred_train = S @ W_out
print("train NRMSE:", ((pred_train - target).pow(2).mean().sqrt() / target.std()).item() < 0.05)
print("ridge vs lstsq readout close:", torch.allclose(S @ W_out, S @ W_ls, atol=1e-3))
S_test = torch.cat([torch.ones(T, 1), series[:, None], states], 1)[train_end : T - 1]
test_target = series[train_end + 1 :]
err = (S_test @ W_out - test_target).pow(2).mean().sqrt() / test_target.std()
print("one-step test NRMSE < 0.1:", err.item() < 0.1)
print("readout norm:", W_out.norm() > 0, W_out.shape)

# ---- Kalman filter -----------------------------------------------------------------------------
torch.manual_seed(1)
dt = 0.5
F_ = torch.tensor([[1.0, dt], [0.0, 1.0]])
H = torch.tensor([[1.0, 0.0]])
q_true, r_true = 0.05, 0.5
Q_true = q_true * torch.tensor([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
steps = 40
xs = [torch.tensor([0.0, 1.0])]
for _ in range(steps - 1):
    xs.append(MultivariateNormal(F_ @ xs[-1], Q_true).sample())
xs = torch.stack(xs)
zs = xs[:, :1] + r_true**0.5 * torch.randn(steps, 1)
print("true final state:", xs[-1], "last measurement:", zs[-1])


def kalman(zs, log_q, log_r):
    Q = log_q.exp() * torch.tensor([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
    R = log_r.exp().view(1, 1)
    m, P = torch.zeros(2), torch.eye(2) * 10.0
    loglik = 0.0
    means, covs, preds = [], [], []
    for z in zs:
        m_pred, P_pred = F_ @ m, F_ @ P @ F_.T + Q
        S_ = H @ P_pred @ H.T + R
        loglik = loglik + MultivariateNormal(H @ m_pred, S_).log_prob(z)
        K = P_pred @ H.T @ torch.linalg.inv(S_)
        m = m_pred + K @ (z - H @ m_pred)
        P = (torch.eye(2) - K @ H) @ P_pred
        means.append(m)
        covs.append(P)
        preds.append((m_pred, P_pred))
    return torch.stack(means), torch.stack(covs), preds, loglik


means, covs, preds, ll = kalman(zs, torch.tensor(q_true).log(), torch.tensor(r_true).log())
print("filtered final:", means[-1], "log-likelihood:", ll)
print("filter RMSE (pos):", (means[:, 0] - xs[:, 0]).pow(2).mean().sqrt())
print("posterior cov chol:", torch.linalg.cholesky(covs[-1]))

sm, sP = [means[-1]], [covs[-1]]
for t in range(steps - 2, -1, -1):
    m_pred, P_pred = preds[t + 1]
    G = covs[t] @ F_.T @ torch.linalg.inv(P_pred)
    sm.insert(0, means[t] + G @ (sm[0] - m_pred))
    sP.insert(0, covs[t] + G @ (sP[0] - P_pred) @ G.T)
sm = torch.stack(sm)
print("smoother RMSE (pos):", (sm[:, 0] - xs[:, 0]).pow(2).mean().sqrt())

log_q = torch.tensor(0.0, requires_grad=True)
log_r = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.Adam([log_q, log_r], lr=0.1)
for it in range(30):
    _, _, _, ll = kalman(zs, log_q, log_r)
    loss = -ll
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 10 == 9:
        print(
            f"fit {it + 1}: nll {loss.item():.4f} q {log_q.exp().item():.4f} "
            f"r {log_r.exp().item():.4f}"
        )
