# Models: semi-supervised learning recipes (FixMatch / Mean Teacher / pseudo-labelling) in
# miniature: a few labelled points and many unlabelled ones on two moons, weak and strong
# "augmentations" (jitter, scaling, feature dropout), confidence-thresholded pseudo-labels
# from the weak view, an EMA teacher updated with torch._foreach_mul_/_foreach_add_, a
# sigmoid ramp-up of the consistency weight, and a supervised-only baseline.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def moons(n, gen):
    t = torch.rand(n, generator=gen) * math.pi
    lab = torch.randint(0, 2, (n,), generator=gen)
    x = torch.stack([torch.cos(t) + lab * 1.0, torch.sin(t) * (1 - 2 * lab) + 0.5 * lab], 1)
    return x + 0.12 * torch.randn(n, 2, generator=gen), lab


gen = torch.Generator().manual_seed(1)
x_unl, y_unl = moons(600, gen)
x_test, y_test = moons(400, gen)
lab_idx = torch.cat([(y_unl == c).nonzero()[:4, 0] for c in range(2)])
x_lab, y_lab = x_unl[lab_idx], y_unl[lab_idx]
print("labelled:", len(x_lab), "unlabelled:", len(x_unl), "labels:", y_lab.tolist())


def weak(x, g):
    return x + 0.05 * torch.randn(x.shape, generator=g)


def strong(x, g):
    scale = 1 + 0.2 * (torch.rand(len(x), 1, generator=g) - 0.5)
    keep = (torch.rand(x.shape, generator=g) > 0.1).float()
    return (x * scale + 0.15 * torch.randn(x.shape, generator=g)) * keep


def make():
    return nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                         nn.Linear(64, 2))


def accuracy(m):
    with torch.no_grad():
        return (m(x_test).argmax(1) == y_test).float().mean().item()


def rampup(epoch, length=20):
    p = min(epoch, length) / length
    return math.exp(-5 * (1 - p) ** 2)


for method in ["supervised", "fixmatch", "mean_teacher"]:
    torch.manual_seed(2)
    student = make()
    teacher = make()
    teacher.load_state_dict(student.state_dict())
    for p in teacher.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(student.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(3)
    mask_rate = 0.0
    for epoch in range(40):
        for idx in torch.randperm(len(x_unl), generator=g).split(150):
            loss = F.cross_entropy(student(weak(x_lab, g)), y_lab)
            xu = x_unl[idx]
            if method == "fixmatch":
                with torch.no_grad():
                    probs = F.softmax(student(weak(xu, g)), 1)
                    conf, pseudo = probs.max(1)
                    mask = (conf >= 0.95).float()
                mask_rate = mask.mean().item()
                ce = F.cross_entropy(student(strong(xu, g)), pseudo, reduction="none")
                unsup = (ce * mask).mean()
                loss = loss + unsup
            elif method == "mean_teacher":
                with torch.no_grad():
                    t_probs = F.softmax(teacher(weak(xu, g)), 1)
                s_probs = F.softmax(student(strong(xu, g)), 1)
                loss = loss + 10 * rampup(epoch) * F.mse_loss(s_probs, t_probs)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                tp, sp = list(teacher.parameters()), list(student.parameters())
                torch._foreach_mul_(tp, 0.99)
                torch._foreach_add_(tp, sp, alpha=0.01)
        if epoch % 10 == 9:
            extra = f" mask {mask_rate:.3f}" if method == "fixmatch" else ""
            print(f"{method:12s} epoch {epoch + 1} loss {loss.item():.4f} "
                  f"test acc {accuracy(student):.4f}{extra}")
    print(f"{method:12s} student {accuracy(student):.4f} EMA teacher {accuracy(teacher):.4f}")
with torch.no_grad():
    print("teacher logits:", teacher(x_test[:3]))
