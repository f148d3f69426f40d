# Models: the forward/backward hooks tutorial and feature-extraction snippets: forward hooks
# that store activations, forward pre-hooks that edit inputs, tensor.register_hook on
# gradients, and removing hooks with their handles.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
activations = {}


def save_activation(name):
    def hook(module, inp, out):
        activations[name] = out.detach()
    return hook


handles = [model[i].register_forward_hook(save_activation(f"layer{i}")) for i in range(3)]


def double_input(module, args):
    return (args[0] * 2,)


pre = model[0].register_forward_pre_hook(double_input)
x = torch.randn(3, 4, requires_grad=True)
out = model(x)
for k, v in activations.items():
    print(k, v.shape, f"{v.sum().item():.5f}")
pre.remove()
out2 = model(x)
print(torch.allclose(out, out2), activations["layer2"])

grads = []
h = model(x)
h.register_hook(lambda g: grads.append(g.clone()))
x.register_hook(lambda g: g * 10)
h.pow(2).sum().backward()
print(grads[0])
print(x.grad)
for hd in handles:
    hd.remove()
activations.clear()
model(x)
print(activations)


def scale_output(module, inp, out):
    return out * 0


hd = model[2].register_forward_hook(scale_output)
print(model(x))
hd.remove()
print(model(x).abs().sum() > 0)
