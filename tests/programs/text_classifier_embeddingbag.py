# Models: the "Text classification with the torchtext library" tutorial's TextClassificationModel
# -- nn.EmbeddingBag (mode mean) over concatenated token ids with offsets, a collate_batch that
# builds label/text/offsets, SGD with StepLR, clip_grad_norm_, train/evaluate loops.
import time

import torch
from torch import nn
from torch.utils.data import DataLoader
from torch.utils.data.dataset import random_split

topics = {
    0: "goal match team league score win player coach season cup",
    1: "market stock shares profit bank trade price economy growth",
    2: "chip software computer phone data network internet cloud app",
    3: "election vote party minister law court policy president senate",
}
g = torch.Generator().manual_seed(3)
filler = "the a of and to in on for with".split()
vocab = sorted({w for t in topics.values() for w in t.split()} | set(filler))
stoi = {w: i + 1 for i, w in enumerate(vocab)}      # 0 is <unk>
print("vocab", len(stoi) + 1)

data = []
for _ in range(240):
    label = torch.randint(0, 4, (1,), generator=g).item()
    words = topics[label].split()
    n = torch.randint(4, 9, (1,), generator=g).item()
    picks = torch.randint(0, len(words), (n,), generator=g).tolist()
    noise = torch.randint(0, len(filler), (3,), generator=g).tolist()
    text = " ".join([words[i] for i in picks] + [filler[i] for i in noise] + ["zzz"])
    data.append((label, text))
print(data[0])


def text_pipeline(x):
    return [stoi.get(w, 0) for w in x.split()]


def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for label, text in batch:
        label_list.append(label)
        processed = torch.tensor(text_pipeline(text), dtype=torch.int64)
        text_list.append(processed)
        offsets.append(processed.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    return label_list, torch.cat(text_list), offsets


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


torch.manual_seed(0)
model = TextClassificationModel(len(stoi) + 1, 16, 4)
print(model)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)

train_ds, valid_ds = random_split(data, [200, 40], generator=torch.Generator().manual_seed(42))
train_dl = DataLoader(train_ds, batch_size=16, shuffle=True, collate_fn=collate_batch)
valid_dl = DataLoader(valid_ds, batch_size=16, shuffle=False, collate_fn=collate_batch)
labels, text, offsets = next(iter(valid_dl))
print(labels, text.shape, offsets)


def train(dataloader):
    model.train()
    total_acc, total_count = 0, 0
    start_time = time.time()
    for label, text, offsets in dataloader:
        optimizer.zero_grad()
        predicted_label = model(text, offsets)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
    assert time.time() - start_time >= 0
    return total_acc / total_count


def evaluate(dataloader):
    model.eval()
    total_acc, total_count, total_loss = 0, 0, 0.0
    with torch.no_grad():
        for label, text, offsets in dataloader:
            predicted_label = model(text, offsets)
            total_loss += criterion(predicted_label, label).item()
            total_acc += (predicted_label.argmax(1) == label).sum().item()
            total_count += label.size(0)
    return total_acc / total_count, total_loss


total_accu = None
for epoch in range(1, 5):
    train_acc = train(train_dl)
    accu_val, loss_val = evaluate(valid_dl)
    if total_accu is not None and total_accu > accu_val:
        scheduler.step()
    else:
        total_accu = accu_val
    print(f"| epoch {epoch:3d} | train {train_acc:8.3f} | valid accuracy {accu_val:8.3f} "
          f"| loss {loss_val:.5f} | lr {scheduler.get_last_lr()[0]}")

bag = nn.EmbeddingBag(10, 3, mode="max")
print(bag(torch.tensor([[1, 2, 4], [4, 3, 9]])))
bag_sum = nn.EmbeddingBag.from_pretrained(torch.arange(12.).view(4, 3), mode="sum")
print(bag_sum(torch.tensor([0, 1, 2, 3]), torch.tensor([0, 1]),
              per_sample_weights=None))
