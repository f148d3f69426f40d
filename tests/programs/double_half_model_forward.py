# Models: dtype conversions of whole models without autocast: .double() for gradient checks,
# .half()/.bfloat16() forward passes on CPU, .to(dtype) on modules and tensors, parameter dtypes
# printed, mismatched-dtype errors and conversions back to float32.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
x = torch.randn(3, 4)
print("float32", model(x))
md = model.double()
print("param dtypes", {p.dtype for p in md.parameters()})
out_d = md(x.double())
print("float64", out_d, out_d.dtype)
try:
    md(x)
except RuntimeError as e:
    print("RuntimeError:", e)
mh = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
mh.load_state_dict({k: v.float() for k, v in model.state_dict().items()})
mh.half()
oh = mh(x.half())
print("half", oh, oh.dtype)
mb = mh.to(torch.bfloat16)
ob = mb(x.bfloat16())
print("bfloat16", ob, ob.dtype)
mf = mb.float()
print("back to float32", mf(x))
print("x.to(float16)", x.to(torch.float16))
print("x.half().float() roundtrip max err", (x.half().float() - x).abs().max().item() < 1e-3)
print("type()", x.type(), x.double().type(), x.half().type())
print("to(other)", x.to(torch.zeros(1, dtype=torch.float64)).dtype)
i = torch.tensor([1.7, -2.3, 3.5])
print("int conversions", i.int(), i.long(), i.to(torch.uint8), i.bool())
print("half ops", torch.tensor([1000.0, 0.1]).half() * 100)
print("bf16 precision", torch.tensor([1.0 + 1 / 256, 256.5]).bfloat16())
bn = nn.BatchNorm1d(4).double()
print("bn buffers dtype", bn.running_mean.dtype, bn.num_batches_tracked.dtype)
bn(x.double())
print("bn running_mean", bn.running_mean)
emb = nn.Embedding(5, 3).half()
print("embedding half", emb(torch.tensor([0, 4])).dtype)
loss = nn.functional.mse_loss(out_d, torch.zeros(3, 2, dtype=torch.float64))
loss.backward()
print("float64 loss", loss.item(), "grad dtype", md[0].weight.grad.dtype)
try:
    nn.functional.mse_loss(out_d, torch.zeros(3, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
