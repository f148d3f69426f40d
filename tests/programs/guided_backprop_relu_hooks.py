# Models: saliency methods written with module backward hooks: vanilla gradients, guided
# backpropagation (register_full_backward_hook on every ReLU clamping grad_input to be
# non-negative), SmoothGrad averaging over noisy copies, and gradient x input, on a small
# CNN; hooks are removed afterwards and the plain gradient is checked to be unchanged.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 4, 3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(4, 8, 3, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(8, 3),
)
model.eval()
img = torch.randn(1, 1, 8, 8)


def saliency(x, target):
    x = x.clone().requires_grad_(True)
    out = model(x)
    model.zero_grad()
    out[0, target].backward()
    return x.grad.detach(), out.detach()


target = 2
vanilla, out = saliency(img, target)
print("logits", out)
print("vanilla |grad| sum", vanilla.abs().sum().item())

handles = []


def guided_hook(module, grad_input, grad_output):
    return (grad_input[0].clamp(min=0.0),)


for m in model.modules():
    if isinstance(m, nn.ReLU):
        handles.append(m.register_full_backward_hook(guided_hook))
guided, _ = saliency(img, target)
print("guided min >= 0 after first ReLU path:", guided.min().item(), guided.abs().sum().item())
print(guided[0, 0, :2])
for h in handles:
    h.remove()
again, _ = saliency(img, target)
print("hooks removed, vanilla unchanged:", torch.equal(again, vanilla))

torch.manual_seed(1)
n, sigma = 8, 0.15 * (img.max() - img.min())
total = torch.zeros_like(img)
for _ in range(n):
    g, _ = saliency(img + sigma * torch.randn_like(img), target)
    total += g
smooth = total / n
print("smoothgrad", smooth.abs().mean().item())
gxi = (vanilla * img).sum()
print("grad x input", gxi.item())
norm = smooth.abs() / smooth.abs().max()
print(norm[0, 0].mul(9).round().int())
