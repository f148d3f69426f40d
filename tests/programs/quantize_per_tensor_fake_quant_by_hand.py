# Models: a quantization primer: affine quantization by hand (scale, zero point, round, clamp),
# torch.quantize_per_tensor and per_channel with int_repr/dequantize/q_scale, the fake-quantize
# ops and their straight-through gradients, and the quantization error.
import torch

torch.manual_seed(8)
x = torch.randn(2, 6) * 3
qmin, qmax = -128, 127
scale = float((x.max() - x.min()) / (qmax - qmin))
zero_point = int(qmin - round(float(x.min()) / scale))
print("scale", scale, "zero_point", zero_point)
q_hand = torch.clamp(torch.round(x / scale) + zero_point, qmin, qmax)
deq_hand = (q_hand - zero_point) * scale
qt = torch.quantize_per_tensor(x, scale, zero_point, torch.qint8)
print(qt)
print("int_repr\n", qt.int_repr())
print("match by hand", torch.equal(qt.int_repr().float(), q_hand))
print("dequant\n", qt.dequantize())
print("q_scale", qt.q_scale(), "q_zero_point", qt.q_zero_point(), qt.dtype, qt.qscheme())
print("max error", (qt.dequantize() - x).abs().max().item(), "<= half scale", scale / 2)
qu = torch.quantize_per_tensor(x.abs(), 0.05, 0, torch.quint8)
print("quint8", qu.int_repr()[0])
scales = torch.tensor([0.02, 0.05])
zps = torch.tensor([0, 3])
qc = torch.quantize_per_channel(x, scales, zps, axis=0, dtype=torch.qint8)
print(qc.int_repr())
print("per channel scales", qc.q_per_channel_scales(), qc.q_per_channel_axis())
xr = x.clone().requires_grad_()
fq = torch.fake_quantize_per_tensor_affine(xr, 0.1, 0, -128, 127)
fq.sum().backward()
print("fake quant\n", fq)
print("STE grad (1 inside range)\n", xr.grad)
xr2 = torch.linspace(-20, 20, 9, requires_grad=True)
fq2 = torch.fake_quantize_per_tensor_affine(xr2, 0.1, 0, -128, 127)
fq2.sum().backward()
print("clipped grad", xr2.grad)
print(fq2.grad_fn.name())
fqc = torch.fake_quantize_per_channel_affine(x, scales, zps.int(), 0, -128, 127)
print("per channel fake\n", fqc)
