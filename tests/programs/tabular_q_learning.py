# Models: the tabular reinforcement-learning lab of an RL course (FrozenLake-style slippery
# grid written without gym): Q-learning, SARSA and expected SARSA with epsilon-greedy
# exploration drawn from torch.rand/torch.randint, Q tables as tensors, the greedy policy
# printed as arrows and evaluated by Monte-Carlo rollouts.
import torch

grid = ["SFFF", "FHFH", "FFFH", "HFFG"]
nrow, ncol = 4, 4
nS, nA = nrow * ncol, 4
moves = torch.tensor([[0, -1], [1, 0], [0, 1], [-1, 0]])
holes = torch.tensor([c == "H" for row in grid for c in row])
goal = nS - 1
print("holes at", holes.nonzero().flatten().tolist())


def step(s, a):
    if torch.rand(()) < 0.2:
        a = (a + (1 if torch.rand(()) < 0.5 else -1)) % nA
    r, c = divmod(s, ncol)
    dr, dc = moves[a].tolist()
    r = min(max(r + dr, 0), nrow - 1)
    c = min(max(c + dc, 0), ncol - 1)
    s2 = r * ncol + c
    done = bool(holes[s2]) or s2 == goal
    return s2, float(s2 == goal), done


def eps_greedy(Q, s, eps):
    if torch.rand(()) < eps:
        return int(torch.randint(0, nA, ()))
    return int(Q[s].argmax())


def train(method, episodes=600, alpha=0.1, gamma=0.95):
    torch.manual_seed(3)
    Q = torch.zeros(nS, nA)
    returns = []
    for ep in range(episodes):
        eps = max(0.05, 1.0 - ep / 400)
        s = 0
        a = eps_greedy(Q, s, eps)
        total = 0.0
        for t in range(50):
            s2, r, done = step(s, a)
            a2 = eps_greedy(Q, s2, eps)
            if done:
                target = r
            elif method == "q":
                target = r + gamma * Q[s2].max()
            elif method == "sarsa":
                target = r + gamma * Q[s2, a2]
            else:
                probs = torch.full((nA,), eps / nA)
                probs[Q[s2].argmax()] += 1 - eps
                target = r + gamma * (probs * Q[s2]).sum()
            Q[s, a] += alpha * (target - Q[s, a])
            total += r
            s, a = s2, a2
            if done:
                break
        returns.append(total)
    return Q, torch.tensor(returns)


def evaluate(Q, n=200):
    torch.manual_seed(11)
    wins = 0
    for _ in range(n):
        s = 0
        for t in range(50):
            s, r, done = step(s, int(Q[s].argmax()))
            if done:
                wins += int(r)
                break
    return wins / n


arrows = "<v>^"
for method in ["q", "sarsa", "expected_sarsa"]:
    Q, ret = train(method)
    print(
        f"{method}: mean return last 100 {ret[-100:].mean().item():.3f} "
        f"success rate {evaluate(Q):.3f}"
    )
    policy = Q.argmax(1)
    for r in range(nrow):
        print(
            "  "
            + "".join(
                grid[r][c] if grid[r][c] in "HG" else arrows[policy[r * ncol + c]]
                for c in range(ncol)
            )
        )
    print("  V(start)", Q[0].max().item(), "Q row 0", Q[0])
print(Q.shape, Q.dtype, Q.max().item(), (Q > 0).sum().item())
