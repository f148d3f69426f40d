# Models: an optimization course exercise: implementing SGD with momentum, dampening, Nesterov,
# weight decay and maximize by hand, and checking each against torch.optim.SGD step by step on a
# small least-squares problem.
import torch

torch.manual_seed(3)
A = torch.randn(10, 3, dtype=torch.float64)
y = torch.randn(10, dtype=torch.float64)


def loss_fn(w):
    return ((A @ w - y) ** 2).mean()


configs = [dict(lr=0.1), dict(lr=0.1, momentum=0.9), dict(lr=0.05, momentum=0.9, dampening=0.5),
           dict(lr=0.05, momentum=0.8, nesterov=True), dict(lr=0.1, weight_decay=0.1),
           dict(lr=0.1, momentum=0.5, weight_decay=0.01, maximize=True)]
for cfg in configs:
    w_t = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.SGD([w_t], **cfg)
    w = torch.zeros(3, dtype=torch.float64)
    buf = None
    mom, damp = cfg.get("momentum", 0), cfg.get("dampening", 0)
    for step in range(5):
        opt.zero_grad()
        loss_fn(w_t).backward()
        opt.step()
        wr = w.clone().requires_grad_()
        loss_fn(wr).backward()
        g = wr.grad
        if cfg.get("weight_decay"):
            g = g + cfg["weight_decay"] * w
        if mom:
            buf = g.clone() if buf is None else buf * mom + (1 - damp) * g
            g = g + mom * buf if cfg.get("nesterov") else buf
        w = w + cfg["lr"] * g if cfg.get("maximize") else w - cfg["lr"] * g
    print(cfg)
    print("  torch ", w_t.detach())
    print("  hand  ", w)
    print("  max diff", (w_t.detach() - w).abs().max().item() < 1e-12)
print(opt.state[w_t]["momentum_buffer"])
for bad in [dict(lr=-1), dict(lr=0.1, momentum=-0.5), dict(lr=0.1, nesterov=True),
            dict(lr=0.1, weight_decay=-1)]:
    try:
        torch.optim.SGD([w_t], **bad)
    except ValueError as e:
        print("ValueError:", e)
