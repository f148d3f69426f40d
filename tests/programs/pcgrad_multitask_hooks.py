# Models: a multi-task learning notebook with gradient surgery: a shared trunk with two heads,
# per-task gradients via torch.autograd.grad, PCGrad projection of conflicting gradients,
# tensor.register_hook to scale/clip the gradient flowing into the trunk, a gradient-reversal
# hook (DANN style), Module.register_full_backward_hook logging, and hook handles removed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(64, 6)
y_reg = X[:, :3].sum(1, keepdim=True) + 0.1 * torch.randn(64, 1)
y_cls = (X[:, 2] - X[:, 3] > 0).long()


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU())
        self.reg_head = nn.Linear(16, 1)
        self.cls_head = nn.Linear(16, 2)

    def forward(self, x):
        h = self.trunk(x)
        return self.reg_head(h), self.cls_head(h)


def flat(grads):
    return torch.cat([g.reshape(-1) for g in grads])


def pcgrad(g1, g2):
    dot = g1 @ g2
    if dot < 0:
        g1 = g1 - dot / (g2 @ g2) * g2
    return g1


model = MultiTask()
shared = list(model.trunk.parameters())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
conflicts = 0
for step in range(40):
    reg_out, cls_out = model(X)
    l1 = F.mse_loss(reg_out, y_reg)
    l2 = F.cross_entropy(cls_out, y_cls)
    g1 = flat(torch.autograd.grad(l1, shared, retain_graph=True))
    g2 = flat(torch.autograd.grad(l2, shared, retain_graph=True))
    cos = F.cosine_similarity(g1, g2, dim=0)
    conflicts += int(cos < 0)
    p1, p2 = pcgrad(g1, g2), pcgrad(g2, g1)
    opt.zero_grad()
    (l1 + l2).backward()
    merged = p1 + p2
    offset = 0
    for p in shared:
        p.grad.copy_(merged[offset : offset + p.numel()].view_as(p))
        offset += p.numel()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1} mse {l1.item():.4f} ce {l2.item():.4f} cos {cos.item():+.3f}")
print("conflicting steps", conflicts)

# tensor hooks: scale and clip the gradient into the trunk output
h = model.trunk(X)
seen = {}


def log_and_scale(grad):
    seen["norm"] = grad.norm().item()
    return grad * 0.5


handle = h.register_hook(log_and_scale)
h.register_hook(lambda g: g.clamp(-0.01, 0.01))
model.zero_grad()
F.mse_loss(model.reg_head(h), y_reg).backward()
print(f"trunk-output grad norm {seen['norm']:.5f}")
print("trunk[2].bias grad", model.trunk[2].bias.grad[:4])
handle.remove()


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lam):
        ctx.lam = lam
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.lam * grad, None


x = torch.ones(3, requires_grad=True)
GradReverse.apply(x * 2, 0.3).sum().backward()
print("reversed grad", x.grad)
leaf = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
leaf.register_hook(lambda g: g * torch.tensor([1.0, 0.0, 1.0]))
(leaf**2).sum().backward()
print("masked leaf grad", leaf.grad)

log = []


def bwd_hook(module, grad_input, grad_output):
    log.append(
        (
            type(module).__name__,
            [tuple(g.shape) for g in grad_output],
            [None if g is None else round(g.norm().item(), 4) for g in grad_input],
        )
    )


handles = [m.register_full_backward_hook(bwd_hook) for m in (model.reg_head, model.trunk[2])]
model.zero_grad()
F.mse_loss(model(X)[0], y_reg).backward()
for entry in log:
    print(entry)
for hd in handles:
    hd.remove()
model.zero_grad()
F.mse_loss(model(X)[0], y_reg).backward()
print("after remove", len(log))
pre = model.cls_head.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
print("pre-hook zeroes input", model(X[:2])[1], model.cls_head.bias)
pre.remove()
