# Models: Markov chain analysis with torch.linalg: stationary distributions by eig and by
# matrix powers, absorbing chains (fundamental matrix, absorption probabilities), and a
# continuous-time chain's transition matrix exp(Qt) checked against simulation.
import torch

torch.set_printoptions(precision=5)
P = torch.tensor([[0.9, 0.075, 0.025], [0.15, 0.8, 0.05], [0.25, 0.25, 0.5]], dtype=torch.float64)
print("rows sum to one:", torch.allclose(P.sum(1), torch.ones(3, dtype=torch.float64)))
evals, evecs = torch.linalg.eig(P.T)
print("eigenvalues", evals)
k = torch.argmin((evals - 1).abs())
pi = evecs[:, k].real
pi = pi / pi.sum()
print("stationary (eig)", pi)
print("stationary (power)", torch.linalg.matrix_power(P, 64)[0])
print("pi P == pi:", torch.allclose(pi @ P, pi))

# Absorbing chain: the drunkard's walk on 0..4 with absorbing ends.
n = 5
W = torch.zeros(n, n, dtype=torch.float64)
W[0, 0] = W[n - 1, n - 1] = 1.0
for i in range(1, n - 1):
    W[i, i - 1] = 0.4
    W[i, i + 1] = 0.6
transient = torch.arange(1, n - 1)
absorbing = torch.tensor([0, n - 1])
Q = W[transient][:, transient]
R = W[transient][:, absorbing]
N = torch.linalg.inv(torch.eye(len(transient), dtype=torch.float64) - Q)
print("fundamental matrix\n", N)
print("expected steps to absorption", N.sum(1))
print("absorption probabilities\n", N @ R)
print(
    "solve agrees:",
    torch.allclose(torch.linalg.solve(torch.eye(3, dtype=torch.float64) - Q, R), N @ R),
)

# Continuous time: generator with rows summing to zero.
G = torch.tensor([[-0.5, 0.3, 0.2], [0.1, -0.4, 0.3], [0.2, 0.2, -0.4]], dtype=torch.float64)
for t in (0.5, 1.0, 5.0, 50.0):
    Pt = torch.linalg.matrix_exp(G * t)
    print(f"t={t:5.1f}", Pt[0].tolist() if t > 10 else Pt[0])
print(
    "semigroup:",
    torch.allclose(
        torch.linalg.matrix_exp(G * 1.5),
        torch.linalg.matrix_exp(G) @ torch.linalg.matrix_exp(G * 0.5),
    ),
)
torch.manual_seed(0)
n_paths, T = 4000, 1.0
state = torch.zeros(n_paths, dtype=torch.long)
time = torch.zeros(n_paths, dtype=torch.float64)
rates = -G.diagonal()
jump = (G / rates[:, None]).clone()
jump.fill_diagonal_(0)
alive = torch.ones(n_paths, dtype=torch.bool)
for _ in range(50):
    hold = torch.distributions.Exponential(rates[state]).sample()
    time = time + hold
    alive = alive & (time < T)
    nxt = torch.multinomial(jump[state], 1).squeeze(1)
    state = torch.where(alive, nxt, state)
print("simulated P(1)[0]", torch.bincount(state, minlength=3).double() / n_paths)
print("exact     P(1)[0]", torch.linalg.matrix_exp(G * T)[0])
# Mean first passage times in the discrete chain by solving linear systems.
m = torch.zeros(3, dtype=torch.float64)
for j in range(3):
    others = [i for i in range(3) if i != j]
    A = torch.eye(2, dtype=torch.float64) - P[others][:, others]
    m_j = torch.linalg.solve(A, torch.ones(2, dtype=torch.float64))
    print(f"mean first passage to {j}:", dict(zip(others, [round(v, 6) for v in m_j.tolist()])))
print("mean recurrence times", 1 / pi)
