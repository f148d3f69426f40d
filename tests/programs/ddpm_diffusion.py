# Models: a toy DDPM (Ho et al. 2020) in the manner of public minimal-diffusion notebooks -- a
# linear/cosine beta schedule, alphas_cumprod via cumprod, sinusoidal time embeddings, a small
# conv denoiser with GroupNorm and SiLU, the simplified epsilon-prediction loss, and the ancestral
# sampling loop under torch.no_grad().
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def linear_beta_schedule(timesteps, start=1e-4, end=0.02):
    return torch.linspace(start, end, timesteps)


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0.0001, 0.9999)


T = 50
betas = linear_beta_schedule(T)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_recip_alphas = torch.sqrt(1.0 / alphas)
sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)
sqrt_one_minus_alphas_cumprod = torch.sqrt(1.0 - alphas_cumprod)
posterior_variance = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)
print("betas", betas[:3], betas[-1].item())
print("alphas_cumprod[-1]", alphas_cumprod[-1])
print("posterior_variance", posterior_variance[:4])
cos_betas = cosine_beta_schedule(T)
print("cosine", cos_betas.dtype, cos_betas[:3], cos_betas.max())


def extract(a, t, x_shape):
    batch_size = t.shape[0]
    out = a.gather(-1, t.cpu())
    return out.reshape(batch_size, *((1,) * (len(x_shape) - 1))).to(t.device)


def q_sample(x_start, t, noise=None):
    if noise is None:
        noise = torch.randn_like(x_start)
    return (extract(sqrt_alphas_cumprod, t, x_start.shape) * x_start
            + extract(sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise)


class SinusoidalPositionEmbeddings(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, time):
        half_dim = self.dim // 2
        embeddings = math.log(10000) / (half_dim - 1)
        embeddings = torch.exp(torch.arange(half_dim, device=time.device) * -embeddings)
        embeddings = time[:, None] * embeddings[None, :]
        return torch.cat((embeddings.sin(), embeddings.cos()), dim=-1)


class Block(nn.Module):
    def __init__(self, cin, cout, tdim):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.norm1 = nn.GroupNorm(4, cout)
        self.time_mlp = nn.Linear(tdim, cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.norm2 = nn.GroupNorm(4, cout)
        self.res = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x, t):
        h = F.silu(self.norm1(self.conv1(x)))
        h = h + self.time_mlp(t)[..., None, None]
        h = F.silu(self.norm2(self.conv2(h)))
        return h + self.res(x)


class TinyDenoiser(nn.Module):
    def __init__(self, ch=8, tdim=16):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPositionEmbeddings(tdim), nn.Linear(tdim, tdim),
                                      nn.GELU(), nn.Linear(tdim, tdim))
        self.down = Block(1, ch, tdim)
        self.pool = nn.AvgPool2d(2)
        self.mid = Block(ch, ch, tdim)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.dec = Block(2 * ch, ch, tdim)
        self.out = nn.Conv2d(ch, 1, 1)

    def forward(self, x, t):
        te = self.time_mlp(t.float())
        h1 = self.down(x, te)
        h2 = self.mid(self.pool(h1), te)
        h = self.dec(torch.cat([self.up(h2), h1], dim=1), te)
        return self.out(h)


torch.manual_seed(0)
emb = SinusoidalPositionEmbeddings(8)(torch.tensor([0, 1, 10, 49]))
print("time embedding\n", emb)

# data: 8x8 images of a bright square at random places
def make_batch(n):
    x = torch.full((n, 1, 8, 8), -1.0)
    pos = torch.randint(0, 5, (n, 2))
    for i in range(n):
        r, c = pos[i].tolist()
        x[i, 0, r:r + 3, c:c + 3] = 1.0
    return x


model = TinyDenoiser()
print("parameters", sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(30):
    x0 = make_batch(16)
    t = torch.randint(0, T, (16,), dtype=torch.long)
    noise = torch.randn_like(x0)
    x_noisy = q_sample(x0, t, noise)
    loss = F.mse_loss(model(x_noisy, t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:3d} loss {loss.item():.4f}")


@torch.no_grad()
def p_sample(model, x, t, t_index):
    betas_t = extract(betas, t, x.shape)
    sqrt_one_minus_alphas_cumprod_t = extract(sqrt_one_minus_alphas_cumprod, t, x.shape)
    sqrt_recip_alphas_t = extract(sqrt_recip_alphas, t, x.shape)
    model_mean = sqrt_recip_alphas_t * (
        x - betas_t * model(x, t) / sqrt_one_minus_alphas_cumprod_t)
    if t_index == 0:
        return model_mean
    posterior_variance_t = extract(posterior_variance, t, x.shape)
    noise = torch.randn_like(x)
    return model_mean + torch.sqrt(posterior_variance_t) * noise


@torch.no_grad()
def p_sample_loop(model, shape):
    b = shape[0]
    img = torch.randn(shape)
    for i in reversed(range(0, T)):
        img = p_sample(model, img, torch.full((b,), i, dtype=torch.long), i)
    return img


model.eval()
samples = p_sample_loop(model, (2, 1, 8, 8))
print("sample shape", tuple(samples.shape), "range", samples.min().item() > -50)
print("sample stats", samples.mean().round(decimals=2).abs() < 5, samples.std() > 0)
