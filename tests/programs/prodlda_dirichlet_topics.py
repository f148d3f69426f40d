# Models: neural topic models (ProdLDA / Dirichlet VAE, as in Pyro's and Srivastava & Sutton's
# examples) on a toy bag-of-words corpus: an encoder producing Dirichlet concentrations, the
# reparameterised Dirichlet sample (rsample through the gamma gradient), the analytic KL to a
# sparse Dirichlet prior, a product-of-experts decoder with BatchNorm, and the top words of
# each learned topic, plus collapsed Gibbs sampling for classic LDA for comparison.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Dirichlet, kl_divergence

torch.manual_seed(0)
V, K, N_DOCS, DOC_LEN = 24, 3, 120, 30
true_topics = torch.zeros(K, V)
for k in range(K):
    true_topics[k, k * 8:(k + 1) * 8] = 1.0
true_topics = (true_topics + 0.02) / (true_topics + 0.02).sum(1, keepdim=True)
theta = Dirichlet(torch.full((K,), 0.3)).sample((N_DOCS,))
word_probs = theta @ true_topics
docs = torch.stack([torch.bincount(torch.multinomial(p, DOC_LEN, replacement=True), minlength=V)
                    for p in word_probs]).float()
print("corpus:", tuple(docs.shape), "tokens:", int(docs.sum()), "doc 0:", docs[0].int())


class ProdLDA(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(V, hidden), nn.Softplus(), nn.Linear(hidden, K))
        self.bn_enc = nn.BatchNorm1d(K, affine=False)
        self.beta = nn.Linear(K, V, bias=False)
        self.bn_dec = nn.BatchNorm1d(V, affine=False)
        self.drop = nn.Dropout(0.2)

    def forward(self, bow):
        conc = F.softplus(self.bn_enc(self.enc(self.drop(bow)))).clamp(min=1e-3)
        q = Dirichlet(conc)
        z = q.rsample() if self.training else q.mean
        logits = self.bn_dec(self.beta(self.drop(z)))
        return q, F.log_softmax(logits, -1)


model = ProdLDA()
prior = Dirichlet(torch.full((K,), 0.3))
opt = torch.optim.Adam(model.parameters(), lr=2e-2, betas=(0.99, 0.999))
for epoch in range(24):
    model.train()
    total = 0.0
    for idx in torch.randperm(N_DOCS).split(40):
        q, log_probs = model(docs[idx])
        rec = -(docs[idx] * log_probs).sum(1)
        kl = kl_divergence(q, prior)
        loss = (rec + kl).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    if epoch % 8 == 7:
        print(f"epoch {epoch + 1} ELBO loss {total / N_DOCS:.4f} KL {kl.mean():.4f}")
model.eval()
with torch.no_grad():
    topics = model.beta.weight.T
    for k in range(K):
        print(f"topic {k}: top words", topics[k].topk(6).indices.sort().values.tolist())
    q, _ = model(docs[:4])
    print("doc-topic means:\n", q.mean)
    print("true proportions:\n", theta[:4])

# Dirichlet reparameterisation gradient vs a finite difference of its mean
alpha = torch.tensor([0.5, 1.5, 3.0], requires_grad=True)
g = torch.Generator().manual_seed(1)
torch.manual_seed(5)
samples = Dirichlet(alpha).rsample((2000,))
samples[:, 0].mean().backward()
exact = torch.tensor([1 - 0.5 / 5.0, -0.5 / 5.0, -0.5 / 5.0]) / 5.0
print("d E[x0] / d alpha (rsample):", alpha.grad, "exact:", exact)

# collapsed Gibbs sampling for LDA on the same corpus
words = [torch.repeat_interleave(torch.arange(V), d.long()) for d in docs[:12]]
a, b = 0.3, 0.1
assign = [torch.randint(0, K, (len(w),), generator=g) for w in words]
n_dk = torch.stack([torch.bincount(z, minlength=K) for z in assign]).float()
n_kw = torch.zeros(K, V)
for w, z in zip(words, assign):
    n_kw.index_put_((z, w), torch.ones(len(w)), accumulate=True)
n_k = n_kw.sum(1)
for sweep in range(4):
    for d, (w, z) in enumerate(zip(words, assign)):
        for i in range(len(w)):
            wi, zi = w[i], z[i]
            n_dk[d, zi] -= 1
            n_kw[zi, wi] -= 1
            n_k[zi] -= 1
            p = (n_dk[d] + a) * (n_kw[:, wi] + b) / (n_k + V * b)
            zi = torch.multinomial(p, 1, generator=g)[0]
            z[i] = zi
            n_dk[d, zi] += 1
            n_kw[zi, wi] += 1
            n_k[zi] += 1
    if sweep % 2 == 1:
        phi = (n_kw + b) / (n_k[:, None] + V * b)
        theta_d = (n_dk + a) / (n_dk.sum(1, keepdim=True) + K * a)
        ll = sum((phi[:, w] * theta_d[d][:, None]).sum(0).log().sum() for d, w in enumerate(words))
        print(f"Gibbs sweep {sweep + 1} log-likelihood {ll:.3f}")
for k in range(K):
    print(f"Gibbs topic {k}:", phi[k].topk(6).indices.sort().values.tolist())
