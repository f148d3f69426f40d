# Models: einsum-heavy research code (quantum-circuit simulators, tensor-network and
# physics notebooks): the sublist calling convention, ellipses in operands and output, repeated
# indices for diagonals and traces, implicit output ordering, bilinear forms, batched outer
# products, applying gates to qubit axes of a state tensor, and einsum gradients.
import math

import torch

torch.manual_seed(8)
a, b = torch.randn(3, 4), torch.randn(4, 5)
print(torch.einsum(a, [0, 1], b, [1, 2], [0, 2]), torch.allclose(torch.einsum(a, [0, 1], b, [1, 2]),
                                                                 a @ b))
print(torch.einsum(a, [Ellipsis, 1], b, [1, 30]).shape,
      torch.einsum(torch.randn(2, 3), [0, 1], [1, 0]).shape)
sq = torch.randn(4, 4)
print(torch.einsum("ii", sq), torch.einsum("ii->i", sq), torch.einsum("ij->", sq))
print(torch.einsum("ij->ji", a).is_contiguous(), torch.einsum("ba", a).shape)
print(torch.einsum("i,j", torch.arange(3.0), torch.arange(2.0)))
x = torch.randn(2, 3, 4)
print(torch.einsum("...ij->...ji", x).shape, torch.einsum("b...->...b", x).shape)
print(torch.einsum("bij,bjk->bik", x, torch.randn(2, 4, 2)).shape)
print(torch.einsum("...i,...i->...", x, x), x.pow(2).sum(-1))
W = torch.randn(5, 3, 4)
u, v = torch.randn(6, 3), torch.randn(6, 4)
print(torch.einsum("bi,kij,bj->bk", u, W, v), torch.nn.functional.bilinear(u, v, W)[0])
print(torch.einsum("bi,bj->bij", u[:2], v[:2]).shape)
print(torch.einsum("iij->j", torch.arange(12.0).reshape(2, 2, 3)))
n = 3
state = torch.zeros([2] * n, dtype=torch.complex64)
state[(0,) * n] = 1
H = torch.tensor([[1, 1], [1, -1]], dtype=torch.complex64) / math.sqrt(2)
CNOT = torch.tensor([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]],
                    dtype=torch.complex64).reshape(2, 2, 2, 2)


def apply_1q(state, gate, q):
    letters = "abc"
    src = letters
    dst = letters.replace(letters[q], "z")
    return torch.einsum(f"z{letters[q]},{src}->{dst}", gate, state)


def apply_2q(state, gate, q1, q2):
    idx = list(range(n))
    out = idx.copy()
    out[q1], out[q2] = n, n + 1
    return torch.einsum(gate, [n, n + 1, q1, q2], state, idx, out)


state = apply_1q(state, H, 0)
state = apply_2q(state, CNOT, 0, 1)
state = apply_2q(state, CNOT, 1, 2)
print(state.reshape(-1))
probs = state.abs() ** 2
print(probs.reshape(-1), probs.sum())
rho = torch.einsum("abc,def->abcdef", state, state.conj())
rho_a = torch.einsum("abcdbc->ad", rho)
print(rho_a, torch.einsum("ii", rho_a).real)
A = torch.randn(3, 3, requires_grad=True)
B = torch.randn(3, 3, requires_grad=True)
out = torch.einsum("ij,jk,ki->", A, B, A)
out.backward()
print(out, A.grad, B.grad)
T = torch.randn(2, 3, 4)
print(torch.einsum("ijk,ijk->", T, T), torch.einsum("ijk->kji", T).shape)
print(torch.einsum("i,i,i->", torch.ones(3), torch.arange(3.0), torch.arange(3.0) + 1))
try:
    torch.einsum("ij,jk->ik", torch.randn(2, 3), torch.randn(4, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.einsum("ij->ij", torch.randn(2, 3, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.einsum("ij,jk", torch.randn(2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
