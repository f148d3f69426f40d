# Models: a linear-algebra class comparing orthogonalisation methods: classical and modified
# Gram-Schmidt written with tensors, torch.linalg.qr in reduced/complete/r modes, the loss of
# orthogonality on an ill-conditioned Vandermonde matrix, and sign-normalised agreement.
import torch


def classical_gs(A):
    Q = torch.zeros_like(A)
    R = torch.zeros(A.shape[1], A.shape[1], dtype=A.dtype)
    for j in range(A.shape[1]):
        v = A[:, j].clone()
        for i in range(j):
            R[i, j] = Q[:, i] @ A[:, j]
            v = v - R[i, j] * Q[:, i]
        R[j, j] = v.norm()
        Q[:, j] = v / R[j, j]
    return Q, R


def modified_gs(A):
    V = A.clone()
    Q = torch.zeros_like(A)
    R = torch.zeros(A.shape[1], A.shape[1], dtype=A.dtype)
    for i in range(A.shape[1]):
        R[i, i] = V[:, i].norm()
        Q[:, i] = V[:, i] / R[i, i]
        for j in range(i + 1, A.shape[1]):
            R[i, j] = Q[:, i] @ V[:, j]
            V[:, j] = V[:, j] - R[i, j] * Q[:, i]
    return Q, R


x = torch.linspace(0, 1, 12, dtype=torch.float64)
A = torch.vander(x, 8, increasing=True)
print("cond", torch.linalg.cond(A).item())
I = torch.eye(8, dtype=torch.float64)
for name, fn in [("classical", classical_gs), ("modified", modified_gs),
                 ("householder", torch.linalg.qr)]:
    Q, R = fn(A)
    print(f"{name:12s} orth err {(Q.T @ Q - I).abs().max().item():.3e} "
          f"recon err {(Q @ R - A).abs().max().item():.3e}")
Qh, Rh = torch.linalg.qr(A)
s = torch.sign(Rh.diagonal())
Qm, Rm = modified_gs(A)
print("R agrees up to sign", torch.allclose(s[:, None] * Rh, Rm, atol=1e-8))
Qc, Rc = torch.linalg.qr(A, mode="complete")
print("complete", Qc.shape, Rc.shape)
Qr, Rr = torch.linalg.qr(A, mode="r")
print("mode r", Qr.shape, torch.allclose(Rr, Rh))
print("R diag", Rh.diagonal())
