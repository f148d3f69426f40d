# Models: a two-tower retrieval model (YouTube/Google "sampling-bias-corrected" style): user
# and item towers with L2-normalised embeddings, in-batch softmax with a temperature, logQ
# correction from streaming item-frequency estimates, masking accidental hits of the same item,
# hard-negative mining with topk, and recall@k evaluation against the full catalogue.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(200)
n_users, n_items, d = 50, 30, 12
user_feat = torch.randn(n_users, 6)
item_feat = torch.randn(n_items, 5)
affinity = user_feat[:, :5] @ item_feat.T
popularity = torch.linspace(2.0, 0.0, n_items)
logits_true = affinity + popularity
inter_u = torch.randint(0, n_users, (600,))
inter_i = torch.multinomial(F.softmax(logits_true[inter_u], 1), 1).squeeze(1)
print("most popular items", torch.bincount(inter_i, minlength=n_items).topk(5))


class Tower(nn.Module):
    def __init__(self, d_in):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


user_tower, item_tower = Tower(6), Tower(5)
params = list(user_tower.parameters()) + list(item_tower.parameters())
opt = torch.optim.Adam(params, lr=5e-3)
last_seen = torch.zeros(n_items)
delta = torch.ones(n_items) * 10.0
alpha, temp, step = 0.1, 0.1, 0
for epoch in range(8):
    perm = torch.randperm(len(inter_u))
    for b in perm.split(32):
        step += 1
        u, i = inter_u[b], inter_i[b]
        for item in i.tolist():
            delta[item] = (1 - alpha) * delta[item] + alpha * (step - last_seen[item])
            last_seen[item] = step
        log_q = torch.log(1.0 / delta[i])
        eu, ei = user_tower(user_feat[u]), item_tower(item_feat[i])
        sim = eu @ ei.T / temp - log_q[None, :]
        same = (i[:, None] == i[None, :]) & ~torch.eye(len(i), dtype=torch.bool)
        sim = sim.masked_fill(same, float("-inf"))
        loss = F.cross_entropy(sim, torch.arange(len(i)))
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        all_items = item_tower(item_feat)
        scores = user_tower(user_feat) @ all_items.T
        top10 = scores.topk(10, dim=1).indices
        best = logits_true.argmax(1)
        recall = (top10 == best[:, None]).any(1).float().mean()
    print(f"epoch {epoch} loss {loss.item():.5f} recall@10 of best item {recall.item():.4f}")
print("estimated intervals", delta[:6], "log q", torch.log(1 / delta[:3]))
with torch.no_grad():
    eu = user_tower(user_feat[:4])
    s = eu @ all_items.T
    pos = inter_i[:4]
    masked = s.scatter(1, pos[:, None], float("-inf"))
    hard = masked.topk(3, dim=1)
    print(hard.indices, hard.values)
    print(torch.diagonal(eu @ all_items[pos].T))
