# Models: time-series anomaly detection with an LSTM autoencoder (the "LSTM autoencoder for
# anomaly detection" tutorials on ECG-like data): sliding windows from a periodic signal, an
# LSTM encoder whose last hidden state is repeated over time for an LSTM decoder, L1
# reconstruction loss, a threshold at the 95th percentile of training errors, and
# precision / recall / F1 on windows with injected anomalies.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
T = 600
t = torch.arange(T, dtype=torch.float32)
series = (
    torch.sin(2 * math.pi * t / 25) + 0.5 * torch.sin(2 * math.pi * t / 7) + 0.05 * torch.randn(T)
)
win = 20
windows = series.unfold(0, win, 5).unsqueeze(-1)
print("windows", windows.shape)
train = windows[:60]
test = windows[60:].clone()
is_anom = torch.zeros(len(test), dtype=torch.bool)
anom_idx = torch.randperm(len(test))[:10]
is_anom[anom_idx] = True
for i in anom_idx.tolist():
    pos = torch.randint(3, win - 6, ()).item()
    test[i, pos : pos + 4, 0] += torch.tensor([1.5, -1.2, 1.8, -0.9])
print("test windows", len(test), "anomalous", int(is_anom.sum()))


class LSTMAutoencoder(nn.Module):
    def __init__(self, n_features=1, embedding_dim=8):
        super().__init__()
        self.encoder = nn.LSTM(n_features, 16, batch_first=True)
        self.to_embedding = nn.Linear(16, embedding_dim)
        self.decoder = nn.LSTM(embedding_dim, 16, batch_first=True)
        self.output = nn.Linear(16, n_features)

    def forward(self, x):
        _, (h, _) = self.encoder(x)
        z = self.to_embedding(h[-1])
        z = z.unsqueeze(1).repeat(1, x.shape[1], 1)
        out, _ = self.decoder(z)
        return self.output(out)


model = LSTMAutoencoder()
print(model)
print(sum(p.numel() for p in model.parameters()), "parameters")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
crit = nn.L1Loss(reduction="mean")
for epoch in range(30):
    perm = torch.randperm(len(train))
    total = 0.0
    for i in range(0, len(train), 20):
        batch = train[perm[i : i + 20]]
        loss = crit(model(batch), batch)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        total += loss.item() * len(batch)
    if epoch % 10 == 0 or epoch == 29:
        print(f"epoch {epoch:2d} train L1 {total / len(train):.5f}")

model.eval()
with torch.no_grad():
    train_err = (model(train) - train).abs().mean(dim=(1, 2))
    test_err = (model(test) - test).abs().mean(dim=(1, 2))
threshold = torch.quantile(train_err, 0.95)
print("threshold", threshold.item(), "train error mean", train_err.mean().item())
pred = test_err > threshold
tp = (pred & is_anom).sum().item()
fp = (pred & ~is_anom).sum().item()
fn = (~pred & is_anom).sum().item()
precision = tp / max(tp + fp, 1)
recall = tp / max(tp + fn, 1)
f1 = 2 * precision * recall / max(precision + recall, 1e-12)
print(f"tp {tp} fp {fp} fn {fn} precision {precision:.3f} recall {recall:.3f} f1 {f1:.3f}")
print(
    "anomalous error mean",
    test_err[is_anom].mean().item(),
    "normal",
    test_err[~is_anom].mean().item(),
)
print("worst windows", test_err.topk(5).indices.sort().values, "true", anom_idx.sort().values[:5])
