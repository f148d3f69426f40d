# Models: the PyTorch recipe "Zeroing out gradients in PyTorch" (a CIFAR-style CNN trained
# with optimizer.zero_grad() each step) and the autograd notes on gradient accumulation:
# what happens without zeroing, net.zero_grad() vs optimizer.zero_grad(), set_to_none=True
# (grads become None, so SGD-momentum/Adam skip those parameters) vs set_to_none=False
# (zeros, so momentum and weight decay still move them), freezing with requires_grad_(False).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
images = torch.randn(24, 3, 32, 32)
labels = torch.randint(0, 10, (24,))

for epoch in range(2):
    running_loss = 0.0
    for i in range(0, 24, 4):
        inputs, targets = images[i : i + 4], labels[i : i + 4]
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 8 == 0:
            print(f"[{epoch + 1}, {i // 4 + 1:3d}] loss: {running_loss / (i // 4 + 1):.4f}")
print("Finished Training")

# gradients accumulate when not zeroed
net.zero_grad()
print("after zero_grad:", net.fc2.bias.grad)
for k in range(3):
    criterion(net(images[:4]), labels[:4]).backward()
    print(f"backward {k + 1}: fc2.bias.grad norm {net.fc2.bias.grad.norm().item():.6f}")
g3 = net.fc2.bias.grad.clone()
net.zero_grad()
criterion(net(images[:4]), labels[:4]).backward()
print("accumulated == 3x single:", torch.allclose(g3, 3 * net.fc2.bias.grad, atol=1e-6))

# set_to_none=False keeps zero tensors
net.zero_grad(set_to_none=False)
print("set_to_none=False:", net.fc2.bias.grad)
net.zero_grad()
print("set_to_none=True:", net.fc2.bias.grad)
print("all None:", all(p.grad is None for p in net.parameters()))


# None grads vs zero grads under momentum and weight decay
def run(set_to_none, opt_cls, **kw):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    opt = opt_cls(model.parameters(), **kw)
    x = torch.randn(8, 4)
    y = torch.randn(8, 2)
    for step in range(4):
        opt.zero_grad(set_to_none=set_to_none)
        if step < 2:
            F.mse_loss(model(x), y).backward()
        else:
            # the last layer only: the first layer's grads are None or zero
            F.mse_loss(model[2](torch.relu(model[0](x)).detach()), y).backward()
        opt.step()
    return model[0].weight.detach().clone()


for name, cls, kw in [
    ("SGD momentum", optim.SGD, {"lr": 0.1, "momentum": 0.9}),
    ("SGD weight_decay", optim.SGD, {"lr": 0.1, "weight_decay": 0.1}),
    ("Adam", optim.Adam, {"lr": 0.01}),
    ("AdamW", optim.AdamW, {"lr": 0.01}),
]:
    a = run(True, cls, **kw)
    b = run(False, cls, **kw)
    print(f"{name}: set_to_none changes result: {not torch.equal(a, b)}")
    print(a[0])
    print(b[0])

# freezing part of a network
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
model[0].requires_grad_(False)
opt = optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
print("trainable:", [n for n, p in model.named_parameters() if p.requires_grad])
print(len(opt.param_groups[0]["params"]))
before = model[0].weight.clone()
out = model(torch.randn(5, 4)).sum()
out.backward()
opt.step()
print("frozen grad:", model[0].weight.grad, "unchanged:", torch.equal(before, model[0].weight))
print("head grad shape:", model[2].weight.grad.shape)
opt.zero_grad()
print(model[2].weight.grad)
print(opt.state_dict()["param_groups"])
