# Models: Deep Knowledge Tracing (Piech et al.) as its PyTorch reimplementations write it:
# one-hot (skill, correct) interactions, padded variable-length student sequences, an LSTM,
# gathering the prediction for the next skill, a masked BCE loss, and AUC computed from ranks
# (no sklearn), with per-epoch metrics.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(31)
n_skills = 6
difficulty = torch.linspace(-1.0, 1.5, n_skills)


def student(length):
    ability = torch.randn(1).item()
    skills = torch.randint(0, n_skills, (length,))
    practice = torch.zeros(n_skills)
    correct = []
    for s in skills.tolist():
        p = torch.sigmoid(torch.tensor(ability + 0.4 * practice[s].item() - difficulty[s]))
        c = int(torch.rand(1).item() < p.item())
        correct.append(c)
        practice[s] += 1
    return skills, torch.tensor(correct)


students = [student(int(torch.randint(5, 16, (1,)))) for _ in range(60)]
lengths = torch.tensor([len(s) for s, _ in students])
print("lengths", lengths[:10], lengths.sum().item())


def auc(scores, labels):
    order = torch.argsort(scores)
    ranks = torch.empty_like(scores)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    pos = labels == 1
    n_pos, n_neg = pos.sum().item(), (~pos).sum().item()
    return ((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()


class DKT(nn.Module):
    def __init__(self, n_skills, hidden=24):
        super().__init__()
        self.n = n_skills
        self.lstm = nn.LSTM(2 * n_skills, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_skills)

    def forward(self, skills, correct, lengths):
        x = F.one_hot(skills + self.n * correct, 2 * self.n).float()
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        h, _ = self.lstm(packed)
        h, out_len = pad_packed_sequence(h, batch_first=True, total_length=skills.shape[1])
        return self.out(h), out_len


model = DKT(n_skills)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
train, test = students[:45], students[45:]


def batchify(group):
    sk = pad_sequence([s for s, _ in group], batch_first=True)
    co = pad_sequence([c for _, c in group], batch_first=True)
    ln = torch.tensor([len(s) for s, _ in group])
    return sk, co, ln


def predictions(group):
    sk, co, ln = batchify(group)
    logits, _ = model(sk, co, ln)
    nxt = sk[:, 1:]
    pred = logits[:, :-1].gather(2, nxt.unsqueeze(2)).squeeze(2)
    mask = torch.arange(sk.shape[1] - 1)[None, :] < (ln - 1)[:, None]
    return pred[mask], co[:, 1:][mask].float()


for epoch in range(8):
    model.train()
    perm = torch.randperm(len(train)).tolist()
    for i in range(0, len(train), 15):
        pred, target = predictions([train[j] for j in perm[i:i + 15]])
        loss = F.binary_cross_entropy_with_logits(pred, target)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 2.0)
        opt.step()
    model.eval()
    with torch.no_grad():
        pt, tt = predictions(test)
        test_loss = F.binary_cross_entropy_with_logits(pt, tt)
        acc = ((pt > 0).float() == tt).float().mean()
    print(f"epoch {epoch} train {loss.item():.5f} test {test_loss.item():.5f} "
          f"auc {auc(pt.sigmoid(), tt.long()):.4f} acc {acc:.4f}")
with torch.no_grad():
    sk, co, ln = batchify(test[:2])
    logits, out_len = model(sk, co, ln)
    print(out_len, torch.sigmoid(logits[0, : ln[0]]).round(decimals=3))
print(auc(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1])))
