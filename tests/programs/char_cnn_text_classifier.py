# Models: a character-level CNN text classifier (Zhang et al. 2015 / Kim-style multi-width
# convolutions, as in many "char-CNN in PyTorch" tutorials): strings encoded with ord() into
# padded index tensors with pad_sequence, an Embedding with padding_idx, parallel Conv1d
# branches with different kernel widths, max-over-time pooling, dropout, training with
# clip_grad_norm_, and predictions on unseen strings.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence

torch.manual_seed(0)

positive = [
    "great movie",
    "loved it",
    "wonderful acting",
    "so good",
    "best film ever",
    "really enjoyed",
    "amazing plot",
    "fun and great",
]
negative = [
    "terrible movie",
    "hated it",
    "awful acting",
    "so bad",
    "worst film ever",
    "really boring",
    "dull plot",
    "sad and bad",
]
texts = positive + negative
labels = torch.tensor([1] * len(positive) + [0] * len(negative))
alphabet = sorted(set("".join(texts)) | set("?"))
stoi = {c: i + 1 for i, c in enumerate(alphabet)}  # 0 is padding
print("alphabet size", len(alphabet), "first chars", alphabet[:5])


def encode(s):
    return torch.tensor([stoi.get(c, stoi["?"]) for c in s.lower()], dtype=torch.long)


seqs = [encode(t) for t in texts]
lengths = torch.tensor([len(s) for s in seqs])
batch = pad_sequence(seqs, batch_first=True, padding_value=0)
print("batch", tuple(batch.shape), "lengths", lengths.tolist())
print("first row", batch[0].tolist())


class CharCNN(nn.Module):
    def __init__(self, vocab, emb=16, n_filters=12, widths=(2, 3, 4), n_classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(emb, n_filters, w, padding=w // 2) for w in widths)
        self.dropout = nn.Dropout(0.3)
        self.fc = nn.Linear(n_filters * len(widths), n_classes)

    def forward(self, x):
        e = self.embed(x).transpose(1, 2)  # (B, emb, T)
        pooled = [F.adaptive_max_pool1d(F.relu(conv(e)), 1).squeeze(-1) for conv in self.convs]
        return self.fc(self.dropout(torch.cat(pooled, dim=1)))


model = CharCNN(len(alphabet) + 1)
print(model)
print("params", sum(p.numel() for p in model.parameters()))
print("padding row zero:", bool((model.embed.weight[0] == 0).all()))
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=1e-4)
for epoch in range(1, 41):
    model.train()
    perm = torch.randperm(len(texts))
    total = 0.0
    for i in range(0, len(texts), 4):
        idx = perm[i : i + 4]
        opt.zero_grad()
        loss = F.cross_entropy(model(batch[idx]), labels[idx])
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        opt.step()
        total += loss.item() * len(idx)
    if epoch % 10 == 0:
        model.eval()
        with torch.no_grad():
            acc = (model(batch).argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch} loss {total / len(texts):.4f} acc {acc:.3f} last norm {norm:.3f}")

print("padding grad stays zero:", bool((model.embed.weight.grad[0] == 0).all()))
model.eval()
tests = ["great acting", "boring film", "so fun", "awful!"]
x_new = pad_sequence([encode(t) for t in tests], batch_first=True)
with torch.no_grad():
    probs = F.softmax(model(x_new), dim=1)
for t, p in zip(tests, probs):
    print(f"{t!r:16s} p(pos)={p[1].item():.3f}")
e = model.embed(batch[:2]).transpose(1, 2)
out, ind = F.max_pool1d(F.relu(model.convs[1](e)), kernel_size=e.shape[-1], return_indices=True)
print("max-over-time positions", ind[:, :4, 0].tolist())
print("conv output lengths", [conv(e).shape[-1] for conv in model.convs])
try:
    model(batch.float())
except RuntimeError as err:
    print("RuntimeError:", err)
