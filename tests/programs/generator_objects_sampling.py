# Models: explicit torch.Generator objects threaded through sampling code for reproducibility:
# randn/rand/randint/randperm/multinomial/bernoulli/normal_ with generator=, get_state/set_state,
# copying state into a second generator, initial_seed(), and a DataLoader shuffled by a
# generator.
import torch
from torch.utils.data import DataLoader, TensorDataset

g = torch.Generator().manual_seed(1234)
print("initial_seed", g.initial_seed())
print("randn", torch.randn(2, 3, generator=g))
print("rand", torch.rand(3, generator=g))
print("randint", torch.randint(0, 10, (5,), generator=g))
print("randperm", torch.randperm(8, generator=g))
probs = torch.tensor([0.1, 0.2, 0.3, 0.4])
print("multinomial", torch.multinomial(probs, 6, replacement=True, generator=g))
print("multinomial no repl", torch.multinomial(probs, 3, generator=g))
print("bernoulli", torch.bernoulli(torch.full((6,), 0.5), generator=g))
print("normal", torch.normal(0.0, 2.0, size=(3,), generator=g))
state = g.get_state()
a = torch.randn(3, generator=g)
g.set_state(state)
b = torch.randn(3, generator=g)
print("state replay equal", torch.equal(a, b))
t = torch.empty(4)
t.normal_(generator=g)
print("normal_", t)
t.uniform_(-1, 1, generator=g)
print("uniform_", t)
t.exponential_(generator=g)
print("exponential_", t)
g2 = torch.Generator()
g2.set_state(g.get_state())
print(
    "copied state same draw", torch.equal(torch.rand(2, generator=g), torch.rand(2, generator=g2))
)
g4 = g.clone_state()
print("clone_state", g4.initial_seed(), torch.randn(3, generator=g4), torch.randn(3, generator=g))
try:
    g.get_offset()
except RuntimeError as e:
    print("RuntimeError:", e)
torch.manual_seed(0)
global_draw = torch.rand(2)
g3 = torch.Generator().manual_seed(0)
print("generator matches global seed", torch.equal(global_draw, torch.rand(2, generator=g3)))
print("device", g3.device)

ds = TensorDataset(torch.arange(10))
loader = DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(7))
print("epoch 1", [b[0].tolist() for b in loader])
print("epoch 2", [b[0].tolist() for b in loader])
loader2 = DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(7))
print("same seed same order", [b[0].tolist() for b in loader2])
gd = torch.Generator().manual_seed(3)
print("dropout with global seed", torch.nn.functional.dropout(torch.ones(6), 0.5))
idx = torch.randperm(5, generator=gd)
print("shuffled rows", torch.arange(10).reshape(5, 2)[idx])
