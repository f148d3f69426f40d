# Models: a puzzle-solver notebook that leans on boolean tensor ops: a Sudoku solver with a
# (9, 9, 9) candidate tensor, constraint propagation with any/all/sum over rows, columns and
# boxes (views via reshape/permute), naked singles via nonzero, hidden singles, and a
# backtracking search that picks the cell with the fewest candidates (argmin on masked counts).
import torch

puzzle = """
53..7....
6..195...
.98....6.
8...6...3
4..8.3..1
7...2...6
.6....28.
...419..5
....8..79
"""
grid = torch.tensor([[0 if c == "." else int(c) for c in row] for row in puzzle.split()])
print(grid)


def candidates(g):
    cand = torch.ones(9, 9, 9, dtype=torch.bool)
    filled = g > 0
    vals = (g - 1).clamp(min=0)
    onehot = torch.nn.functional.one_hot(vals, 9).bool() & filled[..., None]
    row_has = onehot.any(1)
    col_has = onehot.any(0)
    box = onehot.reshape(3, 3, 3, 3, 9).permute(0, 2, 1, 3, 4).reshape(3, 3, 9, 9)
    box_has = box.any(2)
    cand &= ~row_has[:, None, :]
    cand &= ~col_has[None, :, :]
    cand &= ~box_has.repeat_interleave(3, 0).repeat_interleave(3, 1)
    cand[filled] = False
    return cand


def propagate(g):
    g = g.clone()
    while True:
        cand = candidates(g)
        counts = cand.sum(-1)
        empty = g == 0
        if (empty & (counts == 0)).any():
            return g, False
        singles = (empty & (counts == 1)).nonzero()
        changed = False
        for r, c in singles.tolist():
            g[r, c] = cand[r, c].nonzero()[0, 0] + 1
            changed = True
        if not changed:
            cand = candidates(g)
            for r in range(9):
                for v in range(9):
                    spots = cand[r, :, v].nonzero().flatten()
                    if len(spots) == 1 and g[r, spots[0]] == 0:
                        g[r, spots[0]] = v + 1
                        changed = True
        if not changed:
            return g, True


calls = [0]


def solve(g):
    calls[0] += 1
    g, ok = propagate(g)
    if not ok:
        return None
    if (g > 0).all():
        return g
    counts = candidates(g).sum(-1).masked_fill(g > 0, 10)
    flat = counts.argmin()
    r, c = divmod(flat.item(), 9)
    for v in candidates(g)[r, c].nonzero().flatten().tolist():
        trial = g.clone()
        trial[r, c] = v + 1
        res = solve(trial)
        if res is not None:
            return res
    return None


cand0 = candidates(grid)
print("candidate counts\n", cand0.sum(-1))
print("total candidates", cand0.sum().item(), cand0.dtype, cand0.shape)
solution = solve(grid)
print(solution, "calls", calls[0])
rows_ok = (solution.sort(1).values == torch.arange(1, 10)).all()
cols_ok = (solution.T.sort(1).values == torch.arange(1, 10)).all()
boxes = solution.reshape(3, 3, 3, 3).permute(0, 2, 1, 3).reshape(9, 9)
print("valid", rows_ok.item(), cols_ok.item(), (boxes.sort(1).values == torch.arange(1, 10)).all())
print("givens kept", torch.equal(solution[grid > 0], grid[grid > 0]))
hard = grid.clone()
hard[0, :2] = 0
hard[4, 4] = 0
calls[0] = 0
print(torch.equal(solve(hard), solution), calls[0])
