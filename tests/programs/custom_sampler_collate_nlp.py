# Models: an NLP data pipeline from a text-classification tutorial: a vocabulary built with
# collections.Counter, numericalised sentences, a bucket sampler that groups similar lengths,
# a collate_fn that pads and builds masks, and a masked-mean-pooling classifier trained with
# label smoothing and a warmup + cosine LambdaLR schedule.
import collections
import math
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, Sampler

random.seed(0)
torch.manual_seed(0)
words = "the a cat dog sat ran on mat log fast slow big small red blue".split()
sentences, labels = [], []
for i in range(60):
    n = random.randint(3, 11)
    s = [random.choice(words) for _ in range(n)]
    sentences.append(s)
    labels.append(int(("cat" in s) + ("fast" in s)))
counter = collections.Counter(w for s in sentences for w in s)
itos = ["<pad>", "<unk>"] + [w for w, _ in counter.most_common()]
stoi = {w: i for i, w in enumerate(itos)}
print(len(itos), counter.most_common(3))


class TextDS(Dataset):
    def __len__(self):
        return len(sentences)

    def __getitem__(self, i):
        return torch.tensor([stoi.get(w, 1) for w in sentences[i]]), labels[i]


class BucketSampler(Sampler):
    def __init__(self, lengths, batch_size, generator):
        self.lengths, self.bs, self.g = lengths, batch_size, generator

    def __iter__(self):
        order = torch.randperm(len(self.lengths), generator=self.g).tolist()
        chunks = [order[i:i + self.bs * 3] for i in range(0, len(order), self.bs * 3)]
        batches = []
        for ch in chunks:
            ch = sorted(ch, key=lambda j: self.lengths[j])
            batches += [ch[i:i + self.bs] for i in range(0, len(ch), self.bs)]
        perm = torch.randperm(len(batches), generator=self.g).tolist()
        return iter([batches[p] for p in perm])

    def __len__(self):
        return math.ceil(len(self.lengths) / self.bs)


def collate(batch):
    seqs, ys = zip(*batch)
    padded = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded, padded != 0, torch.tensor(ys)


class Pooler(nn.Module):
    def __init__(self, vocab, dim=16, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.ff = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Dropout(0.1),
                                nn.Linear(dim, classes))

    def forward(self, ids, mask):
        e = self.emb(ids) * mask.unsqueeze(-1)
        pooled = e.sum(1) / mask.sum(1, keepdim=True).clamp(min=1)
        return self.ff(pooled)


g = torch.Generator().manual_seed(7)
loader = DataLoader(TextDS(), batch_sampler=BucketSampler([len(s) for s in sentences], 8, g),
                    collate_fn=collate)
ids, mask, ys = next(iter(loader))
print(ids.shape, mask.sum(1).tolist(), ys.tolist())
model = Pooler(len(itos))
opt = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.01)
total = 6 * len(loader)
warm = 5


def warmup_cosine(step):
    if step < warm:
        return (step + 1) / warm
    return 0.5 * (1 + math.cos(math.pi * (step - warm) / (total - warm)))


sched = torch.optim.lr_scheduler.LambdaLR(opt, warmup_cosine)
crit = nn.CrossEntropyLoss(label_smoothing=0.1)
for epoch in range(6):
    model.train()
    tot, correct = 0.0, 0
    for ids, mask, ys in loader:
        logits = model(ids, mask)
        loss = crit(logits, ys)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        tot += loss.item() * len(ys)
        correct += (logits.argmax(1) == ys).sum().item()
    lr = sched.get_last_lr()[0]
    print(f"epoch {epoch} loss {tot / 60:.5f} acc {correct / 60:.3f} lr {lr:.6f}")
model.eval()
with torch.no_grad():
    ids, mask, ys = collate([TextDS()[i] for i in range(5)])
    print(model(ids, mask).softmax(-1))
