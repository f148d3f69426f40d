# Models: the d2l.ai "Optimization Algorithms" chapter -- gradient descent, momentum, Adagrad,
# RMSProp, Adadelta and Adam written from scratch on an ill-conditioned quadratic, each checked
# against the torch.optim version, plus the learning-rate schedules of that chapter.
import math

import torch

torch.manual_seed(0)
eta = 0.4


def f_2d(x1, x2):
    return 0.1 * x1**2 + 2 * x2**2


def gd_2d(x1, x2, s1, s2):
    return (x1 - eta * 0.2 * x1, x2 - eta * 4 * x2, 0, 0)


def train_2d(trainer, steps=20, f_grad=None):
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        if f_grad:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
        else:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f"epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}")
    return results


res = train_2d(gd_2d)
print(torch.tensor(res)[:4])

beta = 0.5


def momentum_2d(x1, x2, v1, v2):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2


eta, beta = 0.6, 0.5
train_2d(momentum_2d)
betas = [0.95, 0.9, 0.6, 0]
x = torch.arange(40).detach().numpy()
for b in betas:
    print(f"beta = {b:.2f}", [round(float(b**i), 4) for i in x[:5]])


def adagrad_2d(x1, x2, s1, s2):
    eps = 1e-6
    g1, g2 = 0.2 * x1, 4 * x2
    s1 += g1**2
    s2 += g2**2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2


eta = 0.4
train_2d(adagrad_2d)
eta = 2
train_2d(adagrad_2d)


def rmsprop_2d(x1, x2, s1, s2):
    g1, g2, eps = 0.2 * x1, 4 * x2, 1e-6
    s1 = gamma * s1 + (1 - gamma) * g1**2
    s2 = gamma * s2 + (1 - gamma) * g2**2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2


eta, gamma = 0.4, 0.9
train_2d(rmsprop_2d)


# ---- the same algorithms on tensors, against torch.optim ----
A = torch.tensor([[3.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 0.1]])
b = torch.tensor([1.0, -2.0, 0.5])


def loss_fn(w):
    return 0.5 * w @ A @ w - b @ w


def init_states(kind):
    z = torch.zeros(3)
    return {"sgd": None, "momentum": z.clone(), "adagrad": z.clone(), "rmsprop": z.clone(),
            "adadelta": (z.clone(), z.clone()), "adam": (z.clone(), z.clone())}[kind]  # fmt: skip


def step_scratch(kind, p, state, hp, t):
    g = p.grad
    with torch.no_grad():
        if kind == "sgd":
            p -= hp["lr"] * g
        elif kind == "momentum":
            state[:] = hp["momentum"] * state + g
            p -= hp["lr"] * state
        elif kind == "adagrad":
            state.add_(torch.square(g))
            p -= hp["lr"] * g / torch.sqrt(state + 1e-10)
        elif kind == "rmsprop":
            state[:] = hp["alpha"] * state + (1 - hp["alpha"]) * torch.square(g)
            p -= hp["lr"] * g / (torch.sqrt(state) + 1e-8)
        elif kind == "adadelta":
            s, delta = state
            rho, eps = hp["rho"], 1e-6
            s[:] = rho * s + (1 - rho) * torch.square(g)
            upd = (torch.sqrt(delta + eps) / torch.sqrt(s + eps)) * g
            p -= hp["lr"] * upd
            delta[:] = rho * delta + (1 - rho) * upd * upd
        elif kind == "adam":
            v, s = state
            beta1, beta2, eps = 0.9, 0.999, 1e-8
            v[:] = beta1 * v + (1 - beta1) * g
            s[:] = beta2 * s + (1 - beta2) * torch.square(g)
            v_bias_corr = v / (1 - beta1**t)
            s_bias_corr = s / (1 - beta2**t)
            p -= hp["lr"] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
    p.grad.zero_()


configs = [
    ("sgd", torch.optim.SGD, {"lr": 0.3}),
    ("momentum", torch.optim.SGD, {"lr": 0.1, "momentum": 0.9}),
    ("adagrad", torch.optim.Adagrad, {"lr": 0.5}),
    ("rmsprop", torch.optim.RMSprop, {"lr": 0.01, "alpha": 0.9}),
    ("adadelta", torch.optim.Adadelta, {"lr": 1.0, "rho": 0.9}),
    ("adam", torch.optim.Adam, {"lr": 0.05}),
]
w0 = torch.randn(3)
for kind, cls, hp in configs:
    p1 = w0.clone().requires_grad_()
    p2 = w0.clone().requires_grad_()
    state = init_states(kind)
    opt = cls([p2], **hp)
    for t in range(1, 31):
        loss_fn(p1).backward()
        step_scratch(kind, p1, state, hp, t)
        opt.zero_grad()
        l2 = loss_fn(p2)
        l2.backward()
        opt.step()
    print(f"{kind:9s} loss {l2.item():.6f} scratch {p1.detach()} torch {p2.detach()}")
    print("  max diff < 1e-5:", bool((p1 - p2).abs().max() < 1e-5))
print(opt)
print(sorted(opt.state[p2].keys()), opt.state[p2]["step"])
print(torch.linalg.solve(A, b))


# ---- learning rate schedules ----
class SquareRootScheduler:
    def __init__(self, lr=0.1):
        self.lr = lr

    def __call__(self, num_update):
        return self.lr * pow(num_update + 1.0, -0.5)


class CosineScheduler:
    def __init__(self, max_update, base_lr=0.01, final_lr=0, warmup_steps=0, warmup_begin_lr=0):
        self.base_lr_orig = base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.warmup_steps = warmup_steps
        self.warmup_begin_lr = warmup_begin_lr
        self.max_steps = self.max_update - self.warmup_steps

    def get_warmup_lr(self, epoch):
        increase = (
            (self.base_lr_orig - self.warmup_begin_lr) * float(epoch) / float(self.warmup_steps)
        )
        return self.warmup_begin_lr + increase

    def __call__(self, epoch):
        if epoch < self.warmup_steps:
            return self.get_warmup_lr(epoch)
        if epoch <= self.max_update:
            self.base_lr = (
                self.final_lr
                + (self.base_lr_orig - self.final_lr)
                * (1 + math.cos(math.pi * (epoch - self.warmup_steps) / self.max_steps))
                / 2
            )
        return self.base_lr


sq = SquareRootScheduler(lr=0.1)
print([round(sq(t), 5) for t in range(5)])
cos = CosineScheduler(max_update=20, base_lr=0.3, final_lr=0.01)
p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=0.3)
ref = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=20, eta_min=0.01)
lrs_scratch, lrs_torch = [], []
for epoch in range(20):
    lrs_scratch.append(cos(epoch))
    lrs_torch.append(opt.param_groups[0]["lr"])
    opt.step()
    ref.step()
print(torch.tensor(lrs_scratch)[::4], torch.tensor(lrs_torch)[::4])
print(max(abs(a - b) for a, b in zip(lrs_scratch, lrs_torch)) < 1e-6)
warm = CosineScheduler(20, warmup_steps=5, base_lr=0.3, final_lr=0.01)
print([round(warm(t), 4) for t in range(0, 20, 3)])
opt = torch.optim.SGD([p], lr=0.5)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[15, 30], gamma=0.5)
for t in range(35):
    opt.step()
    sched.step()
print(sched.get_last_lr(), sched.state_dict()["milestones"])
factor = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: max(0.9**e, 0.02))
print(factor.get_last_lr())
