# Models: policy networks for board games (AlphaZero-style tic-tac-toe / connect-four code):
# a board encoded as player planes, illegal moves masked with -inf before softmax, Categorical
# over masked logits (entropy and log_prob with -inf logits), temperature sampling from visit
# counts, a value head with tanh, and the combined cross-entropy + MSE loss on self-play-like
# targets.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(240)


def encode(board, player):
    planes = torch.stack([(board == player), (board == -player), (board == 0)]).float()
    return planes


class PolicyValue(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.policy = nn.Sequential(nn.Conv2d(16, 2, 1), nn.Flatten(), nn.Linear(18, 9))
        self.value = nn.Sequential(nn.Conv2d(16, 1, 1), nn.Flatten(), nn.Linear(9, 16),
                                   nn.ReLU(), nn.Linear(16, 1), nn.Tanh())

    def forward(self, x):
        h = self.body(x)
        return self.policy(h), self.value(h).squeeze(1)


boards = torch.randint(-1, 2, (32, 3, 3))
legal = (boards == 0).flatten(1)
legal[legal.sum(1) == 0, 4] = True
boards.view(32, 9)[legal.sum(1) == 1] = torch.where(legal[legal.sum(1) == 1], 0,
                                                    boards.view(32, 9)[legal.sum(1) == 1])
X = torch.stack([encode(b, 1) for b in boards])
visits = torch.randint(0, 20, (32, 9)).float() * legal
visits[visits.sum(1) == 0] = legal[visits.sum(1) == 0].float()
pi_target = visits / visits.sum(1, keepdim=True)
z = torch.randint(0, 3, (32,)).float() - 1
model = PolicyValue()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
for step in range(30):
    logits, v = model(X)
    masked = logits.masked_fill(~legal, float("-inf"))
    logp = F.log_softmax(masked, dim=1)
    policy_loss = -(pi_target * logp.masked_fill(~legal, 0)).sum(1).mean()
    value_loss = F.mse_loss(v, z)
    loss = policy_loss + value_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1} policy {policy_loss.item():.5f} value {value_loss.item():.5f}")
with torch.no_grad():
    logits, v = model(X[:4])
    masked = logits.masked_fill(~legal[:4], float("-inf"))
    dist = Categorical(logits=masked)
    print(dist.probs.round(decimals=4))
    print("entropy", dist.entropy(), "value", v)
    acts = dist.sample()
    print("sampled", acts, "legal", legal[torch.arange(4), acts], dist.log_prob(acts))
    print(dist.log_prob(torch.tensor([0, 1, 2, 3])))
    for temp in (1.0, 0.5, 0.1):
        p = visits[:2] ** (1 / temp)
        p = p / p.sum(1, keepdim=True)
        print(temp, p.round(decimals=4), torch.multinomial(p, 1).squeeze(1))
    greedy = masked.argmax(1)
    print("greedy", greedy, torch.isinf(masked).sum(1))
print(F.softmax(torch.tensor([float("-inf"), 0.0, 1.0]), 0),
      Categorical(logits=torch.tensor([float("-inf"), 0.0])).entropy())
