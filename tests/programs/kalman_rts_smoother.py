# Models: a state-space modelling notebook: a constant-velocity Kalman filter with
# torch.linalg.solve for the gain, the Rauch-Tung-Striebel smoother backwards pass, the
# innovation log-likelihood with slogdet, maximum-likelihood tuning of the noise scales by
# autograd + LBFGS, and MultivariateNormal checks of the one-step predictive.
import torch
from torch.distributions import MultivariateNormal

torch.set_default_dtype(torch.float64)
torch.manual_seed(12)
dt, T = 0.1, 60
F_ = torch.tensor([[1.0, dt, 0, 0], [0, 1, 0, 0], [0, 0, 1, dt], [0, 0, 0, 1]])
H = torch.tensor([[1.0, 0, 0, 0], [0, 0, 1.0, 0]])
q_true, r_true = 0.3, 0.5
G = torch.tensor([[dt ** 2 / 2, 0], [dt, 0], [0, dt ** 2 / 2], [0, dt]])
x = torch.tensor([0.0, 1.0, 0.0, 0.5])
xs, ys = [], []
for t in range(T):
    x = F_ @ x + G @ (q_true * torch.randn(2))
    xs.append(x)
    ys.append(H @ x + r_true * torch.randn(2))
xs, ys = torch.stack(xs), torch.stack(ys)
print(xs.shape, ys[:3])


def kalman(ys, log_q, log_r):
    Q = G @ G.T * torch.exp(2 * log_q) + 1e-9 * torch.eye(4)
    R = torch.eye(2) * torch.exp(2 * log_r)
    m, P = torch.zeros(4), torch.eye(4) * 10
    ms, Ps, mps, Pps = [], [], [], []
    ll = torch.zeros(())
    for y in ys:
        mp, Pp = F_ @ m, F_ @ P @ F_.T + Q
        S = H @ Pp @ H.T + R
        v = y - H @ mp
        K = torch.linalg.solve(S, H @ Pp).T
        m = mp + K @ v
        P = (torch.eye(4) - K @ H) @ Pp
        sign, logdet = torch.linalg.slogdet(S)
        quad = v @ torch.linalg.solve(S, v)
        ll = ll - 0.5 * (logdet + quad + 2 * torch.log(torch.tensor(2 * torch.pi)))
        ms.append(m)
        Ps.append(P)
        mps.append(mp)
        Pps.append(Pp)
    return torch.stack(ms), torch.stack(Ps), torch.stack(mps), torch.stack(Pps), ll


def rts(ms, Ps, mps, Pps):
    msm, Psm = [ms[-1]], [Ps[-1]]
    for t in range(len(ms) - 2, -1, -1):
        C = Ps[t] @ F_.T @ torch.linalg.inv(Pps[t + 1])
        msm.insert(0, ms[t] + C @ (msm[0] - mps[t + 1]))
        Psm.insert(0, Ps[t] + C @ (Psm[0] - Pps[t + 1]) @ C.T)
    return torch.stack(msm), torch.stack(Psm)


ms, Ps, mps, Pps, ll = kalman(ys, torch.log(torch.tensor(q_true)), torch.log(torch.tensor(r_true)))
msm, Psm = rts(ms, Ps, mps, Pps)
rmse = lambda a: ((a[:, [0, 2]] - xs[:, [0, 2]]) ** 2).mean().sqrt().item()  # noqa: E731
print(f"loglik {ll.item():.6f} filter rmse {rmse(ms):.6f} smoother rmse {rmse(msm):.6f}")
smaller = Psm.diagonal(dim1=1, dim2=2) <= Ps.diagonal(dim1=1, dim2=2) + 1e-12
print("smoothed var <= filtered:", bool(smaller.all()))
Q = G @ G.T * q_true ** 2 + 1e-9 * torch.eye(4)
S = H @ Pps[5] @ H.T + torch.eye(2) * r_true ** 2
pred = MultivariateNormal(H @ mps[5], covariance_matrix=S)
print("one-step predictive logpdf:", pred.log_prob(ys[5]).item())

log_q = torch.tensor(0.0, requires_grad=True)
log_r = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.LBFGS([log_q, log_r], lr=0.5, max_iter=20, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    nll = -kalman(ys, log_q, log_r)[-1]
    nll.backward()
    return nll


for it in range(3):
    loss = opt.step(closure)
    print(f"LBFGS round {it}: nll {loss.item():.6f} q {log_q.exp().item():.5f} "
          f"r {log_r.exp().item():.5f}")
torch.set_default_dtype(torch.float32)
