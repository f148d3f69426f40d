# Models: grid algorithms written with tensor ops instead of Python loops over cells:
# connected-component labelling by iterated max_pool2d label propagation on a binary image,
# component sizes with bincount and relabelling with unique(return_inverse), a maze's BFS
# distance field by repeated dilation with a cross-shaped conv2d, path recovery by descending
# the distance field, and a flood fill with a wall mask.
import torch
import torch.nn.functional as F

torch.manual_seed(4)
img = (torch.rand(12, 16) > 0.62).float()
img[5, :] = 0
img[:, 7] = 0
print("\n".join("".join("#" if v else "." for v in row) for row in img.int().tolist()))

labels = torch.arange(1, img.numel() + 1, dtype=torch.float32).reshape(img.shape) * img
it = 0
while True:
    it += 1
    grown = F.max_pool2d(labels[None, None], 3, stride=1, padding=1)[0, 0] * img
    if torch.equal(grown, labels):
        break
    labels = grown
print("propagation iterations (8-connectivity):", it)
uniq, relabel = torch.unique(labels.long(), return_inverse=True)
print("components:", len(uniq) - 1)
sizes = torch.bincount(relabel.flatten())[1:]
print("sizes:", sizes.tolist())
print("largest component size", sizes.max().item(), "label", sizes.argmax().item() + 1)
print(relabel[:5])

maze_txt = [
    "S.#.......",
    ".##.####..",
    "....#..#.#",
    "#.#.#.##..",
    "..#...#..#",
    ".####.#.#.",
    "......#..E",
]
walls = torch.tensor([[c == "#" for c in row] for row in maze_txt])
H, W = walls.shape
start, end = (0, 0), (H - 1, W - 1)
cross = torch.tensor([[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 0.0]])[None, None]
free = (~walls).float()
reached = torch.zeros(H, W)
reached[start] = 1
dist = torch.full((H, W), -1)
dist[start] = 0
step = 0
while not reached[end]:
    step += 1
    new = (F.conv2d(reached[None, None], cross, padding=1)[0, 0] > 0).float() * free
    frontier = (new > 0) & (reached == 0)
    if not frontier.any():
        break
    dist[frontier] = step
    reached = new
print("shortest path length:", dist[end].item())
for r, row in enumerate(dist.tolist()):
    print(" ".join(f"{d:2d}" if d >= 0 else (" #" if walls[r, c] else " .")
                   for c, d in enumerate(row)))

path = [end]
cur = end
while dist[cur] > 0:
    r, c = cur
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < H and 0 <= cc < W and dist[rr, cc] == dist[cur] - 1:
            cur = (rr, cc)
            break
    path.append(cur)
grid = [list(row) for row in maze_txt]
for r, c in path[1:-1]:
    grid[r][c] = "*"
print("\n".join("".join(row) for row in grid))
print("path cells", len(path))

# flood fill from a seed, 4-connectivity, on the image above
seed = (relabel == sizes.argmax() + 1).nonzero()[0].tolist()
fill = torch.zeros_like(img)
fill[seed[0], seed[1]] = 1
for k in range(100):
    nxt = (F.conv2d(fill[None, None], cross, padding=1)[0, 0] > 0).float() * img
    if torch.equal(nxt, fill):
        break
    fill = nxt
print("4-connected flood fill from", seed, "filled", int(fill.sum().item()), "cells in", k,
      "steps; its 8-connected component has", sizes.max().item())
