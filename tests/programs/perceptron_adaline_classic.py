# Models: the classic single-neuron learners from a machine-learning history lecture:
# Rosenblatt's perceptron with its mistake bound, ADALINE trained by the LMS rule, the pocket
# algorithm on non-separable data, and a kernel perceptron solving XOR.
import torch

torch.manual_seed(0)
n = 100
X = torch.randn(n, 2)
w_star = torch.tensor([1.5, -1.0])
y = torch.sign(X @ w_star + 0.3)
y[y == 0] = 1
Xb = torch.cat([X, torch.ones(n, 1)], 1)

w = torch.zeros(3)
mistakes = 0
for epoch in range(20):
    errs = 0
    for i in range(n):
        if y[i] * (Xb[i] @ w) <= 0:
            w += y[i] * Xb[i]
            errs += 1
    mistakes += errs
    print(f"epoch {epoch} mistakes {errs}")
    if errs == 0:
        break
print("perceptron weights", w, "total mistakes", mistakes)
u = torch.cat([w_star, torch.tensor([0.3])])
u = u / u.norm()
gamma = (y * (Xb @ u)).min()
R = Xb.norm(dim=1).max()
print(f"margin {gamma:.5f} radius {R:.5f} bound (R/gamma)^2 = {(R / gamma) ** 2:.1f}")

w = torch.zeros(3)
eta = 0.01
for epoch in range(30):
    for i in torch.randperm(n).tolist():
        err = y[i] - Xb[i] @ w
        w += eta * err * Xb[i]
    if epoch % 10 == 9:
        mse = ((y - Xb @ w) ** 2).mean()
        acc = (torch.sign(Xb @ w) == y).float().mean()
        print(f"adaline epoch {epoch + 1} mse {mse:.5f} acc {acc:.4f}")
closed = torch.linalg.lstsq(Xb, y.unsqueeze(1)).solution.squeeze(1)
print("adaline", w, "least squares", closed)

flip = torch.rand(n) < 0.1
y_noisy = torch.where(flip, -y, y)
w = torch.zeros(3)
pocket, pocket_acc = w.clone(), 0.0
gen = torch.Generator().manual_seed(5)
for t in range(300):
    i = int(torch.randint(0, n, (1,), generator=gen))
    if y_noisy[i] * (Xb[i] @ w) <= 0:
        w = w + y_noisy[i] * Xb[i]
        acc = (torch.sign(Xb @ w) == y_noisy).float().mean().item()
        if acc > pocket_acc:
            pocket, pocket_acc = w.clone(), acc
last_acc = (torch.sign(Xb @ w) == y_noisy).float().mean()
print(f"pocket accuracy {pocket_acc:.4f} last-iterate accuracy {last_acc:.4f}")

Xx = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
yx = torch.tensor([-1.0, 1.0, 1.0, -1.0])
K = (1 + Xx @ Xx.T) ** 2
alpha = torch.zeros(4)
for epoch in range(10):
    errs = 0
    for i in range(4):
        if yx[i] * ((alpha * yx) @ K[:, i]) <= 0:
            alpha[i] += 1
            errs += 1
    if errs == 0:
        break
print("kernel perceptron converged after", epoch + 1, "epochs, alpha", alpha)
print("xor predictions", torch.sign((alpha * yx) @ K))
linear_ok = any(
    (torch.sign(Xx @ torch.tensor([a, b]) + c) == yx).all()
    for a in (-1.0, 1.0)
    for b in (-1.0, 1.0)
    for c in (-0.5, 0.5, -1.5, 1.5)
)
print("some linear rule separates xor:", linear_ok)
