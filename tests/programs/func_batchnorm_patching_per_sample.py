# Models: the torch.func "Patching Batch Norm" notes on per-sample gradients for a small CNN
# with BatchNorm: option 1, rebuild the model with track_running_stats=False; option 2,
# torch.func.replace_all_batch_norm_modules_ on the existing model; option 3, eval mode
# (running statistics used, nothing written). Each computes vmap(grad(...)) over examples,
# each example a mini-batch of augmented copies, and the results are compared.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, replace_all_batch_norm_modules_, vmap

torch.manual_seed(0)


def make(track=True):
    torch.manual_seed(1)
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1, bias=False),
        nn.BatchNorm2d(4, track_running_stats=track),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(4, 3),
    )


x = torch.randn(5, 1, 6, 6)
y = torch.randint(0, 3, (5,))


def per_sample(model):
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v for k, v in model.named_buffers()}

    def loss(p, xi, yi):
        views = torch.stack([xi, xi.flip(-1), xi.flip(-2)])
        out = functional_call(model, (p, buffers), (views,))
        return F.cross_entropy(out, yi.expand(3))

    return vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)


g1 = per_sample(make(track=False))
print("option 1 keys", sorted(g1), tuple(g1["0.weight"].shape))
print(g1["5.bias"])

model = make()
print("before:", model[1])
replace_all_batch_norm_modules_(model)
print("after: ", model[1], model[1].running_mean, model[1].running_var)
print("state_dict", sorted(model.state_dict()))
g2 = per_sample(model)
print("option 2 equals option 1:", all(torch.allclose(g1[k], g2[k], atol=1e-6) for k in g1))

model3 = make()
with torch.no_grad():
    model3(torch.randn(32, 1, 6, 6))
print("running mean", model3[1].running_mean)
model3.eval()
g3 = per_sample(model3)
print(
    "option 3 (eval) grads",
    g3["5.bias"][0],
    "running mean unchanged:",
    model3[1].num_batches_tracked.item(),
)
loop = []
for i in range(5):
    model3.zero_grad()
    views = torch.stack([x[i], x[i].flip(-1), x[i].flip(-2)])
    F.cross_entropy(model3(views), y[i].expand(3)).backward()
    loop.append(model3[5].bias.grad.clone())
print("eval vmap equals loop:", torch.allclose(torch.stack(loop), g3["5.bias"], atol=1e-6))
