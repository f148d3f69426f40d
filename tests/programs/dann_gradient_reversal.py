# Models: domain-adversarial training (Ganin & Lempitsky 2015, DANN) as in public repos: a
# GradientReversal autograd.Function with ctx.alpha, a feature extractor shared by a label
# classifier and a domain classifier, the lambda schedule 2/(1+exp(-10 p)) - 1, source and
# shifted target domains, and checks that the reversed gradient is exactly -alpha times.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GradientReversalFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.alpha, None


class GradientReversal(nn.Module):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return GradientReversalFn.apply(x, self.alpha)

    def extra_repr(self):
        return f"alpha={self.alpha}"


x = torch.randn(3, requires_grad=True)
y = GradientReversalFn.apply(x, 0.5)
print(y.grad_fn.__class__.__name__, torch.equal(y, x))
y.sum().backward()
print("reversed grad", x.grad)


def domain(n, shift, rot):
    y = torch.randint(0, 2, (n,))
    base = torch.randn(n, 2) * 0.6 + torch.stack([y * 2.0 - 1, torch.zeros(n)], 1)
    c, s = math.cos(rot), math.sin(rot)
    R = torch.tensor([[c, -s], [s, c]])
    return base @ R.T + shift, y


xs, ys = domain(200, torch.tensor([0.0, 0.0]), 0.0)
xt, yt = domain(200, torch.tensor([0.5, 1.0]), 0.6)

features = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU())
label_clf = nn.Linear(16, 2)
grl = GradientReversal()
domain_clf = nn.Sequential(grl, nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
print(domain_clf)
params = [*features.parameters(), *label_clf.parameters(), *domain_clf.parameters()]
opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
epochs = 40
for epoch in range(epochs):
    p = epoch / epochs
    grl.alpha = 2.0 / (1.0 + math.exp(-10 * p)) - 1
    fs, ft = features(xs), features(xt)
    cls_loss = F.cross_entropy(label_clf(fs), ys)
    dom_logits = domain_clf(torch.cat([fs, ft])).squeeze(1)
    dom_labels = torch.cat([torch.zeros(len(xs)), torch.ones(len(xt))])
    dom_loss = F.binary_cross_entropy_with_logits(dom_logits, dom_labels)
    loss = cls_loss + dom_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 8 == 0:
        with torch.no_grad():
            src_acc = (label_clf(features(xs)).argmax(1) == ys).float().mean()
            tgt_acc = (label_clf(features(xt)).argmax(1) == yt).float().mean()
            dom_acc = ((dom_logits > 0).float() == dom_labels).float().mean()
        print(f"epoch {epoch:2d} alpha {grl.alpha:.4f} cls {cls_loss.item():.5f} "
              f"dom {dom_loss.item():.5f} "
              f"src {src_acc.item():.3f} tgt {tgt_acc.item():.3f} dom-acc {dom_acc.item():.3f}")
print("final feature means", features(xs).mean(0)[:4].detach(), features(xt).mean(0)[:4].detach())
