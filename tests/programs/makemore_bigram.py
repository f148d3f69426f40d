# Models: Karpathy's makemore part 1 ("The spelled-out intro to language modeling"): a bigram
# count matrix over a list of names, normalised rows, sampling with torch.multinomial and a
# seeded torch.Generator, the average negative log-likelihood, then the same model as a
# one-layer neural net on one-hot inputs trained by hand-written gradient descent.
import torch
import torch.nn.functional as F

words = [
    "emma",
    "olivia",
    "ava",
    "isabella",
    "sophia",
    "charlotte",
    "mia",
    "amelia",
    "harper",
    "evelyn",
    "abigail",
    "emily",
    "elizabeth",
    "mila",
    "ella",
    "avery",
    "sofia",
    "camila",
    "aria",
    "scarlett",
    "victoria",
    "madison",
    "luna",
    "grace",
    "chloe",
    "penelope",
    "layla",
    "riley",
    "zoey",
    "nora",
    "lily",
    "eleanor",
]
print(len(words), min(len(w) for w in words), max(len(w) for w in words))

chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
print("vocab", V, "".join(itos[i] for i in range(V)))

N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(N.dtype, N.shape, N.sum().item(), N[0, :8])
top = torch.topk(N.flatten(), 5)
for v, i in zip(top.values.tolist(), top.indices.tolist()):
    print(f"{itos[i // V]}{itos[i % V]}: {v}")

p = N[0].float()
p = p / p.sum()
print(p[:6])
g = torch.Generator().manual_seed(2147483647)
ix = torch.multinomial(p, num_samples=10, replacement=True, generator=g)
print(ix)

P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P.sum(1)[:4], P[0, :5])

g = torch.Generator().manual_seed(2147483647)
for _ in range(6):
    out = []
    ix = 0
    while True:
        ix = torch.multinomial(P[ix], num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))

log_likelihood = 0.0
n = 0
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        logprob = torch.log(P[stoi[ch1], stoi[ch2]])
        log_likelihood += logprob
        n += 1
print(f"{log_likelihood=}")
nll = -log_likelihood
print(f"{nll=}")
print(f"{nll / n}")

xs, ys = [], []
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print("number of examples:", num)

g = torch.Generator().manual_seed(2147483647)
W = torch.randn((V, V), generator=g, requires_grad=True)
xenc = F.one_hot(xs, num_classes=V).float()
print(xenc.shape, xenc.dtype, (xenc @ W).shape)
for k in range(60):
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W**2).mean()
    if k % 10 == 0:
        print(k, loss.item())
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
print("final", loss.item(), W.grad.abs().max().item())

g = torch.Generator().manual_seed(2147483647)
for _ in range(5):
    out = []
    ix = 0
    while True:
        xenc = F.one_hot(torch.tensor([ix]), num_classes=V).float()
        logits = xenc @ W
        p = F.softmax(logits, dim=1)
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))
