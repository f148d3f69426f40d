# Models: pytorch/examples "time sequence prediction" -- an LSTM learning sine waves, trained
# with LBFGS and a closure, then predicting future values.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

np.random.seed(2)
T, L, N = 20, 60, 8
x = np.empty((N, L), "int64")
x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype("float64")


class Sequence(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 16, batch_first=True)
        self.linear = nn.Linear(16, 1)

    def forward(self, input, future=0):
        out, (h, c) = self.lstm(input.unsqueeze(-1))
        outputs = self.linear(out).squeeze(-1)
        preds = [outputs]
        last = outputs[:, -1:]
        for _ in range(future):
            o, (h, c) = self.lstm(last.unsqueeze(-1), (h, c))
            last = self.linear(o).squeeze(-1)
            preds.append(last)
        return torch.cat(preds, dim=1)


torch.manual_seed(0)
input = torch.from_numpy(data[2:, :-1])
target = torch.from_numpy(data[2:, 1:])
test_input = torch.from_numpy(data[:2, :-1])
test_target = torch.from_numpy(data[:2, 1:])
seq = Sequence().double()
criterion = nn.MSELoss()
optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=8)
for i in range(3):
    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        loss.backward()
        return loss
    loss = optimizer.step(closure)
    print("STEP:", i, "loss:", f"{loss.item():.8f}")
    with torch.no_grad():
        future = 5
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        print("test loss:", f"{loss.item():.8f}")
print(pred[:, -future:])
