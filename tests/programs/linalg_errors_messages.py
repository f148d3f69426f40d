# Models: a linear-algebra course's "what goes wrong" notebook: singular and non-square
# systems, non-positive-definite Cholesky, integer inputs, batch-shape mismatches and the
# _ex variants' info codes, each error's type and message printed.
import torch


def attempt(label, fn):
    try:
        out = fn()
        if isinstance(out, torch.Tensor):
            out = out if out.numel() <= 6 else out.shape
        print(f"{label}: ok -> {out}")
    except Exception as e:
        print(f"{label}: {type(e).__name__}: {e}")


A = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
b = torch.tensor([[1.0], [2.0]])
attempt("solve singular", lambda: torch.linalg.solve(A, b))
attempt("inv singular", lambda: torch.linalg.inv(A))
attempt("inv batched singular", lambda: torch.linalg.inv(torch.stack([torch.eye(2), A])))
attempt("cholesky not PD", lambda: torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
attempt(
    "cholesky batched", lambda: torch.linalg.cholesky(torch.stack([torch.eye(2), -torch.eye(2)]))
)
attempt("solve non-square", lambda: torch.linalg.solve(torch.ones(2, 3), torch.ones(2)))
attempt("inv non-square", lambda: torch.linalg.inv(torch.ones(3, 2)))
attempt("det 1-D", lambda: torch.linalg.det(torch.ones(3)))
attempt("inv integer", lambda: torch.linalg.inv(torch.eye(2, dtype=torch.long)))
attempt(
    "solve integer",
    lambda: torch.linalg.solve(torch.eye(2, dtype=torch.int32), torch.ones(2, dtype=torch.int32)),
)
attempt("eigh half", lambda: torch.linalg.eigh(torch.eye(2, dtype=torch.float16)))
attempt(
    "solve dtype mismatch",
    lambda: torch.linalg.solve(torch.eye(2), torch.ones(2, dtype=torch.float64)),
)
attempt(
    "solve batch mismatch",
    lambda: torch.linalg.solve(torch.eye(2).expand(3, 2, 2), torch.ones(4, 2, 1)),
)
attempt("matmul shapes", lambda: torch.ones(2, 3) @ torch.ones(2, 3))
attempt("mm 3-D", lambda: torch.mm(torch.ones(2, 2, 2), torch.ones(2, 2)))
attempt("mv shapes", lambda: torch.mv(torch.ones(2, 3), torch.ones(2)))
attempt("dot sizes", lambda: torch.dot(torch.ones(3), torch.ones(4)))
attempt("dot 2-D", lambda: torch.dot(torch.ones(2, 2), torch.ones(2, 2)))
attempt("cross dim", lambda: torch.linalg.cross(torch.ones(2), torch.ones(2)))
attempt("matrix_power non-square", lambda: torch.linalg.matrix_power(torch.ones(2, 3), 2))
attempt("matrix_power singular inverse", lambda: torch.linalg.matrix_power(A, -1))
attempt("lstsq shape", lambda: torch.linalg.lstsq(torch.ones(3, 2), torch.ones(4, 1)))
attempt("norm bad ord", lambda: torch.linalg.matrix_norm(torch.eye(2), ord=3))
attempt("vector_norm int", lambda: torch.linalg.vector_norm(torch.ones(3, dtype=torch.long)))
attempt("svd ok", lambda: torch.linalg.svdvals(A)[0])
attempt("pinv singular ok", lambda: torch.linalg.pinv(A))
attempt(
    "solve_triangular 1-D",
    lambda: torch.linalg.solve_triangular(torch.eye(2), torch.ones(2), upper=True),
)
attempt(
    "cholesky_ex info",
    lambda: torch.linalg.cholesky_ex(torch.tensor([[4.0, 2.0], [2.0, -3.0]])).info,
)
attempt("inv_ex info", lambda: torch.linalg.inv_ex(torch.stack([torch.eye(2), A])).info)
attempt("lu_factor_ex info", lambda: torch.linalg.lu_factor_ex(torch.zeros(2, 2)).info)
attempt("det of singular", lambda: torch.linalg.det(A))
attempt("slogdet of singular", lambda: torch.linalg.slogdet(A))
attempt("eigvals non-square", lambda: torch.linalg.eigvals(torch.ones(2, 3)))
attempt("qr mode", lambda: torch.linalg.qr(torch.eye(2), mode="thin"))
attempt(
    "tensorsolve", lambda: torch.linalg.tensorsolve(torch.eye(6).reshape(6, 2, 3), torch.ones(6))
)
attempt("multi_dot one", lambda: torch.linalg.multi_dot([torch.eye(2)]))
attempt("multi_dot mismatch", lambda: torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(2, 3)]))
attempt("householder", lambda: torch.linalg.householder_product(torch.ones(2, 3), torch.ones(3)))
attempt("vander", lambda: torch.linalg.vander(torch.tensor([1.0, 2.0, 3.0]), N=4))
attempt("diagonal", lambda: torch.linalg.diagonal(torch.ones(2, 3, 3), offset=1).shape)
