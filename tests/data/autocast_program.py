"""A mixed-precision training step under CPU autocast with a GradScaler; prints what a
library gives (run as ``python autocast_program.py torch|ember``)."""

import sys
import warnings

L = __import__(sys.argv[1])
warnings.simplefilter("ignore")
L.manual_seed(0)
lin = L.nn.Linear(4, 3)
conv = L.nn.Conv2d(2, 3, 3)
x = L.randn(5, 4, requires_grad=True)
img = L.randn(1, 2, 5, 5)
with L.autocast("cpu"):
    y = lin(x)
    print(y.dtype, y)
    print((x @ x.t()).dtype, L.mm(x, x.t()).dtype, L.bmm(x[None], x.t()[None]).dtype)
    c = conv(img)
    print(c.dtype, c.sum())
    print(L.exp(y).dtype, (y + x[:, :3]).dtype, y.sum().dtype, L.softmax(y, 0).dtype)
    print(L.nn.functional.mse_loss(y, x[:, :3]).dtype)
    print(L.is_autocast_enabled("cpu"), L.get_autocast_dtype("cpu"))
    loss = y.float().pow(2).mean()
loss.backward()
print(loss, x.grad, lin.weight.grad)
print(L.is_autocast_enabled("cpu"))
sc = L.amp.GradScaler("cpu", init_scale=4.0, growth_interval=2)
for i in range(4):
    out = lin(x).sum()
    if i == 1:
        out = out * float("inf")
    lin.zero_grad()
    sc.scale(out).backward()
    print(i, sc.get_scale(), lin.weight.grad.sum().item() if i != 1 else "inf")
    opt = L.optim.SGD(lin.parameters(), lr=0.0)
    sc.step(opt)
    sc.update()
    print(sc.state_dict())
