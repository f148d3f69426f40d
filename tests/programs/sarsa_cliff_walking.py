# Models: Sutton & Barto's cliff-walking gridworld: on-policy SARSA vs off-policy Q-learning
# with epsilon-greedy exploration, tabular values in a tensor, greedy paths printed as a grid.
import torch

H, W = 4, 12
START, GOAL = (3, 0), (3, 11)
MOVES = [(-1, 0), (0, 1), (1, 0), (0, -1)]
ARROWS = "^>v<"


def step(s, a):
    r, c = s[0] + MOVES[a][0], s[1] + MOVES[a][1]
    r, c = min(max(r, 0), H - 1), min(max(c, 0), W - 1)
    if r == 3 and 0 < c < 11:
        return START, -100.0, False
    return (r, c), -1.0, (r, c) == GOAL


def eps_greedy(Q, s, eps, gen):
    if torch.rand(1, generator=gen).item() < eps:
        return int(torch.randint(0, 4, (1,), generator=gen))
    q = Q[s[0], s[1]]
    best = (q == q.max()).nonzero().flatten()
    return int(best[torch.randint(0, len(best), (1,), generator=gen)])


def run(method, episodes=150, alpha=0.5, eps=0.1, seed=0):
    gen = torch.Generator().manual_seed(seed)
    Q = torch.zeros(H, W, 4)
    returns = []
    for ep in range(episodes):
        s = START
        a = eps_greedy(Q, s, eps, gen)
        total, done, steps = 0.0, False, 0
        while not done and steps < 500:
            s2, r, done = step(s, a)
            total += r
            a2 = eps_greedy(Q, s2, eps, gen)
            if method == "sarsa":
                target = r + (0.0 if done else Q[s2[0], s2[1], a2].item())
            else:
                target = r + (0.0 if done else Q[s2[0], s2[1]].max().item())
            Q[s[0], s[1], a] += alpha * (target - Q[s[0], s[1], a])
            s, a = s2, a2
            steps += 1
        returns.append(total)
    return Q, torch.tensor(returns)


def greedy_path(Q):
    grid = [["." for _ in range(W)] for _ in range(H)]
    for c in range(1, 11):
        grid[3][c] = "C"
    s, n = START, 0
    while s != GOAL and n < 50:
        a = int(Q[s[0], s[1]].argmax())
        grid[s[0]][s[1]] = ARROWS[a]
        s, _, _ = step(s, a)
        n += 1
    grid[GOAL[0]][GOAL[1]] = "G"
    return "\n".join("".join(row) for row in grid), n


for method in ("sarsa", "qlearning"):
    Q, ret = run(method)
    print(method, "mean return per 30 episodes", ret.view(-1, 30).mean(1))
    path, n = greedy_path(Q)
    print(path)
    print("greedy path length", n)
    print(
        "V(start)",
        Q[3, 0].max().item(),
        "policy row 2:",
        "".join(ARROWS[i] for i in Q[2].argmax(1).tolist()),
    )
