# Models: a communications-course notebook: QPSK symbols through a multipath channel built with
# complex tensors, OFDM with torch.fft.ifft/fft and a cyclic prefix, per-subcarrier least
# squares and MMSE equalisation, a complex-valued linear equaliser trained with Adam on
# view_as_real losses, and symbol-error-rate / EVM in dB; torch.polar, angle, conj_physical.
import math

import torch

torch.manual_seed(5)
N, CP, n_sym = 32, 8, 40
bits = torch.randint(0, 2, (n_sym, N, 2))
qpsk = ((1 - 2 * bits[..., 0]) + 1j * (1 - 2 * bits[..., 1])).to(torch.complex64) / math.sqrt(2)
print(qpsk.dtype, qpsk[0, :4])
h = torch.polar(torch.tensor([1.0, 0.5, 0.25]), torch.tensor([0.0, 1.0, -2.0]))
print("channel:", h, h.abs(), h.angle())
x_time = torch.fft.ifft(qpsk, dim=1, norm="ortho")
tx = torch.cat([x_time[:, -CP:], x_time], dim=1).reshape(-1)
rx = torch.zeros(tx.shape[0] + len(h) - 1, dtype=torch.complex64)
for k in range(len(h)):
    rx[k:k + tx.shape[0]] += h[k] * tx
snr_db = 15.0
noise_std = math.sqrt(10 ** (-snr_db / 10) / 2)
noise = torch.complex(torch.randn(rx.shape), torch.randn(rx.shape)) * noise_std
rx = (rx + noise)[: tx.shape[0]].reshape(n_sym, N + CP)[:, CP:]
Y = torch.fft.fft(rx, dim=1, norm="ortho")
H_true = torch.fft.fft(torch.cat([h, torch.zeros(N - len(h), dtype=h.dtype)]))
pilots = qpsk[:4]
H_ls = (Y[:4] / pilots).mean(0)
print("LS channel error:", (H_ls - H_true).abs().mean().item())
sigma2 = 2 * noise_std ** 2
W_mmse = H_ls.conj() / (H_ls.abs() ** 2 + sigma2)
for name, eq in (("zf", Y / H_ls), ("mmse", Y * W_mmse)):
    dec = torch.complex(torch.sign(eq.real), torch.sign(eq.imag)) / math.sqrt(2)
    ser = (dec[4:] != qpsk[4:]).float().mean().item()
    evm = 10 * torch.log10(((eq[4:] - qpsk[4:]).abs() ** 2).mean() / (qpsk.abs() ** 2).mean())
    print(f"{name}: SER {ser:.4f} EVM {evm.item():.3f} dB")

taps = torch.zeros(N, dtype=torch.complex64, requires_grad=True)
opt = torch.optim.Adam([taps], lr=0.05)
for step in range(60):
    opt.zero_grad()
    eq = Y[:4] * taps
    loss = torch.view_as_real(eq - pilots).pow(2).sum(-1).mean()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step}: loss {loss.item():.6f} grad dtype {taps.grad.dtype}")
print("learned vs mmse:", (taps.detach() - W_mmse).abs().max().item() < 0.5)
c = torch.tensor([1 + 2j, -3 - 1j], dtype=torch.complex128)
print(c.conj_physical(), c.conj().is_conj(), torch.view_as_real(c), c * c.conj())
print(torch.fft.fftshift(torch.fft.fftfreq(8, d=0.5)), torch.fft.rfftfreq(8))
spec = torch.fft.rfft(torch.cos(2 * math.pi * 3 * torch.arange(16) / 16))
print(spec.abs().round(decimals=4), torch.fft.irfft(spec, n=16)[:4])
print(torch.fft.fft2(torch.eye(3, dtype=torch.complex64)))
print(torch.fft.hfft(torch.tensor([1.0, 2.0 + 1j, 3.0]), n=4))
