# Models: variable-length sequence classification as in the "padded sequences" tutorials and
# forum recipes: a Dataset of ragged sequences, a collate_fn with pad_sequence and lengths,
# a WeightedRandomSampler for class balance, pack_padded_sequence into an LSTM and
# pad_packed_sequence back, classifying from the last hidden state.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset, WeightedRandomSampler

torch.manual_seed(3)


class RaggedSequences(Dataset):
    """Label 1 when a sequence's sum is positive; lengths 2..9; two classes unbalanced."""

    def __init__(self, n):
        self.items = []
        for _ in range(n):
            length = int(torch.randint(2, 10, ()).item())
            seq = torch.randn(length, 3) + 0.3
            self.items.append((seq, int(seq[:, 0].sum() > 1.0)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True), lengths, torch.tensor(labels)


ds = RaggedSequences(160)
labels = torch.tensor([y for _, y in ds.items])
counts = torch.bincount(labels)
print("class counts", counts.tolist())
weights = (1.0 / counts.float())[labels]
sampler = WeightedRandomSampler(weights, num_samples=len(ds), replacement=True)
loader = DataLoader(ds, batch_size=16, sampler=sampler, collate_fn=collate)
x, lengths, y = next(iter(loader))
print(x.shape, lengths, y)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 12, batch_first=True)
        self.head = nn.Linear(12, 2)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        return self.head(h[-1]), out


model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(4):
    total, correct, seen = 0.0, 0, 0
    for x, lengths, y in loader:
        logits, _ = model(x, lengths)
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(y)
        correct += (logits.argmax(1) == y).sum().item()
        seen += len(y)
    print(f"epoch {epoch} loss {total / seen:.4f} acc {correct / seen:.4f}")

with torch.no_grad():
    x, lengths, y = collate([ds[i] for i in range(4)])
    logits, packed_out = model(x, lengths)
    out, out_lengths = pad_packed_sequence(packed_out, batch_first=True)
print(out.shape, out_lengths, packed_out.batch_sizes)
print(out[0, lengths[0] - 1], out[1, -1])
print(logits.softmax(-1), y)
