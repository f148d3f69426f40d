# Models: the pointer-generator summariser (See et al., 2017) as its PyTorch ports write the
# copy mechanism: an extended vocabulary with per-article OOV ids, p_gen from context, decoder
# state and input, the final distribution built with scatter_add_ of attention weights into the
# extended vocab, coverage vectors and the coverage loss, and the NLL of gold tokens.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(44)
V, d, hid = 12, 8, 16
vocab = ["<pad>", "<unk>", "<s>", "</s>"] + [f"w{i}" for i in range(V - 4)]
articles = [["w1", "zeta", "w2", "w3", "omega", "w1"], ["w4", "w5", "kappa", "w6", "w7", "w2"]]
summaries = [["zeta", "w2", "omega"], ["kappa", "w6", "w4"]]


def to_ext(words, oovs):
    ids = []
    for w in words:
        if w in vocab:
            ids.append(vocab.index(w))
        else:
            if w not in oovs:
                oovs.append(w)
            ids.append(V + oovs.index(w))
    return ids


oov_lists, src_ext, tgt_ext = [], [], []
for art, summ in zip(articles, summaries):
    oovs = []
    src_ext.append(to_ext(art, oovs))
    tgt_ext.append([vocab.index(w) if w in vocab else (V + oovs.index(w) if w in oovs else 1)
                    for w in summ] + [3])
    oov_lists.append(oovs)
src_ext = torch.tensor(src_ext)
tgt_ext = torch.tensor(tgt_ext)
src = src_ext.masked_fill(src_ext >= V, 1)
max_oov = max(len(o) for o in oov_lists)
print(oov_lists, src_ext, tgt_ext, sep="\n")


class PointerGen(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.enc = nn.LSTM(d, hid // 2, batch_first=True, bidirectional=True)
        self.dec = nn.LSTMCell(d, hid)
        self.W_h = nn.Linear(hid, hid, bias=False)
        self.W_s = nn.Linear(hid, hid)
        self.w_c = nn.Linear(1, hid, bias=False)
        self.v = nn.Linear(hid, 1, bias=False)
        self.p_gen = nn.Linear(2 * hid + d, 1)
        self.out = nn.Sequential(nn.Linear(2 * hid, hid), nn.Linear(hid, V))

    def forward(self, src, src_ext, tgt_ext):
        b, L = src.shape
        enc, (h, c) = self.enc(self.emb(src))
        s = (h.transpose(0, 1).reshape(b, -1), c.transpose(0, 1).reshape(b, -1))
        coverage = torch.zeros(b, L)
        inp = torch.full((b,), 2, dtype=torch.long)
        nll, cov_loss, pgens = 0.0, 0.0, []
        enc_feat = self.W_h(enc)
        for t in range(tgt_ext.shape[1]):
            s = self.dec(self.emb(inp), s)
            e = self.v(torch.tanh(enc_feat + self.W_s(s[0])[:, None]
                                  + self.w_c(coverage[..., None]))).squeeze(2)
            attn = F.softmax(e, dim=1)
            context = torch.bmm(attn[:, None], enc).squeeze(1)
            p_gen = torch.sigmoid(self.p_gen(torch.cat([context, s[0], self.emb(inp)], 1)))
            vocab_dist = F.softmax(self.out(torch.cat([s[0], context], 1)), dim=1)
            ext = torch.cat([p_gen * vocab_dist, torch.zeros(b, max_oov)], 1)
            final = ext.scatter_add(1, src_ext, (1 - p_gen) * attn)
            gold = tgt_ext[:, t]
            nll = nll - torch.log(final.gather(1, gold[:, None]).squeeze(1) + 1e-12)
            cov_loss = cov_loss + torch.min(attn, coverage).sum(1)
            coverage = coverage + attn
            pgens.append(p_gen.squeeze(1))
            inp = gold.masked_fill(gold >= V, 1)
        T = tgt_ext.shape[1]
        return (nll / T).mean(), (cov_loss / T).mean(), torch.stack(pgens, 1), final


model = PointerGen()
opt = torch.optim.Adagrad(model.parameters(), lr=0.15, initial_accumulator_value=0.1)
for step in range(20):
    nll, cov, pgens, final = model(src, src_ext, tgt_ext)
    loss = nll + 1.0 * cov
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 2.0)
    opt.step()
    if step % 4 == 3:
        print(f"step {step + 1} nll {nll.item():.5f} coverage {cov.item():.5f}")
print("p_gen", pgens.detach())
print("final sums", final.sum(1).detach(), final.shape)
with torch.no_grad():
    _, _, _, final = model(src, src_ext, tgt_ext)
    top = final.topk(3, dim=1)
    print(top)
    words = [[(vocab + oov_lists[i])[j] for j in top.indices[i].tolist()] for i in range(2)]
    print(words)
print(torch.zeros(2, 5).scatter_add_(1, torch.tensor([[0, 0, 3], [4, 4, 4]]),
                                      torch.tensor([[0.1, 0.2, 0.3], [0.5, 0.25, 0.25]])))
