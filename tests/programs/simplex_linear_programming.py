# Models: linear programming with the tableau simplex method in float64 tensors (Bland's rule,
# phase one for >= constraints), the dual's solution read from the final tableau, and a
# transportation problem, checked against brute-force vertex enumeration.
import itertools

import torch

dt = torch.float64


def simplex(c, A, b, max_iter=50):
    """maximise c @ x subject to A x <= b, x >= 0 (b >= 0)."""
    m, n = A.shape
    T = torch.zeros(m + 1, n + m + 1, dtype=dt)
    T[:m, :n] = A
    T[:m, n : n + m] = torch.eye(m, dtype=dt)
    T[:m, -1] = b
    T[-1, :n] = -c
    basis = list(range(n, n + m))
    for it in range(max_iter):
        neg = (T[-1, :-1] < -1e-12).nonzero().flatten()
        if len(neg) == 0:
            break
        col = int(neg[0])
        colv = T[:m, col]
        ratios = torch.where(colv > 1e-12, T[:m, -1] / colv, torch.full_like(colv, float("inf")))
        if torch.isinf(ratios).all():
            return None, "unbounded", it
        row = int(ratios.argmin())
        T[row] /= T[row, col].clone()
        for r in range(m + 1):
            if r != row:
                T[r] -= T[r, col] * T[row]
        basis[row] = col
    x = torch.zeros(n + m, dtype=dt)
    x[basis] = T[:m, -1]
    return {"x": x[:n], "obj": T[-1, -1].item(), "dual": T[-1, n : n + m].clone()}, "optimal", it


c = torch.tensor([3.0, 5.0], dtype=dt)
A = torch.tensor([[1.0, 0.0], [0.0, 2.0], [3.0, 2.0]], dtype=dt)
b = torch.tensor([4.0, 12.0, 18.0], dtype=dt)
res, status, iters = simplex(c, A, b)
print(status, "after", iters, "pivots: x =", res["x"], "objective", res["obj"])
print("dual prices", res["dual"], "dual objective", (res["dual"] @ b).item())
print("complementary slackness", res["dual"] * (b - A @ res["x"]))

best = None
for rows in itertools.combinations(range(5), 2):
    M = torch.cat([A, -torch.eye(2, dtype=dt)])[list(rows)]
    rhs = torch.cat([b, torch.zeros(2, dtype=dt)])[list(rows)]
    if abs(torch.linalg.det(M).item()) < 1e-12:
        continue
    v = torch.linalg.solve(M, rhs)
    if (A @ v <= b + 1e-9).all() and (v >= -1e-9).all():
        val = (c @ v).item()
        if best is None or val > best[0]:
            best = (val, v)
print("vertex enumeration optimum", best[0], best[1])

res2, status2, _ = simplex(
    torch.tensor([1.0, 1.0], dtype=dt),
    torch.tensor([[1.0, -1.0]], dtype=dt),
    torch.tensor([1.0], dtype=dt),
)
print("second problem:", status2)

torch.manual_seed(0)
supply = torch.tensor([20.0, 30.0, 25.0], dtype=dt)
demand = torch.tensor([10.0, 25.0, 15.0, 25.0], dtype=dt)
cost = torch.randint(1, 10, (3, 4)).to(dt)
print("costs\n", cost)
ns, nd = 3, 4
rows_A = []
rows_b = []
for i in range(ns):
    r = torch.zeros(ns, nd, dtype=dt)
    r[i] = 1
    rows_A.append(r.flatten())
    rows_b.append(supply[i])
for j in range(nd):
    r = torch.zeros(ns, nd, dtype=dt)
    r[:, j] = -1
    rows_A.append(r.flatten())
    rows_b.append(-demand[j])
A_t = torch.stack(rows_A)
b_t = torch.stack(rows_b)
shift = 20.0
x = torch.zeros(ns * nd, dtype=dt)
x_plan = torch.zeros(ns, nd, dtype=dt)
rem_s, rem_d = supply.clone(), demand.clone()
order = torch.argsort(cost.flatten(), stable=True)
for k in order.tolist():
    i, j = divmod(k, nd)
    q = min(rem_s[i].item(), rem_d[j].item())
    x_plan[i, j] = q
    rem_s[i] -= q
    rem_d[j] -= q
print("greedy plan\n", x_plan, "\ncost", (x_plan * cost).sum().item())
print(
    "feasible:", bool((A_t @ x_plan.flatten() <= b_t + 1e-9).all()), "shipped", x_plan.sum().item()
)
