# Models: a pointer network (Vinyals et al.) as in public "learning to sort" notebooks: an LSTM
# encoder over input numbers, an LSTMCell decoder whose additive attention over encoder states
# is the output distribution, masking already-chosen positions with masked_fill(-inf),
# teacher forcing with gather, greedy decoding, and sorting accuracy.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SEQ, HID = 5, 32


class Attention(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.W1 = nn.Linear(hidden, hidden, bias=False)
        self.W2 = nn.Linear(hidden, hidden, bias=False)
        self.v = nn.Linear(hidden, 1, bias=False)

    def forward(self, enc, dec, mask):
        scores = self.v(torch.tanh(self.W1(enc) + self.W2(dec).unsqueeze(1))).squeeze(-1)
        return scores.masked_fill(mask, float("-inf"))


class PointerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(1, HID)
        self.encoder = nn.LSTM(HID, HID, batch_first=True)
        self.decoder = nn.LSTMCell(HID, HID)
        self.attn = Attention(HID)
        self.start = nn.Parameter(torch.zeros(HID))

    def forward(self, x, targets=None):
        b, n = x.shape
        emb = self.embed(x.unsqueeze(-1))
        enc, (h, c) = self.encoder(emb)
        h, c = h[0], c[0]
        dec_in = self.start.expand(b, HID)
        mask = torch.zeros(b, n, dtype=torch.bool)
        logits, pointers = [], []
        for t in range(n):
            h, c = self.decoder(dec_in, (h, c))
            scores = self.attn(enc, h, mask)
            logits.append(scores)
            idx = targets[:, t] if targets is not None else scores.argmax(-1)
            pointers.append(idx)
            mask = mask.scatter(1, idx.unsqueeze(1), True)
            dec_in = emb.gather(1, idx.view(b, 1, 1).expand(b, 1, HID)).squeeze(1)
        return torch.stack(logits, 1), torch.stack(pointers, 1)


def batch(n=64):
    x = torch.rand(n, SEQ)
    return x, torch.argsort(x, dim=1)


model = PointerNet()
x, y = batch(2)
logits, ptr = model(x)
print("logits:", tuple(logits.shape), "pointers:", ptr.tolist())
print("masked scores at the last step:", logits[0, -1])
print("a permutation:", [sorted(p) == list(range(SEQ)) for p in ptr.tolist()])

opt = torch.optim.Adam(model.parameters(), lr=0.005)
for step in range(120):
    x, y = batch()
    logits, _ = model(x, targets=y)
    loss = F.cross_entropy(logits.reshape(-1, SEQ), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 2.0)
    opt.step()
    if step % 30 == 0 or step == 119:
        print(f"step {step:3d} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    x, y = batch(200)
    _, ptr = model(x)
    exact = (ptr == y).all(1).float().mean()
    per_pos = (ptr == y).float().mean(0)
    print("exact sort accuracy:", exact.item())
    print("per-position accuracy:", per_pos)
    sorted_pred = x.gather(1, ptr)
    print("monotone outputs:", (sorted_pred[:, 1:] >= sorted_pred[:, :-1]).all(1).float().mean())
    demo = torch.tensor([[0.9, 0.1, 0.5, 0.3, 0.7]])
    print("demo:", demo.gather(1, model(demo)[1]))
    print("sort :", torch.sort(demo).values, torch.sort(demo, descending=True, stable=True))
