# Models: a PixelCNN tutorial (van den Oord et al. 2016, as in public "PixelCNN in PyTorch"
# notebooks): a MaskedConv2d subclass whose weight is multiplied by a registered type-A/B mask
# buffer, gated residual blocks, a 4-level categorical output per pixel trained with
# cross_entropy on quantised synthetic images, and pixel-by-pixel ancestral sampling.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LEVELS = 4


class MaskedConv2d(nn.Conv2d):
    def __init__(self, mask_type, *args, **kwargs):
        super().__init__(*args, **kwargs)
        assert mask_type in ("A", "B")
        self.register_buffer("mask", self.weight.data.clone())
        _, _, kh, kw = self.weight.size()
        self.mask.fill_(1)
        self.mask[:, :, kh // 2, kw // 2 + (mask_type == "B"):] = 0
        self.mask[:, :, kh // 2 + 1:] = 0

    def forward(self, x):
        self.weight.data *= self.mask
        return super().forward(x)


class GatedBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = MaskedConv2d("B", ch, 2 * ch, 3, padding=1, bias=False)
        self.out = nn.Conv2d(ch, ch, 1)

    def forward(self, x):
        a, b = self.conv(x).chunk(2, dim=1)
        return x + self.out(torch.tanh(a) * torch.sigmoid(b))


class PixelCNN(nn.Module):
    def __init__(self, ch=8, blocks=2):
        super().__init__()
        self.inp = MaskedConv2d("A", 1, ch, 5, padding=2, bias=False)
        self.blocks = nn.Sequential(*[GatedBlock(ch) for _ in range(blocks)])
        self.head = nn.Sequential(nn.ReLU(), nn.Conv2d(ch, LEVELS, 1))

    def forward(self, x):
        return self.head(self.blocks(self.inp(x)))


m = MaskedConv2d("A", 1, 1, 3)
print(m.mask[0, 0])
print(MaskedConv2d("B", 1, 1, 5).mask[0, 0].int())
print(sorted(n for n, _ in PixelCNN().named_buffers()))


def make_images(n, size=6):
    ramp = torch.linspace(0, 1, size)
    img = ramp.view(1, 1, 1, size) * torch.rand(n, 1, 1, 1) + ramp.view(1, 1, size, 1) * 0.5
    img = img + 0.1 * torch.randn(n, 1, size, size)
    return (img.clamp(0, 0.999) * LEVELS).long()


data = make_images(32)
print("level histogram", torch.bincount(data.flatten(), minlength=LEVELS).tolist())
model = PixelCNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(30):
    x = data.float() / (LEVELS - 1)
    logits = model(x)
    loss = F.cross_entropy(logits, data.squeeze(1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 6 == 0:
        bpd = loss.item() / torch.log(torch.tensor(2.0)).item()
        print(f"step {step:2d} nll {loss.item():.5f} bits/dim {bpd:.4f}")

# the receptive field really is causal: the output at (2, 2) ignores later pixels
x = torch.zeros(1, 1, 6, 6, requires_grad=True)
out = model(x)[0, :, 2, 2].sum()
(g,) = torch.autograd.grad(out, x)
print((g[0, 0] != 0).int())

with torch.no_grad():
    sample = torch.zeros(2, 1, 6, 6)
    for i in range(6):
        for j in range(6):
            probs = F.softmax(model(sample / (LEVELS - 1))[:, :, i, j], dim=1)
            sample[:, 0, i, j] = torch.multinomial(probs, 1).squeeze(1).float()
print(sample.long().squeeze(1))
print("mean level", sample.mean().item())
