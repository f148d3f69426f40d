# Models: the sparse autoencoder from Andrew Ng's notes: tied encoder/decoder weights through
# F.linear(h, W.t()), a KL-divergence sparsity penalty on the mean hidden activation, weight
# decay, and training with printed loss components and average activations.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(14)
X = torch.rand(64, 10)


class TiedAE(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.W = nn.Parameter(torch.randn(h, d) * 0.1)
        self.b_enc = nn.Parameter(torch.zeros(h))
        self.b_dec = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        h = torch.sigmoid(F.linear(x, self.W, self.b_enc))
        return torch.sigmoid(F.linear(h, self.W.t(), self.b_dec)), h


def kl_sparsity(rho, rho_hat):
    return (rho * torch.log(rho / rho_hat) + (1 - rho) * torch.log((1 - rho) / (1 - rho_hat))).sum()


model = TiedAE(10, 6)
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5)
rho, beta, lam = 0.1, 3.0, 1e-4
for epoch in range(5):
    def closure():
        opt.zero_grad()
        xr, h = model(X)
        recon = 0.5 * ((xr - X) ** 2).sum(1).mean()
        sparse = beta * kl_sparsity(rho, h.mean(0))
        decay = lam / 2 * (model.W ** 2).sum()
        loss = recon + sparse + decay
        loss.backward()
        return loss
    loss = opt.step(closure)
    with torch.no_grad():
        xr, h = model(X)
    print(f"epoch {epoch} loss {loss.item():.6f} mean act {h.mean().item():.4f}")
print("hidden means", h.mean(0))
print("W grad shape", model.W.grad.shape, "decoder uses W.t()", xr.grad_fn is None)
