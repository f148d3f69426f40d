# Models: parameter-efficient fine-tuning written by hand: Houlsby bottleneck adapters inserted
# after a frozen transformer layer's sublayers and prefix tuning (learned key/value prefixes
# prepended in a hand-written attention), with param groups and requires_grad_(False).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
D, H, T, P = 16, 2, 6, 3


class Adapter(nn.Module):
    def __init__(self, d, bottleneck=4):
        super().__init__()
        self.down = nn.Linear(d, bottleneck)
        self.up = nn.Linear(bottleneck, d)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.relu(self.down(x)))


class PrefixAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)
        self.prefix_k = nn.Parameter(torch.randn(H, P, D // H) * 0.02)
        self.prefix_v = nn.Parameter(torch.randn(H, P, D // H) * 0.02)

    def forward(self, x, key_padding_mask=None):
        B = x.size(0)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(B, T, H, D // H).transpose(1, 2) for t in (q, k, v))
        k = torch.cat([self.prefix_k.expand(B, -1, -1, -1), k], dim=2)
        v = torch.cat([self.prefix_v.expand(B, -1, -1, -1), v], dim=2)
        att = q @ k.transpose(-2, -1) / (D // H) ** 0.5
        if key_padding_mask is not None:
            mask = F.pad(key_padding_mask, (P, 0), value=False)
            att = att.masked_fill(mask[:, None, None, :], float("-inf"))
        att = att.softmax(-1)
        out = (att @ v).transpose(1, 2).reshape(B, T, D)
        return self.proj(out), att


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.attn = PrefixAttention()
        self.mlp = nn.Sequential(nn.Linear(D, 32), nn.GELU(), nn.Linear(32, D))
        self.adapter1, self.adapter2 = Adapter(D), Adapter(D)

    def forward(self, x, mask=None):
        a, att = self.attn(self.ln1(x), mask)
        x = x + self.adapter1(a)
        x = x + self.adapter2(self.mlp(self.ln2(x)))
        return x, att


block = Block()
head = nn.Linear(D, 2)
block.requires_grad_(False)
for n, p in block.named_parameters():
    if "adapter" in n or "prefix" in n:
        p.requires_grad_(True)
print([n for n, p in block.named_parameters() if p.requires_grad])
groups = [
    {"params": [p for n, p in block.named_parameters() if "adapter" in n], "lr": 1e-2},
    {"params": [block.attn.prefix_k, block.attn.prefix_v], "lr": 5e-2},
    {"params": head.parameters()},
]
opt = torch.optim.Adam(groups, lr=1e-3)
print([len(g["params"]) for g in opt.param_groups], [g["lr"] for g in opt.param_groups])

x = torch.randn(8, T, D)
mask = torch.zeros(8, T, dtype=torch.bool)
mask[::2, -2:] = True
y = torch.randint(0, 2, (8,))
for step in range(15):
    h, att = block(x, mask)
    lengths = (~mask).sum(1, keepdim=True)
    pooled = h.masked_fill(mask[..., None], 0).sum(1) / lengths
    loss = F.cross_entropy(head(pooled), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.5f}")
print(att.shape, att[0, 0, 0])
print(att[0, 0, :, -2:].sum())
print(block.mlp[0].weight.grad, block.adapter1.up.weight.abs().sum() > 0)
