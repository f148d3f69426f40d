# Models: the CS231n assignment-2 checks for dropout and batch normalisation: inverted dropout
# forward statistics for several keep probabilities (train vs test mean), the backward pass
# against a numeric gradient with a fixed mask, the batchnorm forward in train/test mode,
# the full and the simplified ("alternative") batchnorm backward against autograd, and a timing-
# free comparison of their results.
import torch

torch.manual_seed(231)
torch.set_default_dtype(torch.float64)


def dropout_forward(x, p, mode, mask=None):
    if mode == "train":
        if mask is None:
            mask = (torch.rand(*x.shape) < p) / p
        return x * mask, mask
    return x, None


x = torch.randn(500, 500) + 10
for p in (0.25, 0.4, 0.7):
    out, _ = dropout_forward(x, p, "train")
    out_test, _ = dropout_forward(x, p, "test")
    print(f"Running tests with p = {p}")
    print(f"Mean of input: {x.mean().item():.6f}")
    print(f"Mean of train-time output: {out.mean().item():.6f}")
    print(f"Mean of test-time output: {out_test.mean().item():.6f}")
    print(f"Fraction of train-time output set to zero: {(out == 0).double().mean().item():.6f}")

x = torch.randn(10, 10) + 10
dout = torch.randn(10, 10)
_, mask = dropout_forward(x, 0.2, "train")
dx = dout * mask


def eval_numerical_gradient_array(f, x, df, h=1e-5):
    grad = torch.zeros_like(x)
    for idx in range(x.numel()):
        i, j = divmod(idx, x.shape[1])
        old = x[i, j].item()
        x[i, j] = old + h
        pos = f(x).clone()
        x[i, j] = old - h
        neg = f(x).clone()
        x[i, j] = old
        grad[i, j] = ((pos - neg) * df).sum() / (2 * h)
    return grad


def rel_error(x, y):
    return ((x - y).abs() / (x.abs() + y.abs()).clamp(min=1e-8)).max().item()


dx_num = eval_numerical_gradient_array(lambda xx: dropout_forward(xx, 0.2, "train", mask)[0],
                                       x, dout)
print("dx relative error < 1e-10:", rel_error(dx, dx_num) < 1e-10)


def batchnorm_forward(x, gamma, beta, bn_param):
    mode, eps, momentum = bn_param["mode"], bn_param.get("eps", 1e-5), bn_param.get("momentum", 0.9)
    D = x.shape[1]
    running_mean = bn_param.get("running_mean", torch.zeros(D))
    running_var = bn_param.get("running_var", torch.zeros(D))
    cache = None
    if mode == "train":
        mu = x.mean(0)
        var = x.var(0, unbiased=False)
        xhat = (x - mu) / torch.sqrt(var + eps)
        out = gamma * xhat + beta
        cache = (x, xhat, mu, var, gamma, eps)
        running_mean = momentum * running_mean + (1 - momentum) * mu
        running_var = momentum * running_var + (1 - momentum) * var
    else:
        out = gamma * (x - running_mean) / torch.sqrt(running_var + eps) + beta
    bn_param["running_mean"], bn_param["running_var"] = running_mean, running_var
    return out, cache


def batchnorm_backward(dout, cache):
    x, xhat, mu, var, gamma, eps = cache
    N = x.shape[0]
    dgamma = (dout * xhat).sum(0)
    dbeta = dout.sum(0)
    dxhat = dout * gamma
    dvar = (dxhat * (x - mu) * -0.5 * (var + eps) ** -1.5).sum(0)
    dmu = (-dxhat / torch.sqrt(var + eps)).sum(0) + dvar * (-2 * (x - mu)).mean(0)
    dx = dxhat / torch.sqrt(var + eps) + dvar * 2 * (x - mu) / N + dmu / N
    return dx, dgamma, dbeta


def batchnorm_backward_alt(dout, cache):
    x, xhat, mu, var, gamma, eps = cache
    N = x.shape[0]
    dgamma = (dout * xhat).sum(0)
    dbeta = dout.sum(0)
    dx = gamma / torch.sqrt(var + eps) / N * (N * dout - dbeta - xhat * dgamma)
    return dx, dgamma, dbeta


N, D1, D2, D3 = 200, 50, 60, 3
X = torch.randn(N, D1)
W1, W2 = torch.randn(D1, D2), torch.randn(D2, D3)
a = torch.relu(X @ W1) @ W2
print("Before batch normalization:")
print("  means:", a.mean(0), "\n  stds: ", a.std(0, unbiased=False))
gamma, beta = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([11.0, 12.0, 13.0])
a_norm, _ = batchnorm_forward(a, gamma, beta, {"mode": "train"})
print("After batch normalization (gamma=1,2,3 beta=11,12,13)")
print("  means:", a_norm.mean(0), "\n  stds: ", a_norm.std(0, unbiased=False))

bn_param = {"mode": "train"}
for t in range(50):
    Xb = torch.randn(N, D1)
    batchnorm_forward(torch.relu(Xb @ W1) @ W2, gamma, beta, bn_param)
bn_param["mode"] = "test"
a_test, _ = batchnorm_forward(torch.relu(torch.randn(N, D1) @ W1) @ W2, gamma, beta, bn_param)
print("After test-time normalization: means", a_test.mean(0), "stds", a_test.std(0, unbiased=False))

x = 5 * torch.randn(4, 5) + 12
g, b = torch.randn(5), torch.randn(5)
dout = torch.randn(4, 5)
out, cache = batchnorm_forward(x, g, b, {"mode": "train"})
dx1, dg1, db1 = batchnorm_backward(dout, cache)
dx2, dg2, db2 = batchnorm_backward_alt(dout, cache)
xa, ga, ba = (t.clone().requires_grad_() for t in (x, g, b))
torch.nn.functional.batch_norm(xa, None, None, ga, ba, training=True, eps=1e-5).backward(dout)
print("dx difference (full vs alt):", (dx1 - dx2).abs().max().item() < 1e-12)
print("dx vs autograd:", rel_error(dx1, xa.grad) < 1e-8, "dgamma:", rel_error(dg1, ga.grad) < 1e-10,
      "dbeta:", rel_error(db1, ba.grad) < 1e-10)
print("dgamma", dg2)
print("dbeta", db2)
