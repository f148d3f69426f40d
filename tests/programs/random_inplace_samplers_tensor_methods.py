# Models: a "random sampling" reference notebook: the in-place samplers on tensors (uniform_,
# normal_, exponential_, geometric_, cauchy_, log_normal_, random_, bernoulli_), torch.normal
# with tensor arguments, torch.poisson, multinomial with and without replacement, and
# per-generator reproducibility.
import torch

torch.manual_seed(2024)
t = torch.empty(6)
print("uniform_", t.uniform_(-1, 1))
print("normal_", t.normal_(5, 0.1))
print("exponential_", t.exponential_(2.0))
print("geometric_", t.geometric_(0.3))
print("cauchy_", t.cauchy_(0, 1))
print("log_normal_", t.log_normal_(0, 0.5))
print("random_", t.random_(0, 10), torch.empty(4, dtype=torch.int64).random_(100))
print("random_ to", torch.empty(3, dtype=torch.int32).random_(5))
print("bernoulli_ p", torch.empty(8).bernoulli_(0.3))
print("bernoulli tensor p", torch.bernoulli(torch.tensor([0.0, 0.5, 1.0, 0.9])))
print("normal tensors", torch.normal(torch.arange(4.0), torch.tensor([0.1, 1.0, 0.1, 1.0])))
print("normal mean tensor", torch.normal(torch.zeros(3), 2.0))
print("normal size", torch.normal(1.0, 0.5, size=(2, 2)))
print("poisson", torch.poisson(torch.tensor([0.5, 2.0, 10.0, 100.0])))
w = torch.tensor([0.1, 0.0, 0.6, 0.3])
print("multinomial repl", torch.multinomial(w, 10, replacement=True))
print("multinomial no repl", torch.multinomial(w, 3))
print("multinomial 2d", torch.multinomial(torch.tensor([[1.0, 1.0], [0.0, 1.0]]), 2, True))
g1 = torch.Generator().manual_seed(5)
g2 = torch.Generator().manual_seed(5)
print("generators", torch.equal(torch.rand(3, generator=g1), torch.rand(3, generator=g2)))
print("randint_like", torch.randint_like(torch.zeros(5), 3, 7))
print("rand_like", torch.rand_like(torch.zeros(2, dtype=torch.float64)))
print("randn double", torch.randn(3, dtype=torch.float64))
print("randperm", torch.randperm(7), torch.randperm(5, dtype=torch.int32))
for bad in [lambda: torch.multinomial(w, 5),
            lambda: torch.multinomial(torch.tensor([-1.0, 2.0]), 1),
            lambda: torch.empty(2).uniform_(1, 0),
            lambda: torch.normal(torch.zeros(2), torch.tensor([1.0, -1.0]))]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
