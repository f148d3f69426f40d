# Models: the torch.func "randomness" section applied to a dropout model: vmap over a batch of
# inputs with randomness="error" (the refusal, caught, and training resumed with the same RNG
# stream), randomness="same" (one dropout mask shared by every element, compared with
# applying that mask by hand), functional_call with dropout in eval mode, and per-example
# gradients of a dropout-free head.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 2))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(5, 4)


def f(p, xi):
    return functional_call(model, p, (xi.unsqueeze(0),)).squeeze(0)


try:
    vmap(f, in_dims=(None, 0))(params, x)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
print("stream continues at", torch.rand(2))

torch.manual_seed(1)
same = vmap(f, in_dims=(None, 0), randomness="same")(params, x)
torch.manual_seed(1)
h = F.relu(x @ params["0.weight"].T + params["0.bias"])
mask = F.dropout(torch.ones(1, 8), 0.5, training=True)
by_hand = (h * mask) @ params["3.weight"].T + params["3.bias"]
print(same)
print("same mask as by hand:", torch.allclose(same, by_hand, atol=1e-6))

model.eval()
ev = vmap(f, in_dims=(None, 0))(params, x)
print("eval mode needs no randomness flag:", torch.allclose(ev, model(x), atol=1e-6))
model.train()

head = nn.Linear(4, 2)
hp = {k: v.detach() for k, v in head.named_parameters()}
y = torch.tensor([0, 1, 1, 0, 1])


def loss(p, xi, yi):
    return F.cross_entropy(functional_call(head, p, (xi.unsqueeze(0),)), yi.unsqueeze(0))


g = vmap(grad(loss), in_dims=(None, 0, 0))(hp, x, y)
print({k: tuple(v.shape) for k, v in g.items()})
print(g["bias"])
print(
    "mean equals batch grad:",
    torch.allclose(
        g["weight"].mean(0),
        torch.func.grad(lambda p: F.cross_entropy(functional_call(head, p, (x,)), y))(hp)["weight"],
        atol=1e-6,
    ),
)
for mode in ("error", "same"):
    torch.manual_seed(2)
    out = vmap(lambda xi: xi * 2, randomness=mode)(x[:2])
    print(mode, out.sum().item(), torch.rand(1))
