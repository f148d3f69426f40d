# Models: Yoon Kim's "CNN for Sentence Classification" as its PyTorch ports write it: a static
# (frozen, from_pretrained) and a non-static embedding channel, Conv1d filters of widths 3/4/5,
# max-over-time pooling, dropout 0.5, Adadelta, and the l2 max-norm constraint on the output
# layer applied with torch.renorm after each step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(17)
words = ("<pad> good great fine awful bad poor movie plot acting was the very not really "
         "boring fun").split()
stoi = {w: i for i, w in enumerate(words)}
pos = ["good", "great", "fine", "fun"]
neg = ["awful", "bad", "poor", "boring"]


def sentence():
    label = torch.randint(0, 2, (1,)).item()
    adj = (pos if label else neg)[torch.randint(0, 4, (1,)).item()]
    n_filler = torch.randint(2, 6, (1,)).item()
    filler = ["the", "movie", "plot", "acting", "was", "very", "really"]
    toks = [filler[torch.randint(0, 7, (1,)).item()] for _ in range(n_filler)]
    toks.insert(torch.randint(0, len(toks) + 1, (1,)).item(), adj)
    return toks, label


data = [sentence() for _ in range(96)]
max_len = max(len(t) for t, _ in data)
X = torch.zeros(len(data), max_len + 4, dtype=torch.long)
for i, (toks, _) in enumerate(data):
    X[i, 2:2 + len(toks)] = torch.tensor([stoi[t] for t in toks])
Y = torch.tensor([y for _, y in data])
print(X.shape, Y.float().mean().item(), X[:2])
pretrained = torch.randn(len(words), 10)
pretrained[0] = 0


class KimCNN(nn.Module):
    def __init__(self, emb, n_filters=6, sizes=(3, 4, 5), n_classes=2):
        super().__init__()
        self.static = nn.Embedding.from_pretrained(emb, freeze=True, padding_idx=0)
        self.nonstatic = nn.Embedding.from_pretrained(emb.clone(), freeze=False, padding_idx=0)
        d = emb.shape[1]
        self.convs = nn.ModuleList([nn.Conv1d(2 * d, n_filters, k) for k in sizes])
        self.dropout = nn.Dropout(0.5)
        self.fc = nn.Linear(n_filters * len(sizes), n_classes)

    def forward(self, x):
        e = torch.cat([self.static(x), self.nonstatic(x)], dim=2).transpose(1, 2)
        feats = [F.max_pool1d(F.relu(conv(e)), conv_out_len).squeeze(2)
                 for conv, conv_out_len in ((c, e.shape[2] - c.kernel_size[0] + 1)
                                            for c in self.convs)]
        return self.fc(self.dropout(torch.cat(feats, 1)))


model = KimCNN(pretrained)
print(model)
print([n for n, p in model.named_parameters() if p.requires_grad])
opt = torch.optim.Adadelta([p for p in model.parameters() if p.requires_grad], lr=1.0, rho=0.95)
for epoch in range(8):
    model.train()
    perm = torch.randperm(len(X))
    tot = 0.0
    for idx in perm.split(16):
        opt.zero_grad()
        loss = F.cross_entropy(model(X[idx]), Y[idx])
        loss.backward()
        opt.step()
        with torch.no_grad():
            model.fc.weight.data = torch.renorm(model.fc.weight.data, p=2, dim=0, maxnorm=3.0)
        tot += loss.item() * len(idx)
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(1) == Y).float().mean().item()
    print(f"epoch {epoch} loss {tot / len(X):.5f} acc {acc:.4f} "
          f"fc norms {model.fc.weight.norm(dim=1).tolist()}")
print(torch.equal(model.static.weight, pretrained), model.static.weight.grad)
print((model.nonstatic.weight - pretrained).abs().sum(1))
print(opt.state[model.fc.weight]["square_avg"].shape, sorted(opt.state[model.fc.weight]))
test = ["the", "plot", "was", "really", "boring"]
x = torch.tensor([[0, 0] + [stoi[w] for w in test] + [0] * (max_len + 2 - len(test))])
print(F.softmax(model(x), 1))
print(torch.renorm(torch.tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0))
print(torch.renorm(torch.arange(6.0).view(2, 3), 1, 1, 2.5))
