# Models: the "softmax regression from scratch" course exercise (d2l-style): parameters as
# plain tensors with requires_grad, a hand-written softmax and cross-entropy via gather, and a
# manual SGD update inside torch.no_grad().
import torch

torch.manual_seed(0)
num_inputs, num_outputs, n = 6, 3, 90
true_W = torch.randn(num_inputs, num_outputs)
X = torch.randn(n, num_inputs)
y = (X @ true_W + 0.1 * torch.randn(n, num_outputs)).argmax(dim=1)
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])


def accuracy(y_hat, y):
    y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type_as(y) == y
    return float(cmp.type_as(y).sum())


print(softmax(torch.tensor([[1.0, 2.0, 3.0]])))
lr, batch_size = 0.1, 15
for epoch in range(5):
    idx = torch.randperm(n)
    for i in range(0, n, batch_size):
        j = idx[i:i + batch_size]
        l = cross_entropy(net(X[j]), y[j])
        l.sum().backward()
        with torch.no_grad():
            for param in (W, b):
                param -= lr * param.grad / batch_size
                param.grad.zero_()
    with torch.no_grad():
        train_l = cross_entropy(net(X), y)
        print(f"epoch {epoch + 1}, loss {float(train_l.mean()):f}, "
              f"acc {accuracy(net(X), y) / n:.4f}")
print(W)
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat.gather(1, torch.tensor([[0], [2]])), cross_entropy(y_hat, torch.tensor([0, 2])))
