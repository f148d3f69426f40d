# Models: data-science notebooks that mix NumPy and PyTorch: preprocessing in NumPy
# (standardisation, one-hot, train/test split), from_numpy/as_tensor/tensor copies and shared
# memory, NumPy scalars and arrays meeting tensors, and results back to NumPy for metrics.
import numpy as np
import torch

rng = np.random.default_rng(0)
X = rng.normal(size=(120, 3)).astype(np.float32)
y = (X[:, 0] - 2 * X[:, 1] + 0.5 * X[:, 2] > 0).astype(np.int64)
mean, std = X.mean(axis=0), X.std(axis=0)
Xs = (X - mean) / std
print(Xs.dtype, Xs.shape, np.round(Xs.mean(0), 6), np.round(Xs.std(0), 4))

t_shared = torch.from_numpy(Xs)
t_copy = torch.tensor(Xs)
t_as = torch.as_tensor(Xs)
Xs[0, 0] = 100.0
print(t_shared[0, 0], t_copy[0, 0], t_as[0, 0], t_shared.dtype)
Xs[0, 0] = 0.0

for arr in [np.arange(3), np.arange(3, dtype=np.int32), np.ones(2, dtype=np.float16),
            np.array([True, False]), np.array([1.5, 2.5]), np.zeros((2, 2), dtype=np.uint8),
            np.array([1 + 1j], dtype=np.complex64)]:
    t = torch.from_numpy(arr)
    print(arr.dtype, t.dtype, t)

x = torch.arange(4.0)
print(x * np.float64(2.0), (x * np.float64(2.0)).dtype)
print(x + np.int64(1), np.float32(3.0) * x, x / np.array(2.0))
print(torch.tensor(np.float32(1.5)), torch.tensor(np.int16(7)).dtype)
print(torch.tensor([np.float64(0.25)]))
print(torch.tensor([np.int64(1), np.int64(2)]), torch.as_tensor([1.0, 2.0], dtype=torch.float64))
print(np.asarray(x), np.array(x).dtype, np.mean(x.numpy()), float(np.sum(x.numpy())))
print(x.numpy().tolist(), torch.tensor(x.numpy()[::2].copy()))
print(torch.from_numpy(np.arange(6).reshape(2, 3).T.copy()).is_contiguous())
a = np.arange(6.0).reshape(2, 3)
print(torch.from_numpy(a[:, 1]), torch.from_numpy(a).T)
print(torch.from_numpy(np.eye(2)) @ torch.from_numpy(a))

onehot = np.eye(2, dtype=np.float32)[y]
idx = rng.permutation(len(X))
tr, te = idx[:90], idx[90:]
Xt, yt = torch.from_numpy(Xs[tr]), torch.from_numpy(y[tr])
Xv, yv = torch.from_numpy(Xs[te]), torch.from_numpy(y[te])
print(onehot[:3], Xt.shape, yt.dtype, yt[:10])

torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(30):
    loss = torch.nn.functional.cross_entropy(model(Xt), yt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1} loss {loss.item():.5f}")

with torch.no_grad():
    pred = model(Xv).argmax(1).numpy()
acc = (pred == y[te]).mean()
tp = int(((pred == 1) & (y[te] == 1)).sum())
print("accuracy", acc, "true positives", tp, type(acc).__name__, pred.dtype)
W = model.weight.detach().numpy()
print(np.round(W, 3), W.dtype, W.flags["C_CONTIGUOUS"])
print(np.argsort(-np.abs(W[1] - W[0])))
g = model.weight.grad.numpy().copy()
print(g.shape, np.allclose(g, model.weight.grad.numpy()))
print(torch.from_numpy(np.linspace(0, 1, 5)), torch.linspace(0, 1, 5, dtype=torch.float64))
