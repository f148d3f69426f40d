# Models: an encoder-decoder LSTM forecaster (time-series tutorials): encoder over the history,
# decoder fed the previous target (teacher forcing ratio decayed per epoch, chosen by a seeded
# random draw) vs its own prediction at inference; MAE/RMSE/MAPE on the horizon.
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 16, batch_first=True)

    def forward(self, x):
        _, (h, c) = self.lstm(x)
        return h, c


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 16, batch_first=True)
        self.fc = nn.Linear(16, 1)

    def forward(self, y_prev, h, c):
        out, (h, c) = self.lstm(y_prev, (h, c))
        return self.fc(out), h, c


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc, self.dec = Encoder(), Decoder()

    def forward(self, src, horizon, tgt=None, tf_ratio=0.0):
        h, c = self.enc(src)
        y = src[:, -1:, :]
        outs = []
        for t in range(horizon):
            pred, h, c = self.dec(y, h, c)
            outs.append(pred)
            teacher = tgt is not None and random.random() < tf_ratio
            y = tgt[:, t : t + 1] if teacher else pred
        return torch.cat(outs, 1)


t = torch.arange(0, 120, dtype=torch.float32)
data = torch.sin(t / 6) + 0.5 * torch.cos(t / 17) + 2
windows = data.unfold(0, 30, 3)
src, tgt = windows[:, :24, None], windows[:, 24:, None]
print(src.shape, tgt.shape)
model = Seq2Seq()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for ep in range(12):
    ratio = max(0.0, 1.0 - ep / 8)
    out = model(src, 6, tgt, tf_ratio=ratio)
    loss = nn.functional.mse_loss(out, tgt)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if ep % 3 == 0:
        print(f"epoch {ep} tf {ratio:.3f} loss {loss.item():.6f}")
model.eval()
with torch.no_grad():
    pred = model(src, 6)
err = pred - tgt
print("MAE", err.abs().mean().item())
print("RMSE", err.pow(2).mean().sqrt().item())
print("MAPE", (err.abs() / tgt.abs()).mean().mul(100).item())
print(pred[0, :, 0])
print(err.abs().mean(dim=(0, 2)))
