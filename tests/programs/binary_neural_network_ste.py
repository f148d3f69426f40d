# Models: binarized neural networks (Courbariaux et al. 2016; XNOR-Net, Rastegari et al.
# 2016) as in the public PyTorch re-implementations: a sign() forward with a straight-through
# estimator written as a custom autograd.Function (gradient cancelled where |x| > 1), binary
# weights scaled by their mean absolute value per output channel, real-valued latent
# weights clipped to [-1, 1] after each step, Hardtanh activations and BatchNorm, and the
# fraction of sign flips per epoch.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SignSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.where(x >= 0, torch.ones_like(x), -torch.ones_like(x))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * (x.abs() <= 1).to(grad.dtype)


class BinaryLinear(nn.Linear):
    def forward(self, x):
        alpha = self.weight.abs().mean(1, keepdim=True).detach()
        wb = SignSTE.apply(self.weight) * alpha
        return F.linear(x, wb, self.bias)


class BinaryConv2d(nn.Conv2d):
    def forward(self, x):
        alpha = self.weight.abs().mean((1, 2, 3), keepdim=True).detach()
        xb = SignSTE.apply(x)
        return self._conv_forward(xb, SignSTE.apply(self.weight) * alpha, self.bias)


torch.manual_seed(0)
N = 128
labels = torch.randint(0, 2, (N,))
images = torch.randn(N, 1, 8, 8) * 0.7
images[labels == 1, :, 2:6, 2:6] += 1.0
images[labels == 0, :, :, :3] -= 1.0

model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.Hardtanh(),
    BinaryConv2d(8, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.Hardtanh(),
    nn.MaxPool2d(2), nn.Flatten(),
    BinaryLinear(8 * 4 * 4, 16, bias=False), nn.BatchNorm1d(16), nn.Hardtanh(),
    nn.Linear(16, 2))
binary = [m for m in model if isinstance(m, (BinaryLinear, BinaryConv2d))]
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
prev = [torch.sign(m.weight.detach()).clone() for m in binary]
for epoch in range(8):
    model.train()
    perm = torch.randperm(N)
    for i in range(0, N, 32):
        idx = perm[i:i + 32]
        loss = F.cross_entropy(model(images[idx]), labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for m in binary:
                m.weight.clamp_(-1, 1)
    flips = [(torch.sign(m.weight.detach()) != p).float().mean().item()
             for m, p in zip(binary, prev)]
    prev = [torch.sign(m.weight.detach()).clone() for m in binary]
    model.eval()
    with torch.no_grad():
        acc = (model(images).argmax(1) == labels).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.5f} acc {acc:.4f} flips "
          f"{[round(f, 4) for f in flips]}")

x = torch.tensor([-2.0, -0.5, 0.0, 0.3, 1.5], requires_grad=True)
y = SignSTE.apply(x)
y.backward(torch.ones(5))
print("sign", y.tolist(), "ste grad", x.grad.tolist())
w = binary[1].weight
print("latent weight range", w.min().item(), w.max().item(), "saturated",
      (w.abs() == 1).sum().item())
print("binary conv alpha", binary[0].weight.abs().mean((1, 2, 3))[:4])
