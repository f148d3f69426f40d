# Models: a hyperdimensional computing / vector-symbolic architecture tutorial (the torchhd
# "getting started" examples written with plain tensors): random bipolar hypervectors, binding
# by elementwise product, bundling by majority (sign of the sum), permutation by torch.roll for
# sequence order, an item memory queried by cosine similarity, the "dollar of Mexico"
# analogy, and an n-gram language-identification classifier.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
D = 2048


def random_hv(n):
    return torch.randint(0, 2, (n, D), dtype=torch.int8) * 2 - 1


def bind(a, b):
    return a * b


def bundle(hvs):
    s = hvs.sum(0, dtype=torch.int32)
    tie = random_hv(1)[0].to(torch.int32)
    return torch.where(s == 0, tie, s.sign()).to(torch.int8)


def permute(a, k=1):
    return torch.roll(a, k, dims=-1)


def cos_sim(a, b):
    return F.cosine_similarity(a.float(), b.float(), dim=-1)


hv = random_hv(4)
print(hv.dtype, hv.shape, hv[0, :10])
print(
    "self similarity",
    cos_sim(hv[0], hv[0]).item(),
    "random pair",
    round(cos_sim(hv[0], hv[1]).item(), 4),
)
bound = bind(hv[0], hv[1])
print(
    "bind is dissimilar to inputs",
    cos_sim(bound, hv[0]).abs().item() < 0.1,
    "unbinding recovers",
    cos_sim(bind(bound, hv[1]), hv[0]).item(),
)
b = bundle(hv[:3])
print(
    "bundle similarity to members",
    cos_sim(b, hv[:3]),
    "non-member",
    round(cos_sim(b, hv[3]).item(), 4),
)

keys = {k: v for k, v in zip(["country", "capital", "currency"], random_hv(3))}
values = random_hv(6)
names = ["usa", "washington", "dollar", "mexico", "mexico_city", "peso"]
item = dict(zip(names, values))
usa = bundle(
    torch.stack(
        [
            bind(keys["country"], item["usa"]),
            bind(keys["capital"], item["washington"]),
            bind(keys["currency"], item["dollar"]),
        ]
    )
)
mex = bundle(
    torch.stack(
        [
            bind(keys["country"], item["mexico"]),
            bind(keys["capital"], item["mexico_city"]),
            bind(keys["currency"], item["peso"]),
        ]
    )
)
mapping = bind(usa, mex)
query = bind(mapping, item["dollar"])
sims = cos_sim(query[None], values)
print("dollar of mexico ->", names[int(sims.argmax())], [round(v, 3) for v in sims.tolist()])

langs = {
    "en": "the quick brown fox jumps over the lazy dog and the cat sat on the mat with a hat",
    "de": "der schnelle braune fuchs springt ueber den faulen hund "
    "und die katze sitzt auf der matte",
    "es": "el rapido zorro marron salta sobre el perro perezoso y el gato se sienta en la alfombra",
}
alphabet = sorted(set("".join(langs.values())))
letters = dict(zip(alphabet, random_hv(len(alphabet))))
print("alphabet size", len(alphabet))


def encode(text, n=3):
    grams = []
    for i in range(len(text) - n + 1):
        g = letters[text[i]]
        for j in range(1, n):
            g = (
                bind(permute(g, j), letters[text[i + j]])
                if j == 1
                else bind(g, permute(letters[text[i + j]], j))
            )
        grams.append(g)
    return bundle(torch.stack(grams))


protos = torch.stack([encode(t) for t in langs.values()])
print("prototype similarities\n", cos_sim(protos[:, None], protos[None]))
tests = ["the dog and the cat", "der hund und die katze", "el perro y el gato", "a hat on the mat"]
for t in tests:
    s = cos_sim(encode(t)[None], protos)
    print(f"{t!r:28s} -> {list(langs)[int(s.argmax())]} {[round(v, 3) for v in s.tolist()]}")
seq = bundle(torch.stack([permute(letters[c], i) for i, c in enumerate("abc")]))
print(
    "position probe",
    [round(cos_sim(permute(letters[c], i), seq).item(), 3) for i, c in enumerate("abc")],
)
