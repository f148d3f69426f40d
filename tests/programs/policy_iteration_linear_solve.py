# Models: dynamic programming for a small MDP written with tensors (Sutton & Barto ch. 4):
# transition tensor P[s, a, s'] and rewards R[s, a], exact policy evaluation with
# torch.linalg.solve(I - gamma P_pi, r_pi), policy improvement by argmax over Q, value
# iteration to the same fixed point, and the stationary distribution of the optimal policy's
# Markov chain from the eigenvector of P_pi^T.
import torch

torch.manual_seed(0)
S, A, gamma = 6, 3, 0.9
P = torch.rand(S, A, S) ** 3
P = P / P.sum(-1, keepdim=True)
R = torch.randn(S, A).double()
P = P.double()
print("row sums", P.sum(-1).allclose(torch.ones(S, A, dtype=torch.float64)))


def evaluate(pi):
    P_pi = P[torch.arange(S), pi]
    r_pi = R[torch.arange(S), pi]
    return torch.linalg.solve(torch.eye(S, dtype=torch.float64) - gamma * P_pi, r_pi)


pi = torch.zeros(S, dtype=torch.long)
for it in range(10):
    V = evaluate(pi)
    Q = R + gamma * torch.einsum("sat,t->sa", P, V)
    new_pi = Q.argmax(1)
    print(f"iter {it} V {[round(v, 4) for v in V.tolist()]} policy {new_pi.tolist()}")
    if torch.equal(new_pi, pi):
        break
    pi = new_pi

V_vi = torch.zeros(S, dtype=torch.float64)
for k in range(500):
    V_new = (R + gamma * P @ V_vi).max(1).values
    delta = (V_new - V_vi).abs().max()
    V_vi = V_new
    if delta < 1e-10:
        break
print("value iteration sweeps", k, "matches:", torch.allclose(V_vi, V, atol=1e-8))
print("Q*", Q)
P_pi = P[torch.arange(S), pi]
evals, evecs = torch.linalg.eig(P_pi.T)
idx = (evals - 1).abs().argmin()
d = evecs[:, idx].real
d = d / d.sum()
print("stationary", d)
print("check d P = d:", torch.allclose(d @ P_pi, d, atol=1e-10))
d_power = torch.full((S,), 1.0 / S, dtype=torch.float64)
for _ in range(200):
    d_power = d_power @ P_pi
print("power iteration agrees:", torch.allclose(d_power, d, atol=1e-8))
print("average reward", (d * R[torch.arange(S), pi]).sum().item())
