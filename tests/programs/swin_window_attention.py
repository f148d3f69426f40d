# Models: the Swin Transformer's (Liu et al. 2021, microsoft/Swin-Transformer) window
# attention: window_partition / window_reverse with view/permute, a relative position bias
# table indexed by a precomputed relative_position_index buffer, the shifted-window variant
# with torch.roll and the attention mask built from region ids, patch merging, trained as a
# tiny classifier.
import torch
import torch.nn as nn
import torch.nn.functional as F


def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)


def window_reverse(windows, ws, H, W):
    B = int(windows.shape[0] / (H * W / ws / ws))
    x = windows.view(B, H // ws, W // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)


class WindowAttention(nn.Module):
    def __init__(self, dim, ws, heads):
        super().__init__()
        self.ws, self.heads = ws, heads
        self.scale = (dim // heads) ** -0.5
        self.table = nn.Parameter(torch.zeros((2 * ws - 1) ** 2, heads))
        coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing="ij"))
        flat = torch.flatten(coords, 1)
        rel = (flat[:, :, None] - flat[:, None, :]).permute(1, 2, 0).contiguous()
        rel[:, :, 0] += ws - 1
        rel[:, :, 1] += ws - 1
        rel[:, :, 0] *= 2 * ws - 1
        self.register_buffer("relative_position_index", rel.sum(-1))
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        nn.init.trunc_normal_(self.table, std=0.02)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q * self.scale) @ k.transpose(-2, -1)
        bias = self.table[self.relative_position_index.view(-1)].view(N, N, -1)
        attn = attn + bias.permute(2, 0, 1).contiguous().unsqueeze(0)
        if mask is not None:
            nW = mask.shape[0]
            attn = attn.view(B_ // nW, nW, self.heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.heads, N, N)
        attn = attn.softmax(-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B_, N, C)), attn


class SwinBlock(nn.Module):
    def __init__(self, dim, res, heads, ws=4, shift=0):
        super().__init__()
        self.res, self.ws, self.shift = res, ws, shift
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, ws, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        if shift:
            H = W = res
            img_mask = torch.zeros(1, H, W, 1)
            cnt = 0
            for h in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                for w in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                    img_mask[:, h, w, :] = cnt
                    cnt += 1
            mw = window_partition(img_mask, ws).view(-1, ws * ws)
            am = mw.unsqueeze(1) - mw.unsqueeze(2)
            am = am.masked_fill(am != 0, -100.0).masked_fill(am == 0, 0.0)
        else:
            am = None
        self.register_buffer("attn_mask", am)

    def forward(self, x):
        H = W = self.res
        B, L, C = x.shape
        shortcut = x
        x = self.norm1(x).view(B, H, W, C)
        if self.shift:
            x = torch.roll(x, shifts=(-self.shift, -self.shift), dims=(1, 2))
        win = window_partition(x, self.ws).view(-1, self.ws * self.ws, C)
        out, attn = self.attn(win, self.attn_mask)
        x = window_reverse(out.view(-1, self.ws, self.ws, C), self.ws, H, W)
        if self.shift:
            x = torch.roll(x, shifts=(self.shift, self.shift), dims=(1, 2))
        x = shortcut + x.view(B, H * W, C)
        return x + self.mlp(self.norm2(x)), attn


class PatchMerging(nn.Module):
    def __init__(self, res, dim):
        super().__init__()
        self.res = res
        self.norm = nn.LayerNorm(4 * dim)
        self.reduction = nn.Linear(4 * dim, 2 * dim, bias=False)

    def forward(self, x):
        B, L, C = x.shape
        x = x.view(B, self.res, self.res, C)
        x = torch.cat([x[:, 0::2, 0::2], x[:, 1::2, 0::2], x[:, 0::2, 1::2], x[:, 1::2, 1::2]], -1)
        return self.reduction(self.norm(x.view(B, -1, 4 * C)))


class TinySwin(nn.Module):
    def __init__(self, classes=4):
        super().__init__()
        self.patch = nn.Conv2d(3, 16, 2, 2)
        self.blocks = nn.ModuleList([SwinBlock(16, 8, 2), SwinBlock(16, 8, 2, shift=2)])
        self.merge = PatchMerging(8, 16)
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        attns = []
        for blk in self.blocks:
            x, a = blk(x)
            attns.append(a)
        return self.head(self.merge(x).mean(1)), attns


torch.manual_seed(0)
win = window_partition(torch.arange(64.0).view(1, 8, 8, 1), 4)
print("windows", tuple(win.shape), win[1, :, :, 0].tolist())
print("reverse ok", torch.equal(window_reverse(win, 4, 8, 8), torch.arange(64.0).view(1, 8, 8, 1)))
model = TinySwin()
print("relative index corner", model.blocks[0].attn.relative_position_index[:3, :5].tolist())
am = model.blocks[1].attn_mask
print("mask", tuple(am.shape), "masked entries per window", (am != 0).sum((1, 2)).tolist())
x = torch.randn(32, 3, 16, 16)
y = (x[:, 0, :8].mean((1, 2)) > 0).long() * 2 + (x[:, 1, :, :8].mean((1, 2)) > 0).long()
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.05)
for epoch in range(8):
    for i in range(0, 32, 8):
        logits, attns = model(x[i:i + 8])
        loss = F.cross_entropy(logits, y[i:i + 8])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 2 == 1:
        with torch.no_grad():
            acc = (model(x)[0].argmax(1) == y).float().mean()
        print(f"epoch {epoch} loss {loss.item():.5f} train acc {acc.item():.4f}")
print("bias table grad norm", model.blocks[1].attn.table.grad.norm().item())
print("attention of a shifted window", attns[1].shape, attns[1][-1, 0, 0].sum().item())
print("masked weight max", attns[1][-1, 0][am[-1] != 0].max().item())
