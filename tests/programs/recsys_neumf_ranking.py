# Models: the d2l.ai "Recommender Systems" chapter -- AutoRec, factorization machines, NeuMF with
# BPR and hinge ranking losses and hit-rate@k, with separate optimizers for the embeddings, plus
# a LightGCN-style propagation over a symmetrically normalised interaction graph.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
num_users, num_items, num_inter = 12, 20, 60
users = torch.randint(0, num_users, (num_inter,))
items = (users * 3 + torch.randint(0, 5, (num_inter,))) % num_items
ratings = ((users + items) % 5 + 1).float()
print(users[:10], items[:10], ratings[:10])
R = torch.zeros(num_users, num_items)
R[users, items] = ratings
mask = (R > 0).float()
print(R[:3, :8], mask.sum())


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


autorec = AutoRec(8, num_users)
opt = torch.optim.Adam(autorec.parameters(), lr=0.02, weight_decay=1e-5)
items_by_user = R.T
for epoch in range(40):
    autorec.train()
    opt.zero_grad()
    l = F.mse_loss(autorec(items_by_user), items_by_user, reduction="sum")
    l.backward()
    opt.step()
autorec.eval()
with torch.no_grad():
    pred = autorec(items_by_user)
    rmse = torch.sqrt(((pred - items_by_user) ** 2 * mask.T).sum() / mask.sum())
print(f"AutoRec loss {l.item():.4f} rmse {rmse.item():.4f}")


class FM(nn.Module):
    def __init__(self, field_dims, num_factors):
        super().__init__()
        num_inputs = int(sum(field_dims))
        self.embedding = nn.Embedding(num_inputs, num_factors, max_norm=None)
        self.fc = nn.Embedding(num_inputs, 1, max_norm=None)
        self.linear_layer = nn.Linear(1, 1, bias=True)
        self.register_buffer("offsets", torch.tensor([0, field_dims[0]]))

    def forward(self, x):
        x = x + self.offsets
        square_of_sum = torch.sum(self.embedding(x), dim=1) ** 2
        sum_of_square = torch.sum(self.embedding(x) ** 2, dim=1)
        x = self.linear_layer(self.fc(x).sum(1)) + 0.5 * (square_of_sum - sum_of_square).sum(
            1, keepdim=True
        )
        return torch.sigmoid(x).squeeze(1)


fm = FM([num_users, num_items], 4)
print(fm, [k for k, _ in fm.named_buffers()])
x = torch.stack([users, items], 1)
y = (ratings >= 3).float()
sparse_params = [fm.embedding.weight, fm.fc.weight]
opt_sparse = torch.optim.Adagrad(sparse_params, lr=0.3)
opt_dense = torch.optim.Adam(fm.linear_layer.parameters(), lr=0.05)
print(opt_sparse)
for epoch in range(30):
    opt_sparse.zero_grad()
    opt_dense.zero_grad()
    l = F.binary_cross_entropy(fm(x), y)
    l.backward()
    if epoch == 0:
        g = fm.embedding.weight.grad
        rows = g.abs().sum(1).nonzero().squeeze(1)
        print(g.is_sparse, g.layout, g.shape, rows[:6], g[rows[:2]])
    opt_sparse.step()
    opt_dense.step()
    if epoch % 10 == 9:
        acc = ((fm(x) > 0.5).float() == y).float().mean()
        print(f"FM epoch {epoch + 1} loss {l.item():.4f} acc {acc.item():.3f}")
print(opt_sparse.state[fm.fc.weight]["sum"][:3].T, opt_sparse.state[fm.fc.weight]["step"])


class NeuMF(nn.Module):
    def __init__(self, num_factors, num_users, num_items, nums_hiddens):
        super().__init__()
        self.P = nn.Embedding(num_users, num_factors)
        self.Q = nn.Embedding(num_items, num_factors)
        self.U = nn.Embedding(num_users, num_factors)
        self.V = nn.Embedding(num_items, num_factors)
        layers = []
        in_dim = 2 * num_factors
        for h in nums_hiddens:
            layers += [nn.Linear(in_dim, h), nn.ReLU()]
            in_dim = h
        self.mlp = nn.Sequential(*layers)
        self.prediction_layer = nn.Linear(num_factors + in_dim, 1, bias=False)

    def forward(self, user_id, item_id):
        p_mf = self.P(user_id)
        q_mf = self.Q(item_id)
        gmf = p_mf * q_mf
        p_mlp = self.U(user_id)
        q_mlp = self.V(item_id)
        mlp = self.mlp(torch.cat([p_mlp, q_mlp], dim=1))
        con_res = torch.cat([gmf, mlp], dim=1)
        return torch.sigmoid(self.prediction_layer(con_res))


class BPRLoss(nn.Module):
    def forward(self, positive, negative):
        distances = positive - negative
        loss = -torch.sum(torch.log(torch.sigmoid(distances)), 0, keepdim=True)
        return loss


class HingeLossbRec(nn.Module):
    def forward(self, positive, negative, margin=1):
        distances = positive - negative
        loss = torch.sum(torch.maximum(-distances + margin, torch.tensor(0.0)))
        return loss


neg_items = torch.randint(0, num_items, (num_inter,))
for loss_fn in (BPRLoss(), HingeLossbRec()):
    torch.manual_seed(1)
    model = NeuMF(4, num_users, num_items, nums_hiddens=[8, 8])
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=1e-5)
    for epoch in range(25):
        opt.zero_grad()
        p_pos = model(users, items)
        p_neg = model(users, neg_items)
        l = loss_fn(p_pos, p_neg)
        l.sum().backward()
        opt.step()
    with torch.no_grad():
        scores = model(
            torch.arange(num_users).repeat_interleave(num_items),
            torch.arange(num_items).repeat(num_users),
        ).reshape(num_users, num_items)
        topk = scores.topk(5, dim=1).indices
        hits = torch.zeros(num_users, num_items).scatter_(1, topk, 1.0)
        hit_rate = ((hits * mask).sum(1) > 0).float().mean()
    print(type(loss_fn).__name__, l.shape, f"{l.sum().item():.4f}", f"hit@5 {hit_rate:.3f}")
    print(topk[:3])

# LightGCN-style propagation with a normalised adjacency built by index_put_ (accumulate)
n = num_users + num_items
idx = torch.stack([torch.cat([users, items + num_users]), torch.cat([items + num_users, users])])
A = torch.zeros(n, n).index_put_((idx[0], idx[1]), torch.ones(idx.shape[1]), accumulate=True)
nz = A.nonzero().T
print(A.shape, nz.shape[1], A.max(), torch.equal(A, A.T))
deg = A.sum(dim=1)
d_inv_sqrt = deg.clamp(min=1).pow(-0.5)
vals = d_inv_sqrt[nz[0]] * A[nz[0], nz[1]] * d_inv_sqrt[nz[1]]
A_hat = torch.zeros(n, n).index_put((nz[0], nz[1]), vals)
print(torch.allclose(A_hat, d_inv_sqrt[:, None] * A * d_inv_sqrt[None, :]))
E0 = nn.Parameter(torch.randn(n, 4) * 0.1)
layers = [E0]
for _ in range(3):
    layers.append(torch.mm(A_hat, layers[-1]))
E = torch.stack(layers).mean(0)
print(E.shape, E[:2])
u_e, i_e = E[:num_users], E[num_users:]
score = (u_e[users] * i_e[items]).sum(1)
score.sum().backward()
print(E0.grad[:2], E0.grad.abs().sum())
print(f"{torch.linalg.matrix_norm(A_hat, ord=2).item():.4f}", torch.linalg.eigvalsh(A_hat)[-3:])
