# Models: a CRNN text recogniser (Shi et al.) as OCR tutorials write it: a conv feature extractor
# collapsing height, a bidirectional LSTM over the width, log_softmax in (T, N, C) layout,
# nn.CTCLoss with blank 0 and concatenated targets, greedy best-path decoding that collapses
# repeats and drops blanks, and character/sequence accuracy on synthetic "glyph" strips.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(170)
alphabet = "-abc"
glyphs = {1: torch.tensor([[1.0, 0, 1], [1, 0, 1], [1, 1, 1]]),
          2: torch.tensor([[1.0, 1, 1], [0, 1, 0], [0, 1, 0]]),
          3: torch.tensor([[0.0, 1, 0], [1, 0, 1], [0, 1, 0]])}


def render(seq, width=16):
    img = torch.zeros(1, 5, width)
    x = 1
    for s in seq:
        img[0, 1:4, x:x + 3] = glyphs[s]
        x += 4 + int(torch.randint(0, 2, (1,)))
    return img + 0.1 * torch.randn_like(img)


def sample():
    length = int(torch.randint(2, 4, (1,)))
    seq = torch.randint(1, 4, (length,)).tolist()
    return render(seq), seq


class CRNN(nn.Module):
    def __init__(self, n_classes=4, hidden=16):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(8, 16, (5, 3), padding=(0, 1)), nn.ReLU())
        self.rnn = nn.LSTM(16, hidden, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, x):
        f = self.cnn(x).squeeze(2).permute(2, 0, 1)
        out, _ = self.rnn(f)
        return F.log_softmax(self.fc(out), dim=2)


def greedy_decode(log_probs):
    best = log_probs.argmax(2).T
    results = []
    for row in best.tolist():
        out, prev = [], 0
        for c in row:
            if c != prev and c != 0:
                out.append(c)
            prev = c
        results.append(out)
    return results


model = CRNN()
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
val = [sample() for _ in range(12)]
for step in range(30):
    batch = [sample() for _ in range(8)]
    imgs = torch.stack([b[0] for b in batch])
    targets = torch.cat([torch.tensor(b[1]) for b in batch])
    target_lengths = torch.tensor([len(b[1]) for b in batch])
    log_probs = model(imgs)
    input_lengths = torch.full((8,), log_probs.shape[0], dtype=torch.long)
    loss = ctc(log_probs, targets, input_lengths, target_lengths)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    if step % 10 == 9:
        with torch.no_grad():
            lp = model(torch.stack([v[0] for v in val]))
        decoded = greedy_decode(lp)
        seq_acc = sum(d == v[1] for d, v in zip(decoded, val)) / len(val)
        print(f"step {step + 1} ctc {loss.item():.5f} seq acc {seq_acc:.4f}")
print(log_probs.shape, input_lengths[:2], targets[:6], target_lengths)
print(["".join(alphabet[c] for c in d) for d in decoded[:6]])
print(["".join(alphabet[c] for c in v[1]) for v in val[:6]])
per_sample = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction="none")
print(per_sample, per_sample.sum() / target_lengths.sum())
