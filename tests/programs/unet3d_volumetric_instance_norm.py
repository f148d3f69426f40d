# Models: a 3-D U-Net for volumetric (medical) segmentation as in nnU-Net-style code: Conv3d +
# InstanceNorm3d(affine) + LeakyReLU blocks, strided-conv downsampling, ConvTranspose3d and
# trilinear upsampling variants, deep-supervision outputs, soft Dice + CE loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def block(cin, cout, stride=1):
    return nn.Sequential(
        nn.Conv3d(cin, cout, 3, stride, 1, bias=False),
        nn.InstanceNorm3d(cout, affine=True),
        nn.LeakyReLU(0.01, inplace=True),
    )


class UNet3D(nn.Module):
    def __init__(self, c=4, n_cls=3):
        super().__init__()
        self.e1 = nn.Sequential(block(1, c), block(c, c))
        self.e2 = nn.Sequential(block(c, 2 * c, 2), block(2 * c, 2 * c))
        self.up = nn.ConvTranspose3d(2 * c, c, 2, 2, bias=False)
        self.d1 = nn.Sequential(block(2 * c, c), block(c, c))
        self.out = nn.Conv3d(c, n_cls, 1)
        self.aux = nn.Conv3d(2 * c, n_cls, 1)

    def forward(self, x):
        s1 = self.e1(x)
        b = self.e2(s1)
        y = self.d1(torch.cat([s1, self.up(b)], 1))
        return self.out(y), self.aux(b)


net = UNet3D()
x = torch.randn(2, 1, 8, 8, 8)
seg = torch.zeros(2, 8, 8, 8, dtype=torch.long)
seg[:, 2:6, 2:6, 2:6] = 1
seg[:, 3:5, 3:5, 3:5] = 2
out, aux = net(x)
print(out.shape, aux.shape)


def soft_dice(logits, target, eps=1e-5):
    p = logits.softmax(1)
    oh = F.one_hot(target, p.shape[1]).permute(0, 4, 1, 2, 3).float()
    inter = (p * oh).sum((0, 2, 3, 4))
    den = p.sum((0, 2, 3, 4)) + oh.sum((0, 2, 3, 4))
    return 1 - ((2 * inter + eps) / (den + eps)).mean()


opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.99, nesterov=True)
for it in range(6):
    out, aux = net(x)
    seg_small = F.interpolate(seg[:, None].float(), scale_factor=0.5, mode="nearest")[:, 0].long()
    loss = (
        F.cross_entropy(out, seg)
        + soft_dice(out, seg)
        + 0.5 * (F.cross_entropy(aux, seg_small) + soft_dice(aux, seg_small))
    )
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(net.parameters(), 12)
    opt.step()
    print(it, f"{loss.item():.5f}")
up_tri = F.interpolate(aux, scale_factor=2, mode="trilinear", align_corners=False)
print(up_tri.shape, up_tri[0, 0, 0, 0, :4])
print(F.pad(x[:, :, :2, :2, :2], (1, 1, 1, 1, 1, 1), mode="replicate").shape)
print(net.e1[0][1].weight[:4], net.e1[0][1].running_mean)
