# Models: a computational physics notebook on a small transverse-field Ising chain: Pauli matrices
# as complex tensors, the Hamiltonian built with torch.kron, exact diagonalisation with
# torch.linalg.eigh, ground-state energy vs field, magnetisation and entanglement entropy from an
# SVD of the reshaped state, and real-time evolution with torch.linalg.matrix_exp.
import torch

dt = torch.complex128
I = torch.eye(2, dtype=dt)
X = torch.tensor([[0, 1], [1, 0]], dtype=dt)
Z = torch.tensor([[1, 0], [0, -1]], dtype=dt)
Y = torch.tensor([[0, -1j], [1j, 0]], dtype=dt)
print(
    "pauli algebra XY == iZ",
    torch.allclose(X @ Y, 1j * Z),
    "anticommute",
    torch.allclose(X @ Z + Z @ X, torch.zeros(2, 2, dtype=dt)),
)


def op_at(op, site, n):
    out = torch.ones(1, 1, dtype=dt)
    for k in range(n):
        out = torch.kron(out, op if k == site else I)
    return out


def hamiltonian(n, g):
    H = torch.zeros(2**n, 2**n, dtype=dt)
    for k in range(n - 1):
        H = H - op_at(Z, k, n) @ op_at(Z, k + 1, n)
    for k in range(n):
        H = H - g * op_at(X, k, n)
    return H


n = 6
for g in [0.0, 0.5, 1.0, 1.5, 3.0]:
    H = hamiltonian(n, g)
    evals, evecs = torch.linalg.eigh(H)
    gs = evecs[:, 0]
    mx = sum((gs.conj() @ op_at(X, k, n) @ gs).real for k in range(n)) / n
    psi = gs.reshape(2 ** (n // 2), 2 ** (n // 2))
    s = torch.linalg.svdvals(psi)
    p = (s**2)[s**2 > 1e-14]
    ent = -(p * p.log()).sum()
    print(
        f"g={g:.1f} E0={evals[0].item():+.6f} gap={(evals[1] - evals[0]).item():.6f} "
        f"<X>={mx.item():.5f} S={ent.item():.5f}"
    )
print(
    "hermitian", torch.allclose(H, H.conj().T), "eigvals real dtype", torch.linalg.eigvalsh(H).dtype
)
H = hamiltonian(4, 1.0)
psi0 = torch.zeros(16, dtype=dt)
psi0[0] = 1.0
for t in [0.0, 0.5, 1.0]:
    U = torch.linalg.matrix_exp(-1j * t * H)
    psi = U @ psi0
    z0 = (psi.conj() @ op_at(Z, 0, 4) @ psi).real
    print(
        f"t={t:.1f} norm={psi.norm().item():.10f} <Z0>={z0.item():+.6f} "
        f"unitary={torch.allclose(U @ U.conj().T, torch.eye(16, dtype=dt))}"
    )
E = torch.linalg.eigvalsh(H)
beta = torch.tensor([0.1, 1.0, 10.0], dtype=torch.float64)
Zpart = torch.exp(-beta[:, None] * E[None, :]).sum(1)
energy = (E[None, :] * torch.exp(-beta[:, None] * E[None, :])).sum(1) / Zpart
print("thermal energies", energy)
