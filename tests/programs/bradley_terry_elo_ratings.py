# Models: a sports-analytics notebook fitting team strengths: simulated round-robin results,
# Elo ratings updated game by game, a Bradley-Terry model fitted by maximum likelihood with
# autograd and LBFGS (with a sum-to-zero constraint), its MM (Zermelo) fixed-point iteration
# for comparison, rank correlation between the methods with argsort, and win probabilities.
import itertools

import torch

torch.manual_seed(11)
n_teams = 6
true_strength = torch.linspace(-1.0, 1.2, n_teams)[torch.randperm(n_teams)]
print("true strengths", true_strength)
pairs = torch.tensor(list(itertools.combinations(range(n_teams), 2)))
games = pairs.repeat(4, 1)
p_win = torch.sigmoid(true_strength[games[:, 0]] - true_strength[games[:, 1]])
home_wins = torch.rand(len(games)) < p_win
winners = torch.where(home_wins, games[:, 0], games[:, 1])
losers = torch.where(home_wins, games[:, 1], games[:, 0])
wins = torch.bincount(winners, minlength=n_teams)
print("games", len(games), "wins per team", wins.tolist())

elo = torch.full((n_teams,), 1500.0)
K = 24.0
for w, l in zip(winners.tolist(), losers.tolist()):
    expected = 1 / (1 + 10 ** ((elo[l] - elo[w]) / 400))
    elo[w] += K * (1 - expected)
    elo[l] -= K * (1 - expected)
print("elo", elo.round(decimals=1))
print("elo total conserved:", elo.sum().item())

theta = torch.zeros(n_teams, requires_grad=True)
opt = torch.optim.LBFGS([theta], lr=1, max_iter=100, line_search_fn="strong_wolfe")


def nll():
    opt.zero_grad()
    s = theta - theta.mean()
    loss = -torch.nn.functional.logsigmoid(s[winners] - s[losers]).sum() + 1e-3 * (s ** 2).sum()
    loss.backward()
    return loss


final = opt.step(nll)
bt = (theta - theta.mean()).detach()
print(f"bradley-terry NLL {final.item():.4f}")
print("bt strengths", bt)

W = torch.zeros(n_teams, n_teams)
W.index_put_((winners, losers), torch.ones(len(winners)), accumulate=True)
N = W + W.T
p = torch.ones(n_teams)
for it in range(500):
    denom = (N / (p[:, None] + p[None, :])).sum(1)
    p_new = W.sum(1) / denom
    p_new = p_new / p_new.prod() ** (1 / n_teams)
    if (p_new - p).abs().max() < 1e-6:
        break
    p = p_new
print(f"MM converged within 500 iterations: {it < 499}, log-strengths", p.log() - p.log().mean())
print("max |bt - mm|", (bt - (p.log() - p.log().mean())).abs().max().item() < 0.05)


def ranks(x):
    return x.argsort(descending=True).argsort().float()


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    return 1 - 6 * ((ra - rb) ** 2).sum() / (n_teams * (n_teams ** 2 - 1))


print("ranking true", true_strength.argsort(descending=True).tolist())
print("ranking elo ", elo.argsort(descending=True).tolist())
print("ranking bt  ", bt.argsort(descending=True).tolist())
print(f"spearman(true, bt) {spearman(true_strength, bt).item():.4f} "
      f"spearman(true, elo) {spearman(true_strength, elo).item():.4f}")
probs = torch.sigmoid(bt[:, None] - bt[None, :])
print("win probability matrix\n", probs)
