# Models: loading MNIST-format IDX files without torchvision, as "MNIST from scratch" posts do:
# writing and parsing the big-endian headers with struct, torch.frombuffer over bytes, numpy
# frombuffer + torch.from_numpy (read-only array warning), uint8 -> float scaling, a
# normalising Dataset, and a small CNN trained for a few steps on synthetic digits.
import gzip
import io
import struct
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(160)
n, h, w = 48, 12, 12
labels = torch.randint(0, 3, (n,), dtype=torch.uint8)
images = torch.zeros(n, h, w, dtype=torch.uint8)
for i, lab in enumerate(labels.tolist()):
    if lab == 0:
        images[i, 2:10, 5:7] = 255
    elif lab == 1:
        images[i, 5:7, 2:10] = 255
    else:
        images[i, 2:10, 2:10] = torch.eye(8, dtype=torch.uint8) * 255
noise = torch.randint(0, 60, (n, h, w), dtype=torch.uint8)
images = torch.where(images > 0, images - noise, noise)
img_bytes = struct.pack(">IIII", 2051, n, h, w) + images.numpy().tobytes()
lab_bytes = struct.pack(">II", 2049, n) + labels.numpy().tobytes()
gz = io.BytesIO()
with gzip.GzipFile(fileobj=gz, mode="wb", mtime=0) as f:
    f.write(img_bytes)
print("sizes", len(img_bytes), len(lab_bytes), "gzip", len(gz.getvalue()) < len(img_bytes))


def parse_idx(raw):
    magic = struct.unpack(">I", raw[:4])[0]
    ndim = magic & 0xFF
    dims = struct.unpack(">" + "I" * ndim, raw[4:4 + 4 * ndim])
    data = torch.frombuffer(bytearray(raw[4 + 4 * ndim:]), dtype=torch.uint8)
    return magic, dims, data.view(*dims)


with gzip.GzipFile(fileobj=io.BytesIO(gz.getvalue())) as f:
    magic, dims, X = parse_idx(f.read())
_, ldims, Y = parse_idx(lab_bytes)
print(magic, dims, X.dtype, X.shape, ldims, Y[:10])
print(torch.equal(X, images), X.is_contiguous(), X[0, 4])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    arr = np.frombuffer(img_bytes, dtype=np.uint8, offset=16).reshape(n, h, w)
    X2 = torch.from_numpy(arr)
print([str(c.message)[:60] for c in caught], X2.dtype, torch.equal(X2, X))
X3 = torch.from_numpy(arr.copy())
X3[0, 0, 0] = 7
print(X3[0, 0, :3], arr[0, 0, :3])
be = torch.frombuffer(bytearray(struct.pack(">4H", 1, 2, 258, 65535)), dtype=torch.int16)
print(be, be.byteswap() if hasattr(be, "byteswap") else be.view(torch.uint8).view(4, 2).flip(1)
      .reshape(-1).view(torch.int16))
fl = torch.frombuffer(bytearray(struct.pack("<3f", 1.5, -2.25, 3.0)), dtype=torch.float32)
print(fl, torch.frombuffer(bytearray(range(8)), dtype=torch.uint8, count=4, offset=2))
Xf = X.float().div(255)
mean, std = Xf.mean().item(), Xf.std().item()
print(f"mean {mean:.6f} std {std:.6f}")


class IdxDataset(torch.utils.data.Dataset):
    def __init__(self, X, Y):
        self.X, self.Y = X, Y.long()

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return ((self.X[i].float() / 255 - mean) / std).unsqueeze(0), self.Y[i]


ds = IdxDataset(X, Y)
loader = torch.utils.data.DataLoader(ds, batch_size=12, shuffle=True)
model = nn.Sequential(nn.Conv2d(1, 6, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 8, 3),
                      nn.ReLU(), nn.Flatten(), nn.Linear(8 * 3 * 3, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        xs = torch.stack([ds[i][0] for i in range(len(ds))])
        acc = (model(xs).argmax(1) == ds.Y).float().mean()
    print(f"epoch {epoch} loss {loss.item():.5f} acc {acc.item():.4f}")
