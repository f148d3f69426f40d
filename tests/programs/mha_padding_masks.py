# Models: nn.MultiheadAttention as used in public encoder code (DETR, text classifiers) --
# batch_first inputs, key_padding_mask from sequence lengths, attn_mask as bool and float,
# need_weights with average_attn_weights on and off, separate kdim/vdim, add_bias_kv and
# add_zero_attn, a masked mean-pooling classifier head on top, and the weights' shapes in
# the state_dict.
import torch
import torch.nn as nn

torch.manual_seed(0)
B, T, E, H = 3, 5, 8, 2
x = torch.randn(B, T, E)
lengths = torch.tensor([5, 3, 2])
pad_mask = torch.arange(T)[None, :] >= lengths[:, None]
mha = nn.MultiheadAttention(E, H, batch_first=True)
print({k: tuple(v.shape) for k, v in mha.state_dict().items()})
out, w = mha(x, x, x, key_padding_mask=pad_mask)
print(out.shape, w.shape)
print("weights row sums", w.sum(-1))
print("padded keys get zero weight", w[1, :, 3:].abs().max().item() == 0.0)
print(out[2, 0])
out2, w2 = mha(x, x, x, key_padding_mask=pad_mask, average_attn_weights=False)
print("per-head", w2.shape, torch.allclose(w2.mean(1), w))
causal = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
out3, w3 = mha(x, x, x, attn_mask=causal)
print("causal weights", w3[0, :3, :3])
float_mask = torch.zeros(T, T).masked_fill(causal, float("-inf"))
out4, _ = mha(x, x, x, attn_mask=float_mask)
print("bool vs float mask", torch.allclose(out3, out4, atol=1e-6))
out5, none_w = mha(x, x, x, need_weights=False)
print("no weights", none_w, out5.shape)

cross = nn.MultiheadAttention(E, H, kdim=6, vdim=4, batch_first=True)
mem = torch.randn(B, 7, 6)
val = torch.randn(B, 7, 4)
co, cw = cross(x, mem, val)
print("cross", co.shape, cw.shape, cross.q_proj_weight.shape, cross.k_proj_weight.shape)
extra = nn.MultiheadAttention(E, H, add_bias_kv=True, add_zero_attn=True)
xs = x.transpose(0, 1)
eo, ew = extra(xs, xs, xs)
print("bias_kv + zero_attn", eo.shape, ew.shape, extra.bias_k.shape)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(E, H, dropout=0.1, batch_first=True)
        self.norm = nn.LayerNorm(E)
        self.head = nn.Linear(E, 2)

    def forward(self, x, pad_mask):
        a, _ = self.attn(x, x, x, key_padding_mask=pad_mask, need_weights=False)
        h = self.norm(x + a)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        return self.head(pooled)


clf = Classifier()
opt = torch.optim.Adam(clf.parameters(), lr=1e-2)
y = torch.tensor([0, 1, 1])
for step in range(15):
    loss = nn.functional.cross_entropy(clf(x, pad_mask), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.5f}")
clf.eval()
with torch.no_grad():
    print("eval logits", clf(x, pad_mask))
    print(clf(x, pad_mask).argmax(1).tolist())
