# Models: Temporal Fusion Transformer building blocks written from the paper: the Gated Linear
# Unit, Gated Residual Network with optional context, variable selection networks producing
# softmax feature weights over time, and interpretable weights printed per variable.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GLU(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, 2 * d_out)

    def forward(self, x):
        return F.glu(self.fc(x), dim=-1)


class GRN(nn.Module):
    def __init__(self, d_in, d_hidden, d_out, d_ctx=None, dropout=0.0):
        super().__init__()
        self.skip = nn.Linear(d_in, d_out) if d_in != d_out else nn.Identity()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.ctx = nn.Linear(d_ctx, d_hidden, bias=False) if d_ctx else None
        self.fc2 = nn.Linear(d_hidden, d_hidden)
        self.drop = nn.Dropout(dropout)
        self.glu = GLU(d_hidden, d_out)
        self.ln = nn.LayerNorm(d_out)

    def forward(self, x, c=None):
        h = self.fc1(x)
        if c is not None:
            h = h + self.ctx(c)
        h = self.fc2(F.elu(h))
        return self.ln(self.skip(x) + self.glu(self.drop(h)))


class VSN(nn.Module):
    def __init__(self, n_vars, d_model, d_ctx=None):
        super().__init__()
        self.proj = nn.ModuleList([nn.Linear(1, d_model) for _ in range(n_vars)])
        self.var_grns = nn.ModuleList([GRN(d_model, d_model, d_model) for _ in range(n_vars)])
        self.weight_grn = GRN(n_vars * d_model, d_model, n_vars, d_ctx)

    def forward(self, x, c=None):
        emb = [p(x[..., i : i + 1]) for i, p in enumerate(self.proj)]
        w = self.weight_grn(torch.cat(emb, -1), c).softmax(-1)
        processed = torch.stack([g(e) for g, e in zip(self.var_grns, emb)], -1)
        return (processed * w.unsqueeze(-2)).sum(-1), w


B, T, NV, D = 4, 6, 3, 8
x = torch.randn(B, T, NV)
static_ctx = torch.randn(B, 1, 5).expand(-1, T, -1)
vsn = VSN(NV, D, d_ctx=5)
out, w = vsn(x, static_ctx)
print(out.shape, w.shape)
print(w[0])
print(GRN(4, 8, 4)(torch.ones(2, 4)))
y = x[..., 0].roll(-1, 1)
head = nn.Linear(D, 1)
opt = torch.optim.Adam(list(vsn.parameters()) + list(head.parameters()), lr=0.01)
for it in range(20):
    out, w = vsn(x, static_ctx)
    loss = F.mse_loss(head(out).squeeze(-1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 5 == 0:
        print(it, f"{loss.item():.6f}")
imp = w.mean(dim=(0, 1))
for name, v in zip(["target_lag", "noise_a", "noise_b"], imp.tolist()):
    print(f"{name:>10s} {v:.4f}")
