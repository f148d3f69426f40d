# Models: the "print everything while debugging" habit: tensors of every dtype and many shapes
# and magnitudes (empty, 0-d, wide rows, huge/tiny floats, mixed inf/nan, negative zero,
# integers near their limits, bool, complex, float16/bfloat16), with grad_fn/requires_grad
# suffixes, summarised large tensors, and set_printoptions profiles.
import torch

torch.manual_seed(0)
print(torch.empty(0), torch.empty(2, 0), torch.empty(0, 3, dtype=torch.long))
print(torch.zeros(1, 0, 2, dtype=torch.float16), torch.tensor([], dtype=torch.bool))
print(torch.tensor(3.5), torch.tensor(-0.0), torch.tensor(7), torch.tensor(True),
      torch.tensor(2 + 3j))
print(torch.tensor([1e-8, 1.0, 1e8]), torch.tensor([1e-5, 2e-5]), torch.tensor([123456.0, 1.5]))
print(torch.tensor([float("inf"), -float("inf"), float("nan"), 1.25, -0.0]))
print(torch.tensor([1.0, 2.0, 3.0]) * 1e20, torch.tensor([0.1, 0.25]) * 1e-20)
print(torch.tensor([[1e-3, 5e2], [7.0, 3e4]], dtype=torch.float64))
for dt in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64):
    info = torch.iinfo(dt)
    print(dt, torch.tensor([info.min, 0, info.max], dtype=dt))
print(torch.tensor([-128, 127], dtype=torch.int8) + torch.tensor([-1, 1], dtype=torch.int8))
print(torch.tensor([250, 10], dtype=torch.uint8) + 10)
for dt in (torch.float16, torch.bfloat16):
    x = torch.tensor([0.1, 1 / 3, 65504.0, 1e-4, -2.5], dtype=torch.float32).to(dt)
    print(x, x.float())
print(torch.tensor([1 + 2j, -0.5j, 3.25 + 0j], dtype=torch.complex64))
print(torch.tensor([1e10 + 1j, 1e-3 - 2j], dtype=torch.complex128))
print(torch.randn(2, 3, dtype=torch.cfloat))
print(torch.rand(3, 3) > 0.5)
x = torch.randn(4, 3, requires_grad=True)
y = (x * 2).sum(0)
print(x[:1], y, y.mean(), x.T[0], x.view(-1)[:2])
with torch.no_grad():
    print(x[:1] * 2)
print(x.detach()[0], torch.nn.Parameter(torch.ones(2)))
big = torch.arange(2000).reshape(40, 50)
print(big)
print(torch.arange(1200.0) / 7)
print(torch.randn(3, 4, 5))
print(torch.ones(2, 1, 2, 1))
print(torch.linspace(0, 1, 12).reshape(3, 4).T)
wide = torch.randn(2, 30)
print(wide)
torch.set_printoptions(precision=2, sci_mode=True)
print(torch.tensor([0.5, 123.456]), wide[:, :4])
torch.set_printoptions(profile="full")
print(torch.arange(1005)[-10:], torch.arange(1001).shape)
torch.set_printoptions(profile="short")
print(torch.randn(3, 3), torch.arange(20.0))
torch.set_printoptions(profile="default")
torch.set_printoptions(linewidth=40)
print(torch.arange(30.0).reshape(2, 15))
torch.set_printoptions(linewidth=80, edgeitems=2, threshold=10)
print(torch.arange(100).reshape(10, 10))
torch.set_printoptions(profile="default")
print(torch.tensor([10.0, 100.0, 1000.0]), torch.tensor([0.001, 1000.0]))
print(torch.tensor([1.0, 2.0]).double(), torch.tensor([1, 2]).short().dtype,
      torch.tensor([1.5]).half())
print(repr(torch.tensor([[True, False]])), str(torch.tensor(1.0, dtype=torch.float64)))
print(f"{torch.tensor(3.14159):.3f}", f"{str(torch.tensor(2)):>8}", format(torch.tensor(1.0)))
print(torch.tensor([1, 2, 3]).tolist(), torch.tensor(2.5).item(), torch.tensor([[1.5]]).numpy())
