# Models: a data-augmentation-by-hand notebook for small images: horizontal/vertical flips,
# rot90 with k and dims, roll for circular shifts, transpose, random crops with padding via
# slicing, the dihedral group of 8 transforms, and TTA averaging of a model's predictions.
import torch
import torch.nn as nn

img = torch.arange(16.0).reshape(1, 1, 4, 4)
print("flip h\n", img.flip(-1)[0, 0])
print("flip v\n", torch.flip(img, [2])[0, 0])
print("rot90\n", torch.rot90(img, 1, [2, 3])[0, 0])
print("rot90 k=-1\n", img.rot90(-1, (2, 3))[0, 0])
print("rot180 equals double flip", torch.equal(img.rot90(2, [2, 3]), img.flip([2, 3])))
print("roll\n", torch.roll(img, shifts=(1, -1), dims=(2, 3))[0, 0])
print("roll flat", torch.roll(torch.arange(5), 2))
print("fliplr/flipud", torch.fliplr(img[0, 0])[0], torch.flipud(img[0, 0])[0])
g = torch.Generator().manual_seed(3)
padded = nn.functional.pad(img, (1, 1, 1, 1), mode="reflect")
i, j = torch.randint(0, 3, (2,), generator=g).tolist()
print("crop at", i, j, "\n", padded[0, 0, i:i + 4, j:j + 4])
dihedral = []
for k in range(4):
    r = img.rot90(k, [2, 3])
    dihedral += [r, r.flip(-1)]
stack = torch.cat(dihedral)
print("dihedral unique", len({tuple(t.flatten().tolist()) for t in stack}))
torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.AdaptiveAvgPool2d(1), nn.Flatten())
with torch.no_grad():
    preds = model(stack)
print("tta mean", preds.mean(0), "spread", preds.std(0))
x = img.clone().requires_grad_()
torch.rot90(x, 1, [2, 3]).roll(1, 3).mul(torch.arange(16.0).reshape(4, 4)).sum().backward()
print("grad\n", x.grad[0, 0])
try:
    torch.rot90(img, 1, [2, 2])
except RuntimeError as e:
    print("RuntimeError:", e)
