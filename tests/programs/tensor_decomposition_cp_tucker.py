# Models: tensor-decomposition tutorials (TensorLy-style, written in PyTorch): mode-n unfolding
# and folding, the Khatri-Rao product, CP decomposition by alternating least squares with
# einsum and pinv, Tucker by HOSVD (truncated SVDs of the unfoldings) and HOOI refinement,
# reconstruction errors, and a gradient-based CP fit with Adam for comparison.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=4)
I, J, K, R = 6, 5, 4, 3
A0, B0, C0 = torch.randn(I, R), torch.randn(J, R), torch.randn(K, R)
X = torch.einsum("ir,jr,kr->ijk", A0, B0, C0) + 0.01 * torch.randn(I, J, K)
print("tensor", tuple(X.shape), "norm", X.norm().item())


def unfold(t, mode):
    return t.movedim(mode, 0).reshape(t.shape[mode], -1)


def fold(mat, mode, shape):
    full = [shape[mode]] + [s for i, s in enumerate(shape) if i != mode]
    return mat.reshape(full).movedim(0, mode)


def khatri_rao(a, b):
    return torch.einsum("ir,jr->ijr", a, b).reshape(-1, a.shape[1])


print("fold(unfold) exact:", all(torch.equal(fold(unfold(X, m), m, X.shape), X) for m in range(3)))
print("unfold mode 1 shape:", tuple(unfold(X, 1).shape))

# CP-ALS
gen = torch.Generator().manual_seed(1)
A, B, C = (torch.randn(n, R, generator=gen) for n in (I, J, K))
for it in range(25):
    A = unfold(X, 0) @ khatri_rao(B, C) @ torch.linalg.pinv((B.T @ B) * (C.T @ C))
    B = unfold(X, 1) @ khatri_rao(A, C) @ torch.linalg.pinv((A.T @ A) * (C.T @ C))
    C = unfold(X, 2) @ khatri_rao(A, B) @ torch.linalg.pinv((A.T @ A) * (B.T @ B))
    rec = torch.einsum("ir,jr,kr->ijk", A, B, C)
    err = ((X - rec).norm() / X.norm()).item()
    if it % 5 == 4:
        print(f"CP-ALS iter {it + 1:2d} relative error {err:.6f}")
norms = A.norm(dim=0) * B.norm(dim=0) * C.norm(dim=0)
print("component weights (sorted):", norms.sort(descending=True).values)

# Tucker: HOSVD then HOOI
ranks = (3, 3, 2)
factors = [torch.linalg.svd(unfold(X, m), full_matrices=False).U[:, :r]
           for m, r in enumerate(ranks)]
core = torch.einsum("ijk,ia,jb,kc->abc", X, *factors)
rec = torch.einsum("abc,ia,jb,kc->ijk", core, *factors)
print("HOSVD core", tuple(core.shape), "relative error", ((X - rec).norm() / X.norm()).item())
for it in range(5):
    for m in range(3):
        others = [f for n, f in enumerate(factors) if n != m]
        Y = X
        for n, f in enumerate(factors):
            if n != m:
                Y = torch.tensordot(Y, f, dims=([n], [0])).movedim(-1, n)
        factors[m] = torch.linalg.svd(unfold(Y, m), full_matrices=False).U[:, :ranks[m]]
core = torch.einsum("ijk,ia,jb,kc->abc", X, *factors)
rec = torch.einsum("abc,ia,jb,kc->ijk", core, *factors)
print("HOOI relative error", ((X - rec).norm() / X.norm()).item())
print("core slice 0 magnitudes:", core[:, :, 0].abs())
print("factor orthonormal:",
      [torch.allclose(f.T @ f, torch.eye(f.shape[1]), atol=1e-5) for f in factors])

# gradient-based CP
torch.manual_seed(2)
params = [torch.nn.Parameter(0.5 * torch.randn(n, R)) for n in (I, J, K)]
opt = torch.optim.Adam(params, lr=0.05)
for step in range(301):
    rec = torch.einsum("ir,jr,kr->ijk", *params)
    loss = (X - rec).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"Adam CP step {step:3d} loss {loss.item():.5f}")
