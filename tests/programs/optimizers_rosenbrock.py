# Models: the optimizer-comparison notebooks -- SGD, momentum/Nesterov, Adam, AdamW, RMSprop,
# Adagrad, Adadelta, NAdam, RAdam, Adamax and LBFGS minimising the Rosenbrock function.
import torch


def rosenbrock(xy):
    x, y = xy
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2


def run(name, make, steps=50):
    p = torch.tensor([-1.5, 2.0], requires_grad=True)
    opt = make([p])
    for _ in range(steps):
        opt.zero_grad()
        loss = rosenbrock(p)
        loss.backward()
        opt.step()
    print(f"{name:10s} {p.detach()} {rosenbrock(p).item():.6f}")


run("sgd", lambda ps: torch.optim.SGD(ps, lr=1e-4))
run("momentum", lambda ps: torch.optim.SGD(ps, lr=1e-4, momentum=0.9))
run("nesterov", lambda ps: torch.optim.SGD(ps, lr=1e-4, momentum=0.9, nesterov=True))
run("adam", lambda ps: torch.optim.Adam(ps, lr=0.05))
run("amsgrad", lambda ps: torch.optim.Adam(ps, lr=0.05, amsgrad=True))
run("adamw", lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1))
run("rmsprop", lambda ps: torch.optim.RMSprop(ps, lr=0.01))
run("adagrad", lambda ps: torch.optim.Adagrad(ps, lr=0.5))
run("adadelta", lambda ps: torch.optim.Adadelta(ps, lr=1.0))
run("nadam", lambda ps: torch.optim.NAdam(ps, lr=0.05))
run("radam", lambda ps: torch.optim.RAdam(ps, lr=0.05))
run("adamax", lambda ps: torch.optim.Adamax(ps, lr=0.05))

p = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.LBFGS([p], lr=1, max_iter=20, history_size=10, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = rosenbrock(p)
    loss.backward()
    return loss


for i in range(3):
    loss = opt.step(closure)
    print("lbfgs", i, f"{loss.item():.6f}", p.detach())
sd = opt.state_dict()
print(sorted(sd["state"][0].keys())[:4], sd["param_groups"][0]["max_iter"])
