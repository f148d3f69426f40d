# Models: CS231n assignment 1/2 style code: vectorized SVM and softmax losses written by hand
# (with the naive loop versions), a two-layer net's affine/relu forward and backward passes
# with cached values, and the assignment's numerical gradient checkers
# (eval_numerical_gradient, grad_check_sparse, rel_error) in float64.
import torch

torch.manual_seed(231)
torch.set_default_dtype(torch.float64)


def rel_error(x, y):
    return torch.max(torch.abs(x - y) / torch.clamp(torch.abs(x) + torch.abs(y), min=1e-8)).item()


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
    N = X.shape[0]
    scores = X @ W
    correct = scores[torch.arange(N), y].unsqueeze(1)
    margins = torch.clamp(scores - correct + 1, min=0)
    margins[torch.arange(N), y] = 0
    loss = margins.sum() / N + reg * (W * W).sum()
    binary = (margins > 0).to(X.dtype)
    binary[torch.arange(N), y] = -binary.sum(dim=1)
    dW = X.t() @ binary / N + 2 * reg * W
    return loss.item(), dW


def softmax_loss_vectorized(W, X, y, reg):
    N = X.shape[0]
    scores = X @ W
    scores -= scores.max(dim=1, keepdim=True).values
    exp = scores.exp()
    probs = exp / exp.sum(dim=1, keepdim=True)
    loss = -torch.log(probs[torch.arange(N), y]).sum() / N + reg * (W * W).sum()
    dscores = probs.clone()
    dscores[torch.arange(N), y] -= 1
    dW = X.t() @ dscores / N + 2 * reg * W
    return loss.item(), dW


def eval_numerical_gradient(f, x, h=1e-5):
    grad = torch.zeros_like(x)
    it = torch.nditer if hasattr(torch, "nditer") else None
    assert it is None
    flat = x.view(-1)
    gflat = grad.view(-1)
    for ix in range(flat.numel()):
        old = flat[ix].item()
        flat[ix] = old + h
        fxph = f(x)
        flat[ix] = old - h
        fxmh = f(x)
        flat[ix] = old
        gflat[ix] = (fxph - fxmh) / (2 * h)
    return grad


def grad_check_sparse(f, x, analytic_grad, num_checks=5, h=1e-5):
    errs = []
    for i in range(num_checks):
        ix = tuple(torch.randint(0, m, (1,)).item() for m in x.shape)
        old = x[ix].item()
        x[ix] = old + h
        fxph = f(x)
        x[ix] = old - h
        fxmh = f(x)
        x[ix] = old
        grad_numerical = (fxph - fxmh) / (2 * h)
        grad_analytic = analytic_grad[ix].item()
        rel = abs(grad_numerical - grad_analytic) / (abs(grad_numerical) + abs(grad_analytic))
        errs.append(rel)
        print(f"numerical: {grad_numerical:f} analytic: {grad_analytic:f}, relative error: "
              f"{'small' if rel < 1e-7 else f'{rel:e}'}")
    return errs


X = torch.randn(40, 11)
y = torch.randint(0, 4, (40,))
W = torch.randn(11, 4) * 0.001
loss_naive, grad_naive = svm_loss_naive(W, X, y, 5e-2)
loss_vec, grad_vec = svm_loss_vectorized(W, X, y, 5e-2)
print(f"svm naive loss {loss_naive:.8f} vectorized {loss_vec:.8f}")
print("svm difference:", torch.linalg.norm(grad_naive - grad_vec, ord="fro").item() < 1e-12)
grad_check_sparse(lambda w: svm_loss_vectorized(w, X, y, 0.0)[0], W,
                  svm_loss_vectorized(W, X, y, 0.0)[1])
loss, grad = softmax_loss_vectorized(W, X, y, 0.0)
print(f"softmax loss: {loss:f}, sanity check: {-torch.log(torch.tensor(0.25)).item():f}")
grad_check_sparse(lambda w: softmax_loss_vectorized(w, X, y, 1e-2)[0], W,
                  softmax_loss_vectorized(W, X, y, 1e-2)[1])


def affine_forward(x, w, b):
    out = x.reshape(x.shape[0], -1) @ w + b
    return out, (x, w, b)


def affine_backward(dout, cache):
    x, w, b = cache
    dx = (dout @ w.t()).reshape(x.shape)
    dw = x.reshape(x.shape[0], -1).t() @ dout
    db = dout.sum(dim=0)
    return dx, dw, db


def relu_forward(x):
    return torch.maximum(x, torch.zeros_like(x)), x


def relu_backward(dout, cache):
    return dout * (cache > 0)


x = torch.randn(10, 2, 3)
w = torch.randn(6, 5)
b = torch.randn(5)
dout = torch.randn(10, 5)
dx_num = eval_numerical_gradient(lambda x: (affine_forward(x, w, b)[0] * dout).sum().item(), x)
dw_num = eval_numerical_gradient(lambda w: (affine_forward(x, w, b)[0] * dout).sum().item(), w)
db_num = eval_numerical_gradient(lambda b: (affine_forward(x, w, b)[0] * dout).sum().item(), b)
_, cache = affine_forward(x, w, b)
dx, dw, db = affine_backward(dout, cache)
print("dx error:", rel_error(dx_num, dx) < 1e-8, "dw error:", rel_error(dw_num, dw) < 1e-8,
      "db error:", rel_error(db_num, db) < 1e-8)
xr = torch.randn(10, 10)
doutr = torch.randn(10, 10)
dx_num = eval_numerical_gradient(lambda x: (relu_forward(x)[0] * doutr).sum().item(), xr)
print("relu dx error:", rel_error(dx_num, relu_backward(doutr, xr)) < 1e-8)

# autograd agrees with the hand-written backward
xa = x.clone().requires_grad_()
wa = w.clone().requires_grad_()
out = torch.relu(xa.reshape(10, -1) @ wa + b)
out.backward(dout)
h, c1 = affine_forward(x, w, b)
r, c2 = relu_forward(h)
dx2, dw2, _ = affine_backward(relu_backward(dout, c2), c1)
print("autograd vs manual:", torch.allclose(xa.grad, dx2), torch.allclose(wa.grad, dw2))
print(torch.get_default_dtype(), W.dtype, grad_vec[:2])
torch.set_default_dtype(torch.float32)
