# Models: a Vision Transformer's front end written three ways as in ViT tutorials: patches via
# Tensor.unfold, via F.unfold, and via a strided Conv2d patch embedding (all equal), the CLS
# token and learned position embeddings interpolated to a new grid size (bicubic).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
B, C, H, W, P, D = 2, 3, 8, 8, 4, 12
img = torch.randn(B, C, H, W)
p1 = img.unfold(2, P, P).unfold(3, P, P)
print(p1.shape)
p1 = p1.permute(0, 2, 3, 1, 4, 5).reshape(B, -1, C * P * P)
p2 = F.unfold(img, kernel_size=P, stride=P).transpose(1, 2)
print(p1.shape, p2.shape, torch.equal(p1, p2))
proj = nn.Conv2d(C, D, P, stride=P)
lin = nn.Linear(C * P * P, D)
with torch.no_grad():
    lin.weight.copy_(proj.weight.flatten(1))
    lin.bias.copy_(proj.bias)
e_conv = proj(img).flatten(2).transpose(1, 2)
e_lin = lin(p2)
print(e_conv.shape, torch.allclose(e_conv, e_lin, atol=1e-5))
cls_token = nn.Parameter(torch.zeros(1, 1, D))
pos_embed = nn.Parameter(torch.randn(1, 1 + (H // P) * (W // P), D) * 0.02)
tokens = torch.cat([cls_token.expand(B, -1, -1), e_conv], 1) + pos_embed
print(tokens.shape)


def resize_pos_embed(posemb, new_hw):
    cls, grid = posemb[:, :1], posemb[:, 1:]
    gs = int(grid.shape[1] ** 0.5)
    grid = grid.reshape(1, gs, gs, -1).permute(0, 3, 1, 2)
    grid = F.interpolate(grid, size=new_hw, mode="bicubic", align_corners=False)
    return torch.cat([cls, grid.permute(0, 2, 3, 1).reshape(1, new_hw[0] * new_hw[1], -1)], 1)


new = resize_pos_embed(pos_embed, (3, 3))
print(new.shape, new[0, 1:4, :3])
enc = nn.TransformerEncoderLayer(D, 3, 24, dropout=0.0, batch_first=True, norm_first=True)
out = enc(tokens)
print(out[:, 0].shape, out[0, 0, :4])
out[:, 0].sum().backward()
print(cls_token.grad.shape, pos_embed.grad[0, :2, :3])
fold_back = F.fold(p2.transpose(1, 2), output_size=(H, W), kernel_size=P, stride=P)
print(torch.equal(fold_back, img))
