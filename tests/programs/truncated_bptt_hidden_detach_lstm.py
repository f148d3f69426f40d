# Models: the word_language_model example's training loop idea on a toy sequence: truncated
# backpropagation through time with repackage_hidden (detach) between chunks, an LSTM
# predicting the next value of a noisy sine, gradient clipping, and what happens without detach.
import math

import torch
import torch.nn as nn

torch.manual_seed(9)
T = 200
series = torch.sin(torch.arange(T) * 2 * math.pi / 25) + 0.05 * torch.randn(T)
data = series.view(-1, 1, 1)
lstm = nn.LSTM(1, 8)
head = nn.Linear(8, 1)
params = list(lstm.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=0.01)


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


bptt = 20
for epoch in range(3):
    hidden = None
    total = 0.0
    for i in range(0, T - 1 - bptt, bptt):
        x = data[i:i + bptt]
        y = data[i + 1:i + 1 + bptt]
        if hidden is not None:
            hidden = repackage_hidden(hidden)
        out, hidden = lstm(x, hidden)
        loss = nn.functional.mse_loss(head(out), y)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(params, 0.5)
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} mean chunk loss {total / ((T - 1 - bptt) // bptt + 1):.6f}")
print("hidden requires grad after detach", repackage_hidden(hidden)[0].requires_grad)
out1, h1 = lstm(data[:5])
out2, h2 = lstm(data[5:10], h1)
out2.sum().backward()
try:
    out3, _ = lstm(data[10:15], h2)
    out3.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])
