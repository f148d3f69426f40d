# Models: a sparse autoencoder for interpretability as in Anthropic's "Towards
# Monosemanticity" write-up and the public SAE training notebooks: activations that are sparse
# combinations of ground-truth feature directions, an overcomplete ReLU encoder with a
# pre-encoder bias, an L1 sparsity penalty, decoder columns renormalised to unit norm after
# every step (with the parallel gradient component removed), dead-feature counts, L0 and the
# fraction of variance explained.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
d_model, n_true, d_sae = 16, 24, 48
true_feats = F.normalize(torch.randn(n_true, d_model), dim=1)


def sample_acts(n):
    active = (torch.rand(n, n_true) < 0.08).float()
    mags = torch.rand(n, n_true) * 2
    return (active * mags) @ true_feats, active


acts, active = sample_acts(2048)
print(
    "acts",
    acts.shape,
    "true L0",
    active.sum(1).mean().item(),
    "norm",
    acts.norm(dim=1).mean().item(),
)


class SAE(nn.Module):
    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.W_enc = nn.Parameter(torch.nn.init.kaiming_uniform_(torch.empty(d_in, d_hidden)))
        self.b_enc = nn.Parameter(torch.zeros(d_hidden))
        self.W_dec = nn.Parameter(torch.nn.init.kaiming_uniform_(torch.empty(d_hidden, d_in)))
        self.b_dec = nn.Parameter(torch.zeros(d_in))
        with torch.no_grad():
            self.W_dec.data = F.normalize(self.W_dec.data, dim=1)

    def forward(self, x):
        f = F.relu((x - self.b_dec) @ self.W_enc + self.b_enc)
        return f @ self.W_dec + self.b_dec, f

    @torch.no_grad()
    def remove_parallel_grad(self):
        w = self.W_dec
        parallel = (w.grad * w).sum(-1, keepdim=True) * w
        w.grad -= parallel

    @torch.no_grad()
    def normalise_decoder(self):
        self.W_dec.data = self.W_dec.data / self.W_dec.data.norm(dim=-1, keepdim=True)


sae = SAE(d_model, d_sae)
with torch.no_grad():
    sae.b_dec.copy_(acts.median(0).values)
print("b_dec init", sae.b_dec[:4])
opt = torch.optim.Adam(sae.parameters(), lr=3e-3)
l1_coeff = 3e-3
fired = torch.zeros(d_sae)
for step in range(300):
    idx = torch.randint(0, len(acts), (128,))
    x = acts[idx]
    recon, f = sae(x)
    mse = (recon - x).pow(2).sum(-1).mean()
    l1 = f.abs().sum(-1).mean()
    loss = mse + l1_coeff * l1
    opt.zero_grad()
    loss.backward()
    sae.remove_parallel_grad()
    opt.step()
    sae.normalise_decoder()
    fired += (f > 0).float().sum(0)
    if step % 60 == 0 or step == 299:
        l0 = (f > 0).float().sum(-1).mean()
        print(
            f"step {step:3d} loss {loss.item():.5f} mse {mse.item():.5f} "
            f"l1 {l1.item():.4f} L0 {l0.item():.2f}"
        )

with torch.no_grad():
    recon, f = sae(acts)
    fvu = (recon - acts).pow(2).sum() / (acts - acts.mean(0)).pow(2).sum()
    print("fraction of variance unexplained", fvu.item())
    print(
        "dead features",
        int((fired == 0).sum()),
        "dense features",
        int((f > 0).float().mean(0).gt(0.5).sum()),
    )
    print("decoder norms", sae.W_dec.norm(dim=1)[:5])
    cos = F.normalize(sae.W_dec, dim=1) @ true_feats.T
    best = cos.max(0).values
    print("true features recovered (cos > 0.9):", int((best > 0.9).sum()), "of", n_true)
    print("mean max cosine", best.mean().item())
    print("feature density", f.gt(0).float().mean(0).sort(descending=True).values[:6])
print({k: tuple(v.shape) for k, v in sae.state_dict().items()})
