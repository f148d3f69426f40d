# Models: CS231n assignment 2 "BatchNormalization": batchnorm forward in train/test mode with
# running averages, the naive and simplified backward passes derived by hand, compared with
# autograd, and the same for layer normalization.
import torch

torch.manual_seed(231)
N, D = 8, 5
x = 5 * torch.randn(N, D, dtype=torch.float64) + 12
gamma = torch.randn(D, dtype=torch.float64)
beta = torch.randn(D, dtype=torch.float64)
eps = 1e-5


def bn_forward(x, gamma, beta):
    mu = x.mean(0)
    var = x.var(0, unbiased=False)
    xhat = (x - mu) / torch.sqrt(var + eps)
    return gamma * xhat + beta, (xhat, var)


out, (xhat, var) = bn_forward(x, gamma, beta)
print("means", out.mean(0))
print("stds", out.std(0, unbiased=False))
dout = torch.randn(N, D, dtype=torch.float64)
dgamma = (dout * xhat).sum(0)
dbeta = dout.sum(0)
dxhat = dout * gamma
dx = (1.0 / N) / torch.sqrt(var + eps) * (N * dxhat - dxhat.sum(0) - xhat * (dxhat * xhat).sum(0))
xa = x.clone().requires_grad_()
ga = gamma.clone().requires_grad_()
ba = beta.clone().requires_grad_()
oa = torch.nn.functional.batch_norm(xa, None, None, ga, ba, training=True, eps=eps)
oa.backward(dout)
print("dx err", (dx - xa.grad).abs().max().item() < 1e-10)
print("dgamma err", (dgamma - ga.grad).abs().max().item() < 1e-10)
print("dbeta", dbeta)
print("grad_fn", oa.grad_fn.name())
rm, rv = torch.zeros(D, dtype=torch.float64), torch.ones(D, dtype=torch.float64)
for _ in range(50):
    xb = 2 * torch.randn(N, D, dtype=torch.float64) + 3
    torch.nn.functional.batch_norm(xb, rm, rv, training=True, momentum=0.1)
print("running mean", rm)
print("running var", rv)
test_out = torch.nn.functional.batch_norm(x, rm, rv, gamma, beta, training=False)
print("test mode mean", test_out.mean(0))
xl = x.clone().requires_grad_()
ln = torch.nn.functional.layer_norm(xl, (D,), ga.detach(), ba.detach(), eps)
ln.backward(dout)
mu = x.mean(1, keepdim=True)
v = x.var(1, unbiased=False, keepdim=True)
xh = (x - mu) / torch.sqrt(v + eps)
dxh = dout * gamma
dxl = (D * dxh - dxh.sum(1, keepdim=True) - xh * (dxh * xh).sum(1, keepdim=True)) / (
    D * torch.sqrt(v + eps))
print("layernorm dx err", (dxl - xl.grad).abs().max().item() < 1e-10)
print("layernorm row means", ln.mean(1))
print(ln.grad_fn.name())
