# Models: the explainability notebooks for CNNs (Grad-CAM, vanilla saliency, SmoothGrad and
# Integrated Gradients written by hand as in the Captum-free tutorials): forward and full
# backward hooks capture a conv layer's activations and gradients, CAMs are weighted channel
# sums upsampled with bilinear interpolation, and the completeness check of IG.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=3)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(4, 6, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(6, 3)

    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))


model = SmallCNN().double()
x = torch.zeros(1, 1, 8, 8, dtype=torch.float64)
x[0, 0, 1:4, 1:4] = 1.0
x[0, 0, 5:7, 4:8] = 0.5
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(10):     # make class 1 fire on the square
    loss = F.cross_entropy(model(x), torch.tensor([1]))
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()
print("logits", model(x).detach())

store = {}
layer = model.features[3]
h1 = layer.register_forward_hook(lambda m, i, o: store.__setitem__("act", o))
h2 = layer.register_full_backward_hook(lambda m, gi, go: store.__setitem__("grad", go[0]))
out = model(x)
cls = out.argmax(1).item()
model.zero_grad()
out[0, cls].backward()
print("captured", tuple(store["act"].shape), tuple(store["grad"].shape), "class", cls)
weights = store["grad"].mean(dim=(2, 3), keepdim=True)
cam = F.relu((weights * store["act"]).sum(1, keepdim=True))
cam = F.interpolate(cam, size=(8, 8), mode="bilinear", align_corners=False)
cam = (cam - cam.min()) / (cam.max() - cam.min() + 1e-12)
print("grad-cam\n", cam[0, 0].detach())
h1.remove()
h2.remove()
print("hooks left", len(layer._forward_hooks), len(layer._backward_hooks))

xi = x.clone().requires_grad_(True)
model(xi)[0, cls].backward()
saliency = xi.grad.abs()[0, 0]
print("saliency argmax", divmod(saliency.argmax().item(), 8), "max", saliency.max().item())

grads = []
for _ in range(8):
    noisy = (x + 0.1 * torch.randn_like(x)).requires_grad_(True)
    g, = torch.autograd.grad(model(noisy)[0, cls], noisy)
    grads.append(g)
smooth = torch.stack(grads).mean(0)[0, 0]
print("smoothgrad top-5 pixels", smooth.abs().flatten().topk(5).indices.tolist())

baseline = torch.zeros_like(x)
alphas = torch.linspace(0, 1, 33, dtype=torch.float64)
path = baseline + alphas.view(-1, 1, 1, 1) * (x - baseline)
path.requires_grad_(True)
scores = model(path)[:, cls]
g, = torch.autograd.grad(scores.sum(), path)
avg = torch.trapezoid(g, alphas, dim=0)
ig = (x - baseline)[0] * avg
total = ig.sum().item()
delta = (model(x)[0, cls] - model(baseline)[0, cls]).item()
print(f"IG sum {total:.6f} score difference {delta:.6f} gap {abs(total - delta):.2e}")
square = ig[0, 1:4, 1:4].sum().item()
print("IG on the square", square, "elsewhere", ig.sum().item() - square)
