# Models: "image processing without torchvision" snippets: resizing a synthetic image with
# F.interpolate in nearest/bilinear/bicubic/area modes (align_corners on and off), rotating with
# affine_grid + grid_sample, a Gaussian blur as a depthwise conv2d, Sobel edge magnitudes,
# morphological opening/closing with max_pool2d, and a Laplacian sharpening kernel.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
img = torch.zeros(1, 1, 8, 8)
img[0, 0, 2:6, 3:5] = 1.0
img[0, 0, 1, 1] = 0.5
rgb = torch.rand(1, 3, 6, 6)
torch.set_printoptions(precision=3)

for mode, kw in [("nearest", {}), ("bilinear", {"align_corners": False}),
                 ("bilinear", {"align_corners": True}), ("bicubic", {"align_corners": False}),
                 ("area", {})]:
    out = F.interpolate(img, size=(4, 4), mode=mode, **kw)
    print(mode, kw, "->", tuple(out.shape), "sum", round(out.sum().item(), 4))
    print(out[0, 0])
up = F.interpolate(rgb, scale_factor=1.5, mode="bilinear", align_corners=False)
print("upsampled rgb", up.shape, up.mean((2, 3)))
print("nearest-exact", F.interpolate(img, size=(3, 5), mode="nearest-exact")[0, 0])


def rotate(x, degrees):
    th = math.radians(degrees)
    theta = torch.tensor([[math.cos(th), -math.sin(th), 0.0],
                          [math.sin(th), math.cos(th), 0.0]]).unsqueeze(0).repeat(x.shape[0], 1, 1)
    grid = F.affine_grid(theta, x.shape, align_corners=False)
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)


r90 = rotate(img, 90)
print("rotate 90 by grid_sample vs rot90:",
      torch.allclose(r90, torch.rot90(img, 1, dims=(2, 3)), atol=1e-5)
      or torch.allclose(r90, torch.rot90(img, -1, dims=(2, 3)), atol=1e-5))
print("rotate 30 mass", rotate(img, 30).sum().item())
print(rotate(img, 30)[0, 0])


def gaussian_kernel(size, sigma):
    ax = torch.arange(size) - (size - 1) / 2
    g = torch.exp(-ax ** 2 / (2 * sigma ** 2))
    g = g / g.sum()
    return torch.outer(g, g)


k = gaussian_kernel(5, 1.0)
print("gaussian kernel", k)
blur = F.conv2d(rgb, k.expand(3, 1, 5, 5), padding=2, groups=3)
blur_reflect = F.conv2d(F.pad(rgb, (2, 2, 2, 2), mode="reflect"), k.expand(3, 1, 5, 5), groups=3)
print("blur zero-pad means", blur.mean((2, 3)), "reflect", blur_reflect.mean((2, 3)))

sobel_x = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
kernels = torch.stack([sobel_x, sobel_x.T]).unsqueeze(1)
grads = F.conv2d(F.pad(img, (1, 1, 1, 1), mode="replicate"), kernels)
mag = grads.pow(2).sum(1).sqrt()
print("sobel magnitude", mag[0])
print("edge pixels:", (mag > 1).sum().item())


def dilate(x, k=3):
    return F.max_pool2d(x, k, stride=1, padding=k // 2)


def erode(x, k=3):
    return -F.max_pool2d(-x, k, stride=1, padding=k // 2)


binary = (img > 0.25).float()
noisy = binary.clone()
noisy[0, 0, 6, 6] = 1.0
noisy[0, 0, 3, 3] = 0.0
opened = dilate(erode(noisy))
closed = erode(dilate(noisy))
print("noisy\n", noisy[0, 0].int())
print("opening\n", opened[0, 0].int())
print("closing\n", closed[0, 0].int())
print("morphological gradient pixels", (dilate(binary) - erode(binary)).sum().item())

lap = torch.tensor([[0.0, -1.0, 0.0], [-1.0, 5.0, -1.0], [0.0, -1.0, 0.0]]).view(1, 1, 3, 3)
sharp = F.conv2d(F.pad(img, (1, 1, 1, 1), mode="replicate"), lap).clamp(0, 1)
print("sharpened", sharp[0, 0, 1:7, 1:7])
