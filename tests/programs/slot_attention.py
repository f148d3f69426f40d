# Models: the Slot Attention module (Locatello et al. 2020) as in public reimplementations:
# slots sampled from a learned Gaussian, iterative attention normalised over slots, a weighted
# mean over inputs, a GRUCell update and a residual MLP, with a soft positional embedding and
# a spatial-broadcast decoder reconstructing tiny multi-object images.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SlotAttention(nn.Module):
    def __init__(self, num_slots, dim, iters=3, eps=1e-8, hidden_dim=32):
        super().__init__()
        self.num_slots, self.iters, self.eps = num_slots, iters, eps
        self.scale = dim ** -0.5
        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.slots_logsigma = nn.Parameter(torch.zeros(1, 1, dim))
        nn.init.xavier_uniform_(self.slots_logsigma)
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.gru = nn.GRUCell(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden_dim), nn.ReLU(inplace=True),
                                 nn.Linear(hidden_dim, dim))
        self.norm_input = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)
        self.norm_pre_ff = nn.LayerNorm(dim)

    def forward(self, inputs):
        b, n, d = inputs.shape
        mu = self.slots_mu.expand(b, self.num_slots, -1)
        sigma = self.slots_logsigma.exp().expand(b, self.num_slots, -1)
        slots = mu + sigma * torch.randn(mu.shape)
        inputs = self.norm_input(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)
        for _ in range(self.iters):
            slots_prev = slots
            q = self.to_q(self.norm_slots(slots))
            dots = torch.einsum("bid,bjd->bij", q, k) * self.scale
            attn = dots.softmax(dim=1) + self.eps
            attn = attn / attn.sum(dim=-1, keepdim=True)
            updates = torch.einsum("bjd,bij->bid", v, attn)
            slots = self.gru(updates.reshape(-1, d), slots_prev.reshape(-1, d))
            slots = slots.reshape(b, -1, d)
            slots = slots + self.mlp(self.norm_pre_ff(slots))
        return slots, attn


def build_grid(h, w):
    ranges = [torch.linspace(0.0, 1.0, steps=r) for r in (h, w)]
    grid = torch.stack(torch.meshgrid(*ranges, indexing="ij"), dim=-1)
    grid = grid.reshape(h, w, -1).unsqueeze(0)
    return torch.cat([grid, 1.0 - grid], dim=-1)


class Autoencoder(nn.Module):
    def __init__(self, size=8, dim=16, slots=3):
        super().__init__()
        self.size = size
        self.enc = nn.Sequential(nn.Conv2d(1, dim, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(dim, dim, 3, padding=1))
        self.pos = nn.Linear(4, dim)
        self.register_buffer("grid", build_grid(size, size))
        self.slot_attn = SlotAttention(slots, dim)
        self.dec = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, img):
        b = img.shape[0]
        x = self.enc(img).permute(0, 2, 3, 1) + self.pos(self.grid)
        slots, attn = self.slot_attn(x.flatten(1, 2))
        s = slots.reshape(-1, 1, 1, slots.shape[-1]).expand(-1, self.size, self.size, -1)
        s = s + self.pos(self.grid)
        out = self.dec(s).reshape(b, -1, self.size, self.size, 2)
        recons, masks = out.split([1, 1], dim=-1)
        masks = masks.softmax(dim=1)
        return (recons * masks).sum(1).squeeze(-1).unsqueeze(1), masks.squeeze(-1), attn


def scenes(n, size=8):
    img = torch.zeros(n, 1, size, size)
    for i in range(n):
        for _ in range(2):
            r, c = torch.randint(0, size - 2, (2,)).tolist()
            img[i, 0, r:r + 3, c:c + 3] = torch.rand(1).item() * 0.5 + 0.5
    return img


print(build_grid(2, 3)[0, :, :, 0])
data = scenes(16)
model = Autoencoder()
print(model.slot_attn)
opt = torch.optim.Adam(model.parameters(), lr=4e-3)
for step in range(20):
    recon, masks, attn = model(data)
    loss = F.mse_loss(recon, data)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step:2d} mse {loss.item():.6f}")
print("masks", tuple(masks.shape), "mask sums", masks.sum(1)[0, :2, :3])
print("attn rows", tuple(attn.shape), attn.sum(1)[0, :6])
print("slot usage", masks.mean(dim=(2, 3))[:3])
