# Models: beam-search decoding for a GRU seq2seq decoder as in NMT codebases: log-prob
# accumulation, topk over beam*vocab with floor division to recover beam ids, finished
# hypotheses with EOS, GNMT length penalty, and n-best output vs greedy.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V, H, EOS, BOS = 9, 16, 0, 1
emb = nn.Embedding(V, H)
cell = nn.GRUCell(H, H)
out = nn.Linear(H, V)


def step(tokens, h):
    h = cell(emb(tokens), h)
    return F.log_softmax(out(h), dim=-1), h


@torch.no_grad()
def beam_search(h0, beam=3, max_len=6, alpha=0.6):
    h = h0.expand(beam, -1).contiguous()
    tokens = torch.full((beam,), BOS, dtype=torch.long)
    scores = torch.tensor([0.0] + [float("-inf")] * (beam - 1))
    seqs = tokens[:, None]
    finished = []
    for t in range(max_len):
        logp, h = step(tokens, h)
        cand = (scores[:, None] + logp).view(-1)
        top, idx = cand.topk(beam)
        beam_idx = torch.div(idx, V, rounding_mode="floor")
        tok = idx % V
        seqs = torch.cat([seqs[beam_idx], tok[:, None]], 1)
        h = h[beam_idx]
        scores, tokens = top, tok
        for b in range(beam):
            if tok[b] == EOS:
                lp = ((5 + seqs.size(1) - 1) / 6) ** alpha
                finished.append((scores[b].item() / lp, seqs[b].tolist()))
        scores = scores.masked_fill(tok == EOS, float("-inf"))
        print(t, beam_idx.tolist(), tok.tolist(), [round(s, 4) for s in scores.tolist()])
    for b in range(beam):
        if scores[b] > float("-inf"):
            lp = ((5 + seqs.size(1) - 1) / 6) ** alpha
            finished.append((scores[b].item() / lp, seqs[b].tolist()))
    return sorted(finished, key=lambda x: -x[0])


h0 = torch.randn(1, H)
res = beam_search(h0)
for sc, s in res[:4]:
    print(f"{sc:.5f}", s)
with torch.no_grad():
    tok, h, greedy, tot = torch.tensor([BOS]), h0, [], 0.0
    for _ in range(6):
        lp, h = step(tok, h)
        v, tok = lp.max(-1)
        tot += v.item()
        greedy.append(tok.item())
print("greedy", greedy, f"{tot:.5f}")
print(
    torch.div(torch.tensor([-7, 7, 20]), 9, rounding_mode="floor"), torch.tensor([-7, 7, 20]) // 9
)
