"""DistributedDataParallel on 2 ranks against one process training on the whole batch.

Every rank also trains the single-process reference itself (same seed, whole batch), so it
can compare its own replica with it: after 20 SGD steps the parameters agree within 1e-6
(relative to the largest parameter).
"""

from datetime import timedelta

import numpy as np

import ember as torch
import ember.distributed as dist
from ember import nn
from ember.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(timeout=timedelta(seconds=30))
R, W = dist.get_rank(), dist.get_world_size()


def mlp():
    return nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 32), nn.ReLU(),
                         nn.Linear(32, 3))


def cnn():
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Flatten(),
                         nn.Linear(8 * 4 * 4, 10))


def close(a, b, what):
    a, b = a.detach().numpy(), b.detach().numpy()
    rel = np.abs(a - b).max() / max(np.abs(a).max(), 1e-30)
    assert rel <= 1e-6, (what, rel)


def parity(make, x, y, loss_fn, bucket_cap_mb):
    torch.manual_seed(0)
    ref = make()
    torch.manual_seed(1 + R)                       # other weights on each rank: DDP copies rank 0's
    mine = make()
    if R == 0:
        mine.load_state_dict(ref.state_dict())
    model = DDP(mine, bucket_cap_mb=bucket_cap_mb)
    assert len(model.reducer.buckets) > 1 or bucket_cap_mb is None
    for a, b in zip(ref.parameters(), mine.parameters()):
        close(a, b, "broadcast at construction")
    opt_ref = torch.optim.SGD(ref.parameters(), lr=0.05, momentum=0.9)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    n = len(x) // W
    xs, ys = x[R * n:(R + 1) * n], y[R * n:(R + 1) * n]
    for _ in range(20):
        opt_ref.zero_grad()
        loss_fn(ref(x), y).backward()
        opt_ref.step()
        opt.zero_grad()
        loss_fn(model(xs), ys).backward()
        opt.step()
    for (name, a), b in zip(ref.named_parameters(), mine.parameters()):
        close(a, b, (make.__name__, name))
    assert list(model.state_dict()) == ["module." + k for k in ref.state_dict()]
    return model


torch.manual_seed(123)
x, y = torch.randn(32, 10), torch.randn(32, 3)
model = parity(mlp, x, y, nn.functional.mse_loss, bucket_cap_mb=0.002)
torch.manual_seed(321)
images, labels = torch.randn(16, 1, 8, 8), torch.randint(0, 10, (16,))
parity(cnn, images, labels, nn.functional.cross_entropy, bucket_cap_mb=None)

# overlap: when the first parameter's gradient (the last one backward produces) arrives,
# every earlier bucket has already been handed to MPI
seen = []
torch.manual_seed(0)
net = mlp()
net[0].weight.register_post_accumulate_grad_hook(lambda p: seen.append(ddp.reducer.next))
ddp = DDP(net, bucket_cap_mb=0.0005)
nn.functional.mse_loss(ddp(x[:4]), y[:4]).backward()
assert seen == [len(ddp.reducer.buckets) - 1] and len(ddp.reducer.buckets) >= 3, seen

# no_sync: gradients accumulate locally; the next synchronised backward averages the sums
torch.manual_seed(0)
net, ref = mlp(), mlp()
ref.load_state_dict(net.state_dict())
ddp = DDP(net)
chunks = [(x[8 * (2 * R + k):8 * (2 * R + k + 1)], y[8 * (2 * R + k):8 * (2 * R + k + 1)])
          for k in range(2)]
with ddp.no_sync():
    nn.functional.mse_loss(ddp(chunks[0][0]), chunks[0][1]).backward()
local = [p.grad.clone() for p in net.parameters()]
nn.functional.mse_loss(ddp(chunks[1][0]), chunks[1][1]).backward()
expected = None
for r in range(W):                                  # every rank's two micro-batches, then mean
    ref.zero_grad()
    for k in range(2):
        xs = x[8 * (2 * r + k):8 * (2 * r + k + 1)]
        ys = y[8 * (2 * r + k):8 * (2 * r + k + 1)]
        nn.functional.mse_loss(ref(xs), ys).backward()
        if r == R and k == 0:
            for a, b in zip(ref.parameters(), local):
                close(a.grad, b, "no_sync keeps the local gradient")
    grads = [p.grad.clone() for p in ref.parameters()]
    expected = grads if expected is None else [e + g for e, g in zip(expected, grads)]
for p, e in zip(net.parameters(), expected):
    close(p.grad, e / W, "no_sync then sync")


# find_unused_parameters: rank 1 leaves the second head out; nobody uses the third
class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body, self.a, self.b, self.c = nn.Linear(4, 4), nn.Linear(4, 1), nn.Linear(4, 1), \
            nn.Linear(4, 1)

    def forward(self, x, use_b):
        h = self.body(x)
        return self.a(h) + self.b(h) if use_b else self.a(h)


torch.manual_seed(0)
heads, ref = Heads(), Heads()
ref.load_state_dict(heads.state_dict())
ddp = DDP(heads, find_unused_parameters=True)
xb = torch.randn(2 * W, 4)
ddp(xb[2 * R:2 * R + 2], use_b=(R == 0)).sum().backward()
assert heads.c.weight.grad is None and heads.c.bias.grad is None
total = {}
for r in range(W):
    ref.zero_grad()
    ref(xb[2 * r:2 * r + 2], use_b=(r == 0)).sum().backward()
    for name, p in ref.named_parameters():
        g = p.grad if p.grad is not None else torch.zeros_like(p)
        total[name] = g.clone() if name not in total else total[name] + g
for name, p in heads.named_parameters():
    if not name.startswith("c."):
        close(p.grad, total[name] / W, ("find_unused_parameters", name))

# without find_unused_parameters the next forward reports the parameters left out
ddp = DDP(Heads())
ddp(xb[:2], use_b=False).sum().backward()
try:
    ddp(xb[:2], use_b=False)
except RuntimeError as e:
    assert "Expected to have finished reduction in the prior iteration" in str(e)
else:
    raise AssertionError("unused parameters went unnoticed")

# broadcast_buffers: rank 0's running statistics reach the others before each forward
torch.manual_seed(0)
bn = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3))
ddp = DDP(bn)
bn[1].running_mean.fill_(float(R + 5))
ddp.eval()
with torch.no_grad():
    ddp(torch.randn(4, 3))
assert bn[1].running_mean.tolist() == [5.0, 5.0, 5.0], bn[1].running_mean

# a model that differs between ranks is refused with torch's message
try:
    DDP(nn.Linear(3, 3 + R))
except RuntimeError as e:
    assert "DDP expects same model across all ranks" in str(e), e
else:
    raise AssertionError("different models went unnoticed")

print(f"OK rank {R}", flush=True)
