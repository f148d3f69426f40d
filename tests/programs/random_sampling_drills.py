# Models: a tensor exercise sheet on random numbers: manual_seed reproducibility, Generator objects
# and their states, rand/randn/randint/randperm/bernoulli/multinomial/normal/poisson/exponential_/
# geometric_/cauchy_/log_normal_/uniform_/random_ with their shapes and dtypes, sampling with and
# without replacement, and fork_rng-style state save/restore.
import torch

torch.manual_seed(0)
print(torch.rand(3), torch.randn(2, 2), torch.randint(0, 10, (5,)), torch.randperm(6), sep="\n")
torch.manual_seed(0)
print("same again", torch.rand(3))
g = torch.Generator().manual_seed(123)
print("generator", torch.randn(3, generator=g), g.initial_seed())
state = g.get_state()
a = torch.rand(2, generator=g)
g.set_state(state)
print("restored state repeats", torch.equal(a, torch.rand(2, generator=g)))
s = torch.get_rng_state()
x1 = torch.randn(4)
torch.set_rng_state(s)
print("global state restore", torch.equal(x1, torch.randn(4)))
print(
    "randint dtypes", torch.randint(5, (3,)).dtype, torch.randint(-3, 3, (2, 2), dtype=torch.int8)
)
print(
    "rand_like / randn_like / randint_like",
    torch.rand_like(torch.zeros(2)),
    torch.randn_like(torch.zeros(2, dtype=torch.float64)),
    torch.randint_like(torch.zeros(3), 4, 9),
)
p = torch.tensor([0.1, 0.5, 0.9])
print("bernoulli", torch.bernoulli(p.expand(4, 3)), torch.zeros(5).bernoulli_(0.3))
w = torch.tensor([1.0, 2.0, 7.0])
print("multinomial with replacement", torch.multinomial(w, 10, replacement=True))
print("multinomial without", torch.multinomial(w, 3), torch.multinomial(w.expand(2, 3), 2))
print(
    "normal",
    torch.normal(torch.zeros(3), torch.arange(1.0, 4.0)),
    torch.normal(2.0, 0.5, size=(2,)),
    torch.normal(torch.ones(2), 0.1),
)
print("poisson", torch.poisson(torch.tensor([0.5, 3.0, 20.0])))
t = torch.empty(6)
print("exponential_", t.exponential_(2.0))
print("geometric_", t.geometric_(0.3))
print("cauchy_", t.cauchy_(0.0, 1.0))
print("log_normal_", t.log_normal_(0.0, 0.5))
print("uniform_", t.uniform_(-2, 2))
print("normal_", t.normal_(10, 0.1))
print(
    "random_",
    torch.empty(5, dtype=torch.int64).random_(0, 4),
    torch.empty(3, dtype=torch.uint8).random_(),
)
print("random_ float to", torch.empty(4).random_(10))
big = torch.rand(10000)
print("uniform moments", round(big.mean().item(), 2), round(big.var().item(), 3))
nb = torch.randn(10000, dtype=torch.float64)
print("normal moments", round(nb.mean().item(), 2), round(nb.std().item(), 2))
perm = torch.randperm(10, generator=torch.Generator().manual_seed(5))
print("perm with generator", perm, "sorted", torch.equal(perm.sort().values, torch.arange(10)))
print(
    "dropout mask reproducible",
    torch.manual_seed(7) is not None and torch.nn.functional.dropout(torch.ones(8), 0.5),
)
idx = torch.randperm(20)[:5]
print("sample without replacement", idx)
with torch.random.fork_rng():
    torch.manual_seed(99)
    inside = torch.rand(2)
after = torch.rand(2)
print("fork_rng isolates", inside.shape, after.shape)
print(
    "seed()",
    type(torch.seed()).__name__,
    "initial_seed after manual_seed",
    torch.manual_seed(42).initial_seed(),
)
for bad in [
    lambda: torch.randint(5, 2, (3,)),
    lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1),
    lambda: torch.bernoulli(torch.tensor([1.5])),
    lambda: torch.randperm(-1),
    lambda: torch.normal(torch.zeros(2), torch.tensor([-1.0, 1.0])),
]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
