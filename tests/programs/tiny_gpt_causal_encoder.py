# Models: a tiny GPT built from nn.TransformerEncoder with a causal mask (the "language
# modeling with nn.Transformer" tutorial, decoder-only style): token + learned positional
# embeddings, generate_square_subsequent_mask vs is_causal, norm_first pre-LN layers, weight
# tying, AdamW with a warmup LambdaLR, training on a repeating character sequence, and greedy
# plus top-k sampling.
import math
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
text = "abcdefgh" * 12
vocab = sorted(set(text))
stoi = {c: i for i, c in enumerate(vocab)}
data = torch.tensor([stoi[c] for c in text])
block = 8


class TinyGPT(nn.Module):
    def __init__(self, V, d=32, heads=4, layers=2):
        super().__init__()
        self.tok = nn.Embedding(V, d)
        self.pos = nn.Parameter(torch.zeros(1, block, d))
        layer = nn.TransformerEncoderLayer(
            d, heads, dim_feedforward=64, dropout=0.0, batch_first=True, norm_first=True
        )
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            self.blocks = nn.TransformerEncoder(layer, layers)
        print("warnings:", [str(x.message) for x in w])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, V, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, idx):
        T = idx.size(1)
        x = self.tok(idx) + self.pos[:, :T]
        mask = nn.Transformer.generate_square_subsequent_mask(T)
        x = self.blocks(x, mask=mask, is_causal=True)
        return self.head(self.ln(x))


model = TinyGPT(len(vocab))
print(nn.Transformer.generate_square_subsequent_mask(4))
n_params = sum(p.numel() for p in model.parameters())
print("params", n_params, "tied:", model.head.weight is model.tok.weight)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 5))
for step in range(40):
    ix = torch.randint(0, len(data) - block - 1, (8,))
    x = torch.stack([data[i : i + block] for i in ix])
    y = torch.stack([data[i + 1 : i + block + 1] for i in ix])
    logits = model(x)
    loss = F.cross_entropy(logits.reshape(-1, len(vocab)), y.reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    if step % 10 == 0:
        print(
            f"step {step} loss {loss.item():.4f} ppl {math.exp(loss.item()):.3f} lr "
            f"{sched.get_last_lr()[0]:.5f}"
        )


@torch.no_grad()
def generate(idx, n, top_k=None, temperature=1.0):
    for _ in range(n):
        logits = model(idx[:, -block:])[:, -1, :] / temperature
        if top_k is not None:
            v, _ = torch.topk(logits, top_k)
            logits[logits < v[:, [-1]]] = -float("inf")
        probs = F.softmax(logits, dim=-1)
        nxt = probs.argmax(-1, keepdim=True) if top_k is None else torch.multinomial(probs, 1)
        idx = torch.cat([idx, nxt], dim=1)
    return idx


model.eval()
start = torch.tensor([[stoi["a"]]])
print("greedy", "".join(vocab[i] for i in generate(start, 12)[0].tolist()))
torch.manual_seed(5)
print("top-k", "".join(vocab[i] for i in generate(start, 12, top_k=2, temperature=0.8)[0].tolist()))
with torch.no_grad():
    x = data[:block].unsqueeze(0)
    full = model(x)
    prefix = model(x[:, :4])
    print("causal: prefix logits unchanged", torch.allclose(full[:, :4], prefix, atol=1e-5))
