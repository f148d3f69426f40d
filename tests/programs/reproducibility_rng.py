# Models: the "Reproducibility" notes and seed-everything snippets: manual_seed, random and
# NumPy seeds, torch.Generator objects, get_rng_state/set_rng_state to replay draws, fork_rng,
# DataLoader shuffling with a generator and worker seeding, and dropout masks under a seed.
import random

import numpy as np
import torch


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


seed_everything(123)
print(torch.rand(3), torch.randn(2), torch.randint(0, 10, (4,)), torch.randperm(6))
print(random.random(), np.random.rand())
state = torch.get_rng_state()
print(state.dtype, state.shape)
a = torch.randn(3)
torch.set_rng_state(state)
b = torch.randn(3)
print(a, torch.equal(a, b))
print(torch.initial_seed())

g = torch.Generator().manual_seed(7)
print(torch.randn(2, generator=g), torch.rand(2, generator=g), g.initial_seed())
g2 = torch.Generator()
g2.set_state(g.get_state())
print(torch.equal(torch.rand(4, generator=g), torch.rand(4, generator=g2)))

with torch.random.fork_rng():
    torch.manual_seed(0)
    inside = torch.rand(2)
outside = torch.rand(2)
print(inside, outside)

torch.manual_seed(5)
drop = torch.nn.Dropout(0.5)
print(drop(torch.ones(8)))
print(torch.bernoulli(torch.full((6,), 0.3)), torch.multinomial(torch.tensor([0.1, 0.6, 0.3]), 4,
                                                                  replacement=True))
print(torch.normal(torch.zeros(3), torch.ones(3)), torch.empty(3).uniform_(-1, 1))
print(torch.empty(2).normal_(5, 0.1), torch.empty(3).exponential_(), torch.empty(2).random_(0, 9))

ds = torch.utils.data.TensorDataset(torch.arange(10))
for seed in (0, 0, 1):
    loader = torch.utils.data.DataLoader(ds, batch_size=4, shuffle=True,
                                         generator=torch.Generator().manual_seed(seed))
    print(seed, [b[0].tolist() for b in loader])
torch.manual_seed(9)
loader = torch.utils.data.DataLoader(ds, batch_size=5, shuffle=True)
print([b[0].tolist() for b in loader], [b[0].tolist() for b in loader])

torch.manual_seed(1)
m1 = torch.nn.Linear(3, 2)
torch.manual_seed(1)
m2 = torch.nn.Linear(3, 2)
print(torch.equal(m1.weight, m2.weight), m1.weight)
print(torch.seed() != 0, torch.randn(1).shape)
