# Models: tensor-network and physics-style einsum code: matrix-product-state contractions,
# batched bilinear forms, traces and diagonals via repeated indices, ellipsis broadcasting,
# tensordot with explicit axes, and an attention computed three equivalent ways, printing
# float32 results at full precision.
import torch

torch.manual_seed(0)
A = torch.randn(6, 7)
B = torch.randn(7, 5)
T3 = torch.randn(4, 6, 6)
print(repr(torch.einsum("ij,jk->ik", A, B).sum().item()))
print(repr(torch.einsum("bii->b", T3).sum().item()), torch.einsum("bii->bi", T3)[0].tolist()[:3])
print(repr(torch.einsum("ii", T3[0]).item()), repr(torch.einsum("ij->", A).item()))
x, y = torch.randn(8, 7), torch.randn(8, 5)
print(repr(torch.einsum("bi,ij,bj->b", x, torch.randn(7, 5), y).sum().item()))
ell = torch.einsum("...ij,...jk->...ik", torch.randn(2, 3, 4, 5), torch.randn(3, 5, 2))
print(repr(ell.sum().item()))
outer = torch.einsum("i,j,k->ijk", torch.arange(3.0), torch.arange(4.0), torch.ones(2))
print(repr(outer.sum().item()))
d, chi = 2, 5
mps = [torch.randn(1 if i == 0 else chi, d, chi if i < 5 else 1) for i in range(6)]
env = torch.ones(1, 1)
for site in mps:
    env = torch.einsum("ab,asc,bsd->cd", env, site, site)
print("mps norm^2", repr(env.item()))
state = mps[0]
for site in mps[1:]:
    state = torch.einsum("...a,asb->...sb", state, site)
print(state.shape, repr(state.pow(2).sum().item()))
print(repr(torch.tensordot(T3, torch.randn(6, 6, 3), dims=([1, 2], [0, 1])).sum().item()))
print(repr(torch.tensordot(A, B, dims=1).sum().item()), repr(torch.tensordot(A, A, dims=2).item()))
q, k, v = torch.randn(2, 3, 5, 4), torch.randn(2, 3, 6, 4), torch.randn(2, 3, 6, 4)
s1 = torch.einsum("bhqd,bhkd->bhqk", q, k)
s2 = q @ k.transpose(-1, -2)
s3 = torch.bmm(q.reshape(6, 5, 4), k.reshape(6, 6, 4).transpose(1, 2)).reshape(2, 3, 5, 6)
print(torch.equal(s1, s2), torch.equal(s2, s3), repr(s1.sum().item()))
o1 = torch.einsum("bhqk,bhkd->bhqd", s1.softmax(-1), v)
print(repr(o1.sum().item()), repr(o1.abs().max().item()))
print(repr(torch.einsum("ij,ij->i", A, A).sum().item()),
      repr(torch.einsum("ij,kj->ik", A, A).trace().item()))
spaced = torch.einsum("b i j, b j k -> b i k", torch.randn(3, 2, 4), torch.randn(3, 4, 2))
print(repr(spaced.sum().item()))
