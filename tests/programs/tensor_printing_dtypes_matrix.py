# Models: the printing a debugging session produces: tensors of every dtype (bool, uint8,
# int8/16/32/64, uint16/32/64, float16, bfloat16, float32/64, complex64/128) in 0-d, 1-d,
# empty, large-summarised and wide shapes, with inf/nan, tiny and huge magnitudes, negative
# zero, requires_grad / grad_fn suffixes, set_printoptions profiles and sci_mode, and str()
# of dtypes, sizes, devices and finfo/iinfo.
import torch

torch.manual_seed(0)
dtypes = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.uint16, torch.uint32, torch.uint64, torch.float16, torch.bfloat16,
          torch.float32, torch.float64, torch.complex64, torch.complex128]
base = torch.tensor([0.0, 1.5, -2.25, 3.0, 100.0, -0.0])
for dt in dtypes:
    if dt.is_floating_point or dt.is_complex:
        t = base.to(dt)
    elif dt == torch.bool:
        t = base != 0
    elif dt in (torch.uint8, torch.uint16, torch.uint32, torch.uint64):
        t = base.abs().to(dt)
    else:
        t = base.to(dt)
    print(dt, t.element_size(), t.is_signed() if dt != torch.bool else None)
    print(t)
    print(t[1], t[:0], t.reshape(2, 3))
special = torch.tensor([float("inf"), -float("inf"), float("nan"), 1e-8, 1e8, -0.0])
for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    print(special.to(dt))
print(torch.tensor([1e-5, 1.0, 1e5]))
print(torch.tensor([1e-5, 1.0, 1e3]))
print(torch.tensor([123456789.0, 1.0]))
print(torch.tensor([0.1, 0.25], dtype=torch.float64) * 1e-12)
print(torch.complex(torch.tensor([1.0, -0.0, float("nan")]), torch.tensor([-1e-6, 2.0, 1.0])))
print(torch.randn(3, 4, dtype=torch.complex64))
print(torch.arange(2000).reshape(40, 50))
print(torch.randn(1001)[::100])
print(torch.randn(2, 3, 4).half())
print(torch.linspace(0, 1, 12).reshape(3, 4).bfloat16())
w = torch.randn(2, 2, requires_grad=True)
print(w, w * 2, (w * 2).sum(), w.detach().requires_grad_(False))
print(torch.nn.Parameter(torch.ones(2, dtype=torch.float64)))
print(torch.zeros(0, 3), torch.zeros(2, 0, dtype=torch.int64), torch.empty(0, dtype=torch.bool))
print(torch.tensor(3), torch.tensor(2.5, dtype=torch.float64), torch.tensor(True),
      torch.tensor(1 + 2j))
torch.set_printoptions(precision=2)
print(torch.tensor([3.14159, 2.71828]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([3.14159, 2.71828]))
torch.set_printoptions(profile="short")
print(torch.randn(20, 20))
torch.set_printoptions(profile="full")
print(torch.arange(30).reshape(3, 10))
torch.set_printoptions(profile="default", linewidth=40)
print(torch.randn(3, 8))
torch.set_printoptions(linewidth=80)
print(torch.Size([2, 3]), torch.Size([]), torch.device("cpu"), torch.float16, torch.int64)
print(str(torch.finfo(torch.bfloat16)), torch.iinfo(torch.int16))
print(torch.finfo(torch.float16).tiny, torch.finfo().eps, torch.iinfo(torch.uint8).max)
print(repr(torch.tensor([1, 2], dtype=torch.int32)), str(torch.tensor([1.0], dtype=torch.float16)))
print(f"{torch.tensor(0.1234567):.3f}", f"{torch.tensor(7)}", format(torch.tensor(2.5), "e"))
print(torch.tensor([[True, False], [False, True]]), torch.tensor([-1, 127], dtype=torch.int8))
