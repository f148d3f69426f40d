# Models: the "PyTorch as a fast array library" notebooks: Conway's Game of Life stepped with a
# 3x3 neighbour-counting conv2d on a circularly padded board (a glider crossing the torus),
# elementary cellular automaton rule 110 with integer bit arithmetic, and the Mandelbrot set
# iterated on a complex64 grid with escape-time counts.
import torch
import torch.nn.functional as F

board = torch.zeros(1, 1, 8, 8)
glider = torch.tensor([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=torch.float32)
board[0, 0, :3, :3] = glider
kernel = torch.ones(1, 1, 3, 3)
kernel[0, 0, 1, 1] = 0


def life_step(b):
    padded = F.pad(b, (1, 1, 1, 1), mode="circular")
    neighbours = F.conv2d(padded, kernel)
    born = (neighbours == 3) & (b == 0)
    survive = ((neighbours == 2) | (neighbours == 3)) & (b == 1)
    return (born | survive).float()


def show(b):
    for row in b[0, 0].int().tolist():
        print("".join("#" if v else "." for v in row))


show(board)
for gen in range(1, 33):
    board = life_step(board)
    if gen in (1, 4, 16, 32):
        ys, xs = torch.nonzero(board[0, 0], as_tuple=True)
        print(
            f"gen {gen}: alive {int(board.sum())} bbox rows {ys.min().item()}-{ys.max().item()}"
            f" cols {xs.min().item()}-{xs.max().item()}"
        )
show(board)
print("back to start:", torch.equal(board[0, 0, :3, :3], glider))

rule = 110
table = torch.tensor([(rule >> i) & 1 for i in range(8)], dtype=torch.uint8)
print("rule table", table)
width, steps = 31, 15
cells = torch.zeros(width, dtype=torch.uint8)
cells[-1] = 1
history = [cells]
for _ in range(steps):
    left = torch.roll(cells, 1)
    right = torch.roll(cells, -1)
    idx = (left.long() << 2) | (cells.long() << 1) | right.long()
    cells = table[idx]
    history.append(cells)
hist = torch.stack(history)
for row in hist.tolist():
    print("".join("#" if v else " " for v in row).rstrip())
print(hist.shape, hist.dtype, hist.sum(1))

h, w, max_iter = 21, 48, 30
re = torch.linspace(-2.2, 0.8, w)
im = torch.linspace(-1.2, 1.2, h)
c = torch.complex(re.expand(h, w), im[:, None].expand(h, w))
print(c.dtype, c.shape, c[0, 0], c[10, 24])
z = torch.zeros_like(c)
escape = torch.full((h, w), max_iter, dtype=torch.int64)
for i in range(max_iter):
    z = torch.where(escape == max_iter, z * z + c, z)
    escaped = (z.abs() > 2) & (escape == max_iter)
    escape[escaped] = i
chars = " .:-=+*#%@"
for row in escape.tolist():
    print("".join(chars[min(v * len(chars) // max_iter, len(chars) - 1)] for v in row))
print("inside:", (escape == max_iter).sum().item(), "mean escape:", escape.float().mean().item())
print("area estimate:", ((escape == max_iter).float().mean() * 3.0 * 2.4).item())
print(torch.histc(escape.float(), bins=6, min=0, max=max_iter))
print(z.abs().clamp(max=10)[10, 20:28])
