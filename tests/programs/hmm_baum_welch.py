# Models: a hidden-Markov-model course notebook in PyTorch: sampling a sequence from a known
# 2-state HMM, the scaled forward algorithm and the log-space one with logsumexp, the
# backward pass, posterior state marginals, Viterbi decoding with max/argmax back-pointers,
# Baum-Welch re-estimation for a few EM iterations, and the same likelihood via autograd.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=4)

pi_true = torch.tensor([0.6, 0.4])
A_true = torch.tensor([[0.9, 0.1], [0.2, 0.8]])
B_true = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]])

T = 60
states = torch.empty(T, dtype=torch.long)
obs = torch.empty(T, dtype=torch.long)
states[0] = torch.multinomial(pi_true, 1)
for t in range(T):
    if t > 0:
        states[t] = torch.multinomial(A_true[states[t - 1]], 1)
    obs[t] = torch.multinomial(B_true[states[t]], 1)
print("states", states[:20].tolist())
print("obs   ", obs[:20].tolist())
print("obs counts", torch.bincount(obs, minlength=3))


def forward_scaled(pi, A, B, obs):
    alpha = torch.zeros(len(obs), len(pi))
    c = torch.zeros(len(obs))
    alpha[0] = pi * B[:, obs[0]]
    c[0] = alpha[0].sum()
    alpha[0] /= c[0]
    for t in range(1, len(obs)):
        alpha[t] = (alpha[t - 1] @ A) * B[:, obs[t]]
        c[t] = alpha[t].sum()
        alpha[t] /= c[t]
    return alpha, c


def backward_scaled(A, B, obs, c):
    beta = torch.ones(len(obs), A.shape[0])
    for t in range(len(obs) - 2, -1, -1):
        beta[t] = A @ (B[:, obs[t + 1]] * beta[t + 1]) / c[t + 1]
    return beta


def forward_log(log_pi, log_A, log_B, obs):
    la = log_pi + log_B[:, obs[0]]
    for t in range(1, len(obs)):
        la = torch.logsumexp(la.unsqueeze(1) + log_A, dim=0) + log_B[:, obs[t]]
    return torch.logsumexp(la, dim=0)


def viterbi(log_pi, log_A, log_B, obs):
    delta = log_pi + log_B[:, obs[0]]
    back = []
    for t in range(1, len(obs)):
        scores = delta.unsqueeze(1) + log_A
        best, arg = scores.max(dim=0)
        back.append(arg)
        delta = best + log_B[:, obs[t]]
    path = [int(delta.argmax())]
    for arg in reversed(back):
        path.append(int(arg[path[-1]]))
    return path[::-1], delta.max()


alpha, c = forward_scaled(pi_true, A_true, B_true, obs)
ll_scaled = torch.log(c).sum()
ll_log = forward_log(pi_true.log(), A_true.log(), B_true.log(), obs)
print("log-likelihood scaled", ll_scaled.item(), "log-space", ll_log.item())
beta = backward_scaled(A_true, B_true, obs, c)
gamma = alpha * beta
gamma = gamma / gamma.sum(1, keepdim=True)
print("posterior of state 1 (first 8)", gamma[:8, 1])
path, best = viterbi(pi_true.log(), A_true.log(), B_true.log(), obs)
path = torch.tensor(path)
print("viterbi accuracy", (path == states).float().mean().item(), "score", best.item())
print("posterior-decoding accuracy", (gamma.argmax(1) == states).float().mean().item())

# Baum-Welch from a perturbed start
pi = torch.tensor([0.5, 0.5])
A = torch.tensor([[0.7, 0.3], [0.4, 0.6]])
B = torch.tensor([[0.4, 0.3, 0.3], [0.2, 0.3, 0.5]])
onehot = torch.nn.functional.one_hot(obs, 3).float()
for it in range(8):
    alpha, c = forward_scaled(pi, A, B, obs)
    beta = backward_scaled(A, B, obs, c)
    gamma = alpha * beta
    gamma = gamma / gamma.sum(1, keepdim=True)
    xi = alpha[:-1, :, None] * A[None] * (B[:, obs[1:]].T * beta[1:])[:, None, :]
    xi = xi / xi.sum(dim=(1, 2), keepdim=True)
    pi = gamma[0]
    A = xi.sum(0) / gamma[:-1].sum(0).unsqueeze(1)
    B = (gamma.T @ onehot) / gamma.sum(0).unsqueeze(1)
    print(f"EM {it} loglik {torch.log(c).sum().item():.5f}")
print("A\n", A)
print("B\n", B)
print("rows sum to one", torch.allclose(A.sum(1), torch.ones(2)), torch.allclose(B.sum(1),
                                                                                 torch.ones(2)))

# gradient of the log-likelihood w.r.t. unconstrained parameters
logits_A = torch.zeros(2, 2, requires_grad=True)
ll = forward_log(pi_true.log(), torch.log_softmax(logits_A, 1), B_true.log(), obs)
ll.backward()
print("dLL/dlogits_A", logits_A.grad)
