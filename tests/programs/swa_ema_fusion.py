# Models: the "Stochastic Weight Averaging" and EMA recipes (torch.optim.swa_utils.AveragedModel
# with the default running average and get_ema_multi_avg_fn, SWALR annealing after a
# CosineAnnealingLR phase, update_bn over a loader, use_buffers=True) followed by the inference
# recipes: fusing Conv+BN and Linear+BN for eval (nn.utils.fusion), parameters_to_vector /
# vector_to_parameters, skip_init, and global module forward hooks.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn, update_bn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(64, 2, 8, 8)
Y = (X.mean((1, 2, 3)) > 0).long()
loader = DataLoader(TensorDataset(X, Y), batch_size=16, shuffle=True)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, 8)
        self.bn1d = nn.BatchNorm1d(8)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        x = F.relu(self.bn(self.conv(x)))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        x = F.relu(self.bn1d(self.fc(x)))
        return self.head(x)


model = Net()
swa_model = AveragedModel(model)
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9), use_buffers=True)
print(swa_model.n_averaged, type(swa_model.module).__name__)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=6)
swa_start = 3
swa_scheduler = SWALR(optimizer, swa_lr=0.05, anneal_epochs=2, anneal_strategy="linear")
for epoch in range(6):
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
        ema_model.update_parameters(model)
        total += loss.item()
    if epoch >= swa_start:
        swa_model.update_parameters(model)
        swa_scheduler.step()
    else:
        scheduler.step()
    print(f"epoch {epoch} loss {total / len(loader):.5f} lr {optimizer.param_groups[0]['lr']:.5f}")
print("n_averaged:", swa_model.n_averaged.item(), ema_model.n_averaged.item())
print("swa bn running_mean before update_bn:", swa_model.module.bn.running_mean)
update_bn(loader, swa_model)
print("after update_bn:", swa_model.module.bn.running_mean)
print("num_batches_tracked:", swa_model.module.bn.num_batches_tracked.item())
swa_model.eval()
ema_model.eval()
model.eval()
with torch.no_grad():
    for name, m in [("model", model), ("swa", swa_model), ("ema", ema_model)]:
        acc = (m(X).argmax(1) == Y).float().mean().item()
        print(f"{name} acc {acc:.4f} loss {F.cross_entropy(m(X), Y).item():.5f}")
print(list(swa_model.state_dict().keys())[:3])

# --- fusing for inference --------------------------------------------------------------------
fused_conv = torch.nn.utils.fusion.fuse_conv_bn_eval(model.conv, model.bn)
print(fused_conv)
print("fused conv bias:", fused_conv.bias)
fused_fc = torch.nn.utils.fusion.fuse_linear_bn_eval(model.fc, model.bn1d)
with torch.no_grad():
    ref = model.bn(model.conv(X[:4]))
    print("conv+bn fused equal:", torch.allclose(fused_conv(X[:4]), ref, atol=1e-5))
    h = torch.randn(4, 4)
    print("linear+bn fused equal:", torch.allclose(fused_fc(h), model.bn1d(model.fc(h)), atol=1e-5))
w, b = torch.nn.utils.fusion.fuse_conv_bn_weights(
    model.conv.weight,
    None,
    model.bn.running_mean,
    model.bn.running_var,
    model.bn.eps,
    model.bn.weight,
    model.bn.bias,
)
print(type(w).__name__, w.shape, b.shape, torch.allclose(w, fused_conv.weight))
try:
    torch.nn.utils.fusion.fuse_conv_bn_eval(nn.Conv2d(2, 4, 3).train(), nn.BatchNorm2d(4))
except AssertionError as e:
    print("AssertionError:", e)

# --- flat parameter vectors ------------------------------------------------------------------
vec = torch.nn.utils.parameters_to_vector(model.parameters())
print("flat params:", vec.shape, vec[:5])
torch.nn.utils.vector_to_parameters(torch.zeros_like(vec), model.parameters())
print("zeroed:", model.head.bias, sum(p.abs().sum().item() for p in model.parameters()))
torch.nn.utils.vector_to_parameters(vec, model.parameters())
print("restored:", torch.equal(torch.nn.utils.parameters_to_vector(model.parameters()), vec))
try:
    torch.nn.utils.vector_to_parameters([1.0], model.parameters())
except TypeError as e:
    print("TypeError:", e)

lin = torch.nn.utils.skip_init(nn.Linear, 3, 2)
print(type(lin).__name__, lin.weight.shape, lin.bias.shape)

# --- global forward hooks --------------------------------------------------------------------
calls = []
h1 = nn.modules.module.register_module_forward_pre_hook(
    lambda m, inp: calls.append(("pre", type(m).__name__))
)
h2 = nn.modules.module.register_module_forward_hook(
    lambda m, inp, out: calls.append(("post", type(m).__name__, tuple(out.shape)))
)
seq = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
seq(torch.ones(2, 3))
h1.remove()
h2.remove()
seq(torch.ones(2, 3))
print(calls)
