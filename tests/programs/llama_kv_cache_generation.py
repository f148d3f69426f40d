# Models: a from-scratch Llama block as in the "Llama from scratch" notebooks and the reference
# model.py: RMSNorm, SwiGLU feed-forward, rotary embeddings precomputed with torch.outer and
# torch.polar, grouped-query attention, a KV cache filled during greedy generation and checked
# against a full recomputation, and a short next-token training run.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, DIM, HEADS, KV_HEADS, MAX_LEN = 16, 32, 4, 2, 24
HEAD_DIM = DIM // HEADS


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    t = torch.arange(end, dtype=torch.float32)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary(x, freqs_cis):
    xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, xc.shape[1], 1, xc.shape[-1])
    return torch.view_as_real(xc * freqs_cis).flatten(3).type_as(x)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.wq = nn.Linear(DIM, HEADS * HEAD_DIM, bias=False)
        self.wk = nn.Linear(DIM, KV_HEADS * HEAD_DIM, bias=False)
        self.wv = nn.Linear(DIM, KV_HEADS * HEAD_DIM, bias=False)
        self.wo = nn.Linear(HEADS * HEAD_DIM, DIM, bias=False)
        self.register_buffer(
            "cache_k", torch.zeros(1, MAX_LEN, KV_HEADS, HEAD_DIM), persistent=False
        )
        self.register_buffer(
            "cache_v", torch.zeros(1, MAX_LEN, KV_HEADS, HEAD_DIM), persistent=False
        )

    def forward(self, x, start_pos, freqs_cis, mask, use_cache):
        bsz, seqlen, _ = x.shape
        q = self.wq(x).view(bsz, seqlen, HEADS, HEAD_DIM)
        k = self.wk(x).view(bsz, seqlen, KV_HEADS, HEAD_DIM)
        v = self.wv(x).view(bsz, seqlen, KV_HEADS, HEAD_DIM)
        q, k = apply_rotary(q, freqs_cis), apply_rotary(k, freqs_cis)
        if use_cache:
            self.cache_k[:bsz, start_pos : start_pos + seqlen] = k
            self.cache_v[:bsz, start_pos : start_pos + seqlen] = v
            k = self.cache_k[:bsz, : start_pos + seqlen]
            v = self.cache_v[:bsz, : start_pos + seqlen]
        rep = HEADS // KV_HEADS
        k = torch.repeat_interleave(k, rep, dim=2)
        v = torch.repeat_interleave(v, rep, dim=2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        scores = q @ k.transpose(2, 3) / HEAD_DIM**0.5
        if mask is not None:
            scores = scores + mask
        out = F.softmax(scores.float(), dim=-1).type_as(q) @ v
        return self.wo(out.transpose(1, 2).contiguous().view(bsz, seqlen, -1))


class FeedForward(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.w1 = nn.Linear(DIM, hidden, bias=False)
        self.w2 = nn.Linear(hidden, DIM, bias=False)
        self.w3 = nn.Linear(DIM, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention_norm, self.ffn_norm = RMSNorm(DIM), RMSNorm(DIM)
        self.attention, self.feed_forward = Attention(), FeedForward()

    def forward(self, x, start_pos, freqs_cis, mask, use_cache):
        h = x + self.attention(self.attention_norm(x), start_pos, freqs_cis, mask, use_cache)
        return h + self.feed_forward(self.ffn_norm(h))


class Llama(nn.Module):
    def __init__(self, n_layers=2):
        super().__init__()
        self.tok_embeddings = nn.Embedding(VOCAB, DIM)
        self.layers = nn.ModuleList(Block() for _ in range(n_layers))
        self.norm = RMSNorm(DIM)
        self.output = nn.Linear(DIM, VOCAB, bias=False)
        self.register_buffer("freqs_cis", precompute_freqs_cis(HEAD_DIM, MAX_LEN), persistent=False)

    def forward(self, tokens, start_pos=0, use_cache=False):
        seqlen = tokens.shape[1]
        h = self.tok_embeddings(tokens)
        freqs_cis = self.freqs_cis[start_pos : start_pos + seqlen]
        mask = None
        if seqlen > 1:
            mask = torch.full((seqlen, seqlen), float("-inf")).triu(1)
            mask = torch.hstack([torch.zeros(seqlen, start_pos), mask])
        for layer in self.layers:
            h = layer(h, start_pos, freqs_cis, mask, use_cache)
        return self.output(self.norm(h)).float()


model = Llama()
fc = precompute_freqs_cis(HEAD_DIM, 4)
print(fc.dtype, fc.shape, fc[1, :2])
print("state_dict keys:", len(model.state_dict()), list(model.state_dict())[:4])
print("params:", sum(p.numel() for p in model.parameters()))

# training on a repeating pattern: next token = (token * 3 + 1) % VOCAB
start = torch.randint(0, VOCAB, (16, 1))
seqs = [start]
for _ in range(11):
    seqs.append((seqs[-1] * 3 + 1) % VOCAB)
data = torch.cat(seqs, dim=1)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.1)
for step in range(40):
    logits = model(data[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), data[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 39:
        print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    prompt = torch.tensor([[2, 7]])
    tokens = prompt.clone()
    logits = model(tokens, 0, use_cache=True)
    pos = tokens.shape[1]
    cached_logits = []
    for _ in range(8):
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        tokens = torch.cat([tokens, nxt], dim=1)
        logits = model(nxt, pos, use_cache=True)
        cached_logits.append(logits[:, -1])
        pos += 1
    print("generated:", tokens.tolist())
    full = model(tokens)
    diff = (torch.stack(cached_logits, 1) - full[:, 2:]).abs().max()
    print("kv-cache vs full recompute max diff < 1e-4:", diff.item() < 1e-4)
    expected = [2, 7]
    for _ in range(8):
        expected.append((expected[-1] * 3 + 1) % VOCAB)
    print("expected: ", expected)
    print("cache filled rows:", (model.layers[0].attention.cache_k[0].abs().sum((1, 2)) > 0).sum())
    probs = F.softmax(full[0, -1], dim=-1)
    print("top-3:", torch.topk(probs, 3).indices.tolist())
