# Models: an einsum workshop: traces, diagonals, batched bilinear forms, outer products, Gram
# matrices, tensordot equivalents and implicit output order, then the equation mistakes that
# people make, each error printed.
import torch

torch.manual_seed(0)
A = torch.randn(3, 3)
B = torch.randn(3, 4)
v = torch.randn(3)
batch = torch.randn(5, 3, 4)
print("trace", torch.einsum("ii", A), A.trace())
print("diag", torch.einsum("ii->i", A))
print("implicit output order", torch.einsum("ij,jk", A, B).shape, torch.einsum("ba", B).shape)
print("bilinear v^T A v", torch.einsum("i,ij,j->", v, A, v))
print("outer", torch.einsum("i,j->ij", v, v[:2]).shape)
print(
    torch.allclose(
        torch.einsum("bij,jk->bik", batch, torch.randn(4, 2)).sum(),
        torch.einsum("bij,jk->bik", batch, torch.randn(4, 2)).sum(),
    )
    is not None,
)
W = torch.randn(4, 2)
print("bmm agrees", torch.allclose(torch.einsum("bij,jk->bik", batch, W), batch @ W, atol=1e-6))
print("gram", torch.einsum("bij,bkj->bik", batch, batch).shape)
print("sum over batch and rows", torch.einsum("bij->j", batch), batch.sum((0, 1)))
print(
    "ellipsis",
    torch.einsum("...ij->...ji", batch).shape,
    torch.einsum("b...,b->...", batch, torch.ones(5)).shape,
)
print(
    "tensordot",
    torch.allclose(
        torch.tensordot(batch, W, dims=([2], [0])), torch.einsum("bij,jk->bik", batch, W), atol=1e-6
    ),
)
print("tensordot int dims", torch.tensordot(torch.ones(2, 3, 4), torch.ones(3, 4, 5), dims=2).shape)
print("sublist format", torch.einsum(A, [0, 1], B, [1, 2], [0, 2]).shape)
print("repeated index in output?")
C = torch.arange(8.0).reshape(2, 2, 2)
print("diagonal of 3-D", torch.einsum("iii->i", C), "partial trace", torch.einsum("iij->j", C))
print(
    "int einsum",
    torch.einsum("ij,jk->ik", torch.arange(4).reshape(2, 2), torch.arange(4).reshape(2, 2)),
)


def attempt(label, fn):
    try:
        out = fn()
        print(f"{label}: ok -> {tuple(out.shape)}")
    except Exception as e:
        print(f"{label}: {type(e).__name__}: {e}")


attempt("too few operands", lambda: torch.einsum("ij,jk->ik", A))
attempt("too many operands", lambda: torch.einsum("ij->ij", A, B))
attempt("wrong rank", lambda: torch.einsum("ijk->i", A))
attempt("size mismatch", lambda: torch.einsum("ij,jk->ik", A, torch.randn(4, 4)))
attempt("unknown output index", lambda: torch.einsum("ij->ik", A))
attempt("repeated output index", lambda: torch.einsum("ij->ii", A))
attempt("invalid character", lambda: torch.einsum("i$,j->ij", A, v))
attempt("two ellipses", lambda: torch.einsum("......->", A))
attempt("arrow twice", lambda: torch.einsum("ij->j->i", A))
attempt("dtype mismatch", lambda: torch.einsum("ij,jk->ik", A, B.double()))
attempt("broadcast dims", lambda: torch.einsum("i,i->i", torch.ones(3), torch.ones(1)))
attempt(
    "ellipsis broadcast mismatch",
    lambda: torch.einsum("...i,...i->...", torch.ones(2, 3), torch.ones(4, 3)),
)
attempt("bool operands", lambda: torch.einsum("i,i->", torch.tensor([True]), torch.tensor([True])))
attempt("uppercase ok", lambda: torch.einsum("Ab,bC->AC", A, B))
attempt("spaces ok", lambda: torch.einsum(" i j , j k -> i k ", A, B))
attempt("tensordot mismatch", lambda: torch.tensordot(A, B, dims=([0], [1])))
attempt("tensordot too many dims", lambda: torch.tensordot(A, B, dims=3))
attempt(
    "bilinear shapes",
    lambda: torch.nn.functional.bilinear(torch.ones(2, 3), torch.ones(2, 4), torch.ones(5, 3, 3)),
)
