# Models: a char-RNN (Karpathy-style) -- character vocabulary, nn.Embedding + nn.GRU +
# nn.Linear, truncated training on a short text, then greedy sampling.
import torch
import torch.nn as nn

text = "hello world, hello pytorch. the quick brown fox jumps over the lazy dog. " * 3
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
print(len(chars), data.shape, data[:10])


class CharRNN(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.emb = nn.Embedding(vocab, 16)
        self.rnn = nn.GRU(16, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, h=None):
        out, h = self.rnn(self.emb(x), h)
        return self.head(out), h


torch.manual_seed(5)
model = CharRNN(len(chars), 48)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
seq_len, batch = 20, 4
for step in range(30):
    ix = torch.randint(0, len(data) - seq_len - 1, (batch,))
    x = torch.stack([data[i:i + seq_len] for i in ix])
    y = torch.stack([data[i + 1:i + seq_len + 1] for i in ix])
    logits, _ = model(x)
    loss = nn.functional.cross_entropy(logits.reshape(-1, len(chars)), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    idx = torch.tensor([[stoi["h"]]])
    h = None
    out = "h"
    for _ in range(30):
        logits, h = model(idx, h)
        nxt = logits[0, -1].argmax().item()
        out += itos[nxt]
        idx = torch.tensor([[nxt]])
print(repr(out))
print(h.shape)
