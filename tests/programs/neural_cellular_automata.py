# Models: the "Growing Neural Cellular Automata" notebook ported to PyTorch: a 16-channel grid,
# perception by fixed identity/Sobel depthwise kernels (conv2d with groups and circular
# padding), a 1x1-conv update rule with a zero-initialised last layer, stochastic cell updates
# with a fire-rate mask, alive masking by 3x3 max-pooling of the alpha channel, a sample pool,
# and training a few steps to grow a small target pattern.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
CH, SIZE = 8, 12

ident = torch.tensor([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
sobel_x = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 8.0
kernels = torch.stack([ident, sobel_x, sobel_x.T])  # (3, 3, 3)
print("kernels:\n", kernels)


def perceive(x):
    k = kernels.repeat(CH, 1, 1).unsqueeze(1)  # (3*CH, 1, 3, 3)
    return F.conv2d(F.pad(x, (1, 1, 1, 1), mode="circular"), k, groups=CH)


def alive_mask(x):
    return F.max_pool2d(x[:, 3:4], kernel_size=3, stride=1, padding=1) > 0.1


class CA(nn.Module):
    def __init__(self, hidden=32, fire_rate=0.5):
        super().__init__()
        self.fire_rate = fire_rate
        self.w1 = nn.Conv2d(3 * CH, hidden, 1)
        self.w2 = nn.Conv2d(hidden, CH, 1, bias=False)
        nn.init.zeros_(self.w2.weight)

    def forward(self, x, steps=1):
        for _ in range(steps):
            pre = alive_mask(x)
            dx = self.w2(F.relu(self.w1(perceive(x))))
            fire = (torch.rand(x.shape[0], 1, SIZE, SIZE) <= self.fire_rate).float()
            x = x + dx * fire
            post = alive_mask(x)
            x = x * (pre & post).float()
        return x


def seed_grid(n=1):
    x = torch.zeros(n, CH, SIZE, SIZE)
    x[:, 3:, SIZE // 2, SIZE // 2] = 1.0
    return x


yy, xx = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
disk = (((yy - SIZE // 2) ** 2 + (xx - SIZE // 2) ** 2) <= 9).float()
target = torch.stack([disk * 0.9, disk * 0.2, disk * (yy.float() / SIZE), disk])  # RGBA
print("target alive cells:", int(disk.sum().item()))

x0 = seed_grid()
p = perceive(x0)
print(
    "perception:",
    tuple(p.shape),
    "nonzero per channel group:",
    (p[0] != 0).flatten(1).sum(1)[:6].tolist(),
)
print("alive at seed:", alive_mask(x0).sum().item())

ca = CA()
print(ca, "params:", sum(q.numel() for q in ca.parameters()))
with torch.no_grad():
    print("zero-initialised update keeps the seed:", torch.equal(ca(x0, 5), x0))

pool = seed_grid(16)
opt = torch.optim.Adam(ca.parameters(), lr=2e-3)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, [20], 0.3)
for it in range(30):
    idx = torch.randperm(len(pool))[:4]
    batch = pool[idx]
    losses = ((batch[:, :4] - target) ** 2).mean((1, 2, 3))
    worst = losses.argmax()
    batch[worst] = seed_grid()[0]
    steps = int(torch.randint(8, 13, (1,)).item())
    out = ca(batch, steps)
    loss = ((out[:, :4] - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    for q in ca.parameters():
        q.grad.data = q.grad.data / (q.grad.data.norm() + 1e-8)
    opt.step()
    sched.step()
    pool[idx] = out.detach()
    if it % 10 == 9:
        print(f"iter {it + 1} steps {steps} loss {loss.item():.5f} lr {sched.get_last_lr()[0]}")

with torch.no_grad():
    grown = ca(seed_grid(), 12)
    print("alive after growth:", alive_mask(grown).sum().item())
    print("RGBA at centre:", grown[0, :4, SIZE // 2, SIZE // 2])
    print("final loss vs target:", ((grown[:, :4] - target) ** 2).mean())
    damaged = grown.clone()
    damaged[..., : SIZE // 2, :] = 0
    print("alive after damage:", alive_mask(damaged).sum().item())
