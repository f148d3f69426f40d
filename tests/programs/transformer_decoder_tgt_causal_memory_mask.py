# Models: the decoder half of a seq2seq transformer tutorial: nn.TransformerDecoder with a causal
# tgt_mask from generate_square_subsequent_mask, tgt_is_causal, memory key padding, the
# independence of early outputs from later targets, and one optimisation step.
import torch
import torch.nn as nn

torch.manual_seed(7)
layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0,
                                   batch_first=True)
dec = nn.TransformerDecoder(layer, num_layers=2)
tgt = torch.randn(2, 4, 8)
memory = torch.randn(2, 6, 8)
mask = nn.Transformer.generate_square_subsequent_mask(4)
print(mask)
mem_pad = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
out = dec(tgt, memory, tgt_mask=mask, tgt_is_causal=True, memory_key_padding_mask=mem_pad)
print(out.shape)
print(out[0, 0])
tgt2 = tgt.clone()
tgt2[:, 2:] = torch.randn(2, 2, 8)
out2 = dec(tgt2, memory, tgt_mask=mask, memory_key_padding_mask=mem_pad)
print("first two positions unchanged", torch.allclose(out[:, :2], out2[:, :2], atol=1e-6))
print("later changed", not torch.allclose(out[:, 2:], out2[:, 2:]))
head = nn.Linear(8, 5)
opt = torch.optim.Adam(list(dec.parameters()) + list(head.parameters()), lr=1e-2)
y = torch.tensor([[1, 2, 3, 4], [0, 1, 2, 3]])
for step in range(3):
    logits = head(dec(tgt, memory, tgt_mask=mask, memory_key_padding_mask=mem_pad))
    loss = nn.functional.cross_entropy(logits.reshape(-1, 5), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(dec.layers[0].multihead_attn)
