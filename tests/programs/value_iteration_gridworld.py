# Models: tabular reinforcement learning exercises (Sutton & Barto ch. 4, the classic
# 4x4/5x5 gridworld) done with tensors: a transition tensor P[s, a, s'], policy evaluation by
# solving the Bellman linear system with torch.linalg.solve, value iteration, policy
# iteration, and tabular Q-learning with an epsilon-greedy policy.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=3, sci_mode=False)

H, W = 4, 4
S, A = H * W, 4
moves = torch.tensor([[-1, 0], [0, 1], [1, 0], [0, -1]])  # up right down left
terminal = torch.zeros(S, dtype=torch.bool)
terminal[0] = terminal[S - 1] = True

P = torch.zeros(S, A, S)
R = torch.full((S, A), -1.0)
for s in range(S):
    r, c = divmod(s, W)
    for a in range(A):
        if terminal[s]:
            P[s, a, s] = 1.0
            R[s, a] = 0.0
            continue
        nr = min(max(r + moves[a, 0].item(), 0), H - 1)
        nc = min(max(c + moves[a, 1].item(), 0), W - 1)
        P[s, a, nr * W + nc] = 1.0
print("P shape", tuple(P.shape), "rows sum to 1:", torch.allclose(P.sum(-1), torch.ones(S, A)))

gamma = 1.0
pi_random = torch.full((S, A), 0.25)


def evaluate(pi, gamma, iters=None):
    P_pi = torch.einsum("sa,sat->st", pi, P)
    R_pi = (pi * R).sum(1)
    if iters is None:
        mask = ~terminal
        Pm = P_pi[mask][:, mask]
        v = torch.zeros(S)
        v[mask] = torch.linalg.solve(torch.eye(int(mask.sum())) - gamma * Pm, R_pi[mask])
        return v
    v = torch.zeros(S)
    for _ in range(iters):
        v = R_pi + gamma * P_pi @ v
    return v


v_exact = evaluate(pi_random, gamma)
print("random-policy values (linear solve):")
print(v_exact.reshape(H, W))
v_iter = evaluate(pi_random, gamma, iters=200)
print("iterative evaluation close:", torch.allclose(v_iter, v_exact, atol=1e-2))

# value iteration
v = torch.zeros(S)
for k in range(100):
    q = R + gamma * torch.einsum("sat,t->sa", P, v)
    v_new = q.max(1).values
    delta = (v_new - v).abs().max().item()
    v = v_new
    if delta < 1e-6:
        print("value iteration converged after", k + 1, "sweeps")
        break
print("optimal values:")
print(v.reshape(H, W))
greedy = q.argmax(1)
arrows = "^>v<"
print("greedy policy:")
for r in range(H):
    print(" ".join("T" if terminal[r * W + c] else arrows[greedy[r * W + c]] for c in range(W)))

# policy iteration (discounted so the evaluation system is well posed)
gamma2 = 0.9
pi = torch.full((S, A), 0.25)
for it in range(10):
    v_pi = evaluate(pi, gamma2)
    q = R + gamma2 * torch.einsum("sat,t->sa", P, v_pi)
    new_pi = torch.nn.functional.one_hot(q.argmax(1), A).float()
    stable = torch.equal(new_pi, pi)
    pi = new_pi
    print(f"policy iteration {it}: V(s=1)={v_pi[1].item():.4f} stable={stable}")
    if stable:
        break

# Q-learning
Q = torch.zeros(S, A)
alpha, eps = 0.5, 0.2
steps_per_episode = []
for ep in range(150):
    s = torch.randint(1, S - 1, (1,)).item()
    n = 0
    while not terminal[s] and n < 50:
        if torch.rand(1).item() < eps:
            a = torch.randint(0, A, (1,)).item()
        else:
            a = Q[s].argmax().item()
        s2 = P[s, a].argmax().item()
        target = R[s, a] + gamma * Q[s2].max() * (~terminal[s2])
        Q[s, a] += alpha * (target - Q[s, a])
        s = s2
        n += 1
    steps_per_episode.append(n)
lengths = torch.tensor(steps_per_episode, dtype=torch.float32)
print("mean episode length first/last 50:", lengths[:50].mean().item(), lengths[-50:].mean().item())
print("Q-learning values:")
print(Q.max(1).values.reshape(H, W))
print("agrees with optimal values:", torch.allclose(Q.max(1).values, v, atol=0.5))
