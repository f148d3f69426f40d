# Models: the modern image-classification recipe code (timm / torchvision references): a
# param-group split that exempts biases and norm weights from weight decay, linear warmup
# chained into cosine decay with SequentialLR(LinearLR, CosineAnnealingLR), CrossEntropyLoss
# with label_smoothing compared to its hand-written form, SGD with Nesterov momentum, and the
# printed learning-rate schedule, losses, calibration (mean confidence vs accuracy) and
# top-k accuracy.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
C = 5


def smoothed_ce(logits, target, eps):
    logp = logits.log_softmax(-1)
    nll = -logp.gather(1, target[:, None]).squeeze(1)
    return ((1 - eps) * nll - eps * logp.mean(-1)).mean()


logits = torch.randn(6, C)
target = torch.randint(0, C, (6,))
for eps in (0.0, 0.1, 0.3):
    a = nn.CrossEntropyLoss(label_smoothing=eps)(logits, target)
    print(f"eps {eps}: builtin {a.item():.6f} manual {smoothed_ce(logits, target, eps).item():.6f}")
w = torch.rand(C)
ws = F.cross_entropy(logits, target, weight=w, label_smoothing=0.2)
print("weighted + smoothing:", f"{ws.item():.6f}")
soft = torch.softmax(torch.randn(6, C), 1)
ss = F.cross_entropy(logits, soft, label_smoothing=0.1)
print("soft targets + smoothing:", f"{ss.item():.6f}")


def data(n, g):
    centers = torch.randn(C, 10, generator=torch.Generator().manual_seed(0)) * 1.5
    y = torch.randint(0, C, (n,), generator=g)
    return centers[y] + torch.randn(n, 10, generator=g), y


model = nn.Sequential(nn.Linear(10, 32), nn.LayerNorm(32), nn.GELU(), nn.Dropout(0.1),
                      nn.Linear(32, C))
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if p.ndim == 1 else decay).append(p)
print("decay params:", len(decay), "no-decay params:", len(no_decay))
opt = torch.optim.SGD([{"params": decay, "weight_decay": 5e-4},
                       {"params": no_decay, "weight_decay": 0.0}],
                      lr=0.2, momentum=0.9, nesterov=True)
EPOCHS, WARM = 12, 3
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=WARM)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=EPOCHS - WARM, eta_min=1e-4)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [warm, cos], milestones=[WARM])
crit = nn.CrossEntropyLoss(label_smoothing=0.1)
g = torch.Generator().manual_seed(2)
xv, yv = data(200, g)
lrs = []
for epoch in range(EPOCHS):
    model.train()
    for _ in range(5):
        x, y = data(64, g)
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    lrs.append(opt.param_groups[0]["lr"])
    sched.step()
    if epoch % 3 == 2:
        model.eval()
        with torch.no_grad():
            probs = model(xv).softmax(1)
        conf, pred = probs.max(1)
        acc = (pred == yv).float().mean().item()
        top2 = (probs.topk(2, 1).indices == yv[:, None]).any(1).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.5f} acc {acc:.4f} top2 {top2:.4f} "
              f"mean conf {conf.mean().item():.4f}")
print("lr schedule:", [round(v, 5) for v in lrs])
print("group lrs equal:", opt.param_groups[0]["lr"] == opt.param_groups[1]["lr"])
print("scheduler state keys:", sorted(sched.state_dict()))
