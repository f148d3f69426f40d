# Models: the classic XOR problem from an intro neural-networks course: a 2-2-1 sigmoid MLP
# trained with hand-written backprop (chain rule with sigmoid derivatives) and the same net
# trained with autograd, both printing losses and final predictions, and the gradients agreeing.
import torch

X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], dtype=torch.float64)
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]], dtype=torch.float64)
torch.manual_seed(11)
W1 = torch.randn(2, 3, dtype=torch.float64)
b1 = torch.zeros(3, dtype=torch.float64)
W2 = torch.randn(3, 1, dtype=torch.float64)
b2 = torch.zeros(1, dtype=torch.float64)
params_auto = [p.clone().requires_grad_() for p in (W1, b1, W2, b2)]
lr = 4.0
for epoch in range(801):
    h = torch.sigmoid(X @ W1 + b1)
    out = torch.sigmoid(h @ W2 + b2)
    loss = ((out - Y) ** 2).mean()
    d_out = 2 * (out - Y) / 4 * out * (1 - out)
    gW2 = h.T @ d_out
    gb2 = d_out.sum(0)
    d_h = d_out @ W2.T * h * (1 - h)
    gW1 = X.T @ d_h
    gb1 = d_h.sum(0)
    aW1, ab1, aW2, ab2 = params_auto
    a_out = torch.sigmoid(torch.sigmoid(X @ aW1 + ab1) @ aW2 + ab2)
    a_loss = ((a_out - Y) ** 2).mean()
    a_loss.backward()
    if epoch == 0:
        print("grads agree", torch.allclose(aW1.grad, gW1), torch.allclose(aW2.grad, gW2))
    with torch.no_grad():
        for p, g in zip((W1, b1, W2, b2), (gW1, gb1, gW2, gb2)):
            p -= lr * g
        for p in params_auto:
            p -= lr * p.grad
            p.grad = None
    if epoch % 200 == 0:
        print(f"epoch {epoch:4d} manual {loss.item():.6f} autograd {a_loss.item():.6f}")
print("predictions", out.flatten())
print("rounded", out.round().flatten().tolist())
print("params close", all(torch.allclose(a, b) for a, b in zip(params_auto, (W1, b1, W2, b2))))
