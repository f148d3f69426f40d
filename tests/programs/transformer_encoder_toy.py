# Models: a transformer-encoder toy (the "copy/reverse task" and sequence-classification
# tutorials): token + learned positional embeddings, nn.TransformerEncoder of two
# TransformerEncoderLayers with a padding mask, mean pooling and a classifier head.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
VOCAB, D, L, B = 11, 16, 7, 8


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D, padding_idx=0)
        self.pos = nn.Parameter(torch.zeros(1, L, D))
        layer = nn.TransformerEncoderLayer(D, nhead=4, dim_feedforward=32, dropout=0.0,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(D, 2)

    def forward(self, x):
        mask = x == 0
        h = self.tok(x) * math.sqrt(D) + self.pos
        h = self.encoder(h, src_key_padding_mask=mask)
        keep = (~mask).unsqueeze(-1).float()
        return self.head((h * keep).sum(1) / keep.sum(1))


x = torch.randint(1, VOCAB, (B, L))
x[:, 5:] = 0
y = (x[:, 0] > 5).long()
model = Classifier()
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
for step in range(12):
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 3:
        print(step, f"{loss.item():.5f}", (logits.argmax(1) == y).sum().item())
model.eval()
with torch.no_grad():
    print(model(x[:2]))
mask = torch.triu(torch.full((4, 4), float("-inf")), diagonal=1)
print(mask)
