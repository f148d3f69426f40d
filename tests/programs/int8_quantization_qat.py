# Models: int8 quantization done by hand, as in the LLM.int8 / "quantization from scratch"
# tutorials and the fake-quant ops of torch's quantization-aware training: symmetric absmax
# per-tensor and per-channel weight quantization to torch.int8, integer matmul accumulated in
# int32 and rescaled, the quantization error, asymmetric activation quantization with
# zero points, torch.fake_quantize_per_tensor_affine / per_channel_affine with their
# straight-through gradients, and a short QAT fine-tune of an MLP.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
W = torch.randn(8, 16) * torch.linspace(0.2, 2.0, 8)[:, None]
x = torch.randn(4, 16)

scale_t = W.abs().max() / 127
Wq_t = torch.clamp(torch.round(W / scale_t), -127, 127).to(torch.int8)
scale_c = W.abs().amax(1, keepdim=True) / 127
Wq_c = torch.clamp(torch.round(W / scale_c), -127, 127).to(torch.int8)
print("int8 weights", Wq_c.dtype, Wq_c[0, :6].tolist(), "scales", scale_c.squeeze(1))
err_t = (Wq_t.float() * scale_t - W).pow(2).mean()
err_c = (Wq_c.float() * scale_c - W).pow(2).mean()
print(f"weight MSE per-tensor {err_t.item():.3e} per-channel {err_c.item():.3e}")

sx = x.abs().amax(1, keepdim=True) / 127
xq = torch.clamp(torch.round(x / sx), -127, 127).to(torch.int8)
acc = xq.to(torch.int32) @ Wq_c.to(torch.int32).T
print("int32 accumulators", acc.dtype, acc[0].tolist())
y_int8 = acc.float() * sx * scale_c.T
y_ref = x @ W.T
print("int8 matmul rel error", ((y_int8 - y_ref).norm() / y_ref.norm()).item())

# asymmetric (affine) quantization of a ReLU activation to uint8
a = F.relu(torch.randn(3, 10))
lo, hi = a.min(), a.max()
scale_a = (hi - lo) / 255
zp = int(torch.round(-lo / scale_a).clamp(0, 255))
aq = torch.clamp(torch.round(a / scale_a) + zp, 0, 255).to(torch.uint8)
print("uint8 activation", aq[0].tolist(), "zero point", zp,
      "max error", ((aq.float() - zp) * scale_a - a).abs().max().item())

v = torch.linspace(-1.5, 1.5, 13, requires_grad=True)
fq = torch.fake_quantize_per_tensor_affine(v, 0.1, 3, -8, 7)
fq.sum().backward()
print("fake quant", fq.detach().tolist())
print("straight-through grad", v.grad.tolist())
w = torch.randn(3, 5, requires_grad=True)
scales = torch.tensor([0.05, 0.1, 0.2])
zps = torch.tensor([0, 1, -1], dtype=torch.int32)
fqc = torch.fake_quantize_per_channel_affine(w, scales, zps, 0, -8, 7)
(fqc * torch.arange(15.0).view(3, 5)).sum().backward()
print("per-channel fake quant", fqc.detach())
print("per-channel grad", w.grad)


class FakeQuant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        return torch.clamp(torch.round(x / scale), -127, 127) * scale

    @staticmethod
    def backward(ctx, g):
        return g, None


class QATLinear(nn.Linear):
    def forward(self, x):
        s = self.weight.detach().abs().amax(1, keepdim=True) / 127
        return F.linear(x, FakeQuant.apply(self.weight, s), self.bias)


Xd = torch.randn(256, 16)
yd = (Xd[:, :4].sum(1) > Xd[:, 4:8].sum(1)).long()
torch.manual_seed(1)
model = nn.Sequential(QATLinear(16, 32), nn.ReLU(), QATLinear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(10):
    for i in range(0, 256, 32):
        loss = F.cross_entropy(model(Xd[i:i + 32]), yd[i:i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 3 == 2 or epoch == 9:
        with torch.no_grad():
            acc = (model(Xd).argmax(1) == yd).float().mean().item()
        print(f"QAT epoch {epoch} loss {loss.item():.5f} acc {acc:.4f}")
with torch.no_grad():
    lin = model[0]
    s = lin.weight.abs().amax(1, keepdim=True) / 127
    q = torch.clamp(torch.round(lin.weight / s), -127, 127).to(torch.int8)
    print("deployed int8 rows", q[:2, :8].tolist())
    print("distinct levels", torch.unique(q).numel(), "bincount of |q|<4",
          torch.bincount(q.abs().flatten().long())[:4].tolist())
