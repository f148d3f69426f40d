# Models: decoding loops from public seq2seq / language-model code -- greedy decoding with a
# GRU decoder and GRUCell, batched beam search with log_softmax score accumulation, topk over
# flattened (beam x vocab) scores, integer division / modulo to recover beam and token ids,
# index_select to reorder hidden states, EOS masking with finished flags, length penalty,
# nucleus (top-p) sampling with sort/cumsum/scatter, repetition penalty, and bidirectional
# multi-layer packed encoders.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.manual_seed(0)
V, E, H, EOS, BOS = 12, 8, 16, 0, 1
emb = nn.Embedding(V, E)
encoder = nn.GRU(E, H // 2, num_layers=2, bidirectional=True, batch_first=True)
cell = nn.GRUCell(E, H)
proj = nn.Linear(H, V)
src = torch.randint(2, V, (3, 6))
lengths = torch.tensor([6, 4, 3])
packed = pack_padded_sequence(emb(src), lengths, batch_first=True, enforce_sorted=False)
enc_out, h_n = encoder(packed)
enc_out, out_lens = pad_packed_sequence(enc_out, batch_first=True)
print(enc_out.shape, out_lens, h_n.shape)
h0 = torch.cat([h_n[-2], h_n[-1]], dim=1)
print("padded positions zero", enc_out[2, 3:].abs().max().item() == 0.0)


@torch.no_grad()
def greedy(h, max_len=6):
    tok = torch.full((h.shape[0],), BOS, dtype=torch.long)
    out = []
    for _ in range(max_len):
        h = cell(emb(tok), h)
        tok = proj(h).argmax(-1)
        out.append(tok)
    return torch.stack(out, 1)


print("greedy", greedy(h0))


@torch.no_grad()
def beam_search(h, beam=3, max_len=6, alpha=0.7):
    B = h.shape[0]
    h = h.repeat_interleave(beam, dim=0)
    scores = torch.zeros(B, beam)
    scores[:, 1:] = float("-inf")
    tokens = torch.full((B * beam, 1), BOS, dtype=torch.long)
    finished = torch.zeros(B * beam, dtype=torch.bool)
    for step in range(max_len):
        h = cell(emb(tokens[:, -1]), h)
        logp = F.log_softmax(proj(h), dim=-1)
        logp[finished] = float("-inf")
        logp[finished, EOS] = 0.0
        cand = (scores.view(-1, 1) + logp).view(B, beam * V)
        top_scores, top_idx = cand.topk(beam, dim=1)
        beam_idx = torch.div(top_idx, V, rounding_mode="floor")
        tok_idx = top_idx % V
        base = (torch.arange(B) * beam).unsqueeze(1)
        sel = (base + beam_idx).view(-1)
        h = h.index_select(0, sel)
        tokens = torch.cat([tokens[sel], tok_idx.view(-1, 1)], dim=1)
        finished = finished[sel] | (tok_idx.view(-1) == EOS)
        scores = top_scores
    lens = ((tokens != EOS).cumprod(1).sum(1)).float().view(B, beam)
    normed = scores / (((5 + lens) / 6) ** alpha)
    best = normed.argmax(1)
    return tokens.view(B, beam, -1)[torch.arange(B), best], normed


best, normed = beam_search(h0)
print("beam", best)
print("normalised scores", normed)


def top_p_filter(logits, top_p=0.8):
    sorted_logits, sorted_idx = torch.sort(logits, descending=True)
    cum = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
    remove = cum > top_p
    remove[..., 1:] = remove[..., :-1].clone()
    remove[..., 0] = False
    mask = remove.scatter(1, sorted_idx, remove)
    return logits.masked_fill(mask, float("-inf"))


def repetition_penalty(logits, prev, penalty=1.3):
    score = torch.gather(logits, 1, prev)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return logits.scatter(1, prev, score)


logits = proj(h0).detach()
filtered = top_p_filter(logits)
print("kept per row", torch.isfinite(filtered).sum(1))
pen = repetition_penalty(logits, torch.tensor([[2, 3], [4, 4], [5, 0]]))
print("penalised", (pen - logits).abs().sum(1))
probs = F.softmax(filtered / 0.7, dim=-1)
print("nucleus samples", torch.multinomial(probs, 4, replacement=True))
print("argsort ranks", logits.argsort(dim=1, descending=True)[:, :3])
