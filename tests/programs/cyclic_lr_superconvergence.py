# Models: the "super-convergence" / cyclical-learning-rate recipes (Smith; fastai's fit_one_cycle)
# written with torch.optim.lr_scheduler: CyclicLR in triangular, triangular2 and exp_range modes
# with momentum cycling, OneCycleLR with three phases and linear annealing, PolynomialLR,
# ConstantLR chained with ExponentialLR (ChainedScheduler), MultiplicativeLR, and NAdam / RAdam
# with decoupled weight decay, each tracing its learning rate and momentum and training a
# small regression model.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import lr_scheduler as S

torch.manual_seed(0)
X = torch.randn(256, 6)
y = X @ torch.randn(6, 1) + 0.3 * torch.sin(3 * X[:, :1]) + 0.05 * torch.randn(256, 1)


def make_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))


def run(name, make_opt, make_sched, steps=40, per_batch=True):
    model = make_model()
    opt = make_opt(model.parameters())
    sched = make_sched(opt)
    lrs, moms = [], []
    for step in range(steps):
        idx = torch.randint(0, 256, (32,))
        loss = F.mse_loss(model(X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        group = opt.param_groups[0]
        lrs.append(group["lr"])
        moms.append(group["momentum"] if "momentum" in group else group["betas"][0])
        if per_batch:
            sched.step()
    with torch.no_grad():
        final = F.mse_loss(model(X), y).item()
    print(f"{name:22s} final MSE {final:.5f} last lr {sched.get_last_lr()[0]:.6f}")
    print("   lr  :", [round(v, 6) for v in lrs[::5]])
    print("   mom :", [round(v, 4) for v in moms[::5]])


sgd = lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9)  # noqa: E731
run("cyclic triangular", sgd, lambda o: S.CyclicLR(o, 0.001, 0.05, step_size_up=8))
run("cyclic triangular2", sgd, lambda o: S.CyclicLR(o, 0.001, 0.05, step_size_up=5,
                                                      step_size_down=3, mode="triangular2"))
run("cyclic exp_range", sgd, lambda o: S.CyclicLR(o, 0.001, 0.05, step_size_up=6,
                                                    mode="exp_range", gamma=0.97,
                                                    base_momentum=0.8, max_momentum=0.95))
adam = lambda p: torch.optim.Adam(p, lr=0.01)  # noqa: E731
run("one-cycle three-phase", adam, lambda o: S.OneCycleLR(o, max_lr=0.05, total_steps=40,
                                                          three_phase=True,
                                                          anneal_strategy="linear"))
run("one-cycle cos", sgd, lambda o: S.OneCycleLR(o, max_lr=0.05, total_steps=40,
                                                 pct_start=0.25, div_factor=10,
                                                 final_div_factor=100))
run("polynomial", sgd, lambda o: S.PolynomialLR(o, total_iters=30, power=2.0))
run("constant+exponential", adam, lambda o: S.ChainedScheduler(
    [S.ConstantLR(o, factor=0.5, total_iters=10), S.ExponentialLR(o, gamma=0.95)]))
run("multiplicative", adam, lambda o: S.MultiplicativeLR(o, lambda step: 0.97 if step % 2 else 1.0))
run("NAdam decoupled", lambda p: torch.optim.NAdam(p, lr=0.01, weight_decay=0.01,
                                                   decoupled_weight_decay=True,
                                                   momentum_decay=0.004),
    lambda o: S.LinearLR(o, start_factor=0.2, total_iters=10))
run("RAdam decoupled", lambda p: torch.optim.RAdam(p, lr=0.02, weight_decay=0.01,
                                                   decoupled_weight_decay=True),
    lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, 1.0, total_iters=5),
                                 S.CosineAnnealingLR(o, T_max=35)], milestones=[5]))

# an LR range test: exponential sweep, smoothed loss, and the suggested learning rate
model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
sched = S.ExponentialLR(opt, gamma=(1.0 / 1e-4) ** (1 / 60))
smooth, best, history = 0.0, float("inf"), []
for step in range(60):
    idx = torch.randint(0, 256, (32,))
    loss = F.mse_loss(model(X[idx]), y[idx])
    smooth = 0.9 * smooth + 0.1 * loss.item()
    debiased = smooth / (1 - 0.9 ** (step + 1))
    history.append((opt.param_groups[0]["lr"], debiased))
    if debiased > 4 * best or not torch.isfinite(loss):
        break
    best = min(best, debiased)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
lrs = torch.tensor([h[0] for h in history])
losses = torch.tensor([h[1] for h in history])
slopes = (losses[1:] - losses[:-1]) / (lrs[1:].log() - lrs[:-1].log())
print(f"range test stopped at step {len(history)} lr {lrs[-1]:.5f}; "
      f"steepest descent at lr {lrs[slopes.argmin()]:.5f}")
print("losses:", losses[::8])
