# Models: a small 3-d medical-imaging style network and a texture classifier built from the
# less common layers: ReflectionPad3d / ReplicationPad3d, AdaptiveMaxPool3d with indices,
# FractionalMaxPool2d (seeded), InstanceNorm1d with running stats, LPPool1d/2d, Threshold,
# LogSigmoid, Hardshrink and Softshrink activations, trained a few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
vol = torch.randn(2, 1, 6, 8, 8)
pad = nn.ReflectionPad3d(1)
print(pad(vol).shape, pad(vol)[0, 0, 0, 0, :4])
rep = nn.ReplicationPad3d((1, 0, 2, 0, 0, 1))
print(rep(vol).shape, rep(vol)[1, 0, -1, 0, :3])
amp3 = nn.AdaptiveMaxPool3d((2, 3, 3), return_indices=True)
out, idx = amp3(vol)
print(out.shape, idx.shape)
print(idx[0, 0, 0])
print(out[0, 0, 1])
print(F.adaptive_avg_pool3d(vol, 2)[1, 0])


class VolNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.pad = nn.ReflectionPad3d(1)
        self.conv = nn.Conv3d(1, 4, 3, bias=False)
        self.norm = nn.InstanceNorm3d(4, affine=True)
        self.act = nn.Threshold(0.1, 0.0)
        self.pool = nn.AdaptiveMaxPool3d(1)
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        x = self.act(self.norm(self.conv(self.pad(x))))
        return self.fc(self.pool(x).flatten(1))


net = VolNet()
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
y = torch.tensor([0, 1])
for step in range(5):
    loss = F.cross_entropy(net(vol), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"vol step {step} loss {loss.item():.5f}")

img = torch.randn(3, 2, 13, 13)
fmp = nn.FractionalMaxPool2d(3, output_size=(6, 6), return_indices=True,
                             _random_samples=torch.rand(3, 2, 2))
o, i = fmp(img)
print(o.shape, i[0, 0, 0])
print(o[1, 1, :2])
fmp_ratio = nn.FractionalMaxPool2d(2, output_ratio=0.5,
                                   _random_samples=torch.full((3, 2, 2), 0.3))
print(fmp_ratio(img).shape, fmp_ratio(img)[2, 0, 0])
lp2 = nn.LPPool2d(2, 3, stride=2)
print(lp2(img.abs()).shape, lp2(img.abs())[0, 0, 0])
seq = torch.randn(4, 3, 10)
lp1 = nn.LPPool1d(3, 2)
print(lp1(seq.abs())[0])
inorm = nn.InstanceNorm1d(3, affine=False, track_running_stats=True, momentum=0.2)
for _ in range(3):
    inorm(seq * 2 + 1)
print(inorm.running_mean, inorm.running_var, inorm.num_batches_tracked)
inorm.eval()
print(inorm(seq)[0, 0, :4])
acts = [nn.LogSigmoid(), nn.Hardshrink(0.5), nn.Softshrink(0.3), nn.Threshold(0.2, -1.0),
        nn.Tanhshrink(), nn.Softmin(dim=-1)]
z = torch.linspace(-2, 2, 7)
for a in acts:
    print(type(a).__name__, a(z))
z.requires_grad_(True)
F.logsigmoid(z).sum().backward()
print(z.grad)
tex = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1, bias=False), nn.Hardshrink(0.1),
                    nn.FractionalMaxPool2d(2, output_size=5,
                                           _random_samples=torch.rand(3, 4, 2)),
                    nn.LPPool2d(2, 2), nn.Flatten(), nn.Linear(16, 3))
opt = torch.optim.Adam(tex.parameters(), lr=1e-2)
labels = torch.tensor([0, 1, 2])
for step in range(5):
    loss = F.cross_entropy(tex(img), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"tex step {step} loss {loss.item():.5f}")
