# Models: an image-captioning style decoder: nn.TransformerDecoder (norm_first layers, a
# final LayerNorm) cross-attending to a memory of "image" features, trained with teacher
# forcing, generate_square_subsequent_mask and tgt_key_padding_mask, then greedy and
# temperature sampling generation, plus the incremental-equals-full-pass check.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V, D, BOS, EOS, PAD = 12, 32, 1, 2, 0
n_mem = 4


def make_batch(n):
    feats = torch.randn(n, n_mem, D)
    # caption = BOS, tokens determined by the sign pattern of the features, EOS, PAD
    key = (feats[:, :, 0] > 0).long()
    tokens = 3 + key * 2 + (feats[:, :, 1] > 0).long()
    lengths = torch.randint(2, n_mem + 1, (n,))
    seq = torch.full((n, n_mem + 2), PAD)
    seq[:, 0] = BOS
    for i in range(n):
        seq[i, 1 : lengths[i] + 1] = tokens[i, : lengths[i]]
        seq[i, lengths[i] + 1] = EOS
    return feats, seq


class Captioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D, padding_idx=PAD)
        self.pos = nn.Parameter(torch.randn(1, 16, D) * 0.02)
        layer = nn.TransformerDecoderLayer(
            D, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True, norm_first=True
        )
        self.decoder = nn.TransformerDecoder(layer, num_layers=2, norm=nn.LayerNorm(D))
        self.head = nn.Linear(D, V)

    def forward(self, memory, tgt, pad_mask=None):
        t = tgt.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        h = self.tok(tgt) + self.pos[:, :t]
        h = self.decoder(
            h, memory, tgt_mask=mask, tgt_is_causal=True, tgt_key_padding_mask=pad_mask
        )
        return self.head(h)


model = Captioner()
print(model.decoder.layers[0])
print("params", sum(p.numel() for p in model.parameters()))
print(nn.Transformer.generate_square_subsequent_mask(4))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(60):
    feats, seq = make_batch(16)
    inp, tgt = seq[:, :-1], seq[:, 1:]
    logits = model(feats, inp, pad_mask=inp == PAD)
    loss = F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1), ignore_index=PAD)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 15 == 14:
        print(f"step {step + 1} loss {loss.item():.3f}")

model.eval()
feats, seq = make_batch(4)


@torch.no_grad()
def generate(memory, max_len=6, temperature=None, generator=None):
    out = torch.full((memory.size(0), 1), BOS)
    done = torch.zeros(memory.size(0), dtype=torch.bool)
    for _ in range(max_len):
        logits = model(memory, out)[:, -1]
        if temperature is None:
            nxt = logits.argmax(-1)
        else:
            probs = F.softmax(logits / temperature, dim=-1)
            nxt = torch.multinomial(probs, 1, generator=generator).squeeze(1)
        nxt = nxt.masked_fill(done, PAD)
        out = torch.cat([out, nxt[:, None]], dim=1)
        done |= nxt == EOS
        if done.all():
            break
    return out


print("reference\n", seq)
greedy = generate(feats)
print("greedy\n", greedy)
g = torch.Generator().manual_seed(5)
print("sampled T=1.5\n", generate(feats, temperature=1.5, generator=g))

with torch.no_grad():
    full = model(feats, greedy)
    prefix = model(feats, greedy[:, :3])
print("causal prefix consistent", torch.allclose(full[:, :3], prefix, atol=1e-5))
print(f"{F.softmax(full[0, 0], -1).max().item():.4f}")
