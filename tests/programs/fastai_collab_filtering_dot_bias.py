# Models: fastai lesson "Collaborative filtering deep dive": a DotProductBias model with user and
# movie embeddings and biases, sigmoid_range output, weight decay by hand and through AdamW,
# training on synthetic ratings, and reading the learned biases.
import torch
import torch.nn as nn

torch.manual_seed(42)
n_users, n_movies, n_factors = 20, 15, 4
users = torch.randint(0, n_users, (300,))
movies = torch.randint(0, n_movies, (300,))
true_u, true_m = torch.randn(n_users, 3), torch.randn(n_movies, 3)
ratings = ((true_u[users] * true_m[movies]).sum(1) + 3).clamp(0.5, 5.0)
print("ratings stats", ratings.mean().item(), ratings.min().item(), ratings.max().item())


def sigmoid_range(x, lo, hi):
    return torch.sigmoid(x) * (hi - lo) + lo


class DotProductBias(nn.Module):
    def __init__(self, n_users, n_movies, n_factors, y_range=(0, 5.5)):
        super().__init__()
        self.user_factors = nn.Embedding(n_users, n_factors)
        self.user_bias = nn.Embedding(n_users, 1)
        self.movie_factors = nn.Embedding(n_movies, n_factors)
        self.movie_bias = nn.Embedding(n_movies, 1)
        self.y_range = y_range

    def forward(self, u, m):
        res = (self.user_factors(u) * self.movie_factors(m)).sum(dim=1, keepdim=True)
        res += self.user_bias(u) + self.movie_bias(m)
        return sigmoid_range(res, *self.y_range)


model = DotProductBias(n_users, n_movies, n_factors)
opt = torch.optim.AdamW(model.parameters(), lr=5e-2, weight_decay=0.1)
for epoch in range(5):
    perm = torch.randperm(300)
    total = 0.0
    for i in range(0, 300, 64):
        b = perm[i:i + 64]
        pred = model(users[b], movies[b]).squeeze(1)
        loss = nn.functional.mse_loss(pred, ratings[b])
        wd = 0.01 * sum((p ** 2).sum() for p in model.parameters())
        opt.zero_grad()
        (loss + wd).backward()
        opt.step()
        total += loss.item() * len(b)
    print(f"epoch {epoch} train mse {total / 300:.6f}")
movie_bias = model.movie_bias.weight.squeeze()
idxs = movie_bias.argsort()[:5]
print("lowest bias movies", idxs.tolist())
print("top bias", movie_bias.topk(3))
print("pred grad_fn", pred.grad_fn.name())
dist = nn.CosineSimilarity(dim=1)(model.movie_factors.weight, model.movie_factors.weight[3][None])
print("most similar to 3", dist.argsort(descending=True)[1:4].tolist())
