# Models: a hand-written torchvision-style transform pipeline (no torchvision): ToTensor-like
# scaling, Normalize, RandomResizedCrop-ish crop + resize, RandomHorizontalFlip, ColorJitter
# (brightness/contrast/saturation) and Grayscale, all driven by a seeded torch.Generator.
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2024)
img_u8 = torch.randint(0, 256, (3, 12, 12), dtype=torch.uint8, generator=g)
print(img_u8.dtype, img_u8[0, :2, :6])
img = img_u8.float().div(255)
mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)


def normalize(t):
    return (t - mean) / std


def rgb_to_grayscale(t):
    r, gg, b = t.unbind(-3)
    return (0.2989 * r + 0.587 * gg + 0.114 * b).unsqueeze(-3)


def blend(a, b, ratio):
    return (ratio * a + (1.0 - ratio) * b).clamp(0, 1)


def color_jitter(t, brightness=0.4, contrast=0.4, saturation=0.4):
    order = torch.randperm(3, generator=g)
    for fn_id in order.tolist():
        if fn_id == 0:
            f = float(torch.empty(1).uniform_(1 - brightness, 1 + brightness, generator=g))
            t = blend(t, torch.zeros_like(t), f)
        elif fn_id == 1:
            f = float(torch.empty(1).uniform_(1 - contrast, 1 + contrast, generator=g))
            m = rgb_to_grayscale(t).mean(dim=(-3, -2, -1), keepdim=True)
            t = blend(t, m, f)
        else:
            f = float(torch.empty(1).uniform_(1 - saturation, 1 + saturation, generator=g))
            t = blend(t, rgb_to_grayscale(t), f)
    return t, order


def random_crop_resize(t, size=8, scale=(0.5, 1.0)):
    H, W = t.shape[-2:]
    area = H * W * torch.empty(1).uniform_(*scale, generator=g).item()
    side = int(round(area**0.5))
    side = min(side, H, W)
    i = torch.randint(0, H - side + 1, (1,), generator=g).item()
    j = torch.randint(0, W - side + 1, (1,), generator=g).item()
    crop = t[..., i : i + side, j : j + side]
    return F.interpolate(
        crop[None], size=(size, size), mode="bilinear", align_corners=False, antialias=True
    )[0], (i, j, side)


def hflip(t, p=0.5):
    if torch.rand(1, generator=g) < p:
        return t.flip(-1), True
    return t, False


for k in range(3):
    t, box = random_crop_resize(img)
    t, flipped = hflip(t)
    t, order = color_jitter(t)
    t = normalize(t)
    print(k, box, flipped, order.tolist(), t.shape)
    print(t.mean(dim=(1, 2)), t.std(dim=(1, 2)))
print(rgb_to_grayscale(img).shape)
print(normalize(img)[:, 0, 0])
batch = torch.stack([normalize(hflip(img)[0]) for _ in range(4)])
print(batch.shape, batch.amax(dim=(1, 2, 3)))
