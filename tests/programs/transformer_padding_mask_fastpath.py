# Models: a text classifier on nn.TransformerEncoder with padded batches, as in the PyTorch
# "transformer for text classification" recipes: sinusoidal PositionalEncoding registered as
# a buffer, src_key_padding_mask from the padding index, masked mean pooling, training in
# train mode, then eval-mode inference where the encoder takes its nested-tensor fast path
# (padded positions come back as zeros) and the layer-by-layer slow path for comparison.
import math
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
PAD, V, D = 0, 12, 16


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[: x.size(1)].transpose(0, 1)
        return self.dropout(x)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=PAD)
        self.pos = PositionalEncoding(D)
        layer = nn.TransformerEncoderLayer(D, 4, 32, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.fc = nn.Linear(D, 2)

    def forward(self, tokens):
        mask = tokens == PAD
        h = self.encoder(self.pos(self.emb(tokens) * math.sqrt(D)), src_key_padding_mask=mask)
        keep = (~mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        return self.fc(pooled), h


def make_batch(n):
    lens = torch.randint(2, 7, (n,))
    toks = torch.randint(1, V, (n, 6))
    toks[torch.arange(6).expand(n, 6) >= lens.unsqueeze(1)] = PAD
    labels = ((toks == 3).any(1)).long()
    return toks, labels


model = Classifier()
print("pe buffer", model.pos.pe.shape, [n for n, _ in model.named_buffers()])
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(40):
    toks, labels = make_batch(16)
    logits, _ = model(toks)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(
            f"step {step} loss {loss.item():.4f} acc "
            f"{(logits.argmax(1) == labels).float().mean().item():.3f}"
        )

model.eval()
toks, labels = make_batch(4)
print(toks)
with torch.no_grad(), warnings.catch_warnings():
    warnings.simplefilter("ignore")
    logits, h = model(toks)
    print("padded positions are zero on the fast path:", bool((h[toks == PAD] == 0).all()))
    print(h[0, :, :4])
    x = model.pos(model.emb(toks) * math.sqrt(D))
    slow = x
    for layer in model.encoder.layers:
        slow = layer(slow, src_key_padding_mask=toks == PAD)
    valid = toks != PAD
    print("valid positions agree:", torch.allclose(slow[valid], h[valid], atol=1e-5))
    print("eval acc", (logits.argmax(1) == labels).float().mean().item(), logits.softmax(-1))
