# Models: a tiny implicit-feedback recommender (matrix factorisation with user / item biases and
# a small MLP head) trained on sampled negatives, its embedding tables nn.Embedding(sparse=True)
# updated by SparseAdam (factors) and sparse Adagrad (biases), the dense head by Adam; prints the
# sparse gradients, the losses and hit-rate@5.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
num_users, num_items, dim = 30, 40, 8
# each user likes the items of their "taste" group, plus some noise
taste = torch.randint(0, 4, (num_users,))
pos_pairs = []
for u in range(num_users):
    liked = (torch.arange(num_items) % 4 == taste[u]).nonzero().flatten()
    chosen = liked[torch.randperm(len(liked))[:6]]
    pos_pairs += [(u, int(i)) for i in chosen]
pos = torch.tensor(pos_pairs)
print("interactions", pos.shape, pos[:5].tolist())


class SparseMF(nn.Module):
    def __init__(self, num_users, num_items, dim):
        super().__init__()
        self.user = nn.Embedding(num_users, dim, sparse=True)
        self.item = nn.Embedding(num_items, dim, sparse=True)
        self.user_bias = nn.Embedding(num_users, 1, sparse=True)
        self.item_bias = nn.Embedding(num_items, 1, sparse=True)
        nn.init.normal_(self.user.weight, std=0.1)
        nn.init.normal_(self.item.weight, std=0.1)
        nn.init.zeros_(self.user_bias.weight)
        nn.init.zeros_(self.item_bias.weight)
        self.head = nn.Sequential(nn.Linear(2 * dim, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, u, i):
        pu, qi = self.user(u), self.item(i)
        dot = (pu * qi).sum(-1)
        mlp = self.head(torch.cat([pu, qi], -1)).squeeze(-1)
        return dot + mlp + self.user_bias(u).squeeze(-1) + self.item_bias(i).squeeze(-1)


model = SparseMF(num_users, num_items, dim)
print(model)
factor_opt = torch.optim.SparseAdam([model.user.weight, model.item.weight], lr=0.05)
bias_opt = torch.optim.Adagrad([model.user_bias.weight, model.item_bias.weight], lr=0.1)
head_opt = torch.optim.Adam(model.head.parameters(), lr=0.01)
opts = (factor_opt, bias_opt, head_opt)


def batch_loss(u, i_pos, i_neg):
    s_pos, s_neg = model(u, i_pos), model(u, i_neg)
    scores = torch.cat([s_pos, s_neg])
    labels = torch.cat([torch.ones_like(s_pos), torch.zeros_like(s_neg)])
    return F.binary_cross_entropy_with_logits(scores, labels)


# one step by hand: what the sparse gradients look like
u, i = pos[:4, 0], pos[:4, 1]
loss = batch_loss(u, i, torch.tensor([0, 1, 2, 3]))
loss.backward()
g = model.item_bias.weight.grad
print("loss", loss.item(), g.layout, g.is_coalesced(), g._nnz())
print(g)
print(g.coalesce())
print(model.user.weight.grad.coalesce().to_dense()[:4])
for o in opts:
    o.zero_grad()

for epoch in range(12):
    perm = torch.randperm(len(pos))
    total = 0.0
    for b in range(0, len(pos), 32):
        idx = perm[b:b + 32]
        u, i_pos = pos[idx, 0], pos[idx, 1]
        i_neg = torch.randint(0, num_items, (len(idx),))
        for o in opts:
            o.zero_grad()
        loss = batch_loss(u, i_pos, i_neg)
        loss.backward()
        for o in opts:
            o.step()
        total += loss.item() * len(idx)
    if epoch % 3 == 2:
        print(f"epoch {epoch} loss {total / len(pos):.5f}")

state = factor_opt.state[model.item.weight]
print("SparseAdam step", state["step"], "exp_avg rows touched",
      int((state["exp_avg"].abs().sum(1) > 0).sum()))
print("Adagrad sum", bias_opt.state[model.item_bias.weight]["sum"][:5].flatten())

# hit-rate@5: a held-in check of whether each user's liked items rank high
with torch.no_grad():
    users = torch.arange(num_users).repeat_interleave(num_items)
    items = torch.arange(num_items).repeat(num_users)
    scores = model(users, items).view(num_users, num_items)
    top = scores.topk(5, dim=1).indices
    hits = ((top % 4) == taste[:, None]).float().mean()
print("hit-rate@5 (taste group)", round(hits.item(), 4))
print("top items of user 0", top[0].tolist(), "taste", int(taste[0]))
