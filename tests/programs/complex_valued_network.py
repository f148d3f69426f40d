# Models: complex-valued neural networks as in public signal-processing repos (complexPyTorch
# style): nn.Linear with dtype=torch.cfloat, modReLU and CReLU activations, a complex
# batch-free normalisation, Wirtinger-calculus gradients through abs/angle/conj, Adam and SGD
# on complex parameters, fitting a complex channel (a filter applied in the frequency domain),
# and printing complex tensors, view_as_real and polar forms.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

z = torch.tensor([1 + 2j, -0.5 + 0.1j, 3 - 4j])
print(z, z.dtype, z.abs(), z.angle())
print("conj:", z.conj(), z.conj_physical(), torch.equal(z.conj().resolve_conj(), z.conj()))
print("view_as_real:\n", torch.view_as_real(z))
print("polar round trip:", torch.polar(z.abs(), z.angle()))
print("real/imag:", z.real, z.imag, torch.complex(z.real, -z.imag))
print("sgn:", z.sgn(), "exp:", torch.exp(1j * torch.tensor([0.0, math.pi / 2])))

w = torch.tensor([0.5 - 1j, 2 + 0.5j], requires_grad=True)
loss = (w * w.conj()).real.sum() + w.abs().sum()
loss.backward()
print("Wirtinger gradient of |w|^2 + |w|:", w.grad)
w.grad = None
(w.angle().sum()).backward()
print("gradient of angle:", w.grad)


class ModReLU(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.b = nn.Parameter(torch.full((features,), -0.1))

    def forward(self, z):
        mag = z.abs()
        return F.relu(mag + self.b) * z / (mag + 1e-6)


def crelu(z):
    return torch.complex(F.relu(z.real), F.relu(z.imag))


class ComplexNet(nn.Module):
    def __init__(self, n_in, hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, hidden, dtype=torch.cfloat)
        self.act = ModReLU(hidden)
        self.fc2 = nn.Linear(hidden, n_out, dtype=torch.cfloat)

    def forward(self, z):
        return self.fc2(self.act(self.fc1(z)))


net = ComplexNet(8, 16, 8)
print(net)
print(
    "weight dtype:",
    net.fc1.weight.dtype,
    "param count (complex):",
    sum(p.numel() for p in net.parameters()),
)
print("crelu:", crelu(z))

# a complex channel: y = IFFT(H * FFT(x)) + noise
n = 8
H = torch.polar(torch.linspace(1.0, 0.3, n), torch.linspace(0, math.pi, n))
X = torch.randn(128, n, dtype=torch.cfloat)
Y = torch.fft.ifft(H * torch.fft.fft(X)) + 0.01 * torch.randn(128, n, dtype=torch.cfloat)
print("channel H:", H[:3])

for opt_name in ["adam", "sgd"]:
    torch.manual_seed(1)
    model = ComplexNet(8, 16, 8)
    if opt_name == "adam":
        opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    else:
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(60):
        pred = model(X)
        loss = (pred - Y).abs().pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 19:
            print(f"{opt_name} step {step + 1} loss {loss.item():.5f}")
    state = opt.state[model.fc1.weight]
    print(
        opt_name,
        "state keys:",
        sorted(state),
        "dtypes:",
        sorted({str(v.dtype) for v in state.values() if torch.is_tensor(v)}),
    )

# a linear complex layer can recover the channel matrix exactly by least squares
F_mat = torch.fft.ifft(
    torch.diag(H) @ torch.fft.fft(torch.eye(n, dtype=torch.cfloat), dim=0), dim=0
)
sol = torch.linalg.lstsq(X, Y).solution
print("least-squares channel error:", (sol - F_mat.T).abs().max() < 0.02)
print("circulant:", torch.allclose(F_mat[1:, 1:], F_mat[:-1, :-1], atol=1e-6))
lin = nn.Linear(n, n, bias=False, dtype=torch.cfloat)
opt = torch.optim.Adam(lin.parameters(), lr=0.05)
for step in range(150):
    loss = (lin(X) - Y).abs().pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(
    f"complex linear fit loss {loss.item():.6f}, weight error "
    f"{(lin.weight.detach() - F_mat).abs().max().item() < 0.05}"
)
print(
    "mixed real/complex ops:",
    torch.ones(2) * (1 + 1j),
    torch.tensor([1, 2]) + 0.5j,
    (torch.ones(2, dtype=torch.cdouble) * 2).dtype,
)
print("complex matmul:", torch.tensor([[1j, 1.0]]) @ torch.tensor([[2.0], [1j]]))
for name, fn in [
    ("compare", lambda: torch.tensor([1 + 1j]) > 0),
    ("argmax", lambda: z.argmax()),
    ("floor", lambda: z.floor()),
    ("maximum", lambda: torch.maximum(z, z)),
    ("sign", lambda: z.sign()),
]:
    try:
        fn()
    except RuntimeError as e:
        print(f"{name}: {type(e).__name__}: {e}")
try:
    F.relu(z)
except RuntimeError as e:
    print("RuntimeError:", e)
