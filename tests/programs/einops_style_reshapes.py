# Models: the tensor gymnastics of public vision/transformer code written without einops --
# patchify/unpatchify with unfold/reshape/permute (ViT, MAE), pixel_shuffle vs its manual
# rearrange, space-to-depth, multi-head split/merge with unflatten/flatten/movedim,
# expand vs repeat vs repeat_interleave vs tile, window partition/reverse (Swin), channels-last
# round trips, and stride/contiguity checks along the way.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
imgs = torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).reshape(2, 3, 8, 8)
p = 4


def patchify(imgs, p):
    n, c, h, w = imgs.shape
    gh, gw = h // p, w // p
    x = imgs.reshape(n, c, gh, p, gw, p)
    x = torch.einsum("nchpwq->nhwpqc", x)
    return x.reshape(n, gh * gw, p * p * c)


def unpatchify(x, p, c):
    n, L, _ = x.shape
    h = w = int(L ** 0.5)
    x = x.reshape(n, h, w, p, p, c)
    x = torch.einsum("nhwpqc->nchpwq", x)
    return x.reshape(n, c, h * p, w * p)


patches = patchify(imgs, p)
print(patches.shape, patches[0, 1, :6])
print("roundtrip", torch.equal(unpatchify(patches, p, 3), imgs))
unf = F.unfold(imgs, kernel_size=p, stride=p)
print("unfold", unf.shape, unf.transpose(1, 2)[0, 1, :6])
fold = F.fold(unf, output_size=(8, 8), kernel_size=p, stride=p)
print("fold", torch.equal(fold, imgs))
tu = imgs.unfold(2, p, p).unfold(3, p, p)
print("Tensor.unfold", tu.shape, tu.stride(), tu.is_contiguous())

r = 2
x = torch.arange(1 * 8 * 2 * 3.).reshape(1, 8, 2, 3)
ps = F.pixel_shuffle(x, r)
b, c, h, w = x.shape
manual = x.view(b, c // (r * r), r, r, h, w).permute(0, 1, 4, 2, 5, 3).reshape(
    b, c // (r * r), h * r, w * r)
print("pixel_shuffle", ps.shape, torch.equal(ps, manual))
print("unshuffle back", torch.equal(F.pixel_unshuffle(ps, r), x))
s2d = imgs.reshape(2, 3, 4, 2, 4, 2).permute(0, 3, 5, 1, 2, 4).reshape(2, 12, 4, 4)
print("space-to-depth", s2d.shape, s2d[0, :4, 0, 0])

B, T, C, H = 2, 5, 12, 3
tokens = torch.randn(B, T, C)
heads = tokens.unflatten(-1, (H, C // H)).transpose(1, 2)
print("heads", heads.shape, heads.stride(), heads.is_contiguous())
merged = heads.transpose(1, 2).flatten(2)
print("merge", torch.equal(merged, tokens), merged.is_contiguous())
mv = torch.movedim(heads, 1, -1)
print("movedim", mv.shape, torch.equal(mv[..., 0], heads[:, 0]))
print(torch.moveaxis(tokens, (0, 1), (1, 0)).shape, tokens.swapaxes(0, 2).shape)
print(tokens.flatten(0, 1).shape, tokens.flatten().shape, tokens.view(-1, C).shape)
print(tokens.unflatten(1, (1, 5, 1)).shape, tokens.squeeze().shape)

cls = torch.randn(1, 1, C)
print("expand", cls.expand(B, -1, -1).shape, cls.expand(B, -1, -1).stride())
print("repeat", cls.repeat(B, 2, 1).shape, torch.tensor([1, 2]).repeat(3))
print("repeat_interleave", torch.tensor([1, 2, 3]).repeat_interleave(2),
      torch.tensor([1, 2, 3]).repeat_interleave(torch.tensor([1, 0, 2])))
print(torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), 2, dim=0))
print("tile", torch.tile(torch.tensor([[1, 2]]), (2, 2)))


def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)


def window_reverse(windows, ws, H, W):
    B = int(windows.shape[0] / (H * W / ws / ws))
    x = windows.view(B, H // ws, W // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)


feat = torch.randn(2, 8, 8, 4)
wins = window_partition(feat, 4)
print("windows", wins.shape, torch.equal(window_reverse(wins, 4, 8, 8), feat))
shifted = torch.roll(feat, shifts=(-2, -2), dims=(1, 2))
print("roll", torch.equal(torch.roll(shifted, (2, 2), (1, 2)), feat), shifted[0, 0, 0])
cl = imgs.contiguous(memory_format=torch.channels_last)
print("channels_last", cl.stride(), cl.is_contiguous(), cl.is_contiguous(
    memory_format=torch.channels_last), torch.equal(cl, imgs))
print(imgs.permute(0, 2, 3, 1).stride(), imgs.permute(0, 2, 3, 1).contiguous().stride())
print(torch.stack(imgs.chunk(2, dim=2), dim=1).shape, torch.cat(imgs.split([3, 5], 3), 3).shape)
print(torch.tensor_split(torch.arange(7), 3), torch.hsplit(torch.arange(6).view(2, 3), 3)[1])
print(torch.flatten(imgs, start_dim=1).shape, imgs.narrow(3, 2, 3).shape, imgs.T.shape
      if imgs.dim() == 2 else imgs.mT.shape)
print(torch.atleast_3d(torch.tensor([1, 2])).shape, torch.diag_embed(torch.ones(2, 3)).shape)
