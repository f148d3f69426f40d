# Models: permutation-invariant set models from public reimplementations: Deep Sets (phi, sum
# pooling, rho) with masked sums for padded variable-size sets, a Set Transformer with
# multihead attention blocks (nn.MultiheadAttention, key_padding_mask), induced set attention
# with learned inducing points, pooling by multihead attention with seed vectors, trained to
# predict the max and the number of unique values of a set; invariance checks.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
MAX_SET = 8


def make_batch(n=64):
    sizes = torch.randint(2, MAX_SET + 1, (n,))
    values = torch.randint(0, 6, (n, MAX_SET)).float()
    mask = torch.arange(MAX_SET)[None, :] < sizes[:, None]  # True = real element
    values = values.masked_fill(~mask, 0.0)
    big = values.masked_fill(~mask, float("-inf")).max(1).values
    n_unique = torch.tensor([len(torch.unique(v[:s])) for v, s in zip(values, sizes)]).float()
    return values.unsqueeze(-1), mask, torch.stack([big, n_unique], 1)


x, mask, y = make_batch(4)
print("sizes:", mask.sum(1).tolist(), "targets:", y.tolist())


class DeepSets(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(1, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.rho = nn.Sequential(
            nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2)
        )

    def forward(self, x, mask):
        h = self.phi(x) * mask.unsqueeze(-1)
        return self.rho(h.sum(1))


class MAB(nn.Module):
    def __init__(self, dim, heads=2):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, q, k, key_padding_mask=None):
        h, w = self.attn(q, k, k, key_padding_mask=key_padding_mask)
        h = self.ln1(q + h)
        return self.ln2(h + self.ff(h)), w


class ISAB(nn.Module):
    def __init__(self, dim, n_induce=4):
        super().__init__()
        self.inducing = nn.Parameter(torch.randn(1, n_induce, dim) * 0.1)
        self.mab1, self.mab2 = MAB(dim), MAB(dim)

    def forward(self, x, pad):
        h, _ = self.mab1(self.inducing.expand(x.size(0), -1, -1), x, key_padding_mask=pad)
        out, _ = self.mab2(x, h)
        return out


class SetTransformer(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.inp = nn.Linear(1, dim)
        self.enc = ISAB(dim)
        self.seed = nn.Parameter(torch.randn(1, 1, dim) * 0.1)
        self.pma = MAB(dim)
        self.out = nn.Linear(dim, 2)

    def forward(self, x, mask):
        pad = ~mask
        h = self.enc(self.inp(x), pad)
        pooled, w = self.pma(self.seed.expand(x.size(0), -1, -1), h, key_padding_mask=pad)
        self.last_weights = w
        return self.out(pooled.squeeze(1))


for name, model in [("deep sets", DeepSets()), ("set transformer", SetTransformer())]:
    torch.manual_seed(1)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(60):
        x, mask, y = make_batch()
        loss = F.smooth_l1_loss(model(x, mask), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 30 == 29:
            print(f"{name} step {step + 1} loss {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        x, mask, y = make_batch(200)
        pred = model(x, mask)
        mae = (pred - y).abs().mean(0)
        perm = torch.randperm(MAX_SET)
        # permute the real elements and the padding together
        pred_perm = model(x[:, perm], mask[:, perm])
        print(
            f"{name}: MAE max {mae[0].item():.4f} unique {mae[1].item():.4f} "
            f"invariant {torch.allclose(pred, pred_perm, atol=1e-4)}"
        )

st = model
print(
    "pooling attention weights:",
    tuple(st.last_weights.shape),
    "zero on padding:",
    bool((st.last_weights[~mask[:, None, perm]] == 0).all()),
)
print("weights rows sum to one:", torch.allclose(st.last_weights.sum(-1), torch.ones(200, 1)))
mha = nn.MultiheadAttention(8, 2, batch_first=True)
q = torch.randn(2, 3, 8)
out, w = mha(q, q, q, average_attn_weights=False)
print(mha)
print("per-head weights:", tuple(w.shape), "in_proj:", tuple(mha.in_proj_weight.shape))
out, w = mha(q, q, q, need_weights=False)
print("need_weights=False:", w, tuple(out.shape))
