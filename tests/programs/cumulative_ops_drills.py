# Models: a worksheet on scans: cumsum/cumprod/cummax/cummin/logcumsumexp along dims and dtypes,
# running means, prefix-sum tricks (range sums, segment ids, integral images), diff with prepend,
# the int cumsum dtype rule, and gradients of cumprod with zeros.
import torch

x = torch.tensor([[1, 2, 3, 4], [5, -6, 7, 0]])
print("cumsum 0\n", x.cumsum(0), "\ncumsum 1\n", x.cumsum(1))
print(
    "cumsum dtype",
    x.cumsum(1).dtype,
    torch.tensor([1, 2], dtype=torch.int8).cumsum(0).dtype,
    torch.tensor([True, True]).cumsum(0),
    x.cumsum(1, dtype=torch.float64).dtype,
)
print("cumprod", x.cumprod(1))
print("cummax", torch.cummax(torch.tensor([1.0, 3.0, 2.0, 3.0, 5.0, 0.0]), 0))
print("cummin", torch.tensor([[4, 2, 3, 1]]).cummin(1))
print("cummax nan", torch.cummax(torch.tensor([1.0, float("nan"), 2.0]), 0))
f = torch.tensor([0.1, 2.0, -3.0, 50.0, 51.0])
print("logcumsumexp", f.logcumsumexp(0))
print("naive", torch.log(torch.cumsum(f.exp(), 0)))
print("running mean", x[0].float().cumsum(0) / torch.arange(1, 5))
a = torch.arange(10)
ps = torch.cat([torch.zeros(1, dtype=a.dtype), a.cumsum(0)])
print(
    "range sums [2,5) [0,10) [7,9)",
    (ps[5] - ps[2]).item(),
    (ps[10] - ps[0]).item(),
    (ps[9] - ps[7]).item(),
)
lengths = torch.tensor([3, 1, 2])
seg = torch.zeros(lengths.sum(), dtype=torch.long)
seg[lengths.cumsum(0)[:-1]] = 1
print("segment ids", seg.cumsum(0), torch.repeat_interleave(torch.arange(3), lengths))
img = torch.arange(16.0).reshape(4, 4)
ii = img.cumsum(0).cumsum(1)
print("integral image\n", ii)
box = ii[3, 3] - ii[0, 3] - ii[3, 0] + ii[0, 0]
print("box sum [1:4,1:4]", box.item(), img[1:, 1:].sum().item())
print(
    "diff",
    torch.diff(torch.tensor([1, 4, 9, 16])),
    torch.diff(torch.tensor([1, 4, 9, 16]), n=2),
    torch.diff(torch.tensor([1, 4]), prepend=torch.tensor([0]), append=torch.tensor([20, 30])),
)
print("diff 2d dim 0\n", torch.diff(img, dim=0))
print("diff bool", torch.diff(torch.tensor([True, True, False])))
p = torch.tensor([2.0, 0.0, 3.0, 4.0], requires_grad=True)
p.cumprod(0).sum().backward()
print("cumprod grad with a zero", p.grad)
q = torch.tensor([2.0, 0.0, 3.0, 0.0], requires_grad=True)
q.cumprod(0).sum().backward()
print("cumprod grad with two zeros", q.grad)
r = torch.tensor([1.0, 3.0, 2.0, 5.0], requires_grad=True)
torch.cummax(r, 0).values.sum().backward()
print("cummax grad", r.grad)
s = torch.tensor([0.5, 1.5, -2.0], requires_grad=True)
s.logcumsumexp(0).sum().backward()
print("logcumsumexp grad", s.grad)
c = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = c.cumsum(0)
print(y.grad_fn.name(), torch.cumprod(c, 0).grad_fn.name())
print("cumsum_ in place", torch.ones(4).cumsum_(0), torch.tensor([1.0, 2.0, 3.0]).cumprod_(0))
print("empty cumsum", torch.tensor([]).cumsum(0), torch.zeros(2, 0).cummax(1))
print("float16 cumsum", torch.full((6,), 0.1, dtype=torch.float16).cumsum(0))
try:
    x.cumsum(2)
except IndexError as e:
    print("IndexError:", e)
