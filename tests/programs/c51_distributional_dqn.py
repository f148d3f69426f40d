# Models: the categorical (C51) distributional DQN update of Bellemare et al. as CleanRL and
# Dopamine write it: a fixed support of atoms, the Bellman-projected target distribution via
# floor/ceil and index_add_ on flattened offsets, the cross-entropy loss, and a quantile-
# regression (QR-DQN) Huber loss for comparison, on a tiny chain environment.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
n_atoms, v_min, v_max, gamma = 11, -5.0, 5.0, 0.9
support = torch.linspace(v_min, v_max, n_atoms)
delta_z = (v_max - v_min) / (n_atoms - 1)
print("support", support, delta_z)


def project(next_dist, rewards, dones):
    bs = rewards.shape[0]
    tz = rewards[:, None] + gamma * (1 - dones[:, None]) * support[None]
    tz = tz.clamp(v_min, v_max)
    b = (tz - v_min) / delta_z
    lo, hi = b.floor().long(), b.ceil().long()
    lo[(hi > 0) & (lo == hi)] -= 1
    hi[(lo < n_atoms - 1) & (lo == hi)] += 1
    offset = (torch.arange(bs) * n_atoms)[:, None].expand(bs, n_atoms)
    proj = torch.zeros(bs * n_atoms)
    proj.index_add_(0, (lo + offset).view(-1), (next_dist * (hi.float() - b)).view(-1))
    proj.index_add_(0, (hi + offset).view(-1), (next_dist * (b - lo.float())).view(-1))
    return proj.view(bs, n_atoms)


uniform = torch.full((3, n_atoms), 1.0 / n_atoms)
print(project(uniform, torch.tensor([0.0, 1.0, -10.0]), torch.tensor([0.0, 0.0, 1.0])))
print(project(F.one_hot(torch.tensor([5, 10, 0]), n_atoms).float(), torch.tensor([0.5, 0.0, 2.0]),
              torch.zeros(3)).sum(1))


class C51(nn.Module):
    def __init__(self, n_states, n_actions):
        super().__init__()
        self.n_actions = n_actions
        self.net = nn.Sequential(nn.Linear(n_states, 32), nn.ReLU(),
                                 nn.Linear(32, n_actions * n_atoms))

    def forward(self, s):
        logits = self.net(s).view(-1, self.n_actions, n_atoms)
        return F.softmax(logits, dim=-1)

    def q(self, s):
        return (self(s) * support).sum(-1)


n_states, n_actions = 5, 2


def step_env(s, a):
    s2 = (s + (1 if a == 1 else -1)).clamp(0, n_states - 1)
    r = 1.0 if (s2 == n_states - 1) else -0.1
    return s2, r, float(s2 == n_states - 1)


online, target = C51(n_states, n_actions), C51(n_states, n_actions)
target.load_state_dict(online.state_dict())
opt = torch.optim.Adam(online.parameters(), lr=5e-3)
buffer = []
s = torch.tensor(0)
for t in range(300):
    eps = max(0.05, 1 - t / 200)
    if torch.rand(1).item() < eps:
        a = torch.randint(0, n_actions, (1,)).item()
    else:
        with torch.no_grad():
            a = online.q(F.one_hot(s, n_states).float()[None]).argmax(1).item()
    s2, r, d = step_env(s, a)
    buffer.append((s.item(), a, r, s2.item(), d))
    s = torch.tensor(0) if d else s2
    if len(buffer) >= 32 and t % 4 == 0:
        idx = torch.randint(0, len(buffer), (32,))
        bs, ba, br, bs2, bd = (torch.tensor(v) for v in zip(*[buffer[i] for i in idx]))
        x, x2 = F.one_hot(bs, n_states).float(), F.one_hot(bs2, n_states).float()
        with torch.no_grad():
            next_dist = target(x2)
            next_a = (next_dist * support).sum(-1).argmax(1)
            next_pmf = next_dist[torch.arange(32), next_a]
            tgt = project(next_pmf, br.float(), bd.float())
        dist = online(x)[torch.arange(32), ba]
        loss = -(tgt * dist.clamp(min=1e-6).log()).sum(-1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if t % 40 == 0:
            print(f"t {t:3d} loss {loss.item():.5f} eps {eps:.3f}")
    if t % 50 == 0:
        target.load_state_dict(online.state_dict())
with torch.no_grad():
    states = F.one_hot(torch.arange(n_states), n_states).float()
    print("Q", online.q(states))
    print("policy", online.q(states).argmax(1))
    print(online(states[:1])[0])
taus = (torch.arange(8, dtype=torch.float32) + 0.5) / 8
pred = torch.randn(4, 8, requires_grad=True)
tgt = torch.randn(4, 8)
u = tgt[:, None, :] - pred[:, :, None]
huber = F.huber_loss(pred[:, :, None].expand_as(u), tgt[:, None, :].expand_as(u),
                     reduction="none", delta=1.0)
qloss = (torch.abs(taus[None, :, None] - (u.detach() < 0).float()) * huber).sum(1).mean()
qloss.backward()
print(qloss, pred.grad)
