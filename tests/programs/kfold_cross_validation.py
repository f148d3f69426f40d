# Models: k-fold cross-validation of a small classifier as in public "PyTorch k-fold" tutorials --
# fold indices from a seeded randperm, torch.utils.data.Subset and SubsetRandomSampler loaders,
# re-initialising the model per fold with reset_parameters, early stopping on validation loss
# with a saved best state_dict (copy.deepcopy), and the fold mean/std summary.
import copy

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset, SubsetRandomSampler, TensorDataset

torch.manual_seed(7)
n, d = 120, 6
X = torch.randn(n, d)
w_true = torch.randn(d)
y = ((X @ w_true + 0.5 * torch.randn(n)) > 0).long()
dataset = TensorDataset(X, y)
print("class balance", torch.bincount(y).tolist())

k = 4
perm = torch.randperm(n, generator=torch.Generator().manual_seed(0))
folds = perm.chunk(k)
print("fold sizes", [len(f) for f in folds])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Dropout(0.1),
                                    nn.Linear(16, 2))

    def forward(self, x):
        return self.layers(x)


def reset_weights(m):
    for layer in m.children():
        if hasattr(layer, "reset_parameters"):
            layer.reset_parameters()


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience, self.min_delta = patience, min_delta
        self.best, self.counter, self.best_state = float("inf"), 0, None

    def step(self, loss, model):
        if loss < self.best - self.min_delta:
            self.best, self.counter = loss, 0
            self.best_state = copy.deepcopy(model.state_dict())
            return False
        self.counter += 1
        return self.counter >= self.patience


def evaluate(model, loader, loss_fn):
    model.eval()
    total, correct, loss_sum = 0, 0, 0.0
    with torch.no_grad():
        for xb, yb in loader:
            out = model(xb)
            loss_sum += loss_fn(out, yb).item() * len(yb)
            correct += (out.argmax(1) == yb).sum().item()
            total += len(yb)
    return loss_sum / total, correct / total


results = {}
loss_fn = nn.CrossEntropyLoss()
for fold in range(k):
    val_idx = folds[fold]
    train_idx = torch.cat([folds[j] for j in range(k) if j != fold])
    train_loader = DataLoader(dataset, batch_size=16,
                              sampler=SubsetRandomSampler(train_idx.tolist()))
    val_loader = DataLoader(Subset(dataset, val_idx.tolist()), batch_size=32)
    model = Net()
    model.apply(reset_weights)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-4)
    stopper = EarlyStopping(patience=3, min_delta=1e-3)
    for epoch in range(30):
        model.train()
        for xb, yb in train_loader:
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            optimizer.step()
        val_loss, val_acc = evaluate(model, val_loader, loss_fn)
        if stopper.step(val_loss, model):
            print(f"fold {fold}: early stop at epoch {epoch}")
            break
    model.load_state_dict(stopper.best_state)
    val_loss, val_acc = evaluate(model, val_loader, loss_fn)
    results[fold] = val_acc
    print(f"fold {fold}: best val loss {stopper.best:.5f} acc {100 * val_acc:.2f}%")

accs = torch.tensor(list(results.values()))
print(f"average {accs.mean():.4f} std {accs.std():.4f}")
sub = Subset(dataset, [3, 1, 4])
print(len(sub), sub[0][1].item(), sub.indices)
