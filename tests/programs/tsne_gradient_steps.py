# Models: a t-SNE implementation in PyTorch (the "t-SNE from scratch" notebooks and
# tsne-pytorch): binary search for per-point Gaussian bandwidths to match a perplexity,
# symmetrised joint probabilities P, Student-t affinities Q in the embedding, the KL gradient
# by autograd compared with the closed-form gradient, early exaggeration and momentum steps,
# and a neighbourhood-preservation score.
import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
N_PER, D = 15, 6
centers = torch.randn(3, D) * 4
X = torch.cat([c + torch.randn(N_PER, D) for c in centers])
labels = torch.arange(3).repeat_interleave(N_PER)
N = len(X)


def h_beta(dist_row, beta):
    p = torch.exp(-dist_row * beta)
    sum_p = p.sum()
    H = torch.log(sum_p) + beta * (dist_row * p).sum() / sum_p
    return H, p / sum_p


def x2p(X, perplexity=5.0, tol=1e-5):
    dist = torch.cdist(X, X).pow(2)
    P = torch.zeros(N, N)
    target = torch.log(torch.tensor(perplexity))
    betas = torch.ones(N)
    for i in range(N):
        lo, hi, beta = None, None, torch.tensor(1.0)
        row = torch.cat([dist[i, :i], dist[i, i + 1 :]])
        for _ in range(50):
            H, this_p = h_beta(row, beta)
            diff = H - target
            if diff.abs() < tol:
                break
            if diff > 0:
                lo = beta.clone()
                beta = beta * 2 if hi is None else (beta + hi) / 2
            else:
                hi = beta.clone()
                beta = beta / 2 if lo is None else (beta + lo) / 2
        betas[i] = beta
        P[i, torch.arange(N) != i] = this_p
    return P, betas


P, betas = x2p(X)
print("row sums:", P.sum(1)[:4], "mean sigma:", torch.sqrt(1 / betas).mean())
P = P + P.T
P = P / P.sum()
P = torch.clamp(P, min=1e-12)
print("joint P sums to", P.sum().item(), "symmetric:", torch.allclose(P, P.T))


def q_matrix(Y):
    num = 1.0 / (1.0 + torch.cdist(Y, Y).pow(2))
    num = num * (1 - torch.eye(len(Y)))
    return num / num.sum(), num


def kl(P, Y):
    Q, _ = q_matrix(Y)
    Q = torch.clamp(Q, min=1e-12)
    return (P * torch.log(P / Q)).sum()


Y = (torch.randn(N, 2) * 1e-2).requires_grad_()
loss = kl(P, Y)
(grad_auto,) = torch.autograd.grad(loss, Y)
Q, num = q_matrix(Y.detach())
PQ = P - Q
grad_closed = 4 * ((PQ * num).unsqueeze(2) * (Y.detach().unsqueeze(1) - Y.detach())).sum(1)
print("initial KL:", loss.item())
print(
    "autograd vs closed-form gradient close:",
    torch.allclose(grad_auto, grad_closed, rtol=1e-6, atol=1e-10),
)

Y = Y.detach().clone()
velocity = torch.zeros_like(Y)
gains = torch.ones_like(Y)
for it in range(150):
    exaggeration = 4.0 if it < 50 else 1.0
    momentum = 0.5 if it < 50 else 0.8
    Yg = Y.clone().requires_grad_()
    loss = kl(P * exaggeration, Yg)
    (g,) = torch.autograd.grad(loss, Yg)
    gains = (gains + 0.2) * ((g > 0) != (velocity > 0)) + gains * 0.8 * ((g > 0) == (velocity > 0))
    gains.clamp_(min=0.01)
    velocity = momentum * velocity - 5.0 * gains * g
    Y = Y + velocity
    Y = Y - Y.mean(0)
    if it % 50 == 49:
        print(f"iter {it + 1} KL {kl(P, Y).item():.4f}")

d_emb = torch.cdist(Y, Y) + torch.eye(N) * 1e9
nn_idx = d_emb.argmin(1)
print("1-NN label agreement in the embedding:", (labels[nn_idx] == labels).double().mean().item())
centroids = torch.stack([Y[labels == k].mean(0) for k in range(3)])
print("between-centroid distances > 1:", bool((torch.pdist(centroids) > 1).all()))
print("pdist shape:", torch.pdist(centroids).shape, torch.get_default_dtype())
