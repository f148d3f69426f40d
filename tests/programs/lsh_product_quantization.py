# Models: approximate nearest-neighbour search (FAISS-style, in plain PyTorch): exact search by
# matrix products and topk, random-hyperplane LSH with sign bits packed into int64 codes by
# bit shifts and Hamming distances by XOR + popcount (bit tricks), product quantisation with a
# k-means codebook per sub-space, asymmetric distance computation through lookup tables, and
# recall@k of each method against the exact neighbours.
import torch

torch.manual_seed(0)
N, D, Q, K = 2000, 32, 50, 10
centers = torch.randn(20, D) * 2
base = centers[torch.randint(0, 20, (N,))] + torch.randn(N, D)
queries = centers[torch.randint(0, 20, (Q,))] + torch.randn(Q, D)


def sq_dists(a, b):
    return (a * a).sum(1, keepdim=True) - 2 * a @ b.T + (b * b).sum(1)


exact = sq_dists(queries, base).topk(K, largest=False).indices
print("exact neighbours of query 0:", exact[0])


def recall(found):
    hits = (found[:, :, None] == exact[:, None, :]).any(2).float()
    return hits.sum(1).mean().item() / K


def popcount64(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


def pack(bits):
    weights = 2 ** torch.arange(bits.shape[1], dtype=torch.int64)
    return (bits.long() * weights).sum(1)


v = torch.tensor([0, 1, 3, 255, 2 ** 40 + 7, 2 ** 62 - 1])
print("popcount:", popcount64(v).tolist(), [bin(x).count("1") for x in v.tolist()])

for n_bits in [16, 32, 62]:
    planes = torch.randn(D, n_bits)
    codes = pack(base @ planes > 0)
    qcodes = pack(queries @ planes > 0)
    ham = popcount64(qcodes[:, None] ^ codes[None])
    cand = ham.topk(100, largest=False).indices
    rerank = torch.gather(sq_dists(queries, base), 1, cand)
    found = torch.gather(cand, 1, rerank.topk(K, largest=False).indices)
    nn_ham = ham.gather(1, exact[:, :1]).float().mean()
    print(f"LSH {n_bits:2d} bits: mean Hamming to true NN {nn_ham:.3f} "
          f"recall@{K} {recall(found):.3f}")


def kmeans(x, k, iters, gen):
    cent = x[torch.randperm(len(x), generator=gen)[:k]].clone()
    for _ in range(iters):
        assign = sq_dists(x, cent).argmin(1)
        counts = torch.bincount(assign, minlength=k).float()
        sums = torch.zeros_like(cent).index_add_(0, assign, x)
        cent = torch.where(counts[:, None] > 0, sums / counts.clamp(min=1)[:, None], cent)
    return cent, assign


M, KS = 8, 32
sub = D // M
gen = torch.Generator().manual_seed(1)
codebooks, codes = [], []
for m in range(M):
    cent, assign = kmeans(base[:, m * sub:(m + 1) * sub], KS, 10, gen)
    codebooks.append(cent)
    codes.append(assign)
codebooks = torch.stack(codebooks)
codes = torch.stack(codes, 1)
recon = torch.stack([codebooks[m][codes[:, m]] for m in range(M)], 1).reshape(N, D)
print("PQ codes:", tuple(codes.shape), codes.dtype,
      "reconstruction MSE:", (recon - base).pow(2).mean().item())
tables = torch.stack([sq_dists(queries[:, m * sub:(m + 1) * sub], codebooks[m])
                      for m in range(M)], 1)
adc = tables.gather(2, codes.T[None].expand(Q, M, N)).sum(1)
found = adc.topk(K, largest=False).indices
print(f"PQ ADC recall@{K} {recall(found):.3f}")
cand = adc.topk(50, largest=False).indices
rerank = torch.gather(sq_dists(queries, base), 1, cand)
found = torch.gather(cand, 1, rerank.topk(K, largest=False).indices)
print(f"PQ + rerank recall@{K} {recall(found):.3f}")
print("ADC vs exact distance (query 0, first 5):", adc[0, :5], sq_dists(queries[:1], base[:5])[0])
usage = [torch.bincount(codes[:, m], minlength=KS).count_nonzero() for m in range(M)]
print("code usage per sub-space:", torch.stack(usage))
