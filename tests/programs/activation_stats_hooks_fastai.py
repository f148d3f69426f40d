# Models: fastai-style "ActivationStats" / "Hooks" callbacks in plain PyTorch: a Hook class
# storing per-layer activation means/stds and the fraction of near-zero activations via
# register_forward_hook, a context manager removing hooks, kaiming_normal_ vs default init
# comparison, a colorful-dimension style histogram with torch.histc, and a GeneralRelu
# (leaky, subtract, max value) module.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GeneralRelu(nn.Module):
    def __init__(self, leak=None, sub=None, maxv=None):
        super().__init__()
        self.leak, self.sub, self.maxv = leak, sub, maxv

    def forward(self, x):
        x = F.leaky_relu(x, self.leak) if self.leak is not None else F.relu(x)
        if self.sub is not None:
            x = x - self.sub
        if self.maxv is not None:
            x = x.clamp_max_(self.maxv)
        return x


class Hook:
    def __init__(self, m, f):
        self.hook = m.register_forward_hook(lambda *args: f(self, *args))

    def remove(self):
        self.hook.remove()

    def __del__(self):
        self.remove()


def append_stats(hook, mod, inp, outp):
    if not hasattr(hook, "stats"):
        hook.stats = ([], [], [])
    acts = outp.detach()
    hook.stats[0].append(acts.mean().item())
    hook.stats[1].append(acts.std().item())
    hook.stats[2].append(acts.histc(40, -2, 8))


class Hooks(list):
    def __init__(self, ms, f):
        super().__init__([Hook(m, f) for m in ms])

    def __enter__(self, *args):
        return self

    def __exit__(self, *args):
        for h in self:
            h.remove()


def get_model(act, init):
    layers = []
    sizes = [16, 32, 32, 32, 10]
    for i in range(len(sizes) - 1):
        lin = nn.Linear(sizes[i], sizes[i + 1])
        if init:
            nn.init.kaiming_normal_(lin.weight, a=0.1 if act.leak else 0.0)
            nn.init.zeros_(lin.bias)
        layers += [lin, act] if i < len(sizes) - 2 else [lin]
    return nn.Sequential(*layers)


X = torch.randn(256, 16)
y = torch.randint(0, 10, (256,))
for init in (False, True):
    torch.manual_seed(1)
    act = GeneralRelu(leak=0.1, sub=0.4, maxv=6.0)
    model = get_model(act, init)
    opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
    linears = [m for m in model if isinstance(m, nn.Linear)]
    with Hooks(linears, append_stats) as hooks:
        for step in range(10):
            xb, yb = X[step * 16 : (step + 1) * 16], y[step * 16 : (step + 1) * 16]
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"init={init} final loss {loss.item():.4f}")
        for i, h in enumerate(hooks):
            means, stds, hists = h.stats
            print(
                f"  layer {i} mean {means[0]:.4f}->{means[-1]:.4f} std "
                f"{stds[0]:.4f}->{stds[-1]:.4f}"
            )
        h = torch.stack(hooks[0].stats[2])
        print("  near-zero fraction", (h[:, 9:11].sum(1) / h.sum(1)).tolist()[:3])
    print("  hooks removed:", all(len(m._forward_hooks) == 0 for m in linears))
print(GeneralRelu(0.1, 0.4, 6.0)(torch.tensor([-10.0, 0.0, 3.0, 10.0])))
