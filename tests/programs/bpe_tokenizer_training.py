# Models: the "build a BPE tokenizer from scratch" notebooks (Karpathy's minbpe in the style
# of the "Let's build the GPT Tokenizer" lecture): UTF-8 bytes as a tensor, consecutive pair
# statistics counted with torch.unique(return_counts=True) on packed pair ids, merges applied
# with tensor masks, the vocabulary and compression ratio, and encode/decode round-trips.
import torch

text = (
    "the cat sat on the mat. the cat ate the rat. that cat, the fat cat, sat on that mat. "
    "then the rat ran at the cat and the cat ran at the rat."
)
ids = torch.tensor(list(text.encode("utf-8")), dtype=torch.long)
print("bytes", ids.shape, ids.dtype, ids[:12])


def pair_stats(ids):
    pairs = ids[:-1] * 65536 + ids[1:]
    uniq, counts = torch.unique(pairs, return_counts=True)
    order = torch.argsort(counts, descending=True, stable=True)
    return uniq[order], counts[order]


def merge(ids, pair, idx):
    a, b = pair
    out = []
    i = 0
    lst = ids.tolist()
    while i < len(lst):
        if i < len(lst) - 1 and lst[i] == a and lst[i + 1] == b:
            out.append(idx)
            i += 2
        else:
            out.append(lst[i])
            i += 1
    return torch.tensor(out, dtype=torch.long)


vocab = {i: bytes([i]) for i in range(256)}
merges = {}
num_merges = 20
cur = ids.clone()
for k in range(num_merges):
    uniq, counts = pair_stats(cur)
    best = uniq[0].item()
    pair = (best // 65536, best % 65536)
    idx = 256 + k
    cur = merge(cur, pair, idx)
    merges[pair] = idx
    vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
    if k < 8 or k == num_merges - 1:
        print(
            f"merge {k:2d}: {pair} -> {idx} {vocab[idx]!r} count {counts[0].item()} len {len(cur)}"
        )
print("compression ratio", round(len(ids) / len(cur), 4))
print("tokens", cur[:20])


def encode(s):
    toks = torch.tensor(list(s.encode("utf-8")), dtype=torch.long)
    while len(toks) >= 2:
        pairs = list(zip(toks[:-1].tolist(), toks[1:].tolist()))
        ranked = [merges.get(p, float("inf")) for p in pairs]
        j = min(range(len(ranked)), key=ranked.__getitem__)
        if ranked[j] == float("inf"):
            break
        toks = merge(toks, pairs[j], merges[pairs[j]])
    return toks


def decode(toks):
    return b"".join(vocab[t] for t in toks.tolist()).decode("utf-8", errors="replace")


for s in ["the cat sat", "a rat ran at that mat", "hello world"]:
    enc = encode(s)
    print(f"{s!r}: {enc.tolist()} round-trip {decode(enc) == s}")
lengths = torch.tensor([len(vocab[i]) for i in range(256, 256 + num_merges)])
print("merged token lengths", lengths, "mean", lengths.float().mean().item())
uniq, counts = pair_stats(cur)
print("remaining top pairs", [(u.item() // 65536, u.item() % 65536) for u in uniq[:3]], counts[:3])
freq = torch.bincount(cur, minlength=256 + num_merges).float()
p = freq[freq > 0] / freq.sum()
print("token entropy (bits)", (-(p * p.log2()).sum()).item())
