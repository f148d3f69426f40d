# Models: the CS231n assignment-1 "two-layer neural network": affine-ReLU-affine with softmax
# loss and L2 regularisation, the forward and the hand-derived backward pass written with
# tensor ops, checked against autograd and a centred finite difference, then trained with SGD
# and learning-rate decay on a toy spiral set, with a tiny hyper-parameter search.
import math

import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


class TwoLayerNet:
    def __init__(self, input_size, hidden_size, output_size, std=1e-1):
        self.params = {
            "W1": std * torch.randn(input_size, hidden_size),
            "b1": torch.zeros(hidden_size),
            "W2": std * torch.randn(hidden_size, output_size),
            "b2": torch.zeros(output_size),
        }

    def loss(self, X, y=None, reg=0.0):
        W1, b1, W2, b2 = (self.params[k] for k in ("W1", "b1", "W2", "b2"))
        N = X.shape[0]
        h = X @ W1 + b1
        a = h.clamp(min=0)
        scores = a @ W2 + b2
        if y is None:
            return scores
        shifted = scores - scores.max(dim=1, keepdim=True).values
        probs = shifted.exp() / shifted.exp().sum(dim=1, keepdim=True)
        loss = -probs[torch.arange(N), y].log().mean()
        loss = loss + reg * ((W1 * W1).sum() + (W2 * W2).sum())
        grads = {}
        dscores = probs.clone()
        dscores[torch.arange(N), y] -= 1
        dscores /= N
        grads["W2"] = a.T @ dscores + 2 * reg * W2
        grads["b2"] = dscores.sum(0)
        da = dscores @ W2.T
        dh = da * (h > 0)
        grads["W1"] = X.T @ dh + 2 * reg * W1
        grads["b1"] = dh.sum(0)
        return loss, grads

    def predict(self, X):
        return self.loss(X).argmax(dim=1)


def spiral(n_per_class, n_classes):
    xs, ys = [], []
    for j in range(n_classes):
        r = torch.linspace(0.0, 1, n_per_class)
        t = torch.linspace(j * 4, (j + 1) * 4, n_per_class) + torch.randn(n_per_class) * 0.2
        xs.append(torch.stack([r * torch.sin(t), r * torch.cos(t)], 1))
        ys.append(torch.full((n_per_class,), j, dtype=torch.long))
    return torch.cat(xs), torch.cat(ys)


X, y = spiral(40, 3)
net = TwoLayerNet(2, 10, 3, std=1e-1)
loss, grads = net.loss(X, y, reg=0.05)
print(f"loss {loss.item():.10f}")

params = {k: v.clone().requires_grad_() for k, v in net.params.items()}
saved = net.params
net.params = params
auto_loss, _ = net.loss(X, y, reg=0.05)
auto_loss.backward()
net.params = saved
for k in ("W1", "b1", "W2", "b2"):
    rel = (grads[k] - params[k].grad).abs().max() / params[k].grad.abs().max()
    print(f"{k} max rel error vs autograd {rel.item():.3e}")


def numeric_grad(f, x, h=1e-5):
    grad = torch.zeros_like(x)
    flat, gflat = x.view(-1), grad.view(-1)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + h
        fp = f()
        flat[i] = old - h
        fm = f()
        flat[i] = old
        gflat[i] = (fp - fm) / (2 * h)
    return grad


for k in ("b1", "b2"):
    num = numeric_grad(lambda: net.loss(X, y, reg=0.05)[0].item(), net.params[k])
    err = ((num - grads[k]).abs() / (num.abs() + grads[k].abs()).clamp(min=1e-8)).max()
    print(f"{k} numeric relative error < 1e-6: {bool(err < 1e-6)}")


def train(net, X, y, lr, reg, iters, batch, decay=0.95):
    hist = []
    for it in range(iters):
        idx = torch.randint(0, X.shape[0], (batch,))
        loss, g = net.loss(X[idx], y[idx], reg=reg)
        for k in net.params:
            net.params[k] -= lr * g[k]
        if it % 50 == 0:
            lr *= decay
            hist.append(loss.item())
    return hist


best = None
for lr in (0.3, 1.0):
    for reg in (1e-4, 1e-2):
        torch.manual_seed(3)
        model = TwoLayerNet(2, 32, 3, std=math.sqrt(2.0 / 2) * 0.5)
        hist = train(model, X, y, lr, reg, 400, 32)
        acc = (model.predict(X) == y).double().mean().item()
        print(f"lr {lr} reg {reg:g}: loss {hist[0]:.4f} -> {hist[-1]:.4f} acc {acc:.4f}")
        if best is None or acc > best[0]:
            best = (acc, lr, reg)
print("best", best)
