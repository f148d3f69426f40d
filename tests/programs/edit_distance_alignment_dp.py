# Models: dynamic programming on tensors: Levenshtein distance (batched over anti-diagonals),
# longest common subsequence, Needleman-Wunsch global alignment with traceback, and a
# differentiable soft-min edit distance.
import torch


def encode(s):
    return torch.tensor([ord(c) for c in s], dtype=torch.long)


def levenshtein(a, b):
    A, B = encode(a), encode(b)
    D = torch.zeros(len(a) + 1, len(b) + 1, dtype=torch.long)
    D[:, 0] = torch.arange(len(a) + 1)
    D[0, :] = torch.arange(len(b) + 1)
    for i in range(1, len(a) + 1):
        sub = D[i - 1, :-1] + (A[i - 1] != B).long()
        dele = D[i - 1, 1:] + 1
        best = torch.minimum(sub, dele)
        for j in range(1, len(b) + 1):
            D[i, j] = min(int(best[j - 1]), int(D[i, j - 1]) + 1)
    return int(D[-1, -1]), D


pairs = [
    ("kitten", "sitting"),
    ("flaw", "lawn"),
    ("intention", "execution"),
    ("", "abc"),
    ("torch", "torch"),
]
for a, b in pairs:
    d, D = levenshtein(a, b)
    print(f"lev({a!r}, {b!r}) = {d}")
print(levenshtein("kitten", "sitting")[1])


def lcs(a, b):
    A, B = encode(a), encode(b)
    eq = A[:, None] == B[None, :]
    L = torch.zeros(len(a) + 1, len(b) + 1, dtype=torch.int32)
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            L[i, j] = L[i - 1, j - 1] + 1 if eq[i - 1, j - 1] else max(L[i - 1, j], L[i, j - 1])
    out, i, j = [], len(a), len(b)
    while i and j:
        if eq[i - 1, j - 1]:
            out.append(a[i - 1])
            i, j = i - 1, j - 1
        elif L[i - 1, j] >= L[i, j - 1]:
            i -= 1
        else:
            j -= 1
    return int(L[-1, -1]), "".join(reversed(out)), eq.sum().item()


print(lcs("AGGTAB", "GXTXAYB"))
print(lcs("ABCBDAB", "BDCABA"))

blosum_like = torch.full((4, 4), -1)
blosum_like.fill_diagonal_(2)
idx = {c: i for i, c in enumerate("ACGT")}


def needleman_wunsch(a, b, gap=-2):
    A = torch.tensor([idx[c] for c in a])
    B = torch.tensor([idx[c] for c in b])
    S = blosum_like[A][:, B]
    F = torch.zeros(len(a) + 1, len(b) + 1, dtype=torch.long)
    F[:, 0] = torch.arange(len(a) + 1) * gap
    F[0, :] = torch.arange(len(b) + 1) * gap
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            F[i, j] = max(F[i - 1, j - 1] + S[i - 1, j - 1], F[i - 1, j] + gap, F[i, j - 1] + gap)
    top, bot, i, j = [], [], len(a), len(b)
    while i > 0 or j > 0:
        if i > 0 and j > 0 and F[i, j] == F[i - 1, j - 1] + S[i - 1, j - 1]:
            top.append(a[i - 1])
            bot.append(b[j - 1])
            i, j = i - 1, j - 1
        elif i > 0 and F[i, j] == F[i - 1, j] + gap:
            top.append(a[i - 1])
            bot.append("-")
            i -= 1
        else:
            top.append("-")
            bot.append(b[j - 1])
            j -= 1
    return int(F[-1, -1]), "".join(reversed(top)), "".join(reversed(bot))


score, t, b = needleman_wunsch("GATTACA", "GCATGCT")
print("NW score", score)
print(t)
print(b)
print("substitution scores\n", blosum_like)


def soft_edit_distance(x, y, gamma):
    cost = torch.cdist(x, y) ** 2
    n, m = cost.shape
    R = [[None] * (m + 1) for _ in range(n + 1)]
    big = torch.tensor(1e6)
    for i in range(n + 1):
        R[i][0] = torch.tensor(float(i))
    for j in range(m + 1):
        R[0][j] = torch.tensor(float(j))
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            opts = torch.stack(
                [R[i - 1][j - 1] + cost[i - 1, j - 1], R[i - 1][j] + 1, R[i][j - 1] + 1, big]
            )
            R[i][j] = -gamma * torch.logsumexp(-opts / gamma, 0)
    return R[n][m]


torch.manual_seed(0)
x = torch.randn(5, 3, requires_grad=True)
y = x.detach()[[0, 1, 3, 4]] + 0.05 * torch.randn(4, 3)
for gamma in (1.0, 0.1, 0.01):
    d = soft_edit_distance(x, y, gamma)
    (g,) = torch.autograd.grad(d, x)
    print(f"gamma={gamma}: soft distance {d.item():.5f} grad norm {g.norm():.5f}")
