# Models: Dive into Deep Learning's word2vec pretraining pipeline: subsampling frequent words
# with keep probability sqrt(t / f), context windows of random size, negative sampling from a
# unigram^0.75 distribution via torch.multinomial, batchify with padding masks and labels,
# skip-gram forward with bmm, SigmoidBCELoss with a mask, and cosine-similarity queries.
import collections
import math
import random

import torch
from torch import nn

torch.manual_seed(1)
random.seed(1)
text = ("the quick brown fox jumps over the lazy dog the dog barks the fox runs "
        "a quick dog and a lazy fox the brown dog sleeps the quick fox jumps ") * 8
sentences = [s.split() for s in text.strip().split("the ") if s]
counter = collections.Counter(tok for line in sentences for tok in line)
idx_to_token = ["<unk>"] + sorted(counter, key=lambda t: (-counter[t], t))
token_to_idx = {t: i for i, t in enumerate(idx_to_token)}
num_tokens = sum(counter.values())


def keep(token):
    return random.uniform(0, 1) < math.sqrt(1e-2 / counter[token] * num_tokens)


subsampled = [[token for token in line if keep(token)] for line in sentences]
print("tokens before/after:", num_tokens, sum(len(l) for l in subsampled))
corpus = [[token_to_idx[t] for t in line] for line in subsampled]


def get_centers_and_contexts(corpus, max_window_size):
    centers, contexts = [], []
    for line in corpus:
        if len(line) < 2:
            continue
        centers += line
        for i in range(len(line)):
            window_size = random.randint(1, max_window_size)
            indices = list(range(max(0, i - window_size), min(len(line), i + 1 + window_size)))
            indices.remove(i)
            contexts.append([line[idx] for idx in indices])
    return centers, contexts


all_centers, all_contexts = get_centers_and_contexts(corpus, 2)
print("center-context pairs:", sum(len(c) for c in all_contexts))
freqs = torch.tensor([counter.get(t, 0) for t in idx_to_token], dtype=torch.float32) ** 0.75
all_negatives = [torch.multinomial(freqs, 3 * len(c), replacement=True).tolist()
                 for c in all_contexts]


def batchify(data):
    max_len = max(len(c) + len(n) for _, c, n in data)
    centers, contexts_negatives, masks, labels = [], [], [], []
    for center, context, negative in data:
        cur_len = len(context) + len(negative)
        centers += [center]
        contexts_negatives += [context + negative + [0] * (max_len - cur_len)]
        masks += [[1] * cur_len + [0] * (max_len - cur_len)]
        labels += [[1] * len(context) + [0] * (max_len - len(context))]
    return (torch.tensor(centers).reshape((-1, 1)), torch.tensor(contexts_negatives),
            torch.tensor(masks), torch.tensor(labels))


x_1 = (1, [2, 2], [3, 3, 3, 3])
x_2 = (1, [2, 2, 2], [3, 3])
for name, d in zip(("centers", "contexts_negatives", "masks", "labels"), batchify((x_1, x_2))):
    print(name, "=", d)


def skip_gram(center, contexts_and_negatives, embed_v, embed_u):
    v = embed_v(center)
    u = embed_u(contexts_and_negatives)
    return torch.bmm(v, u.permute(0, 2, 1))


class SigmoidBCELoss(nn.Module):
    def forward(self, inputs, target, mask=None):
        out = nn.functional.binary_cross_entropy_with_logits(inputs, target, weight=mask,
                                                             reduction="none")
        return out.mean(dim=1)


loss = SigmoidBCELoss()
embed_size = 10
net = nn.Sequential(nn.Embedding(len(idx_to_token), embed_size),
                    nn.Embedding(len(idx_to_token), embed_size))
for m in net:
    nn.init.xavier_uniform_(m.weight)
data = list(zip(all_centers, all_contexts, all_negatives))
loader = torch.utils.data.DataLoader(data, batch_size=32, shuffle=True, collate_fn=batchify)
optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
for epoch in range(5):
    total, count = 0.0, 0
    for center, context_negative, mask, label in loader:
        optimizer.zero_grad()
        pred = skip_gram(center, context_negative, net[0], net[1])
        l = (loss(pred.reshape(label.shape).float(), label.float(), mask)
             / mask.sum(axis=1) * mask.shape[1])
        l.sum().backward()
        optimizer.step()
        total += l.sum().item()
        count += l.numel()
    print(f"epoch {epoch + 1}: loss {total / count:.5f}")


def get_similar_tokens(query_token, k, embed):
    W = embed.weight.data
    x = W[token_to_idx[query_token]]
    cos = torch.mv(W, x) / torch.sqrt(torch.sum(W * W, dim=1) * torch.sum(x * x) + 1e-9)
    topk = torch.topk(cos, k=k + 1)[1].cpu().numpy().astype("int32")
    for i in topk[1:]:
        print(f"cosine sim={float(cos[i]):.3f}: {idx_to_token[i]}")


get_similar_tokens("fox", 3, net[0])
