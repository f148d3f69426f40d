# Models: the CS231n "ThreeLayerConvNet" sanity checks before training: conv - relu - 2x2 max
# pool - affine - relu - affine written with torch.nn.functional and a params dict, the initial
# loss against log(C) with and without regularisation, a float64 gradient check of every
# parameter against centred differences on a few coordinates, overfitting 20 examples to
# 100% train accuracy with Adam, and the solver's loss/accuracy history.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)


class ThreeLayerConvNet:
    def __init__(self, input_dim=(3, 8, 8), num_filters=4, filter_size=3, hidden_dim=16,
                 num_classes=5, weight_scale=1e-2, reg=0.0, dtype=torch.float32):
        C, H, W = input_dim
        self.reg = reg
        self.params = {
            "W1": weight_scale * torch.randn(num_filters, C, filter_size, filter_size, dtype=dtype),
            "b1": torch.zeros(num_filters, dtype=dtype),
            "W2": weight_scale * torch.randn(num_filters * (H // 2) * (W // 2), hidden_dim,
                                             dtype=dtype),
            "b2": torch.zeros(hidden_dim, dtype=dtype),
            "W3": weight_scale * torch.randn(hidden_dim, num_classes, dtype=dtype),
            "b3": torch.zeros(num_classes, dtype=dtype),
        }
        for p in self.params.values():
            p.requires_grad_()

    def loss(self, X, y=None):
        p = self.params
        pad = (p["W1"].shape[2] - 1) // 2
        out = F.max_pool2d(F.relu(F.conv2d(X, p["W1"], p["b1"], padding=pad)), 2)
        out = F.relu(out.flatten(1) @ p["W2"] + p["b2"])
        scores = out @ p["W3"] + p["b3"]
        if y is None:
            return scores
        data_loss = F.cross_entropy(scores, y)
        reg_loss = 0.5 * self.reg * sum((p[k] ** 2).sum() for k in ("W1", "W2", "W3"))
        return data_loss + reg_loss


N = 50
X = torch.randn(N, 3, 8, 8)
y = torch.randint(5, (N,))
model = ThreeLayerConvNet()
loss = model.loss(X, y)
print(f"Initial loss (no regularization): {loss.item():.6f}  log(5) = {math.log(5):.6f}")
model.reg = 0.5
print(f"Initial loss (with regularization): {model.loss(X, y).item():.6f}")

torch.manual_seed(1)
small = ThreeLayerConvNet(input_dim=(3, 6, 6), num_filters=2, hidden_dim=7, num_classes=3,
                          weight_scale=1e-1, reg=0.1, dtype=torch.float64)
Xs = torch.randn(4, 3, 6, 6, dtype=torch.float64)
ys = torch.randint(3, (4,))
loss = small.loss(Xs, ys)
grads = torch.autograd.grad(loss, list(small.params.values()))
for (name, p), g in zip(small.params.items(), grads):
    errs = []
    with torch.no_grad():
        flat, gflat = p.view(-1), g.reshape(-1)
        for i in torch.randint(0, p.numel(), (4,)).tolist():
            old = flat[i].item()
            flat[i] = old + 1e-6
            lp = small.loss(Xs, ys).item()
            flat[i] = old - 1e-6
            lm = small.loss(Xs, ys).item()
            flat[i] = old
            num = (lp - lm) / 2e-6
            errs.append(abs(num - gflat[i].item()) / max(1e-8, abs(num) + abs(gflat[i].item())))
    print(f"{name} max relative error below 1e-5: {max(errs) < 1e-5}")

torch.manual_seed(2)
num_train = 20
net = ThreeLayerConvNet(weight_scale=1e-1)
opt = torch.optim.Adam(net.params.values(), lr=1e-2)
history = []
for epoch in range(15):
    for i in range(0, num_train, 10):
        loss = net.loss(X[i:i + 10], y[i:i + 10])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        train_acc = (net.loss(X[:num_train]).argmax(1) == y[:num_train]).float().mean().item()
        val_acc = (net.loss(X[num_train:]).argmax(1) == y[num_train:]).float().mean().item()
    history.append(loss.item())
    if epoch % 3 == 2:
        print(f"(Epoch {epoch + 1} / 15) loss {loss.item():.6f} train acc: {train_acc:.6f}; "
              f"val_acc: {val_acc:.6f}")
print("overfit:", train_acc == 1.0, "loss history decreasing overall:", history[-1] < history[0])
