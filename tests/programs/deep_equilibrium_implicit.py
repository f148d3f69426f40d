# Models: the "Deep Implicit Layers" tutorial (Kolter, Duvenaud, Johnson): a DEQ layer whose
# output is the fixed point z = tanh(W z + U x + b), found by naive iteration and by Anderson
# acceleration (batched least squares via torch.linalg.solve), with the implicit-function
# backward implemented by a gradient hook that solves the adjoint fixed point; checked against
# backpropagating through the unrolled solver, then trained on a toy classification task.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def forward_iteration(f, x0, max_iter=60, tol=1e-5):
    f0 = f(x0)
    res = []
    for k in range(max_iter):
        x0 = f0
        f0 = f(x0)
        res.append((f0 - x0).norm().item() / (1e-5 + f0.norm().item()))
        if res[-1] < tol:
            break
    return f0, res


def anderson(f, x0, m=5, lam=1e-4, max_iter=30, tol=1e-5, beta=1.0):
    bsz, d = x0.shape
    X = torch.zeros(bsz, m, d)
    Fv = torch.zeros(bsz, m, d)
    X[:, 0], Fv[:, 0] = x0, f(x0)
    X[:, 1], Fv[:, 1] = Fv[:, 0], f(Fv[:, 0])
    H = torch.zeros(bsz, m + 1, m + 1)
    H[:, 0, 1:] = H[:, 1:, 0] = 1
    y = torch.zeros(bsz, m + 1, 1)
    y[:, 0] = 1
    res = []
    for k in range(2, max_iter):
        n = min(k, m)
        G = Fv[:, :n] - X[:, :n]
        H[:, 1:n + 1, 1:n + 1] = torch.bmm(G, G.transpose(1, 2)) + lam * torch.eye(n)[None]
        alpha = torch.linalg.solve(H[:, :n + 1, :n + 1], y[:, :n + 1])[:, 1:n + 1, 0]
        mixed_f = (alpha[:, None] @ Fv[:, :n])[:, 0]
        mixed_x = (alpha[:, None] @ X[:, :n])[:, 0]
        X[:, k % m] = beta * mixed_f + (1 - beta) * mixed_x
        Fv[:, k % m] = f(X[:, k % m])
        res.append((Fv[:, k % m] - X[:, k % m]).norm().item() / (1e-5 + Fv[:, k % m].norm().item()))
        if res[-1] < tol:
            break
    return X[:, k % m], res


class DEQ(nn.Module):
    def __init__(self, d_in, d):
        super().__init__()
        self.W = nn.Linear(d, d, bias=False)
        self.U = nn.Linear(d_in, d)
        with torch.no_grad():
            self.W.weight.mul_(0.5 / torch.linalg.matrix_norm(self.W.weight, ord=2))

    def f(self, z, x):
        return torch.tanh(self.W(z) + self.U(x))

    def forward(self, x, solver=anderson):
        with torch.no_grad():
            z0 = torch.zeros(x.shape[0], self.W.in_features)
            z, self.res = solver(lambda z: self.f(z, x), z0)
        z = self.f(z, x)
        z0 = z.clone().detach().requires_grad_()
        f0 = self.f(z0, x)

        def backward_hook(grad):
            g, self.back_res = forward_iteration(
                lambda y: torch.autograd.grad(f0, z0, y, retain_graph=True)[0] + grad, grad)
            return g

        if z.requires_grad:
            z.register_hook(backward_hook)
        return z


x = torch.randn(4, 3)
deq = DEQ(3, 6)
with torch.no_grad():
    z_fw, res_fw = forward_iteration(lambda z: deq.f(z, x), torch.zeros(4, 6))
    z_aa, res_aa = anderson(lambda z: deq.f(z, x), torch.zeros(4, 6))
print(f"forward iteration: {len(res_fw)} steps, final residual {res_fw[-1]:.2e}")
print(f"Anderson: {len(res_aa)} steps, final residual {res_aa[-1]:.2e}")
print("solutions agree:", torch.allclose(z_fw, z_aa, atol=1e-4))
print(z_aa[:2])

z = deq(x)
z.pow(2).sum().backward()
g_implicit = deq.W.weight.grad.clone()
deq.zero_grad()
zz = torch.zeros(4, 6)
for _ in range(100):
    zz = deq.f(zz, x)
zz.pow(2).sum().backward()
g_unrolled = deq.W.weight.grad.clone()
print("implicit vs unrolled grad max diff < 1e-4:",
      (g_implicit - g_unrolled).abs().max().item() < 1e-4)
print("backward fixed point steps:", len(deq.back_res))

# train a DEQ classifier on two interleaved half-moons
torch.manual_seed(1)
n = 128
t = torch.rand(n) * 3.1416
lab = torch.randint(0, 2, (n,))
pts = torch.stack([torch.cos(t) + lab, torch.sin(t) * (1 - 2 * lab) + 0.3 * lab], 1)
pts = pts + 0.1 * torch.randn(n, 2)
model = nn.ModuleDict({"deq": DEQ(2, 16), "head": nn.Linear(16, 2)})
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(20):
    logits = model["head"](model["deq"](pts, solver=forward_iteration if epoch % 2 else anderson))
    loss = F.cross_entropy(logits, lab)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        acc = (logits.argmax(1) == lab).float().mean()
        iters = len(model["deq"].res)
        print(f"epoch {epoch + 1} loss {loss.item():.4f} acc {acc:.3f} fwd iters {iters}")
