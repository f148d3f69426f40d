# Models: the CS231n "softmax classifier" and "multiclass SVM" exercises: loss and gradient
# written first with explicit Python loops (naive) and then fully vectorised, the two compared
# (difference of losses, Frobenius norm of the gradient difference), a sanity check that the
# initial softmax loss is near log(C), and a linear classifier trained with minibatch SGD.
import math

import torch

torch.manual_seed(231)
N, D, C = 50, 12, 4
X = torch.randn(N, D)
X = torch.cat([X, torch.ones(N, 1)], 1)          # bias trick
true_W = torch.randn(D + 1, C)
y = (X @ true_W).argmax(1)
W = 0.0001 * torch.randn(D + 1, C)


def svm_loss_naive(W, X, y, reg):
    dW = torch.zeros_like(W)
    num_classes, num_train = W.shape[1], X.shape[0]
    loss = 0.0
    for i in range(num_train):
        scores = X[i] @ W
        correct = scores[y[i]]
        for j in range(num_classes):
            if j == y[i]:
                continue
            margin = scores[j] - correct + 1
            if margin > 0:
                loss += margin.item()
                dW[:, j] += X[i]
                dW[:, y[i]] -= X[i]
    loss /= num_train
    dW /= num_train
    loss += reg * torch.sum(W * W).item()
    dW += 2 * reg * W
    return loss, dW


def svm_loss_vectorized(W, X, y, reg):
    num_train = X.shape[0]
    scores = X @ W
    correct = scores[torch.arange(num_train), y].unsqueeze(1)
    margins = (scores - correct + 1).clamp(min=0)
    margins[torch.arange(num_train), y] = 0
    loss = margins.sum() / num_train + reg * (W * W).sum()
    mask = (margins > 0).to(X.dtype)
    mask[torch.arange(num_train), y] = -mask.sum(1)
    dW = X.T @ mask / num_train + 2 * reg * W
    return loss.item(), dW


def softmax_loss_naive(W, X, y, reg):
    loss, dW = 0.0, torch.zeros_like(W)
    for i in range(X.shape[0]):
        f = X[i] @ W
        f = f - f.max()
        p = torch.exp(f) / torch.exp(f).sum()
        loss += -math.log(p[y[i]].item())
        for j in range(W.shape[1]):
            dW[:, j] += (p[j] - float(j == y[i].item())) * X[i]
    loss = loss / X.shape[0] + reg * (W * W).sum().item()
    return loss, dW / X.shape[0] + 2 * reg * W


def softmax_loss_vectorized(W, X, y, reg):
    f = X @ W
    f = f - f.max(1, keepdim=True).values
    p = f.exp() / f.exp().sum(1, keepdim=True)
    loss = -p[torch.arange(X.shape[0]), y].log().mean() + reg * (W * W).sum()
    p[torch.arange(X.shape[0]), y] -= 1
    return loss.item(), X.T @ p / X.shape[0] + 2 * reg * W


for name, naive, vec in [("svm", svm_loss_naive, svm_loss_vectorized),
                         ("softmax", softmax_loss_naive, softmax_loss_vectorized)]:
    l1, g1 = naive(W, X, y, 5e-3)
    l2, g2 = vec(W, X, y, 5e-3)
    print(f"{name}: naive loss {l1:.6f} vectorized loss {l2:.6f}")
    print(f"  loss difference < 1e-5: {abs(l1 - l2) < 1e-5}")
    print(f"  gradient difference (fro) < 1e-5: {torch.linalg.norm(g1 - g2, 'fro').item() < 1e-5}")

loss0, _ = softmax_loss_vectorized(W, X, y, 0.0)
print(f"initial softmax loss {loss0:.4f} vs -log(0.25) {-math.log(0.25):.4f}")

# autograd agrees with the hand-written gradient
Wg = W.clone().requires_grad_()
f = X @ Wg
lossg = torch.nn.functional.cross_entropy(f, y) + 5e-3 * (Wg * Wg).sum()
lossg.backward()
_, gv = softmax_loss_vectorized(W, X, y, 5e-3)
print("autograd matches:", torch.allclose(Wg.grad, gv, atol=1e-6))

for name, fn in [("svm", svm_loss_vectorized), ("softmax", softmax_loss_vectorized)]:
    torch.manual_seed(0)
    Wt = 0.001 * torch.randn(D + 1, C)
    for it in range(150):
        idx = torch.randint(0, N, (20,))
        loss, dW = fn(Wt, X[idx], y[idx], 1e-3)
        Wt -= 0.5 * dW
        if it % 50 == 0:
            print(f"{name} iteration {it} / 150: loss {loss:.6f}")
    acc = ((X @ Wt).argmax(1) == y).float().mean().item()
    print(f"{name} training accuracy: {acc:.6f}")
