# Models: the bookkeeping inside a beam-search decoder: flattening beam x vocab scores, topk over
# them, integer division and remainder to recover beam and token ids, index_select to reorder
# hidden states, take_along_dim / gather for per-row picks, and backtracking the best sequence.
import torch

torch.manual_seed(12)
beam, vocab, steps = 3, 5, 4
scores = torch.zeros(beam)
scores[1:] = float("-inf")
hidden = torch.arange(beam * 2.0).reshape(beam, 2)
history_tok, history_beam = [], []
for t in range(steps):
    logp = torch.randn(beam, vocab).log_softmax(-1)
    cand = (scores.unsqueeze(1) + logp).flatten()
    top, idx = cand.topk(beam)
    beams = torch.div(idx, vocab, rounding_mode="floor")
    toks = idx % vocab
    hidden = hidden.index_select(0, beams) + toks.unsqueeze(1)
    scores = top
    history_tok.append(toks)
    history_beam.append(beams)
    print(t, "beams", beams.tolist(), "toks", toks.tolist(), "scores", scores)
best = scores.argmax().item()
seq = []
for toks, beams in zip(reversed(history_tok), reversed(history_beam)):
    seq.append(toks[best].item())
    best = beams[best].item()
print("best sequence", list(reversed(seq)))
print("hidden\n", hidden)
m = torch.randn(3, 4)
idx = m.argsort(-1, descending=True)
print("take_along_dim", torch.take_along_dim(m, idx[:, :2], dim=1))
print("gather same", torch.gather(m, 1, idx[:, :2]))
print("take_along_dim flat", torch.take_along_dim(m, torch.tensor([0, 5, 11])))
print("index_select cols", m.index_select(1, torch.tensor([3, 0])))
print("take", torch.take(m, torch.tensor([[0, 1], [10, 11]])))
