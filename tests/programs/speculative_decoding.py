# Models: the speculative-sampling blog posts and minimal implementations (Leviathan et al.
# 2023, Chen et al. 2023): a small draft model proposes k tokens, a larger target model scores
# them in one pass, each is accepted with probability min(1, p/q), a rejected position is
# resampled from the normalised residual max(p - q, 0), and the acceptance statistics are
# compared with plain autoregressive sampling from the target.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V = 12


class TinyLM(nn.Module):
    def __init__(self, d, layers):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.pos = nn.Parameter(torch.randn(32, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, 2, 2 * d, dropout=0.0, batch_first=True)
        self.body = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.out = nn.Linear(d, V)

    def forward(self, idx):
        T = idx.shape[1]
        mask = nn.Transformer.generate_square_subsequent_mask(T)
        h = self.body(self.emb(idx) + self.pos[:T], mask=mask, is_causal=True)
        return self.out(h)


# train both on a repeating pattern so the draft is a decent guess of the target
pattern = torch.tensor([1, 2, 3, 4, 5, 6, 7, 8] * 4)
data = torch.stack([torch.roll(pattern, -s)[:16] for s in range(8)])
target, draft = TinyLM(32, 2), TinyLM(16, 1)
for name, model, steps in (("target", target, 40), ("draft", draft, 20)):
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(steps):
        logits = model(data[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, V), data[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{name} final loss {loss.item():.5f}")
target.eval()
draft.eval()


@torch.no_grad()
def speculative(prefix, n_new, k=3, temperature=1.0):
    seq = prefix.clone()
    accepted = proposed = 0
    while seq.shape[1] < prefix.shape[1] + n_new:
        draft_seq, qs = seq, []
        for _ in range(k):
            q = F.softmax(draft(draft_seq)[:, -1] / temperature, -1)
            tok = torch.multinomial(q, 1)
            qs.append(q)
            draft_seq = torch.cat([draft_seq, tok], 1)
        p_all = F.softmax(target(draft_seq)[:, -k - 1:] / temperature, -1)
        n_ok = 0
        for i in range(k):
            tok = draft_seq[0, seq.shape[1] + i]
            p, q = p_all[0, i, tok], qs[i][0, tok]
            proposed += 1
            if torch.rand(1).item() < min(1.0, (p / q).item()):
                n_ok += 1
                accepted += 1
            else:
                residual = torch.clamp(p_all[0, i] - qs[i][0], min=0)
                residual = residual / residual.sum()
                fix = torch.multinomial(residual, 1)
                seq = torch.cat([draft_seq[:, :seq.shape[1] + i], fix.view(1, 1)], 1)
                break
        else:
            bonus = torch.multinomial(p_all[0, k], 1)
            seq = torch.cat([draft_seq, bonus.view(1, 1)], 1)
    return seq[:, :prefix.shape[1] + n_new], accepted, proposed


@torch.no_grad()
def plain(prefix, n_new, temperature=1.0):
    seq = prefix.clone()
    for _ in range(n_new):
        p = F.softmax(target(seq)[:, -1] / temperature, -1)
        seq = torch.cat([seq, torch.multinomial(p, 1)], 1)
    return seq


prefix = torch.tensor([[3, 4, 5]])
for temp in (1.0, 0.7):
    out, acc, prop = speculative(prefix, 12, k=3, temperature=temp)
    print(f"T={temp} speculative {out[0].tolist()} accepted {acc}/{prop} rate {acc / prop:.3f}")
    print(f"T={temp} plain       {plain(prefix, 12, temp)[0].tolist()}")

with torch.no_grad():
    p = F.softmax(target(prefix)[:, -1], -1)[0]
    q = F.softmax(draft(prefix)[:, -1], -1)[0]
print("target next-token probs", p)
print("draft  next-token probs", q)
print("expected acceptance sum(min(p, q))", torch.minimum(p, q).sum().item())
print("total variation", 0.5 * (p - q).abs().sum().item())
