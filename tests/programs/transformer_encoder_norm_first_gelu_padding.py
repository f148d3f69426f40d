# Models: a pre-LN transformer encoder as in modern tutorials: TransformerEncoderLayer with
# norm_first=True, activation="gelu", batch_first, a key padding mask, a final LayerNorm, the
# masked positions' outputs, and one training step's loss and gradient norms.
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0,
                                   activation="gelu", batch_first=True, norm_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(8),
                            enable_nested_tensor=False)
x = torch.randn(3, 5, 8)
pad = torch.tensor([[False] * 5, [False, False, False, True, True], [False] * 4 + [True]])
out = enc(x, src_key_padding_mask=pad)
print(out.shape)
print(out[1])
print("row means", out.mean(-1))
head = nn.Linear(8, 2)
opt = torch.optim.AdamW(list(enc.parameters()) + list(head.parameters()), lr=1e-3)
y = torch.tensor([0, 1, 1])
keep = (~pad).unsqueeze(-1).float()
for step in range(3):
    h = enc(x, src_key_padding_mask=pad)
    pooled = (h * keep).sum(1) / keep.sum(1)
    loss = nn.functional.cross_entropy(head(pooled), y)
    opt.zero_grad()
    loss.backward()
    norms = [p.grad.norm().item() for p in enc.layers[0].self_attn.parameters()]
    opt.step()
    print(step, round(loss.item(), 6), [round(n, 5) for n in norms])
print(enc.layers[0])
print(loss.grad_fn.name())
