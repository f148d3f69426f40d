# Models: an evolutionary-computation course lab with tensors (the "genetic algorithm in
# PyTorch" notebooks): a 0/1 knapsack population of bit strings, fitness with an over-weight
# penalty, tournament selection with torch.randint, uniform crossover masks from torch.rand,
# bit-flip mutation, elitism, and a travelling-salesman variant with random-key encoding
# (argsort of keys gives the tour) and swap mutations.
import torch

torch.manual_seed(0)
n_items = 24
weights = torch.randint(1, 20, (n_items,)).float()
values = torch.randint(1, 30, (n_items,)).float()
capacity = weights.sum() * 0.4
print("capacity", capacity.item(), "value density", (values / weights)[:6])


def fitness(pop):
    w = pop.float() @ weights
    v = pop.float() @ values
    return torch.where(w <= capacity, v, v - 10 * (w - capacity))


def tournament(pop, fit, k=3):
    idx = torch.randint(0, len(pop), (len(pop), k))
    winners = idx.gather(1, fit[idx].argmax(1, keepdim=True)).squeeze(1)
    return pop[winners]


pop = torch.rand(60, n_items) < 0.3
best_hist = []
for gen in range(80):
    fit = fitness(pop)
    elite = pop[fit.argmax()].clone()
    parents = tournament(pop, fit)
    mates = parents[torch.randperm(len(parents))]
    mask = torch.rand(pop.shape) < 0.5
    children = torch.where(mask, parents, mates)
    flip = torch.rand(pop.shape) < 1.0 / n_items
    children ^= flip
    children[0] = elite
    pop = children
    best_hist.append(fit.max().item())
    if gen % 20 == 0:
        print(
            f"gen {gen:2d} best {fit.max().item():.1f} mean {fit.mean().item():.2f} "
            f"diversity {pop.float().std(0).mean().item():.4f}"
        )
fit = fitness(pop)
best = pop[fit.argmax()]
print(
    "best value",
    fit.max().item(),
    "weight",
    (best.float() @ weights).item(),
    "items",
    best.nonzero().flatten().tolist(),
)

ratio_order = torch.argsort(values / weights, descending=True)
take = torch.zeros(n_items, dtype=torch.bool)
load = 0.0
for i in ratio_order.tolist():
    if load + weights[i] <= capacity:
        take[i] = True
        load += weights[i].item()
print(
    "greedy value",
    (take.float() @ values).item(),
    "GA >= greedy:",
    fit.max().item() >= (take.float() @ values).item(),
)

n_cities = 10
cities = torch.rand(n_cities, 2)
dist = torch.cdist(cities, cities)


def tour_length(keys):
    tours = keys.argsort(dim=1)
    return dist[tours, tours.roll(-1, dims=1)].sum(1)


keys = torch.rand(50, n_cities)
for gen in range(60):
    L = tour_length(keys)
    order = L.argsort()
    elite = keys[order[:10]]
    parents = elite[torch.randint(0, 10, (40,))]
    other = elite[torch.randint(0, 10, (40,))]
    cross = torch.rand(40, n_cities) < 0.5
    kids = torch.where(cross, parents, other)
    i = torch.randint(0, n_cities, (40,))
    j = torch.randint(0, n_cities, (40,))
    rows = torch.arange(40)
    ki, kj = kids[rows, i].clone(), kids[rows, j].clone()
    kids[rows, i], kids[rows, j] = kj, ki
    kids += 0.02 * torch.randn_like(kids)
    keys = torch.cat([elite, kids])
    if gen % 15 == 0:
        print(f"tsp gen {gen:2d} best length {L.min().item():.4f}")
L = tour_length(keys)
print("best tour", keys[L.argmin()].argsort().tolist(), "length", round(L.min().item(), 4))
print("random tour length", round(tour_length(torch.rand(1, n_cities)).item(), 4))
