# Models: the "Knowledge Distillation" tutorial -- a larger teacher MLP trained first, then a
# small student trained on a mix of hard-label cross-entropy and the temperature-softened
# KL divergence (F.kl_div with log_softmax inputs, reduction='batchmean', T**2 scaling).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)
centers = torch.randn(5, 8) * 2
labels = torch.randint(0, 5, (400,))
data = centers[labels] + torch.randn(400, 8)
train_x, train_y, test_x, test_y = data[:320], labels[:320], data[320:], labels[320:]


def mlp(hidden):
    return nn.Sequential(nn.Linear(8, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, 5))


def accuracy(model):
    model.eval()
    with torch.no_grad():
        return (model(test_x).argmax(1) == test_y).float().mean().item()


def fit(model, loss_fn, epochs, lr):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(train_x))
        running = 0.0
        for i in range(0, len(train_x), 32):
            idx = perm[i:i + 32]
            opt.zero_grad()
            loss = loss_fn(model, train_x[idx], train_y[idx])
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"  epoch {epoch + 1} loss {running / 10:.5f}")


teacher = mlp(64)
print("teacher params", sum(p.numel() for p in teacher.parameters()))
fit(teacher, lambda m, x, y: F.cross_entropy(m(x), y), 3, 1e-2)
print(f"teacher accuracy {accuracy(teacher):.4f}")
teacher.eval()

T, soft_weight, ce_weight = 2.0, 0.25, 0.75


def distill_loss(student, x, y):
    with torch.no_grad():
        teacher_logits = teacher(x)
    student_logits = student(x)
    soft_targets = F.softmax(teacher_logits / T, dim=-1)
    soft_prob = F.log_softmax(student_logits / T, dim=-1)
    kd = F.kl_div(soft_prob, soft_targets, reduction="batchmean") * T ** 2
    return soft_weight * kd + ce_weight * F.cross_entropy(student_logits, y)


torch.manual_seed(0)
student = mlp(8)
print("student params", sum(p.numel() for p in student.parameters()))
fit(student, distill_loss, 3, 1e-2)
print(f"student accuracy {accuracy(student):.4f}")

p = F.log_softmax(torch.tensor([[1.0, 2.0, 3.0]]), dim=1)
q = torch.tensor([[0.2, 0.3, 0.5]])
for red in ["batchmean", "sum", "mean", "none"]:
    print(red, F.kl_div(p, q, reduction=red))
print(nn.KLDivLoss(reduction="batchmean", log_target=True)(p, q.log()))
