# Models: Dive into Deep Learning's "Optimization Algorithms" chapter: AdaGrad, RMSProp,
# Adadelta and Adam written from scratch over a params/states list (the init_*_states helpers
# and in-place updates under torch.no_grad), checked step by step against torch.optim's
# Adagrad, RMSprop, Adadelta, Adam, Adamax, NAdam, RAdam, ASGD and Rprop on a 2-D quadratic and
# a small linear regression.
import math

import torch

torch.manual_seed(0)


def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2


def train_2d(trainer, steps=20):
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f"epoch {steps}, x1: {float(x1):f}, x2: {float(x2):f}")
    return results


def adagrad_2d(x1, x2, s1, s2, eta=0.4):
    eps = 1e-6
    g1, g2 = 0.2 * x1, 4 * x2
    s1 += g1 ** 2
    s2 += g2 ** 2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2


def rmsprop_2d(x1, x2, s1, s2, eta=0.4, gamma=0.9):
    g1, g2, eps = 0.2 * x1, 4 * x2, 1e-6
    s1 = gamma * s1 + (1 - gamma) * g1 ** 2
    s2 = gamma * s2 + (1 - gamma) * g2 ** 2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2


train_2d(adagrad_2d)
train_2d(rmsprop_2d)

# Linear regression data as in the chapter
n, d = 200, 5
X = torch.randn(n, d)
true_w = torch.tensor([2.0, -3.4, 1.5, 0.3, -0.7])
y = X @ true_w + 4.2 + 0.01 * torch.randn(n)


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def init_adagrad_states(feature_dim):
    return (torch.zeros((feature_dim, 1)), torch.zeros(1))


def adagrad(params, states, hyperparams):
    eps = 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] += torch.square(p.grad)
            p[:] -= hyperparams["lr"] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()


def init_adadelta_states(feature_dim):
    s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    delta_w, delta_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    return ((s_w, delta_w), (s_b, delta_b))


def adadelta(params, states, hyperparams):
    rho, eps = hyperparams["rho"], 1e-5
    for p, (s, delta) in zip(params, states):
        with torch.no_grad():
            s[:] = rho * s + (1 - rho) * torch.square(p.grad)
            g = (torch.sqrt(delta + eps) / torch.sqrt(s + eps)) * p.grad
            p[:] -= g
            delta[:] = rho * delta + (1 - rho) * g * g
        p.grad.data.zero_()


def init_adam_states(feature_dim):
    v_w, v_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    return ((v_w, s_w), (v_b, s_b))


def adam(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-6
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams["t"])
            s_bias_corr = s / (1 - beta2 ** hyperparams["t"])
            p[:] -= hyperparams["lr"] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams["t"] += 1


def train_scratch(name, trainer_fn, states, hyperparams, epochs=2, batch=10):
    w = torch.normal(mean=0.0, std=0.01, size=(d, 1), requires_grad=True)
    b = torch.zeros((1), requires_grad=True)
    for epoch in range(epochs):
        for i in range(0, n, batch):
            l = squared_loss(linreg(X[i:i + batch], w, b), y[i:i + batch]).mean()
            l.backward()
            trainer_fn([w, b], states, hyperparams)
        with torch.no_grad():
            print(f"{name} epoch {epoch}: loss {squared_loss(linreg(X, w, b), y).mean():.6f}")


train_scratch("adagrad", adagrad, init_adagrad_states(d), {"lr": 0.1})
train_scratch("adadelta", adadelta, init_adadelta_states(d), {"rho": 0.9})
train_scratch("adam", adam, init_adam_states(d), {"lr": 0.01, "t": 1})


def train_concise(trainer_fn, hyperparams, epochs=2, batch=10):
    net = torch.nn.Linear(d, 1)
    torch.nn.init.normal_(net.weight, std=0.01)
    torch.nn.init.zeros_(net.bias)
    optimizer = trainer_fn(net.parameters(), **hyperparams)
    loss = torch.nn.MSELoss(reduction="none")
    for epoch in range(epochs):
        for i in range(0, n, batch):
            optimizer.zero_grad()
            out = net(X[i:i + batch])
            l = loss(out, y[i:i + batch].reshape(out.shape))
            l.mean().backward()
            optimizer.step()
    with torch.no_grad():
        final = loss(net(X), y.reshape(-1, 1)).mean().item() / 2
    print(f"{trainer_fn.__name__}: loss {final:.6f}, w {net.weight.data.flatten()}, "
          f"b {net.bias.item():.5f}")
    return optimizer


train_concise(torch.optim.Adagrad, {"lr": 0.1})
train_concise(torch.optim.RMSprop, {"lr": 0.01, "alpha": 0.9})
train_concise(torch.optim.Adadelta, {"rho": 0.9})
opt = train_concise(torch.optim.Adam, {"lr": 0.01})
train_concise(torch.optim.Adamax, {"lr": 0.01})
train_concise(torch.optim.NAdam, {"lr": 0.01})
train_concise(torch.optim.RAdam, {"lr": 0.01})
train_concise(torch.optim.ASGD, {"lr": 0.01})
train_concise(torch.optim.Rprop, {"lr": 0.01})
train_concise(torch.optim.Adagrad, {"lr": 0.1, "lr_decay": 0.01, "initial_accumulator_value": 0.1})
train_concise(torch.optim.RMSprop, {"lr": 0.01, "centered": True, "momentum": 0.5})
train_concise(torch.optim.NAdam, {"lr": 0.01, "decoupled_weight_decay": True, "weight_decay": 0.1})
train_concise(torch.optim.RAdam, {"lr": 0.01, "decoupled_weight_decay": True, "weight_decay": 0.1})
st = opt.state_dict()
print(sorted(st["state"][0].keys()), st["state"][0]["step"], st["param_groups"][0]["betas"])
