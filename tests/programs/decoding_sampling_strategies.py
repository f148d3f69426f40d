# Models: the Hugging Face blog "How to generate text: using different decoding methods" and
# nanoGPT's sample.py, on a tiny random bigram "language model": greedy decoding, temperature
# sampling with torch.multinomial, top-k filtering (topk + masked_fill), nucleus/top-p
# filtering (sort, cumsum, scatter back), repetition penalty (gather/scatter), sampling with
# an explicit torch.Generator, Categorical sampling/log_prob/entropy, and min-p filtering.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
V = 12
bigram = torch.randn(V, V) * 2.0
vocab = [f"w{i}" for i in range(V)]


def logits_for(tokens):
    return bigram[tokens[-1]].clone()


def decode(tokens):
    return " ".join(vocab[t] for t in tokens)


def top_k_filter(logits, k):
    v, _ = torch.topk(logits, min(k, logits.size(-1)))
    out = logits.clone()
    out[out < v[..., [-1]]] = -float("Inf")
    return out


def top_p_filter(logits, top_p, min_tokens_to_keep=1):
    sorted_logits, sorted_indices = torch.sort(logits, descending=True)
    cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    sorted_indices_to_remove = cumulative_probs > top_p
    sorted_indices_to_remove[..., :min_tokens_to_keep] = False
    sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
    sorted_indices_to_remove[..., 0] = False
    indices_to_remove = sorted_indices_to_remove.scatter(
        -1, sorted_indices, sorted_indices_to_remove
    )
    return logits.masked_fill(indices_to_remove, -float("Inf"))


def min_p_filter(logits, min_p):
    probs = logits.softmax(-1)
    top = probs.max(-1, keepdim=True).values
    return logits.masked_fill(probs < min_p * top, -float("Inf"))


def repetition_penalty(logits, tokens, penalty):
    idx = torch.tensor(tokens)
    score = torch.gather(logits, 0, idx)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return logits.scatter(0, idx, score)


def generate(start, steps, mode, generator=None, **kw):
    tokens = [start]
    for _ in range(steps):
        logits = logits_for(tokens)
        if "penalty" in kw:
            logits = repetition_penalty(logits, tokens, kw["penalty"])
        if mode == "greedy":
            nxt = int(torch.argmax(logits))
        else:
            logits = logits / kw.get("temperature", 1.0)
            if "top_k" in kw:
                logits = top_k_filter(logits, kw["top_k"])
            if "top_p" in kw:
                logits = top_p_filter(logits, kw["top_p"])
            if "min_p" in kw:
                logits = min_p_filter(logits, kw["min_p"])
            probs = F.softmax(logits, dim=-1)
            nxt = int(torch.multinomial(probs, num_samples=1, generator=generator))
        tokens.append(nxt)
    return tokens


print("greedy:", decode(generate(0, 8, "greedy")))
print("greedy+penalty:", decode(generate(0, 8, "greedy", penalty=1.5)))
torch.manual_seed(1)
for temp in (0.5, 1.0, 1.5):
    print(f"T={temp}:", decode(generate(0, 8, "sample", temperature=temp)))
print("top-k 3:", decode(generate(0, 8, "sample", top_k=3)))
print("top-p 0.8:", decode(generate(0, 8, "sample", top_p=0.8)))
print("top-k+top-p:", decode(generate(0, 8, "sample", top_k=5, top_p=0.9, temperature=0.7)))
print("min-p 0.1:", decode(generate(0, 8, "sample", min_p=0.1)))
g = torch.Generator().manual_seed(42)
a = generate(3, 6, "sample", generator=g)
g.manual_seed(42)
b = generate(3, 6, "sample", generator=g)
print("generator reproducible:", a == b, decode(a))

logits = bigram[0]
print("top-k filtered:", top_k_filter(logits, 3))
print("top-p filtered:", top_p_filter(logits, 0.9))
print("kept by top-p:", torch.isfinite(top_p_filter(bigram, 0.9)).sum(-1))
print("penalised:", repetition_penalty(logits, [0, 1, 1, 5], 1.3))

# batched sampling
probs = F.softmax(bigram / 0.8, dim=-1)
torch.manual_seed(2)
print("multinomial 3 w/o replacement:", torch.multinomial(probs[:4], 3))
print("multinomial 5 with replacement:", torch.multinomial(probs[:2], 5, replacement=True))
counts = torch.bincount(torch.multinomial(probs[0], 2000, replacement=True), minlength=V)
print("empirical vs true:", (counts / 2000.0 - probs[0]).abs().max().item() < 0.05, counts)

dist = torch.distributions.Categorical(logits=bigram[:3])
s = dist.sample((4,))
print("Categorical samples:", s)
print("log_prob:", dist.log_prob(s))
print("entropy:", dist.entropy())
print("probs rows:", dist.probs.sum(-1))
try:
    torch.multinomial(torch.tensor([0.0, 0.0]), 1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.multinomial(torch.tensor([0.5, 0.5]), 3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.multinomial(torch.tensor([0.5, -0.5]), 1)
except RuntimeError as e:
    print("RuntimeError:", e)
