# Models: optimizer wrappers written as torch.optim.Optimizer subclasses, as in the public
# SAM (Foret et al. 2021) and Lookahead (Zhang et al. 2019) repositories: SAM perturbs the
# weights to the worst case in an L2 ball (closure re-evaluates the loss), Lookahead keeps
# slow weights and interpolates every k steps; gradient-norm utilities (get_total_norm,
# clip_grads_with_norm_), state_dict round trips and param-group printing.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    @torch.no_grad()
    def first_step(self):
        grad_norm = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                e_w = p.grad * scale.to(p)
                p.add_(e_w)
                self.state[p]["e_w"] = e_w

    @torch.no_grad()
    def second_step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.sub_(self.state[p]["e_w"])
        self.base_optimizer.step()

    @torch.no_grad()
    def step(self, closure=None):
        assert closure is not None, "SAM requires closure"
        closure = torch.enable_grad()(closure)
        self.first_step()
        self.zero_grad()
        closure()
        self.second_step()

    def _grad_norm(self):
        return torch.norm(torch.stack([p.grad.norm(p=2) for group in self.param_groups
                                       for p in group["params"] if p.grad is not None]), p=2)


class Lookahead(torch.optim.Optimizer):
    def __init__(self, optimizer, k=5, alpha=0.5):
        self.optimizer = optimizer
        self.k, self.alpha = k, alpha
        self.param_groups = optimizer.param_groups
        self.state = {}
        self.counter = 0
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p] = {"slow": p.detach().clone()}

    def zero_grad(self, set_to_none=True):
        self.optimizer.zero_grad(set_to_none)

    def step(self, closure=None):
        loss = self.optimizer.step(closure)
        self.counter += 1
        if self.counter % self.k == 0:
            with torch.no_grad():
                for group in self.param_groups:
                    for p in group["params"]:
                        slow = self.state[p]["slow"]
                        slow.add_(p - slow, alpha=self.alpha)
                        p.copy_(slow)
        return loss


torch.manual_seed(0)
X = torch.randn(96, 6)
w_true = torch.randn(6, 3)
y = (X @ w_true + 0.3 * torch.randn(96, 3)).argmax(1)


def make_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 3))


model = make_model()
sam = SAM(model.parameters(), torch.optim.SGD, rho=0.1, lr=0.2, momentum=0.9)
print(sam.base_optimizer)
print("groups", len(sam.param_groups), sorted(sam.param_groups[0].keys()))
for step in range(30):
    def closure():
        loss = F.cross_entropy(model(X), y)
        loss.backward()
        return loss

    loss = F.cross_entropy(model(X), y)
    sam.zero_grad()
    loss.backward()
    gn = sam._grad_norm()
    sam.step(closure)
    if step % 6 == 0 or step == 29:
        print(f"SAM step {step:2d} loss {loss.item():.6f} grad norm {gn.item():.6f}")
e_norms = [sam.state[p]["e_w"].norm().item() for p in model.parameters()]
print("perturbation norms", [round(v, 6) for v in e_norms])
print("perturbation total", round(sum(v ** 2 for v in e_norms) ** 0.5, 6))

model2 = make_model()
inner = torch.optim.Adam(model2.parameters(), lr=0.05)
look = Lookahead(inner, k=4, alpha=0.5)
for step in range(24):
    look.zero_grad()
    loss = F.cross_entropy(model2(X), y)
    loss.backward()
    params = [p for p in model2.parameters()]
    total = torch.nn.utils.get_total_norm([p.grad for p in params])
    torch.nn.utils.clip_grads_with_norm_(params, max_norm=1.0, total_norm=total)
    look.step()
    if step % 4 == 3:
        drift = sum((p - look.state[p]["slow"]).abs().sum() for p in params)
        print(f"Lookahead step {step:2d} loss {loss.item():.6f} |g| {total.item():.5f} "
              f"fast-slow {drift.item():.6f}")
with torch.no_grad():
    acc1 = (model(X).argmax(1) == y).float().mean()
    acc2 = (model2(X).argmax(1) == y).float().mean()
print("accuracy SAM", acc1.item(), "Lookahead", acc2.item())

sd = inner.state_dict()
print("adam state keys", sorted(sd["state"][0].keys()), "step", sd["state"][0]["step"])
clone = torch.optim.Adam(copy.deepcopy(model2).parameters(), lr=0.05)
clone.load_state_dict(sd)
print("loaded lr", clone.param_groups[0]["lr"], "exp_avg equal",
      torch.equal(clone.state_dict()["state"][1]["exp_avg"], sd["state"][1]["exp_avg"]))
norms = torch.nn.utils.get_total_norm([p.grad for p in params], norm_type=float("inf"))
print("inf grad norm", norms)
