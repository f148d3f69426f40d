# Models: Dive into Deep Learning's sequence-aware recommender (Caser: horizontal and vertical
# convolutions over the last L item embeddings, max-pooling over time) and DeepFM (factorization
# machine plus MLP over field embeddings with offsets), trained with BCE on synthetic click logs.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(7)


class Caser(nn.Module):
    def __init__(self, num_factors, num_users, num_items, L=5, d=4, d_prime=3, drop_ratio=0.05):
        super().__init__()
        self.P = nn.Embedding(num_users, num_factors)
        self.Q = nn.Embedding(num_items, num_factors)
        self.d_prime, self.d = d_prime, d
        self.conv_v = nn.Conv2d(1, d_prime, (L, 1))
        h = [i + 1 for i in range(L)]
        self.conv_h = nn.ModuleList([nn.Conv2d(1, d, (i, num_factors)) for i in h])
        self.max_pool = nn.ModuleList([nn.MaxPool1d(L - i + 1) for i in h])
        self.fc1_dim_v, self.fc1_dim_h = d_prime * num_factors, d * len(h)
        self.fc = nn.Linear(self.fc1_dim_v + self.fc1_dim_h, num_factors)
        self.Q_prime = nn.Embedding(num_items, num_factors * 2)
        self.b = nn.Embedding(num_items, 1)
        self.dropout = nn.Dropout(drop_ratio)

    def forward(self, user_id, seq, item_id):
        item_embs = self.Q(seq).unsqueeze(1)
        user_emb = self.P(user_id)
        out_v = self.conv_v(item_embs).reshape(-1, self.fc1_dim_v)
        out_hs = []
        for conv, maxp in zip(self.conv_h, self.max_pool):
            conv_out = F.relu(conv(item_embs)).squeeze(3)
            out_hs.append(maxp(conv_out).squeeze(2))
        out_h = torch.cat(out_hs, dim=1)
        z = F.relu(self.fc(self.dropout(torch.cat([out_v, out_h], dim=1))))
        x = torch.cat([z, user_emb], dim=1)
        q_prime_i = self.Q_prime(item_id).squeeze()
        b = self.b(item_id).squeeze()
        return (x * q_prime_i).sum(1) + b


num_users, num_items, L = 12, 30, 5
seqs = torch.randint(0, num_items, (64, L))
uids = torch.randint(0, num_users, (64,))
targets = (seqs[:, -1] + 1) % num_items
negs = torch.randint(0, num_items, (64,))
caser = Caser(8, num_users, num_items, L)
print(caser.conv_h)
opt = torch.optim.Adam(caser.parameters(), lr=0.01)
for epoch in range(15):
    opt.zero_grad()
    pos = caser(uids, seqs, targets)
    neg = caser(uids, seqs, negs)
    loss = F.binary_cross_entropy_with_logits(pos, torch.ones_like(pos)) + \
        F.binary_cross_entropy_with_logits(neg, torch.zeros_like(neg))
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        print(f"caser epoch {epoch + 1}: loss {loss.item():.5f}")


class DeepFM(nn.Module):
    def __init__(self, field_dims, num_factors, mlp_dims, drop_rate=0.1):
        super().__init__()
        num_inputs = int(sum(field_dims))
        offsets = (0, *torch.tensor(field_dims).cumsum(0)[:-1].tolist())
        self.register_buffer("offsets", torch.tensor(offsets))
        self.embedding = nn.Embedding(num_inputs, num_factors)
        self.fc = nn.Embedding(num_inputs, 1)
        self.linear_layer = nn.Linear(1, 1)
        input_dim = self.embed_output_dim = len(field_dims) * num_factors
        layers = []
        for dim in mlp_dims:
            layers += [nn.Linear(input_dim, dim), nn.ReLU(), nn.Dropout(drop_rate)]
            input_dim = dim
        layers.append(nn.Linear(input_dim, 1))
        self.mlp = nn.Sequential(*layers)

    def forward(self, x):
        x = x + self.offsets
        embed_x = self.embedding(x)
        square_of_sum = torch.sum(embed_x, dim=1) ** 2
        sum_of_square = torch.sum(embed_x ** 2, dim=1)
        inputs = embed_x.reshape(-1, self.embed_output_dim)
        x = self.linear_layer(self.fc(x).sum(1)) \
            + 0.5 * (square_of_sum - sum_of_square).sum(1, keepdims=True) + self.mlp(inputs)
        return torch.sigmoid(x).squeeze(1)


field_dims = [5, 7, 3, 4]
X = torch.stack([torch.randint(0, d, (256,)) for d in field_dims], dim=1)
logit = (X[:, 0] == 2).float() + (X[:, 1] > 3).float() * (X[:, 2] == 1).float() - 0.5
y = torch.bernoulli(torch.sigmoid(2 * logit))
model = DeepFM(field_dims, 6, [16, 8])
print(model.offsets, model.mlp)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(10):
    model.train()
    perm = torch.randperm(256)
    total = 0.0
    for i in range(0, 256, 64):
        idx = perm[i:i + 64]
        opt.zero_grad()
        p = model(X[idx])
        l = F.binary_cross_entropy(p, y[idx])
        l.backward()
        opt.step()
        total += l.item()
    if epoch % 3 == 0:
        model.eval()
        with torch.no_grad():
            p = model(X)
            acc = ((p > 0.5).float() == y).float().mean().item()
            order = p.argsort(descending=True)
            tp = y[order].cumsum(0)
            fp = (1 - y[order]).cumsum(0)
            auc = torch.trapezoid(tp / tp[-1], fp / fp[-1]).item()
        print(f"deepfm epoch {epoch}: loss {total / 4:.5f} acc {acc:.4f} auc {auc:.5f}")
