# Models: CS231n assignment 2's layers.py: conv_forward_naive / conv_backward_naive with
# explicit loops over filters and positions, max_pool_forward_naive / backward, spatial
# batchnorm and group norm forward via reshapes, checked against F.conv2d, F.max_pool2d,
# F.batch_norm, F.group_norm and autograd in float64.
import torch
import torch.nn.functional as F

torch.manual_seed(231)
dt = torch.float64


def conv_forward_naive(x, w, b, conv_param):
    stride, pad = conv_param["stride"], conv_param["pad"]
    N, C, H, W = x.shape
    Fn, _, HH, WW = w.shape
    x_pad = F.pad(x, (pad, pad, pad, pad))
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    out = torch.zeros(N, Fn, H_out, W_out, dtype=x.dtype)
    for n in range(N):
        for f in range(Fn):
            for i in range(H_out):
                for j in range(W_out):
                    window = x_pad[n, :, i * stride:i * stride + HH, j * stride:j * stride + WW]
                    out[n, f, i, j] = (window * w[f]).sum() + b[f]
    return out, (x, w, b, conv_param)


def conv_backward_naive(dout, cache):
    x, w, b, conv_param = cache
    stride, pad = conv_param["stride"], conv_param["pad"]
    x_pad = F.pad(x, (pad, pad, pad, pad))
    dx_pad = torch.zeros_like(x_pad)
    dw = torch.zeros_like(w)
    db = dout.sum(dim=(0, 2, 3))
    N, Fn, H_out, W_out = dout.shape
    _, _, HH, WW = w.shape
    for n in range(N):
        for f in range(Fn):
            for i in range(H_out):
                for j in range(W_out):
                    hs, ws = i * stride, j * stride
                    dw[f] += x_pad[n, :, hs:hs + HH, ws:ws + WW] * dout[n, f, i, j]
                    dx_pad[n, :, hs:hs + HH, ws:ws + WW] += w[f] * dout[n, f, i, j]
    return dx_pad[:, :, pad:pad + x.shape[2], pad:pad + x.shape[3]], dw, db


def max_pool_forward_naive(x, pool_param):
    ph, pw, s = pool_param["pool_height"], pool_param["pool_width"], pool_param["stride"]
    N, C, H, W = x.shape
    Ho, Wo = 1 + (H - ph) // s, 1 + (W - pw) // s
    out = torch.zeros(N, C, Ho, Wo, dtype=x.dtype)
    for i in range(Ho):
        for j in range(Wo):
            out[:, :, i, j] = x[:, :, i * s:i * s + ph, j * s:j * s + pw].amax(dim=(2, 3))
    return out, (x, pool_param)


def max_pool_backward_naive(dout, cache):
    x, pool_param = cache
    ph, pw, s = pool_param["pool_height"], pool_param["pool_width"], pool_param["stride"]
    dx = torch.zeros_like(x)
    N, C, Ho, Wo = dout.shape
    for n in range(N):
        for c in range(C):
            for i in range(Ho):
                for j in range(Wo):
                    win = x[n, c, i * s:i * s + ph, j * s:j * s + pw]
                    idx = torch.argmax(win)
                    r, q = divmod(idx.item(), pw)
                    dx[n, c, i * s + r, j * s + q] += dout[n, c, i, j]
    return dx


def rel_error(x, y):
    return (torch.abs(x - y) / torch.clamp(torch.abs(x) + torch.abs(y), min=1e-8)).max().item()


x = torch.randn(2, 3, 5, 5, dtype=dt)
w = torch.randn(4, 3, 3, 3, dtype=dt)
b = torch.randn(4, dtype=dt)
cp = {"stride": 2, "pad": 1}
out, cache = conv_forward_naive(x, w, b, cp)
print(out.shape, "vs conv2d:", rel_error(out, F.conv2d(x, w, b, stride=2, padding=1)) < 1e-10)
dout = torch.randn_like(out)
dx, dw, db = conv_backward_naive(dout, cache)
xa, wa, ba = (t.clone().requires_grad_() for t in (x, w, b))
F.conv2d(xa, wa, ba, stride=2, padding=1).backward(dout)
print("dx", rel_error(dx, xa.grad) < 1e-9, "dw", rel_error(dw, wa.grad) < 1e-9,
      "db", rel_error(db, ba.grad) < 1e-9)
print(out[0, 0])

xp = torch.randn(2, 2, 6, 6, dtype=dt)
pp = {"pool_height": 2, "pool_width": 2, "stride": 2}
pout, pcache = max_pool_forward_naive(xp, pp)
print("pool:", torch.equal(pout, F.max_pool2d(xp, 2, 2)))
pd = torch.randn_like(pout)
pdx = max_pool_backward_naive(pd, pcache)
xpa = xp.clone().requires_grad_()
F.max_pool2d(xpa, 2, 2).backward(pd)
print("pool dx:", torch.equal(pdx, xpa.grad))


def spatial_batchnorm_forward(x, gamma, beta, eps=1e-5):
    N, C, H, W = x.shape
    xt = x.permute(0, 2, 3, 1).reshape(-1, C)
    mu, var = xt.mean(0), xt.var(0, unbiased=False)
    out = (xt - mu) / torch.sqrt(var + eps) * gamma + beta
    return out.reshape(N, H, W, C).permute(0, 3, 1, 2)


def spatial_groupnorm_forward(x, gamma, beta, G, eps=1e-5):
    N, C, H, W = x.shape
    xg = x.reshape(N, G, -1)
    mu, var = xg.mean(-1, keepdim=True), xg.var(-1, unbiased=False, keepdim=True)
    xn = ((xg - mu) / torch.sqrt(var + eps)).reshape(N, C, H, W)
    return xn * gamma.view(1, C, 1, 1) + beta.view(1, C, 1, 1)


xb = 4 * torch.randn(5, 4, 3, 3, dtype=dt) + 10
gamma = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=dt)
beta = torch.tensor([0.0, -1.0, 1.0, 2.0], dtype=dt)
bn = spatial_batchnorm_forward(xb, gamma, beta)
print("bn:", rel_error(bn, F.batch_norm(xb, None, None, gamma, beta, training=True)) < 1e-10)
print("bn means:", bn.mean(dim=(0, 2, 3)), "stds:", bn.std(dim=(0, 2, 3), unbiased=False))
gn = spatial_groupnorm_forward(xb, gamma, beta, 2)
print("gn:", rel_error(gn, F.group_norm(xb, 2, gamma, beta)) < 1e-10)
print(F.group_norm(xb, 2, gamma, beta)[0, :, 0, 0])
