# Models: the LLaMA feed-forward block: hidden size rounded to multiple_of, SwiGLU with F.silu
# gating (w2(silu(w1 x) * w3 x)), parameter counts versus a GELU MLP, one training step on a toy
# regression, and GLU / F.glu equivalence for the plain gated linear unit.
import torch
import torch.nn as nn
import torch.nn.functional as F


class FeedForward(nn.Module):
    def __init__(self, dim, hidden_dim, multiple_of):
        super().__init__()
        hidden_dim = int(2 * hidden_dim / 3)
        hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


torch.manual_seed(2)
ff = FeedForward(8, 4 * 8, multiple_of=16)
print(ff)
print("swiglu params", sum(p.numel() for p in ff.parameters()))
mlp = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 8))
print("gelu mlp params", sum(p.numel() for p in mlp.parameters()))
x = torch.randn(5, 8)
y = torch.sin(x)
opt = torch.optim.SGD(ff.parameters(), lr=0.1)
for step in range(4):
    loss = F.mse_loss(ff(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
a = torch.randn(3, 6)
print("glu", torch.allclose(F.glu(a, dim=-1), a[:, :3] * torch.sigmoid(a[:, 3:])))
print(nn.GLU()(a))
print("silu", torch.allclose(F.silu(a), a * torch.sigmoid(a)), nn.SiLU()(a)[0])
print(loss.grad_fn.name(), ff.w1.weight.grad.shape)
