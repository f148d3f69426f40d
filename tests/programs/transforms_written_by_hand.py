# Models: torchvision-style transforms written by hand in a project without torchvision:
# Compose, ToTensor from uint8 HWC arrays, RandomCrop with padding, RandomHorizontalFlip,
# ColorJitter (brightness/contrast/saturation), Normalize, RandomErasing and a per-channel
# dataset mean/std pass, each printing what it does to a tiny image batch.
import torch
import torch.nn.functional as F


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x

    def __repr__(self):
        body = "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({body}\n)"


class ToTensor:
    def __call__(self, img):
        return img.permute(2, 0, 1).contiguous().to(torch.float32).div(255)

    def __repr__(self):
        return "ToTensor()"


class RandomCrop:
    def __init__(self, size, padding=0, padding_mode="constant"):
        self.size, self.padding, self.mode = size, padding, padding_mode

    def __call__(self, x):
        if self.padding:
            p = [self.padding] * 4
            x = F.pad(x[None], p, mode=self.mode)[0] if self.mode != "constant" else F.pad(x, p)
        h, w = x.shape[-2:]
        i = torch.randint(0, h - self.size + 1, size=(1,)).item()
        j = torch.randint(0, w - self.size + 1, size=(1,)).item()
        return x[..., i:i + self.size, j:j + self.size]

    def __repr__(self):
        return f"RandomCrop(size={self.size}, padding={self.padding}, mode={self.mode})"


class RandomHorizontalFlip:
    def __init__(self, p=0.5):
        self.p = p

    def __call__(self, x):
        return x.flip(-1) if torch.rand(1) < self.p else x

    def __repr__(self):
        return f"RandomHorizontalFlip(p={self.p})"


def _gray(x):
    return (0.299 * x[0] + 0.587 * x[1] + 0.114 * x[2]).unsqueeze(0)


class ColorJitter:
    def __init__(self, brightness, contrast, saturation):
        self.b, self.c, self.s = brightness, contrast, saturation

    def __call__(self, x):
        order = torch.randperm(3).tolist()
        for k in order:
            if k == 0:
                f = float(torch.empty(1).uniform_(1 - self.b, 1 + self.b))
                x = (x * f).clamp(0, 1)
            elif k == 1:
                f = float(torch.empty(1).uniform_(1 - self.c, 1 + self.c))
                m = _gray(x).mean()
                x = (f * x + (1 - f) * m).clamp(0, 1)
            else:
                f = float(torch.empty(1).uniform_(1 - self.s, 1 + self.s))
                x = (f * x + (1 - f) * _gray(x)).clamp(0, 1)
        return x

    def __repr__(self):
        return f"ColorJitter(brightness={self.b}, contrast={self.c}, saturation={self.s})"


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = torch.tensor(mean), torch.tensor(std)

    def __call__(self, x):
        return (x - self.mean[:, None, None]) / self.std[:, None, None]

    def __repr__(self):
        return f"Normalize(mean={self.mean.tolist()}, std={self.std.tolist()})"


class RandomErasing:
    def __init__(self, p=0.5, scale=(0.02, 0.33), value=0.0):
        self.p, self.scale, self.value = p, scale, value

    def __call__(self, x):
        if torch.rand(1) >= self.p:
            return x
        c, h, w = x.shape
        area = h * w * torch.empty(1).uniform_(*self.scale).item()
        eh = min(h, max(1, int(round(area ** 0.5))))
        ew = min(w, max(1, int(round(area / eh))))
        i = torch.randint(0, h - eh + 1, (1,)).item()
        j = torch.randint(0, w - ew + 1, (1,)).item()
        x = x.clone()
        x[:, i:i + eh, j:j + ew] = self.value
        return x

    def __repr__(self):
        return f"RandomErasing(p={self.p}, scale={self.scale}, value={self.value})"


torch.manual_seed(3)
images = torch.randint(0, 256, (6, 8, 8, 3), dtype=torch.uint8)
print(images.dtype, images.shape, images[0, :2, :2])
as_float = torch.stack([ToTensor()(im) for im in images])
mean = as_float.mean(dim=(0, 2, 3))
std = as_float.std(dim=(0, 2, 3))
print("dataset mean", mean, "std", std)
train_tf = Compose([ToTensor(), RandomCrop(8, padding=2, padding_mode="reflect"),
                    RandomHorizontalFlip(), ColorJitter(0.4, 0.4, 0.4),
                    Normalize(mean.tolist(), std.tolist()), RandomErasing(p=0.7)])
print(train_tf)
for k, im in enumerate(images):
    out = train_tf(im)
    print(k, tuple(out.shape), f"{out.mean().item():.6f} {out.std().item():.6f}",
          (out == 0).sum().item())
print(train_tf(images[1])[2])
crop = RandomCrop(6, padding=1)
print(crop(ToTensor()(images[2]))[0])
rev = as_float[0].flip(-1)
print(torch.equal(rev.flip(-1), as_float[0]), rev.is_contiguous(), rev.stride())
eval_tf = Compose([ToTensor(), Normalize(mean.tolist(), std.tolist())])
batch = torch.stack([eval_tf(im) for im in images])
print(batch.mean(dim=(0, 2, 3)), batch.std(dim=(0, 2, 3)))
print((batch * std[:, None, None] + mean[:, None, None]).mul(255).round().to(torch.uint8)[0, 0, 0])
