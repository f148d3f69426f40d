# Models: the Wasserstein autoencoder (Tolstikhin et al. 2018, WAE-MMD) next to a beta-VAE on
# the same data, as in the public PyTorch re-implementations: an MMD penalty between encoded
# codes and prior samples with the inverse multiquadratic kernel summed over several scales
# (torch.cdist for pairwise distances, the diagonal removed), the beta-VAE's KL term with
# free bits (clamp), and both models' reconstruction error and code statistics.
import torch
import torch.nn as nn
import torch.nn.functional as F


def imq_mmd(z, prior, scales=(0.1, 0.2, 0.5, 1.0, 2.0)):
    n, d = z.shape
    dzz = torch.cdist(z, z).pow(2)
    dpp = torch.cdist(prior, prior).pow(2)
    dzp = torch.cdist(z, prior).pow(2)
    off = 1 - torch.eye(n)
    total = z.new_zeros(())
    for s in scales:
        c = 2 * d * s
        kzz, kpp, kzp = c / (c + dzz), c / (c + dpp), c / (c + dzp)
        total = total + ((kzz * off).sum() + (kpp * off).sum()) / (n * (n - 1)) \
            - 2 * kzp.mean()
    return total


class AE(nn.Module):
    def __init__(self, d_in=12, d_z=2, variational=False):
        super().__init__()
        self.variational = variational
        self.enc = nn.Sequential(nn.Linear(d_in, 32), nn.ELU(),
                                 nn.Linear(32, 2 * d_z if variational else d_z))
        self.dec = nn.Sequential(nn.Linear(d_z, 32), nn.ELU(), nn.Linear(32, d_in))

    def forward(self, x):
        h = self.enc(x)
        if not self.variational:
            return self.dec(h), h, None
        mu, logvar = h.chunk(2, -1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


torch.manual_seed(0)
latent = torch.randn(256, 2)
mixing = torch.randn(2, 12)
data = torch.tanh(latent @ mixing) + 0.05 * torch.randn(256, 12)
print("data", tuple(data.shape), "mean |x|", data.abs().mean().item())

for name in ("WAE-MMD", "beta-VAE"):
    torch.manual_seed(1)
    model = AE(variational=name == "beta-VAE")
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(12):
        perm = torch.randperm(256)
        stats = torch.zeros(3)
        for i in range(0, 256, 64):
            x = data[perm[i:i + 64]]
            recon, z, logvar = model(x)
            rec = F.mse_loss(recon, x, reduction="sum") / len(x)
            if logvar is None:
                reg = 10.0 * imq_mmd(z, torch.randn_like(z))
            else:
                kl = -0.5 * (1 + logvar - z.pow(2) - logvar.exp())
                reg = 4.0 * torch.clamp(kl.mean(0), min=0.05).sum()
            loss = rec + reg
            opt.zero_grad()
            loss.backward()
            opt.step()
            stats += torch.tensor([loss.item(), rec.item(), reg.item()])
        if epoch % 4 == 3:
            s = stats / 4
            print(f"{name} epoch {epoch:2d} loss {s[0]:.5f} recon {s[1]:.5f} reg {s[2]:.5f}")
    model.eval()
    with torch.no_grad():
        recon, z, _ = model(data)
        print(f"{name} code mean {z.mean(0).tolist()} std {z.std(0).tolist()}")
        print(f"{name} eval recon {F.mse_loss(recon, data).item():.6f} "
              f"MMD to prior {imq_mmd(z[:128], torch.randn(128, 2)).item():.6f}")
        samples = model.dec(torch.randn(5, 2))
        print(f"{name} samples range {samples.min().item():.4f} {samples.max().item():.4f}")
