# Models: a travelling-salesman tour improved by simulated annealing with 2-opt moves, the
# distance matrix from torch.cdist, random moves from a seeded torch.Generator.
import math

import torch

g = torch.Generator().manual_seed(1234)
n = 24
cities = torch.rand(n, 2, generator=g, dtype=torch.float64)
D = torch.cdist(cities, cities)
print("distance matrix", D.shape, D.dtype, f"{D.max():.4f}")


def tour_length(tour):
    return D[tour, tour.roll(-1)].sum().item()


# Nearest-neighbour start.
unvisited = torch.ones(n, dtype=torch.bool)
tour = [0]
unvisited[0] = False
for _ in range(n - 1):
    d = D[tour[-1]].masked_fill(~unvisited, float("inf"))
    nxt = int(d.argmin())
    tour.append(nxt)
    unvisited[nxt] = False
tour = torch.tensor(tour)
print("nearest neighbour tour", tour.tolist())
print(f"length {tour_length(tour):.5f}")

best = tour.clone()
best_len = cur_len = tour_length(tour)
T = 0.5
accepted = 0
for it in range(4000):
    i, j = sorted(torch.randint(0, n, (2,), generator=g).tolist())
    if j - i < 2:
        continue
    cand = tour.clone()
    cand[i:j] = tour[i:j].flip(0)
    cand_len = tour_length(cand)
    delta = cand_len - cur_len
    if delta < 0 or torch.rand(1, generator=g, dtype=torch.float64).item() < math.exp(-delta / T):
        tour, cur_len = cand, cand_len
        accepted += 1
        if cur_len < best_len - 1e-12:
            best, best_len = tour.clone(), cur_len
    T *= 0.999
    if it % 1000 == 999:
        print(
            f"iter {it + 1} T={T:.4f} current {cur_len:.5f} best {best_len:.5f} accepted {accepted}"
        )
start = int((best == 0).nonzero())
print("best tour", best.roll(-start).tolist())
print(f"best length {best_len:.5f}")
print("is a permutation:", torch.equal(best.sort().values, torch.arange(n)))
edges = torch.stack([best, best.roll(-1)], 1)
print("longest edge", edges[D[best, best.roll(-1)].argmax()].tolist())
