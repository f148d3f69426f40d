# Models: an image-processing course's Fourier section: rfft2/irfft2 round trips, fftfreq and
# rfftfreq with spacing, fftshift/ifftshift, the norm modes ("forward", "ortho"), hfft/ihfft,
# fftn over chosen dims, and a low-pass filter in the frequency domain.
import torch

torch.manual_seed(3)
img = torch.randn(6, 8, dtype=torch.float64)
F2 = torch.fft.rfft2(img)
print("rfft2 shape", F2.shape, F2.dtype)
print("roundtrip", torch.allclose(torch.fft.irfft2(F2, s=img.shape), img))
print("fftfreq", torch.fft.fftfreq(8), torch.fft.fftfreq(5, d=0.1))
print("rfftfreq", torch.fft.rfftfreq(8, d=0.5))
f = torch.fft.fft2(img)
print("dc", f[0, 0].real.item(), img.sum().item())
shifted = torch.fft.fftshift(f)
print("shifted dc at", (shifted.abs() == f[0, 0].abs()).nonzero().tolist())
print("ifftshift back", torch.allclose(torch.fft.ifftshift(shifted), f))
print("fftshift 1d", torch.fft.fftshift(torch.arange(7)), torch.fft.ifftshift(torch.arange(6)))
x = torch.arange(8.0, dtype=torch.float64)
for norm in ["backward", "forward", "ortho"]:
    X = torch.fft.fft(x, norm=norm)
    print(norm, X[:3], torch.allclose(torch.fft.ifft(X, norm=norm).real, x))
print("hfft", torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0], dtype=torch.complex128)))
print("ihfft", torch.fft.ihfft(x))
print("fftn dims", torch.fft.fftn(img, dim=(0,)).shape, torch.fft.fftn(img, s=(4, 4)).shape)
fy = torch.fft.fftfreq(6).unsqueeze(1)
fx = torch.fft.rfftfreq(8).unsqueeze(0)
mask = (fy ** 2 + fx ** 2).sqrt() < 0.25
low = torch.fft.irfft2(F2 * mask, s=img.shape)
print("kept", int(mask.sum()), "energy ratio", (low.pow(2).sum() / img.pow(2).sum()).item())
xr = img.clone().requires_grad_()
torch.fft.rfft2(xr).abs().sum().backward()
print("grad row", xr.grad[0])
