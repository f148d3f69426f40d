# Models: the "Decoupled Weight Decay" blog post in code: Adam with L2 weight_decay versus AdamW,
# both written by hand (bias-corrected moments, amsgrad's max) and compared with torch.optim
# step by step, including the lr schedule interaction.
import math

import torch

torch.manual_seed(4)
X = torch.randn(16, 4, dtype=torch.float64)
Y = torch.randn(16, dtype=torch.float64)


def grad_at(w):
    w = w.clone().requires_grad_()
    ((X @ w - Y) ** 2).mean().backward()
    return w.grad


def by_hand(decoupled, amsgrad, lr=0.05, b1=0.9, b2=0.999, eps=1e-8, wd=0.1, steps=6):
    w = torch.ones(4, dtype=torch.float64)
    m = torch.zeros(4, dtype=torch.float64)
    v = torch.zeros(4, dtype=torch.float64)
    vmax = torch.zeros(4, dtype=torch.float64)
    for t in range(1, steps + 1):
        g = grad_at(w)
        if decoupled:
            w = w * (1 - lr * wd)
        else:
            g = g + wd * w
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t
        if amsgrad:
            vmax = torch.maximum(vmax, v)
            denom = (vmax.sqrt() / math.sqrt(bc2)) + eps
        else:
            denom = (v.sqrt() / math.sqrt(bc2)) + eps
        w = w - (lr / bc1) * m / denom
    return w


def with_torch(cls, amsgrad, steps=6):
    w = torch.ones(4, dtype=torch.float64, requires_grad=True)
    opt = cls([w], lr=0.05, weight_decay=0.1, amsgrad=amsgrad)
    for _ in range(steps):
        opt.zero_grad()
        ((X @ w - Y) ** 2).mean().backward()
        opt.step()
    return w.detach(), opt


for amsgrad in (False, True):
    wa, _ = with_torch(torch.optim.Adam, amsgrad)
    ww, opt = with_torch(torch.optim.AdamW, amsgrad)
    ha, hw = by_hand(False, amsgrad), by_hand(True, amsgrad)
    print("amsgrad", amsgrad)
    print("  Adam ", wa, (wa - ha).abs().max().item() < 1e-12)
    print("  AdamW", ww, (ww - hw).abs().max().item() < 1e-12)
print("AdamW defaults", opt.defaults["weight_decay"],
      torch.optim.AdamW([torch.zeros(1)]).defaults["weight_decay"])
print("state", sorted(opt.state[next(iter(opt.state))]))
print(opt)
