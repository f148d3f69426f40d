# Models: the knowledge-distillation tutorial: train a teacher, then a smaller student with
# soft targets (KLDivLoss(reduction="batchmean", log_target=True) on temperature-scaled
# log-softmax, times T^2) plus hard-label cross entropy with label_smoothing; also the
# cosine-embedding "hint" loss on hidden features, and comparing KLDivLoss reductions.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(128, 10)
W = torch.randn(10, 4)
y = (X @ W + 0.5 * torch.randn(128, 4)).argmax(1)
print("class counts", torch.bincount(y, minlength=4).tolist())


class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.features = nn.Sequential(
            nn.Linear(10, hidden), nn.ReLU(), nn.Linear(hidden, 8), nn.ReLU()
        )
        self.cls = nn.Linear(8, 4)

    def forward(self, x):
        h = self.features(x)
        return self.cls(h), h


def train(model, epochs, loss_fn):
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        for i in range(0, 128, 32):
            xb, yb = X[i : i + 32], y[i : i + 32]
            logits, h = model(xb)
            loss = loss_fn(logits, h, xb, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 5 == 0:
            print(f"  epoch {epoch} loss {loss.item():.4f}")


def accuracy(model):
    with torch.no_grad():
        return (model(X)[0].argmax(1) == y).float().mean().item()


teacher = Net(64)
print("teacher")
train(teacher, 15, lambda logits, h, xb, yb: F.cross_entropy(logits, yb))
teacher.eval()
print("teacher acc", accuracy(teacher))

T = 2.0
soft_w, ce_w = 0.25, 0.75
kl = nn.KLDivLoss(reduction="batchmean", log_target=True)
ce = nn.CrossEntropyLoss(label_smoothing=0.1)
cos = nn.CosineEmbeddingLoss()


def kd_loss(logits, h, xb, yb):
    with torch.no_grad():
        t_logits, t_h = teacher(xb)
    soft = kl(F.log_softmax(logits / T, -1), F.log_softmax(t_logits / T, -1)) * T * T
    hint = cos(h, t_h, torch.ones(xb.size(0)))
    return soft_w * soft + ce_w * ce(logits, yb) + 0.1 * hint


torch.manual_seed(1)
student = Net(8)
print("student with distillation")
train(student, 15, kd_loss)
print("student acc", accuracy(student))

p = F.log_softmax(torch.randn(3, 5), -1)
q = F.log_softmax(torch.randn(3, 5), -1)
for red in ["none", "sum", "mean", "batchmean"]:
    a = F.kl_div(p, q, reduction=red, log_target=True)
    b = F.kl_div(p, q.exp(), reduction=red)
    print(red, tuple(a.shape), torch.allclose(a, b), a.sum().item())
print(F.cross_entropy(torch.randn(4, 3), torch.tensor([0, 1, 2, 1]), label_smoothing=0.2).item())
print(
    F.cross_entropy(
        torch.randn(4, 3), torch.softmax(torch.randn(4, 3), 1), label_smoothing=0.2
    ).item()
)
