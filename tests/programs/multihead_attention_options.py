# Models: code that exercises nn.MultiheadAttention's options the way model ports do: kdim /
# vdim different from embed_dim (separate projection weights), add_bias_kv and
# add_zero_attn, boolean and float attn_mask, key_padding_mask, need_weights with
# average_attn_weights False (per-head maps), batch_first, is_causal with a mask, state-dict
# keys of each variant, and a cross-attention pooling classifier trained with it.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

mha = nn.MultiheadAttention(8, 2, kdim=6, vdim=4, batch_first=True)
print(mha)
print(sorted(k for k in mha.state_dict()))
q = torch.randn(2, 3, 8)
k = torch.randn(2, 5, 6)
v = torch.randn(2, 5, 4)
out, w = mha(q, k, v)
print("kdim/vdim out:", tuple(out.shape), "weights:", tuple(w.shape))
print(w[0])

mha2 = nn.MultiheadAttention(8, 4, add_bias_kv=True, add_zero_attn=True, dropout=0.0)
print("bias_k shape:", tuple(mha2.bias_k.shape))
x = torch.randn(4, 2, 8)                         # (L, N, E), not batch_first
pad = torch.tensor([[False, False, False, True], [False, False, True, True]])
out2, w2 = mha2(x, x, x, key_padding_mask=pad, average_attn_weights=False)
print("per-head weights shape:", tuple(w2.shape))
print("sample 1, head 0:\n", w2[1, 0])

causal = nn.Transformer.generate_square_subsequent_mask(4)
print("float causal mask:\n", causal)
mha3 = nn.MultiheadAttention(8, 2, batch_first=True)
xb = torch.randn(2, 4, 8)
o_float, w_float = mha3(xb, xb, xb, attn_mask=causal)
o_bool, w_bool = mha3(xb, xb, xb, attn_mask=causal.isinf())
o_causal, _ = mha3(xb, xb, xb, attn_mask=causal, is_causal=True, need_weights=False)
print("float vs bool mask agree:", torch.allclose(o_float, o_bool, atol=1e-6),
      torch.allclose(w_float, w_bool))
print("is_causal agrees:", torch.allclose(o_float, o_causal, atol=1e-6))
print("causal weights:\n", w_float[0])
bias = torch.zeros(4, 4)
bias[:, 0] = 2.0                                  # additive float mask favouring key 0
_, wb = mha3(xb, xb, xb, attn_mask=bias)
print("biased weights col 0:", wb[0, :, 0])


class AttnPool(nn.Module):
    """A learned query attends over a padded sequence (set/sequence classification)."""

    def __init__(self, d=16):
        super().__init__()
        self.emb = nn.Embedding(10, d, padding_idx=0)
        self.query = nn.Parameter(torch.randn(1, 1, d) * 0.1)
        self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.head = nn.Linear(d, 2)

    def forward(self, ids):
        h = self.emb(ids)
        q = self.query.expand(len(ids), -1, -1)
        pooled, w = self.attn(q, h, h, key_padding_mask=ids == 0)
        return self.head(pooled[:, 0]), w[:, 0]


def data(n, g):
    """Label: whether token 7 occurs in the (padded) sequence."""
    ids = torch.randint(1, 7, (n, 8), generator=g)
    lens = torch.randint(3, 9, (n,), generator=g)
    y = torch.randint(0, 2, (n,), generator=g)
    for i in range(n):
        if y[i]:
            ids[i, int(torch.randint(0, int(lens[i]), (1,), generator=g))] = 7
        ids[i, lens[i]:] = 0
    return ids, y


g = torch.Generator().manual_seed(1)
model = AttnPool()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(60):
    ids, y = data(32, g)
    logits, _ = model(ids)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        print(f"step {step + 1} loss {loss.item():.5f}")
ids, y = data(100, g)
with torch.no_grad():
    logits, w = model(ids)
print(f"accuracy {(logits.argmax(1) == y).float().mean().item():.4f}")
print("ids:", ids[0].tolist(), "attention:", w[0])
