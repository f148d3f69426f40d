# Models: image inpainting with partial convolutions (NVIDIA's PartialConv2d as reimplemented in
# public repos): mask-aware convolution renormalised by the window coverage (computed with a
# ones kernel under no_grad), updated masks, random hole masks, an encoder-decoder with
# nearest upsampling and skip concatenation, and hole/valid L1 + total-variation losses.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PartialConv2d(nn.Conv2d):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register_buffer(
            "weight_mask_updater", torch.ones(1, 1, self.kernel_size[0], self.kernel_size[1])
        )
        self.slide_winsize = self.kernel_size[0] * self.kernel_size[1]

    def forward(self, x, mask):
        with torch.no_grad():
            update_mask = F.conv2d(
                mask,
                self.weight_mask_updater,
                stride=self.stride,
                padding=self.padding,
                dilation=self.dilation,
            )
            mask_ratio = self.slide_winsize / (update_mask + 1e-8)
            update_mask = torch.clamp(update_mask, 0, 1)
            mask_ratio = mask_ratio * update_mask
        raw = super().forward(x * mask)
        bias = self.bias.view(1, -1, 1, 1)
        out = ((raw - bias) * mask_ratio + bias) * update_mask
        return out, update_mask


pc = PartialConv2d(1, 2, 3, padding=1)
print(pc, [n for n, _ in pc.named_buffers()])
x = torch.arange(16.0).view(1, 1, 4, 4)
m = torch.ones(1, 1, 4, 4)
m[..., 1:3, 1:3] = 0
out, new_mask = pc(x, m)
print("updated mask:\n", new_mask[0, 0])
print("out:", out[0, 0])
full_out, full_mask = pc(x, torch.ones_like(m))
print(
    "full-mask partial conv = conv at interior:",
    torch.allclose(full_out[..., 1:3, 1:3], pc._conv_forward(x, pc.weight, pc.bias)[..., 1:3, 1:3]),
)


def random_mask(n, h, w, holes=2, size=3):
    mask = torch.ones(n, 1, h, w)
    for i in range(n):
        for _ in range(holes):
            y, x0 = torch.randint(0, h - size, (2,)).tolist()
            mask[i, :, y : y + size, x0 : x0 + size] = 0
    return mask


class UNetPConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1 = PartialConv2d(3, 8, 3, stride=2, padding=1)
        self.enc2 = PartialConv2d(8, 16, 3, stride=2, padding=1)
        self.dec2 = PartialConv2d(16 + 8, 8, 3, padding=1)
        self.dec1 = PartialConv2d(8 + 3, 3, 3, padding=1)

    def forward(self, img, mask):
        h1, m1 = self.enc1(img, mask)
        h1 = F.relu(h1)
        h2, m2 = self.enc2(h1, m1)
        h2 = F.relu(h2)
        u2 = F.interpolate(h2, scale_factor=2, mode="nearest")
        um2 = F.interpolate(m2, scale_factor=2, mode="nearest")
        d2, dm2 = self.dec2(torch.cat([u2, h1], 1), torch.max(um2, m1))
        d2 = F.leaky_relu(d2, 0.2)
        u1 = F.interpolate(d2, scale_factor=2, mode="nearest")
        um1 = F.interpolate(dm2, scale_factor=2, mode="nearest")
        d1, dm1 = self.dec1(torch.cat([u1, img], 1), torch.max(um1, mask))
        return torch.sigmoid(d1), dm1


def tv_loss(x):
    return (x[..., 1:, :] - x[..., :-1, :]).abs().mean() + (x[..., 1:] - x[..., :-1]).abs().mean()


yy, xx = torch.meshgrid(torch.linspace(0, 1, 16), torch.linspace(0, 1, 16), indexing="ij")
images = torch.stack([torch.stack([xx * k, yy, (xx + yy) / 2]) for k in (0.3, 0.6, 0.9, 1.0)])
print("images:", tuple(images.shape))

model = UNetPConv()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
# (20 Adam steps: Ember's strided input gradients are within an ulp of oneDNN's, and Adam
# amplifies round-off step by step)
for step in range(20):
    mask = random_mask(4, 16, 16)
    out, _ = model(images * mask, mask)
    comp = mask * images + (1 - mask) * out
    hole = F.l1_loss((1 - mask) * out, (1 - mask) * images)
    valid = F.l1_loss(mask * out, mask * images)
    loss = 6 * hole + valid + 0.1 * tv_loss(comp)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 19:
        print(
            f"step {step:2d} loss {loss.item():.4f} hole {hole.item():.4f} valid {valid.item():.4f}"
        )
with torch.no_grad():
    mask = random_mask(1, 16, 16, holes=1, size=4)
    out, final_mask = model(images[:1] * mask, mask)
    print(
        "holes left in final mask:",
        (final_mask == 0).sum().item(),
        "masked pixels:",
        (mask == 0).sum().item(),
    )
    err = ((out - images[:1]).abs() * (1 - mask)).sum() / (3 * (1 - mask).sum())
    print("mean abs error in the hole:", err)
