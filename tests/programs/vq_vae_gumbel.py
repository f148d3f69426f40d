# Models: discrete-latent models from public VQ-VAE and DALL-E-style code -- a vector quantiser
# with nearest-codebook lookup via distance expansion and argmin, the straight-through
# estimator (z + (q - z).detach()), codebook and commitment losses, EMA codebook updates with
# one_hot/index_add_ and Laplace smoothing, code perplexity, and a Gumbel-softmax quantiser
# with F.gumbel_softmax (soft and hard) and RelaxedOneHotCategorical.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import RelaxedOneHotCategorical


class VectorQuantizerEMA(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, commitment_cost, decay, epsilon=1e-5):
        super().__init__()
        self._embedding_dim = embedding_dim
        self._num_embeddings = num_embeddings
        self._embedding = nn.Embedding(num_embeddings, embedding_dim)
        self._embedding.weight.data.normal_()
        self._commitment_cost = commitment_cost
        self.register_buffer("_ema_cluster_size", torch.zeros(num_embeddings))
        self._ema_w = nn.Parameter(torch.Tensor(num_embeddings, embedding_dim))
        self._ema_w.data.normal_()
        self._decay = decay
        self._epsilon = epsilon

    def forward(self, inputs):
        inputs = inputs.permute(0, 2, 3, 1).contiguous()
        input_shape = inputs.shape
        flat_input = inputs.view(-1, self._embedding_dim)
        distances = (torch.sum(flat_input ** 2, dim=1, keepdim=True)
                     + torch.sum(self._embedding.weight ** 2, dim=1)
                     - 2 * torch.matmul(flat_input, self._embedding.weight.t()))
        encoding_indices = torch.argmin(distances, dim=1).unsqueeze(1)
        encodings = torch.zeros(encoding_indices.shape[0], self._num_embeddings)
        encodings.scatter_(1, encoding_indices, 1)
        quantized = torch.matmul(encodings, self._embedding.weight).view(input_shape)
        if self.training:
            self._ema_cluster_size = (self._ema_cluster_size * self._decay
                                      + (1 - self._decay) * torch.sum(encodings, 0))
            n = torch.sum(self._ema_cluster_size.data)
            self._ema_cluster_size = ((self._ema_cluster_size + self._epsilon)
                                      / (n + self._num_embeddings * self._epsilon) * n)
            dw = torch.matmul(encodings.t(), flat_input)
            self._ema_w = nn.Parameter(self._ema_w * self._decay + (1 - self._decay) * dw)
            self._embedding.weight = nn.Parameter(
                self._ema_w / self._ema_cluster_size.unsqueeze(1))
        e_latent_loss = F.mse_loss(quantized.detach(), inputs)
        loss = self._commitment_cost * e_latent_loss
        quantized = inputs + (quantized - inputs).detach()
        avg_probs = torch.mean(encodings, dim=0)
        perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        return loss, quantized.permute(0, 3, 1, 2).contiguous(), perplexity, encoding_indices


torch.manual_seed(0)
enc = nn.Sequential(nn.Conv2d(1, 8, 4, stride=2, padding=1), nn.ReLU(), nn.Conv2d(8, 4, 1))
dec = nn.Sequential(nn.ConvTranspose2d(4, 8, 4, stride=2, padding=1), nn.ReLU(),
                    nn.Conv2d(8, 1, 3, padding=1))
vq = VectorQuantizerEMA(16, 4, 0.25, 0.9)
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=3e-3)
data = (torch.rand(8, 1, 8, 8) > 0.5).float()
for step in range(12):
    z = enc(data)
    vq_loss, q, perplexity, idx = vq(z)
    recon = dec(q)
    recon_loss = F.mse_loss(recon, data)
    loss = recon_loss + vq_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step} recon {recon_loss.item():.5f} vq {vq_loss.item():.5f} "
              f"perplexity {perplexity.item():.4f} codes {idx.unique().numel()}")
print("cluster sizes", vq._ema_cluster_size)
z = torch.randn(5, 3, requires_grad=True)
codebook = torch.randn(4, 3)
d = torch.cdist(z, codebook)
nearest = d.argmin(1)
zq = codebook[nearest]
st = z + (zq - z).detach()
st.sum().backward()
print("straight-through grad", z.grad, nearest)
counts = torch.zeros(4).index_add_(0, nearest, torch.ones(5))
print("index_add counts", counts)

logits = torch.randn(3, 5, requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.5)
hard = F.gumbel_softmax(logits, tau=0.5, hard=True)
print("soft rows", soft.sum(-1), "hard", hard, hard.sum(-1))
(hard * torch.arange(5.0)).sum().backward()
print("hard gumbel grad", logits.grad)
relaxed = RelaxedOneHotCategorical(torch.tensor(0.3), logits=torch.tensor([1.0, 2.0, 0.5]))
sample = relaxed.rsample((2,))
print("relaxed", sample, relaxed.log_prob(sample))
u = torch.rand(3, 5)
g = -torch.log(-torch.log(u + 1e-20) + 1e-20)
print("manual gumbel argmax", (logits.detach() + g).argmax(-1))
