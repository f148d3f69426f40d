# Models: the PyTorch "Reproducibility" notes: torch.manual_seed, use_deterministic_algorithms
# and its query functions, seed_worker/worker_init_fn with a seeded DataLoader generator,
# torch.initial_seed, torch.random.fork_rng, get/set_rng_state.
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled())
print(torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(True, warn_only=True)
print(torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
print(torch.are_deterministic_algorithms_enabled())
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False


def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


g = torch.Generator()
g.manual_seed(0)
ds = TensorDataset(torch.arange(12.0).view(6, 2), torch.arange(6))
dl = DataLoader(
    ds, batch_size=2, shuffle=True, num_workers=0, worker_init_fn=seed_worker, generator=g
)
for xb, yb in dl:
    print(yb.tolist(), xb.sum().item())
g.manual_seed(0)
print([yb.tolist() for _, yb in dl])
print(torch.initial_seed())

state = torch.get_rng_state()
print(state.dtype, state.shape)
a = torch.rand(3)
torch.set_rng_state(state)
b = torch.rand(3)
print(torch.equal(a, b), a)
with torch.random.fork_rng():
    torch.manual_seed(123)
    print(torch.randn(2))
print(torch.rand(2))
print(torch.seed() > 0)
torch.manual_seed(7)
print(torch.randint(0, 10, (5,)), torch.randperm(6))
print(torch.random.initial_seed())
