# Models: the linear-regression course exercise (nn.Linear, MSELoss, SGD, a training loop that
# prints every few epochs, then the learned weight and bias and a prediction).
import torch
import torch.nn as nn

torch.manual_seed(3)
X = torch.randn(100, 1) * 10
y = X + 3 * torch.randn(100, 1)


class LR(nn.Module):
    def __init__(self, input_size, output_size):
        super().__init__()
        self.linear = nn.Linear(input_size, output_size)

    def forward(self, x):
        return self.linear(x)


model = LR(1, 1)
print(model)
[w, b] = model.parameters()
print(w, b)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
epochs = 100
losses = []
for i in range(epochs):
    y_pred = model.forward(X)
    loss = criterion(y_pred, y)
    losses.append(loss.item())
    if i % 10 == 0:
        print("epoch:", i, "loss:", loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"w = {w[0][0].item():.5f}, b = {b[0].item():.5f}")
print(model(torch.tensor([[4.0], [-2.5]])))
print(round(min(losses), 4), len(losses))

# the closed form, for comparison
A = torch.cat([X, torch.ones_like(X)], dim=1)
sol = torch.linalg.lstsq(A, y).solution
print(sol.squeeze())
