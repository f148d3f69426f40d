# Models: binary logistic regression course exercise: two Gaussian blobs, nn.Linear + sigmoid,
# BCEWithLogitsLoss with Adam, accuracy on a held-out split.
import torch
from torch import nn

torch.manual_seed(7)
n = 200
x0 = torch.randn(n, 2) + torch.tensor([2.0, 2.0])
x1 = torch.randn(n, 2) + torch.tensor([-2.0, -1.0])
X = torch.cat([x0, x1])
y = torch.cat([torch.zeros(n), torch.ones(n)])
perm = torch.randperm(2 * n)
X, y = X[perm], y[perm]
X_train, X_test = X[:300], X[300:]
y_train, y_test = y[:300], y[300:]

model = nn.Linear(2, 1)
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(1, 101):
    model.train()
    logits = model(X_train).squeeze(1)
    loss = loss_fn(logits, y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 20 == 0:
        with torch.no_grad():
            pred = (torch.sigmoid(model(X_test).squeeze(1)) > 0.5).float()
            acc = (pred == y_test).float().mean().item()
        print(f"epoch {epoch:3d} loss {loss.item():.6f} test acc {acc:.4f}")
model.eval()
with torch.inference_mode():
    probs = torch.sigmoid(model(X_test[:5]))
print(probs)
print(model.weight.data, model.bias.data)
print(nn.functional.binary_cross_entropy(probs.squeeze(1), y_test[:5]))
