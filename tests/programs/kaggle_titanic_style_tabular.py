# Models: a Kaggle "Titanic"-style notebook in plain torch: synthetic passenger table, missing
# values imputed with nanmedian, one-hot and embedding features, torch.bucketize age bands,
# standardisation with train statistics, stratified k-fold splits, a small MLP with
# BCEWithLogitsLoss(pos_weight), threshold search, ROC-AUC, confusion matrix via bincount,
# and a submission-style CSV string.
import io

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(42)
n = 300
pclass = torch.randint(1, 4, (n,))
sex = torch.randint(0, 2, (n,))
age = torch.randn(n) * 14 + 30
age[torch.rand(n) < 0.2] = float("nan")
fare = torch.exp(torch.randn(n) * 0.8 + 3) / pclass
embarked = torch.randint(0, 3, (n,))
sibsp = torch.poisson(torch.full((n,), 0.6)).long()
logit = 1.5 * sex - 0.8 * (pclass - 2) - 0.02 * torch.nan_to_num(age, nan=30.0) + 0.6 + 0.01 * fare
survived = torch.bernoulli(torch.sigmoid(logit))
print("missing ages:", torch.isnan(age).sum().item(), "survival rate:", survived.mean().item())
print("median age:", age.nanmedian().item(), "mean:", age.nanmean().item())
print("by class:", [round(survived[pclass == c].mean().item(), 4) for c in (1, 2, 3)])

age_filled = torch.where(torch.isnan(age), age.nanmedian(), age)
bands = torch.bucketize(age_filled, torch.tensor([12.0, 18.0, 35.0, 60.0]))
print("age bands:", torch.bincount(bands).tolist())
num = torch.stack([age_filled, torch.log1p(fare), sibsp.float(), torch.isnan(age).float()], 1)
cat = torch.cat([F.one_hot(pclass - 1, 3), F.one_hot(sex, 2), F.one_hot(bands, 5)], 1).float()


def stratified_kfold(y, k):
    folds = [[] for _ in range(k)]
    for cls in y.unique():
        idx = (y == cls).nonzero().squeeze(1)
        idx = idx[torch.randperm(len(idx))]
        for i, chunk in enumerate(idx.chunk(k)):
            folds[i].append(chunk)
    return [torch.cat(f) for f in folds]


class Net(nn.Module):
    def __init__(self, n_num, n_cat):
        super().__init__()
        self.emb = nn.Embedding(3, 2)
        self.mlp = nn.Sequential(nn.Linear(n_num + n_cat + 2, 16), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(16, 1))

    def forward(self, xn, xc, emb):
        return self.mlp(torch.cat([xn, xc, self.emb(emb)], 1)).squeeze(1)


def roc_auc(scores, y):
    order = scores.argsort(descending=True)
    y = y[order]
    tpr = torch.cat([torch.zeros(1), y.cumsum(0) / y.sum()])
    fpr = torch.cat([torch.zeros(1), (1 - y).cumsum(0) / (1 - y).sum()])
    return torch.trapezoid(tpr, fpr).item()


folds = stratified_kfold(survived, 5)
print("fold sizes:", [len(f) for f in folds], "fold pos:", [int(survived[f].sum()) for f in folds])
oof = torch.zeros(n)
for k in range(5):
    val = folds[k]
    tr = torch.cat([folds[j] for j in range(5) if j != k])
    mu, sd = num[tr].mean(0), num[tr].std(0)
    xn = (num - mu) / sd
    model = Net(4, cat.shape[1])
    pos_weight = (1 - survived[tr]).sum() / survived[tr].sum()
    crit = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.01)
    for epoch in range(40):
        model.train()
        perm = tr[torch.randperm(len(tr))]
        for b in perm.split(64):
            opt.zero_grad()
            loss = crit(model(xn[b], cat[b], embarked[b]), survived[b])
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        oof[val] = torch.sigmoid(model(xn[val], cat[val], embarked[val]))
    print(f"fold {k}: loss {loss.item():.4f} auc {roc_auc(oof[val], survived[val]):.4f}")
print(f"OOF AUC {roc_auc(oof, survived):.5f}")
ths = torch.linspace(0.2, 0.8, 13)
accs = torch.stack([((oof > t).float() == survived).float().mean() for t in ths])
best = accs.argmax()
print("best threshold", round(ths[best].item(), 3), "acc", round(accs[best].item(), 4))
pred = (oof > ths[best]).long()
cm = torch.bincount(survived.long() * 2 + pred, minlength=4).reshape(2, 2)
print(cm)
tp, fp, fn = cm[1, 1].item(), cm[0, 1].item(), cm[1, 0].item()
print(f"precision {tp / (tp + fp):.4f} recall {tp / (tp + fn):.4f}")
buf = io.StringIO()
buf.write("PassengerId,Survived\n")
for i in range(5):
    buf.write(f"{892 + i},{pred[i].item()}\n")
print(buf.getvalue().strip())
