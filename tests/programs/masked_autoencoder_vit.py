# Models: the masked autoencoder (He et al. 2022, facebookresearch/mae's models_mae.py) on tiny
# images: patchify with reshape/einsum, per-sample random masking by argsorting uniform noise
# (ids_shuffle, ids_restore, torch.gather of the kept tokens), a small Transformer encoder on
# visible patches only, mask tokens appended and unshuffled with gather, fixed 2D sin-cos
# position embeddings, the per-patch normalised pixel loss on masked patches.
import math

import torch
import torch.nn as nn


def sincos_2d(dim, grid):
    ys, xs = torch.meshgrid(torch.arange(grid, dtype=torch.float32),
                            torch.arange(grid, dtype=torch.float32), indexing="ij")
    omega = 1.0 / 10000 ** (torch.arange(dim // 4, dtype=torch.float32) / (dim / 4))
    out = []
    for pos in (ys.flatten(), xs.flatten()):
        ang = torch.einsum("m,d->md", pos, omega)
        out += [torch.sin(ang), torch.cos(ang)]
    return torch.cat(out, 1)


def patchify(imgs, p):
    n, c, h, w = imgs.shape
    x = imgs.reshape(n, c, h // p, p, w // p, p)
    x = torch.einsum("nchpwq->nhwpqc", x)
    return x.reshape(n, (h // p) * (w // p), p * p * c)


def unpatchify(x, p, c=3):
    n, L, _ = x.shape
    g = int(math.isqrt(L))
    x = x.reshape(n, g, g, p, p, c)
    x = torch.einsum("nhwpqc->nchpwq", x)
    return x.reshape(n, c, g * p, g * p)


def random_masking(x, mask_ratio):
    N, L, D = x.shape
    len_keep = int(L * (1 - mask_ratio))
    noise = torch.rand(N, L)
    ids_shuffle = torch.argsort(noise, dim=1)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    ids_keep = ids_shuffle[:, :len_keep]
    x_masked = torch.gather(x, 1, ids_keep.unsqueeze(-1).repeat(1, 1, D))
    mask = torch.ones(N, L)
    mask[:, :len_keep] = 0
    mask = torch.gather(mask, 1, ids_restore)
    return x_masked, mask, ids_restore


class MAE(nn.Module):
    def __init__(self, img=16, p=4, dim=32, dec_dim=24):
        super().__init__()
        self.p = p
        n = (img // p) ** 2
        self.embed = nn.Linear(p * p * 3, dim)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.register_buffer("pos",
                             torch.cat([torch.zeros(1, dim), sincos_2d(dim, img // p)])[None])
        layer = nn.TransformerEncoderLayer(dim, 4, 64, dropout=0.0, batch_first=True,
                                           norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        self.dec_embed = nn.Linear(dim, dec_dim)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, dec_dim))
        self.register_buffer("dec_pos",
                             torch.cat([torch.zeros(1, dec_dim),
                                        sincos_2d(dec_dim, img // p)])[None])
        dlayer = nn.TransformerEncoderLayer(dec_dim, 2, 48, dropout=0.0, batch_first=True,
                                            norm_first=True)
        self.decoder = nn.TransformerEncoder(dlayer, 1, enable_nested_tensor=False)
        self.pred = nn.Linear(dec_dim, p * p * 3)
        torch.nn.init.normal_(self.cls, std=0.02)
        torch.nn.init.normal_(self.mask_token, std=0.02)
        self.n = n

    def forward(self, imgs, mask_ratio=0.75):
        x = self.embed(patchify(imgs, self.p)) + self.pos[:, 1:]
        x, mask, ids_restore = random_masking(x, mask_ratio)
        cls = (self.cls + self.pos[:, :1]).expand(x.shape[0], -1, -1)
        x = self.norm(self.encoder(torch.cat([cls, x], 1)))
        x = self.dec_embed(x)
        masks = self.mask_token.repeat(x.shape[0], ids_restore.shape[1] + 1 - x.shape[1], 1)
        x_ = torch.cat([x[:, 1:], masks], 1)
        x_ = torch.gather(x_, 1, ids_restore.unsqueeze(-1).repeat(1, 1, x.shape[2]))
        x = torch.cat([x[:, :1], x_], 1) + self.dec_pos
        pred = self.pred(self.decoder(x))[:, 1:]
        target = patchify(imgs, self.p)
        mean, var = target.mean(-1, keepdim=True), target.var(-1, keepdim=True)
        target = (target - mean) / (var + 1e-6) ** 0.5
        loss = ((pred - target) ** 2).mean(-1)
        return (loss * mask).sum() / mask.sum(), pred, mask


torch.manual_seed(0)
imgs = torch.rand(24, 3, 16, 16)
imgs[:, :, 4:12, 4:12] += torch.linspace(0, 1, 8)
p = patchify(imgs, 4)
print("patches", tuple(p.shape), "roundtrip", torch.equal(unpatchify(p, 4), imgs))
x_m, mask, ids = random_masking(torch.arange(16.0).view(1, 16, 1).repeat(2, 1, 1), 0.75)
print("kept tokens", x_m.squeeze(-1).tolist(), "mask sum", mask.sum(1).tolist())

model = MAE()
print("params", sum(q.numel() for q in model.parameters()), "buffers",
      [n for n, _ in model.named_buffers()])
opt = torch.optim.AdamW(model.parameters(), lr=1.5e-3, betas=(0.9, 0.95), weight_decay=0.05)
for step in range(25):
    idx = torch.randperm(24)[:8]
    loss, pred, mask = model(imgs[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 24:
        print(f"step {step:2d} masked-patch loss {loss.item():.5f} masked {int(mask.sum())}")
model.eval()
with torch.no_grad():
    loss, pred, mask = model(imgs[:4], mask_ratio=0.5)
    print("eval loss at 50% masking", round(loss.item(), 5), "pred", tuple(pred.shape))
    print("mask of first image", mask[0].view(4, 4).int().tolist())
