# Models: a quantum-computing tutorial's state-vector simulator in torch: complex128 states,
# single-qubit gates applied by reshaping to (2,)*n and tensordot/einsum, CNOT via index
# permutation, Kronecker products for full unitaries, matrix_exp of Pauli Hamiltonians for
# time evolution, expectation values, measurement sampling with multinomial, and a variational
# circuit whose rotation angles are trained by autograd through complex ops.
import math

import torch

torch.manual_seed(8)
c128 = torch.complex128
I2 = torch.eye(2, dtype=c128)
X = torch.tensor([[0, 1], [1, 0]], dtype=c128)
Y = torch.tensor([[0, -1j], [1j, 0]], dtype=c128)
Z = torch.tensor([[1, 0], [0, -1]], dtype=c128)
H = torch.tensor([[1, 1], [1, -1]], dtype=c128) / math.sqrt(2)


def apply_1q(state, gate, q, n):
    psi = state.reshape((2,) * n)
    psi = torch.tensordot(gate, psi, dims=([1], [q]))
    return torch.movedim(psi, 0, q).reshape(-1)


def apply_cnot(state, c, t, n):
    psi = state.reshape((2,) * n).clone()
    idx = [slice(None)] * n
    idx[c] = 1
    sub = psi[tuple(idx)]
    t_axis = t if t < c else t - 1
    psi[tuple(idx)] = sub.flip(t_axis)
    return psi.reshape(-1)


def kron_all(*ops):
    out = ops[0]
    for op in ops[1:]:
        out = torch.kron(out, op)
    return out


n = 3
state = torch.zeros(2 ** n, dtype=c128)
state[0] = 1
state = apply_1q(state, H, 0, n)
state = apply_cnot(state, 0, 1, n)
state = apply_cnot(state, 1, 2, n)
print("GHZ:", state)
probs = state.abs() ** 2
print("probs:", probs, "norm:", torch.linalg.vector_norm(state).item())
samples = torch.multinomial(probs.float(), 1000, replacement=True)
print("counts:", torch.bincount(samples, minlength=8).tolist())
ZZI = kron_all(Z, Z, I2)
print("<ZZI> =", torch.vdot(state, ZZI @ state).real.item())
U = kron_all(H, I2, I2)
print("unitary:", torch.allclose(U.conj().T @ U, torch.eye(8, dtype=c128)))

Ham = kron_all(X, X) + kron_all(Y, Y) + 0.5 * kron_all(Z, I2)
evals, evecs = torch.linalg.eigh(Ham)
print("spectrum:", evals)
psi0 = torch.zeros(4, dtype=c128)
psi0[1] = 1
for t in (0.0, 0.5, 1.0):
    Ut = torch.linalg.matrix_exp(-1j * t * Ham)
    psit = Ut @ psi0
    print(f"t={t}: populations {(psit.abs() ** 2).round(decimals=6).tolist()}")


def ry(theta):
    c, s = torch.cos(theta / 2), torch.sin(theta / 2)
    return torch.stack([torch.stack([c, -s]), torch.stack([s, c])]).to(c128)


def rz(theta):
    e = torch.exp(-0.5j * theta.to(c128))
    return torch.diag(torch.stack([e, e.conj()]))


target_H = kron_all(Z, Z) + 0.7 * kron_all(X, I2) + 0.7 * kron_all(I2, X)
print("exact ground energy:", torch.linalg.eigvalsh(target_H)[0].item())
thetas = torch.randn(2, 2, 2, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([thetas], lr=0.1)
for step in range(60):
    opt.zero_grad()
    psi = torch.zeros(4, dtype=c128)
    psi[0] = 1
    for layer in range(2):
        for q in range(2):
            psi = apply_1q(psi, ry(thetas[layer, q, 0]), q, 2)
            psi = apply_1q(psi, rz(thetas[layer, q, 1]), q, 2)
        psi = apply_cnot(psi, 0, 1, 2)
    energy = torch.vdot(psi, target_H @ psi).real
    energy.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step}: energy {energy.item():.8f}")
print("final energy:", round(energy.item(), 6), thetas.grad.dtype)
