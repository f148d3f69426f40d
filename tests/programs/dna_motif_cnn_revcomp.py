# Models: genomics deep-learning notebooks (DeepBind/Basset style): one-hot DNA encoding from
# strings, planted motifs, reverse-complement augmentation by flipping both the channel and
# length axes, a Conv1d motif scanner with global max pooling, a reverse-complement-averaged
# prediction, and the learned first-layer filters printed as position weight matrices.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(230)
BASES = "ACGT"
motif = "TGACGTCA"
L, n = 40, 160


def random_seq(length):
    return "".join(BASES[i] for i in torch.randint(0, 4, (length,)).tolist())


seqs, labels = [], []
for i in range(n):
    s = list(random_seq(L))
    lab = i % 2
    if lab:
        pos = int(torch.randint(0, L - len(motif), (1,)))
        s[pos:pos + len(motif)] = motif
    seqs.append("".join(s))
    labels.append(lab)
lookup = torch.full((128,), -1, dtype=torch.long)
lookup[torch.tensor([ord(b) for b in BASES])] = torch.arange(4)


def one_hot(batch):
    codes = torch.tensor([[ord(c) for c in s] for s in batch])
    return F.one_hot(lookup[codes], 4).permute(0, 2, 1).float()


X = one_hot(seqs)
y = torch.tensor(labels, dtype=torch.float32)
print(X.shape, X[0, :, :6], seqs[0][:6])


def revcomp(x):
    return x.flip(1).flip(2)


rc = revcomp(one_hot(["AACG"]))
print(rc[0], "".join(BASES[i] for i in rc[0].argmax(0).tolist()))


class MotifCNN(nn.Module):
    def __init__(self, n_filters=8, width=8):
        super().__init__()
        self.conv = nn.Conv1d(4, n_filters, width)
        self.fc = nn.Linear(n_filters, 1)

    def forward(self, x):
        h = F.relu(self.conv(x))
        return self.fc(F.adaptive_max_pool1d(h, 1).squeeze(2)).squeeze(1)


model = MotifCNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-4)
train, test = torch.arange(0, 120), torch.arange(120, n)
for epoch in range(12):
    perm = train[torch.randperm(len(train))]
    for idx in perm.split(20):
        xb, yb = X[idx], y[idx]
        flip = torch.rand(len(idx)) < 0.5
        xb = torch.where(flip[:, None, None], revcomp(xb), xb)
        loss = F.binary_cross_entropy_with_logits(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 3 == 2:
        with torch.no_grad():
            p = 0.5 * (torch.sigmoid(model(X[test])) + torch.sigmoid(model(revcomp(X[test]))))
            acc = ((p > 0.5).float() == y[test]).float().mean()
        print(f"epoch {epoch + 1} loss {loss.item():.5f} test acc {acc.item():.4f}")
with torch.no_grad():
    w = model.conv.weight
    best = model.fc.weight[0].argmax()
    pwm = F.softmax(w[best] * 2, dim=0)
    print("filter", best.item(), "\n", pwm.round(decimals=3))
    consensus = "".join(BASES[i] for i in pwm.argmax(0).tolist())
    print("consensus", consensus, "motif", motif)
    act = F.relu(model.conv(one_hot([seqs[1]])))[0, best]
    print("max activation at", act.argmax().item(), seqs[1].find(motif), act.max())
