# Models: "visualising attention" tutorials that print attention maps as text tables instead of
# plotting: nn.MultiheadAttention with need_weights and average_attn_weights=False, a causal
# attn_mask, key padding, entropy per head, and the argmax alignment printed per token.
import torch
import torch.nn as nn

torch.manual_seed(0)
tokens = ["<s>", "the", "cat", "sat", "<pad>"]
E, Hh = 8, 2
emb = nn.Embedding(len(tokens), E)
mha = nn.MultiheadAttention(E, Hh, batch_first=True)
ids = torch.arange(5)[None]
x = emb(ids)
kpm = torch.tensor([[False, False, False, False, True]])
causal = nn.Transformer.generate_square_subsequent_mask(5)
print(causal)
with torch.no_grad():
    out, w = mha(x, x, x, key_padding_mask=kpm, need_weights=True)
    print(out.shape, w.shape)
    _, wh = mha(x, x, x, key_padding_mask=kpm, attn_mask=causal, average_attn_weights=False)
    print(wh.shape)
    _, wb = mha(
        x, x, x, attn_mask=causal.bool() if False else causal == float("-inf"), need_weights=True
    )
print("      " + " ".join(f"{t:>6}" for t in tokens))
for i, t in enumerate(tokens):
    print(f"{t:>6}" + " ".join(f"{v:6.3f}" for v in w[0, i].tolist()))
for h in range(Hh):
    m = wh[0, h]
    ent = -(m.clamp_min(1e-12).log() * m).sum(-1)
    print("head", h, "entropy", ent.round(decimals=4).tolist())
    print("  align", [tokens[j] for j in m.argmax(-1).tolist()])
print(
    torch.allclose(wh.mean(1), mha(x, x, x, key_padding_mask=kpm, attn_mask=causal)[1], atol=1e-6)
)
print(wb[0].triu(1).abs().sum().item())
print(w[0, :, -1])
print(torch.nan_to_num(wh[0, 0]).sum(-1))
