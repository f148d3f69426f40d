# Models: the selective state-space layer of Mamba (Gu & Dao 2023) in the style of the
# minimal "mamba.py"/"mamba-minimal" re-implementations: input-dependent dt (softplus), B and
# C, the zero-order-hold discretisation exp(dt * A), a sequential scan, and the same
# recurrence computed in parallel with cumulative sums in log space (torch.cumsum,
# torch.logcumsumexp); a causal depthwise Conv1d, SiLU gating, RMSNorm and a tiny
# sequence-modelling task.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class MambaBlock(nn.Module):
    def __init__(self, d_model=16, d_state=4, expand=2, d_conv=3):
        super().__init__()
        d_in = expand * d_model
        self.d_in, self.d_state = d_in, d_state
        self.dt_rank = math.ceil(d_model / 16)
        self.in_proj = nn.Linear(d_model, 2 * d_in, bias=False)
        self.conv1d = nn.Conv1d(d_in, d_in, d_conv, groups=d_in, padding=d_conv - 1)
        self.x_proj = nn.Linear(d_in, self.dt_rank + 2 * d_state, bias=False)
        self.dt_proj = nn.Linear(self.dt_rank, d_in)
        A = torch.arange(1, d_state + 1, dtype=torch.float32).repeat(d_in, 1)
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(d_in))
        self.out_proj = nn.Linear(d_in, d_model, bias=False)
        self.norm = RMSNorm(d_model)

    def ssm_params(self, x):
        A = -torch.exp(self.A_log)
        dbc = self.x_proj(x)
        dt, B, C = dbc.split([self.dt_rank, self.d_state, self.d_state], -1)
        return A, F.softplus(self.dt_proj(dt)), B, C

    def selective_scan(self, x, parallel=False):
        A, dt, B, C = self.ssm_params(x)
        dA = torch.einsum("bld,dn->bldn", dt, A)             # log of the decay
        dBx = torch.einsum("bld,bln,bld->bldn", dt, B, x)
        if parallel:
            cum = torch.cumsum(dA, 1)
            h = torch.exp(cum) * torch.cumsum(dBx * torch.exp(-cum), 1)
        else:
            h_t = torch.zeros(x.shape[0], self.d_in, self.d_state)
            hs = []
            for t in range(x.shape[1]):
                h_t = torch.exp(dA[:, t]) * h_t + dBx[:, t]
                hs.append(h_t)
            h = torch.stack(hs, 1)
        return torch.einsum("bldn,bln->bld", h, C) + x * self.D

    def forward(self, x, parallel=False):
        L = x.shape[1]
        xz = self.in_proj(self.norm(x))
        xi, z = xz.chunk(2, -1)
        xi = F.silu(self.conv1d(xi.transpose(1, 2))[..., :L].transpose(1, 2))
        y = self.selective_scan(xi, parallel) * F.silu(z)
        return x + self.out_proj(y)


torch.manual_seed(0)
block = MambaBlock()
x = torch.randn(2, 12, 16)
seq, par = block(x), block(x, parallel=True)
print("output", tuple(seq.shape), "sequential vs parallel max diff", (seq - par).abs().max().item())
A, dt, B, C = block.ssm_params(torch.randn(2, 12, 32))
print("dt range", dt.min().item(), dt.max().item(), "A", A[0].tolist())

v = torch.randn(3, 6)
lcse = torch.logcumsumexp(v, 1)
print("logcumsumexp", lcse[0].tolist())
print("matches log(cumsum(exp))", torch.allclose(lcse, torch.log(torch.cumsum(v.exp(), 1))))
vr = v.clone().requires_grad_()
torch.logcumsumexp(vr, 1).sum().backward()
print("logcumsumexp grad", vr.grad[0].tolist())

# task: output the running max-so-far sign of a random walk's increments (needs memory)
embed = nn.Linear(1, 16)
model = nn.ModuleList([embed, MambaBlock(), MambaBlock(), nn.Linear(16, 1)])
opt = torch.optim.AdamW(model.parameters(), lr=4e-3)
for step in range(60):
    inc = torch.randn(16, 20, 1)
    walk = inc.cumsum(1)
    target = (walk >= walk.cummax(1).values - 1e-6).float()
    h = model[0](inc)
    h = model[2](model[1](h))
    logits = model[3](h)
    loss = F.binary_cross_entropy_with_logits(logits, target)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 12 == 0 or step == 59:
        acc = ((logits > 0).float() == target).float().mean()
        print(f"step {step:2d} loss {loss.item():.5f} acc {acc.item():.4f}")
print("A_log grad norm", model[1].A_log.grad.norm().item(), "D", model[1].D.detach()[:4].tolist())
