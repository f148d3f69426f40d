# Models: the "why does my model behave differently in eval mode" exercise -- BatchNorm1d/2d
# running statistics in train vs eval mode, momentum, track_running_stats, and Dropout.
import torch
import torch.nn as nn

torch.manual_seed(0)
bn = nn.BatchNorm1d(3, momentum=0.1)
x = torch.randn(8, 3) * 2 + 1
print(bn.running_mean, bn.running_var)
y = bn(x)
print(y.mean(0), y.var(0, unbiased=False))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
for _ in range(4):
    bn(torch.randn(8, 3) * 3 - 2)
bn.eval()
print(bn(x[:2]))
print(bn.running_mean, bn.running_var)
bn2 = nn.BatchNorm2d(2, affine=False, track_running_stats=False)
img = torch.randn(2, 2, 3, 3)
print(bn2(img)[0, 0])
bn2.eval()
print(bn2(img).mean().abs() < 1e-6)
bn3 = nn.BatchNorm1d(4, momentum=None)
for i in range(3):
    bn3(torch.randn(5, 4) + i)
print(bn3.running_mean)

drop = nn.Dropout(p=0.5)
z = torch.ones(2, 6)
print(drop(z))
drop.eval()
print(drop(z))
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Dropout(0.3), nn.Linear(4, 1))
model.train()
a = model(x)
model.eval()
b = model(x)
print(a.squeeze(), b.squeeze())
print(model.training, model[1].training)
ln = nn.LayerNorm(3)
print(ln(x[:2]))
gn = nn.GroupNorm(2, 4)
print(gn(torch.randn(2, 4, 3))[1])
