# Models: differentiable sorting and ranking: NeuralSort's relaxed permutation matrices,
# pairwise-sigmoid soft ranks, a Spearman-correlation loss trained end to end, and the
# straight-through hard permutation.
import torch

torch.manual_seed(0)


def neural_sort(s, tau):
    n = s.shape[-1]
    A = (s[..., :, None] - s[..., None, :]).abs()
    B = A.sum(-1, keepdim=True)
    scaling = n + 1 - 2 * torch.arange(1, n + 1, dtype=s.dtype)
    C = s[..., None, :] * scaling[:, None]
    P_max = C - B.transpose(-1, -2)
    return torch.softmax(P_max / tau, -1)


def soft_rank(s, tau):
    diff = s[..., :, None] - s[..., None, :]
    return 1 + torch.sigmoid(diff / tau).sum(-1) - 0.5


s = torch.tensor([[0.3, -1.2, 2.5, 0.9, 0.1]])
for tau in (1.0, 0.1, 0.01):
    P = neural_sort(s, tau)
    print(f"tau={tau}")
    print(P[0])
    print("soft sorted", (P @ s.unsqueeze(-1)).squeeze(-1), "soft ranks", soft_rank(s, tau))
print("hard sort", s.sort(descending=True))
print("ranks by double argsort", s.argsort(-1).argsort(-1) + 1)
print("row sums", neural_sort(s, 0.1).sum(-1), "col sums", neural_sort(s, 0.1).sum(-2))


def spearman(pred, target, tau=0.1):
    rp = soft_rank(pred, tau)
    rt = soft_rank(target, 1e-3)
    rp = rp - rp.mean(-1, keepdim=True)
    rt = rt - rt.mean(-1, keepdim=True)
    return (rp * rt).sum(-1) / (rp.norm(dim=-1) * rt.norm(dim=-1))


X = torch.randn(64, 8, 6)
w_true = torch.randn(6)
y = torch.tanh(X @ w_true) + 0.1 * torch.randn(64, 8)
model = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(40):
    pred = model(X).squeeze(-1)
    loss = (1 - spearman(pred, y)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch} 1-spearman {loss.item():.5f}")
with torch.no_grad():
    pred = model(X).squeeze(-1)
    rp, rt = pred.argsort(-1).argsort(-1).float(), y.argsort(-1).argsort(-1).float()
    rho = 1 - 6 * ((rp - rt) ** 2).sum(-1) / (8 * (8**2 - 1))
print("hard spearman mean", rho.mean().item(), "perfect lists", (rho == 1).sum().item())


class STSort(torch.autograd.Function):
    @staticmethod
    def forward(ctx, P_soft):
        hard = torch.zeros_like(P_soft).scatter_(-1, P_soft.argmax(-1, keepdim=True), 1.0)
        return hard

    @staticmethod
    def backward(ctx, g):
        return g


scores = torch.randn(2, 5, requires_grad=True)
P = STSort.apply(neural_sort(scores, 0.5))
sorted_vals = (P @ scores.unsqueeze(-1)).squeeze(-1)
sorted_vals[:, 0].sum().backward()
print("hard P\n", P)
print("top values", sorted_vals.detach(), "grad\n", scores.grad)
