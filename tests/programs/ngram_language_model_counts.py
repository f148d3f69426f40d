# Models: count-based n-gram language models on a toy corpus: vocabulary building, bigram and
# trigram counts with index_put_ accumulation, add-k and interpolated smoothing, perplexity on
# held-out text and sampling with torch.multinomial.
import math

import torch

corpus = """the cat sat on the mat . the dog sat on the log . the cat saw the dog .
a dog and a cat sat together . the mat was on the floor . a cat likes the mat .
the dog likes the log . the cat and the dog saw a bird on the log .""".split()
held_out = "the dog sat on the mat . a cat saw the bird .".split()
vocab = sorted(set(corpus + held_out)) + ["<s>"]
stoi = {w: i for i, w in enumerate(vocab)}
V = len(vocab)
print("vocab size", V, "tokens", len(corpus))
ids = torch.tensor([stoi["<s>"]] + [stoi[w] for w in corpus])
test_ids = torch.tensor([stoi["<s>"]] + [stoi[w] for w in held_out])

uni = torch.bincount(ids[1:], minlength=V).double()
bi = torch.zeros(V, V, dtype=torch.float64)
bi.index_put_((ids[:-1], ids[1:]), torch.ones(len(ids) - 1, dtype=torch.float64), accumulate=True)
tri = torch.zeros(V, V, V, dtype=torch.float64)
tri.index_put_(
    (ids[:-2], ids[1:-1], ids[2:]), torch.ones(len(ids) - 2, dtype=torch.float64), accumulate=True
)
print("distinct bigrams", int((bi > 0).sum()), "distinct trigrams", int((tri > 0).sum()))
top = torch.topk(bi.flatten(), 5)
print(
    "top bigrams",
    [
        (vocab[i // V], vocab[i % V], int(c))
        for i, c in zip(top.indices.tolist(), top.values.tolist())
    ],
)


def perplexity(logp):
    return math.exp(-logp.mean().item())


def bigram_addk(k):
    return (bi + k) / (bi + k).sum(1, keepdim=True)


for k in (0.01, 0.1, 1.0):
    P = bigram_addk(k)
    lp = torch.log(P[test_ids[:-1], test_ids[1:]])
    print(f"add-{k} bigram perplexity {perplexity(lp):.4f}")

p_uni = (uni + 1) / (uni + 1).sum()
p_bi = bi / bi.sum(1, keepdim=True).clamp_min(1)
p_tri = tri / tri.sum(2, keepdim=True).clamp_min(1)
for lams in [(0.1, 0.3, 0.6), (0.2, 0.5, 0.3), (0.4, 0.4, 0.2)]:
    l1, l2, l3 = lams
    a, b, c = test_ids[:-2], test_ids[1:-1], test_ids[2:]
    p = l1 * p_uni[c] + l2 * p_bi[b, c] + l3 * p_tri[a, b, c]
    print(f"interpolated {lams} perplexity {perplexity(torch.log(p)):.4f}")

P = bigram_addk(0.05)
g = torch.Generator().manual_seed(0)
for s in range(3):
    w = stoi["<s>"]
    out = []
    for _ in range(12):
        w = int(torch.multinomial(P[w], 1, generator=g))
        out.append(vocab[w])
        if vocab[w] == ".":
            break
    print("sample:", " ".join(out))
H = -(P * P.log()).sum(1)
print("most uncertain contexts", [vocab[i] for i in H.argsort(descending=True)[:3].tolist()])
print("entropy after 'the'", H[stoi["the"]].item())
