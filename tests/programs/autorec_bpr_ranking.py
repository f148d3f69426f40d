# Models: Dive into Deep Learning's recommender-systems chapter: AutoRec (item-based
# autoencoder over a masked rating matrix), the BPR pairwise ranking loss and hinge ranking
# loss with negative sampling, and hit-rate@k / AUC evaluation written with topk, argsort and
# boolean masks.
import torch
from torch import nn

torch.manual_seed(3)
num_users, num_items = 30, 20
ratings = torch.randint(1, 6, (num_users, num_items)).float()
mask = (torch.rand(num_users, num_items) < 0.3).float()
ratings = ratings * mask
print("observed:", int(mask.sum().item()), "sparsity:", round(1 - mask.mean().item(), 4))


class AutoRec(nn.Module):
    def __init__(self, num_hidden, num_users, dropout=0.05):
        super().__init__()
        self.encoder = nn.Linear(num_users, num_hidden, bias=True)
        self.decoder = nn.Linear(num_hidden, num_users, bias=True)
        self.dropout = nn.Dropout(dropout)

    def forward(self, input):
        hidden = self.dropout(torch.sigmoid(self.encoder(input)))
        pred = self.decoder(hidden)
        if self.training:
            return pred * torch.sign(input)
        return pred


net = AutoRec(16, num_users)
opt = torch.optim.Adam(net.parameters(), lr=0.01, weight_decay=1e-5)
items = ratings.t()
items_mask = mask.t()
for epoch in range(30):
    net.train()
    opt.zero_grad()
    pred = net(items)
    loss = ((pred - items) ** 2).sum() / items_mask.sum()
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        net.eval()
        with torch.no_grad():
            full = net(items)
            rmse = torch.sqrt(((full - items) ** 2 * items_mask).sum() / items_mask.sum())
        print(f"epoch {epoch + 1} train loss {loss.item():.4f} rmse {rmse.item():.4f}")


class BPRLoss(nn.Module):
    def forward(self, positive, negative):
        distances = positive - negative
        return -torch.sum(torch.log(torch.sigmoid(distances)), 0, keepdim=True)


class HingeLossbRec(nn.Module):
    def forward(self, positive, negative, margin=1):
        distances = positive - negative
        return torch.sum(torch.clamp(-distances + margin, min=0))


class MF(nn.Module):
    def __init__(self, num_factors, num_users, num_items):
        super().__init__()
        self.P = nn.Embedding(num_users, num_factors)
        self.Q = nn.Embedding(num_items, num_factors)
        self.user_bias = nn.Embedding(num_users, 1)
        self.item_bias = nn.Embedding(num_items, 1)

    def forward(self, user_id, item_id):
        P_u, Q_i = self.P(user_id), self.Q(item_id)
        b_u, b_i = self.user_bias(user_id), self.item_bias(item_id)
        return ((P_u * Q_i).sum(axis=1) + b_u.squeeze() + b_i.squeeze()).flatten()


users, pos_items = mask.nonzero(as_tuple=True)
print("interactions:", users.shape, users[:6].tolist(), pos_items[:6].tolist())
for loss_fn in (BPRLoss(), HingeLossbRec()):
    torch.manual_seed(1)
    model = MF(8, num_users, num_items)
    for p in model.parameters():
        nn.init.normal_(p, std=0.01)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for epoch in range(20):
        neg_items = torch.randint(0, num_items, users.shape)
        clash = mask[users, neg_items].bool()
        neg_items[clash] = (neg_items[clash] + 1) % num_items
        opt.zero_grad()
        l = loss_fn(model(users, pos_items), model(users, neg_items))
        l.sum().backward()
        opt.step()
    with torch.no_grad():
        scores = model.P.weight @ model.Q.weight.t() + model.user_bias.weight + \
            model.item_bias.weight.t()
        topk = scores.topk(5, dim=1).indices
        hits = mask.gather(1, topk).sum(1)
        hit_rate = (hits > 0).float().mean()
        ranks = scores.argsort(dim=1, descending=True).argsort(dim=1)
        pos_rank = torch.where(mask.bool(), ranks.float(), torch.nan)
        n_pos = mask.sum(1)
        auc = 1 - (torch.nanmean(pos_rank, dim=1) - (n_pos - 1) / 2) / (num_items - n_pos)
    print(type(loss_fn).__name__, "final", l.detach().flatten()[:1], "HR@5", hit_rate.item(),
          "mean AUC", round(auc[n_pos > 0].mean().item(), 5), topk[0].tolist())
