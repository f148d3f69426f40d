# Models: the "let the model infer its sizes" pattern: LazyConv2d/LazyBatchNorm2d/LazyLinear
# printed before and after a dry-run forward, the optimizer built after materialisation, the
# UninitializedParameter guard rails, Conv2d padding_mode variants (zeros, reflect, replicate,
# circular) with padding="same", grid_sample padding modes, and SyncBatchNorm conversion of a
# model for a (here single-process) distributed run.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(180)
model = nn.Sequential(nn.LazyConv2d(6, 3), nn.LazyBatchNorm2d(), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Flatten(), nn.LazyLinear(10), nn.ReLU(), nn.LazyLinear(3))
print(model)
print(type(model[0].weight).__name__, model[0].has_uninitialized_params())
try:
    sum(p.numel() for p in model.parameters())
except ValueError as e:
    print("ValueError:", str(e)[:90])
x = torch.randn(4, 2, 10, 10)
out = model(x)
print(model)
print(out.shape, type(model[0].weight).__name__, model[5].in_features, model[1].num_features)
print(sum(p.numel() for p in model.parameters()), type(model[0]).__name__)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
y = torch.randint(0, 3, (4,))
for step in range(5):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f}")
img = torch.arange(16.0).view(1, 1, 4, 4)
for mode in ("zeros", "reflect", "replicate", "circular"):
    conv = nn.Conv2d(1, 1, 3, padding=1, padding_mode=mode, bias=False)
    nn.init.ones_(conv.weight)
    print(mode, conv(img)[0, 0], conv)
same = nn.Conv2d(1, 2, (3, 5), padding="same", padding_mode="reflect")
print(same(img).shape, nn.Conv1d(1, 1, 4, padding="same")(torch.ones(1, 1, 7)).shape)
try:
    nn.Conv2d(1, 1, 3, stride=2, padding="same")
except ValueError as e:
    print("ValueError:", e)
theta = torch.tensor([[[1.4, 0.2, 0.3], [-0.1, 1.3, -0.2]]])
grid = F.affine_grid(theta, (1, 1, 4, 4), align_corners=False)
for pm in ("zeros", "border", "reflection"):
    print(pm, F.grid_sample(img, grid, padding_mode=pm, align_corners=False)[0, 0])
print(F.grid_sample(img, grid, mode="nearest", padding_mode="border", align_corners=True)[0, 0])
net = nn.Sequential(nn.Conv2d(2, 4, 3), nn.BatchNorm2d(4), nn.Sequential(nn.BatchNorm2d(4)))
sync = nn.SyncBatchNorm.convert_sync_batchnorm(net)
print(sync)
sync.eval()
print(sync(torch.randn(2, 2, 5, 5)).shape, type(sync[1]).__name__, sync[1].momentum)
print(torch.equal(sync[1].weight, net[1].weight))
