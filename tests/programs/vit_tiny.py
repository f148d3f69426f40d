# Models: a "vision transformer from scratch" tutorial (patch embedding with unfold and a
# conv, class token, learned positional embedding, nn.MultiheadAttention blocks with
# pre-LayerNorm and GELU MLP, AdamW with a cosine schedule and warmup via LambdaLR).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)
imgs = torch.randn(48, 1, 16, 16)
labels = (imgs.mean(dim=(1, 2, 3)) > 0).long() + (imgs[:, :, :8].mean(dim=(1, 2, 3)) > 0).long()
patches = F.unfold(imgs, kernel_size=4, stride=4)
print("unfold:", tuple(patches.shape), patches[0, :3, :2])


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True, dropout=0.1)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Dropout(0.1),
                                 nn.Linear(dim * 2, dim))

    def forward(self, x):
        h = self.ln1(x)
        a, w = self.attn(h, h, h, need_weights=True)
        x = x + a
        return x + self.mlp(self.ln2(x)), w


class ViT(nn.Module):
    def __init__(self, dim=32, depth=2, heads=4, classes=3):
        super().__init__()
        self.patch = nn.Conv2d(1, dim, kernel_size=4, stride=4)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos = nn.Parameter(torch.randn(1, 17, dim) * 0.02)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)
        nn.init.trunc_normal_(self.cls, std=0.02)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.size(0), -1, -1), x], dim=1) + self.pos
        weights = []
        for blk in self.blocks:
            x, w = blk(x)
            weights.append(w)
        return self.head(self.norm(x[:, 0])), weights


model = ViT()
print(sum(p.numel() for p in model.parameters()), "parameters")
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.05)
total, warm = 30, 5


def warmup_cosine(s):
    if s < warm:
        return (s + 1) / warm
    return 0.5 * (1 + math.cos(math.pi * (s - warm) / (total - warm)))


sched = torch.optim.lr_scheduler.LambdaLR(opt, warmup_cosine)
for step in range(total):
    model.train()
    idx = torch.randperm(48)[:16]
    logits, _ = model(imgs[idx])
    loss = F.cross_entropy(logits, labels[idx], label_smoothing=0.1)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    if step % 5 == 0:
        print(f"step {step:2d} lr {sched.get_last_lr()[0]:.5f} loss {loss.item():.4f} "
              f"gnorm {gn.item():.4f}")
model.eval()
with torch.inference_mode():
    logits, weights = model(imgs)
print("acc", (logits.argmax(-1) == labels).float().mean().item())
print("attn", weights[-1].shape, weights[-1][0, 0, :5])
