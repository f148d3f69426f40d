# Models: a Kaggle "Titanic"-style notebook without pandas: parse a CSV with the csv module,
# impute missing ages with the median, one-hot encode categoricals, standardise, train a logistic
# MLP with BCEWithLogitsLoss(pos_weight), and report a confusion matrix and a submission table.
import csv
import io
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
RAW = """PassengerId,Survived,Pclass,Sex,Age,SibSp,Parch,Fare,Embarked
1,0,3,male,22,1,0,7.25,S
2,1,1,female,38,1,0,71.2833,C
3,1,3,female,26,0,0,7.925,S
4,1,1,female,35,1,0,53.1,S
5,0,3,male,35,0,0,8.05,S
6,0,3,male,,0,0,8.4583,Q
7,0,1,male,54,0,0,51.8625,S
8,0,3,male,2,3,1,21.075,S
9,1,3,female,27,0,2,11.1333,S
10,1,2,female,14,1,0,30.0708,C
11,1,3,female,4,1,1,16.7,S
12,1,1,female,58,0,0,26.55,S
13,0,3,male,20,0,0,8.05,S
14,0,3,male,39,1,5,31.275,S
15,0,3,female,14,0,0,7.8542,S
16,1,2,female,55,0,0,16,S
17,0,3,male,2,4,1,29.125,Q
18,1,2,male,,0,0,13,S
19,0,3,female,31,1,0,18,S
20,1,3,female,,0,0,7.225,C
21,0,2,male,35,0,0,26,S
22,1,2,male,34,0,0,13,S
23,1,3,female,15,0,0,8.0292,Q
24,1,1,male,28,0,0,35.5,S
25,0,3,female,8,3,1,21.075,S
26,1,3,female,38,1,5,31.3875,S
27,0,3,male,,0,0,7.225,C
28,0,1,male,19,3,2,263,S
29,1,3,female,,0,0,7.8792,Q
30,0,3,male,,0,0,7.8958,S
31,0,1,male,40,0,0,27.7208,C
32,1,1,female,,1,0,146.5208,C
"""
rows = list(csv.DictReader(io.StringIO(RAW)))
print("rows:", len(rows), "columns:", list(rows[0].keys()))
ages = torch.tensor([float(r["Age"]) if r["Age"] else math.nan for r in rows])
print("missing ages:", int(torch.isnan(ages).sum()), "median:", ages.nanmedian().item())
ages = torch.where(torch.isnan(ages), ages.nanmedian(), ages)
fare = torch.tensor([float(r["Fare"]) for r in rows]).log1p()
family = torch.tensor([int(r["SibSp"]) + int(r["Parch"]) for r in rows], dtype=torch.float32)
sex = torch.tensor([r["Sex"] == "female" for r in rows]).float()
pclass = nn.functional.one_hot(torch.tensor([int(r["Pclass"]) - 1 for r in rows]), 3).float()
ports = sorted({r["Embarked"] for r in rows})
embarked = nn.functional.one_hot(torch.tensor([ports.index(r["Embarked"]) for r in rows]),
                                 len(ports)).float()
numeric = torch.stack([ages, fare, family], 1)
mu, sd = numeric.mean(0), numeric.std(0)
print("means", mu, "\nstds", sd)
X = torch.cat([(numeric - mu) / sd, sex[:, None], pclass, embarked], 1)
y = torch.tensor([float(r["Survived"]) for r in rows])
print("X", X.shape, X.dtype, "positives", y.sum().item())
print(X[:4])
perm = torch.randperm(len(rows))
tr, va = perm[:24], perm[24:]
model = nn.Sequential(nn.Linear(X.shape[1], 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 1))
pos_weight = (y[tr] == 0).sum() / (y[tr] == 1).sum()
crit = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
opt = torch.optim.AdamW(model.parameters(), lr=0.03, weight_decay=1e-2)
print("pos_weight", pos_weight)
for epoch in range(60):
    model.train()
    for idx in tr.split(8):
        opt.zero_grad()
        loss = crit(model(X[idx]).squeeze(1), y[idx])
        loss.backward()
        opt.step()
    if epoch % 10 == 9:
        model.eval()
        with torch.no_grad():
            logits = model(X).squeeze(1)
            vloss = crit(logits[va], y[va])
            acc = ((logits[va] > 0).float() == y[va]).float().mean()
        print(f"epoch {epoch + 1:3d} train {loss.item():.5f} val {vloss.item():.5f} acc {acc:.3f}")
model.eval()
with torch.no_grad():
    prob = torch.sigmoid(model(X).squeeze(1))
pred = (prob > 0.5).long()
cm = torch.zeros(2, 2, dtype=torch.long)
cm.index_put_((y.long(), pred), torch.ones_like(pred), accumulate=True)
print("confusion\n", cm)
tp, fp, fn = cm[1, 1], cm[0, 1], cm[1, 0]
print(f"precision {tp / (tp + fp):.4f} recall {tp / (tp + fn):.4f}")
print("PassengerId,Survived,Prob")
for r, p, q in zip(rows[-6:], pred[-6:].tolist(), prob[-6:].tolist()):
    print(f"{r['PassengerId']},{p},{q:.4f}")
