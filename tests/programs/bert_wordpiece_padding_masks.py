# Models: a from-scratch BERT-style sentence classifier: a greedy longest-match WordPiece
# tokenizer with "##" continuations, [CLS]/[SEP]/[PAD] handling, token_type_ids for sentence
# pairs, attention masks turned into src_key_padding_mask for nn.TransformerEncoder (train and
# eval, where torch takes its fast path), [CLS] pooling, and masked mean pooling.
import torch
import torch.nn as nn
import torch.nn.functional as F

vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "dog", "sat", "on", "mat",
         "play", "##ing", "##ed", "##s", "run", "un", "##happy", "happy", "is", "a", "very",
         "good", "bad", "movie", "##ie"]
stoi = {w: i for i, w in enumerate(vocab)}


def wordpiece(word):
    out, start = [], 0
    while start < len(word):
        end, cur = len(word), None
        while start < end:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in stoi:
                cur = piece
                break
            end -= 1
        if cur is None:
            return ["[UNK]"]
        out.append(cur)
        start = end
    return out


def encode(a, b=None, max_len=16):
    toks = ["[CLS]"] + [p for w in a.split() for p in wordpiece(w)] + ["[SEP]"]
    types = [0] * len(toks)
    if b is not None:
        extra = [p for w in b.split() for p in wordpiece(w)] + ["[SEP]"]
        toks += extra
        types += [1] * len(extra)
    ids = [stoi[t] for t in toks][:max_len]
    types = types[:max_len]
    mask = [1] * len(ids)
    pad = max_len - len(ids)
    return ids + [0] * pad, types + [0] * pad, mask + [0] * pad


for w in ["playing", "played", "cats", "unhappy", "moviexyz", "dogs"]:
    print(w, wordpiece(w))
ids, types, mask = encode("the cat sat on the mat", "the dogs played")
print(ids, types, mask, sep="\n")


class TinyBert(nn.Module):
    def __init__(self, d=32, heads=4, layers=2, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(len(vocab), d, padding_idx=0)
        self.pos = nn.Embedding(max_len, d)
        self.typ = nn.Embedding(2, d)
        self.norm = nn.LayerNorm(d, eps=1e-12)
        layer = nn.TransformerEncoderLayer(d, heads, 64, dropout=0.1, activation="gelu",
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.pooler = nn.Sequential(nn.Linear(d, d), nn.Tanh())
        self.cls = nn.Linear(d, 2)

    def forward(self, ids, types, mask):
        pos = torch.arange(ids.shape[1])[None]
        h = self.norm(self.tok(ids) + self.pos(pos) + self.typ(types))
        h = self.encoder(h, src_key_padding_mask=mask == 0)
        return self.cls(self.pooler(h[:, 0])), h


pos_s = ["the movie is very good", "a good movie", "the cat is happy", "happy dogs playing"]
neg_s = ["the movie is very bad", "a bad movie", "the cat is unhappy", "unhappy dogs"]
texts = pos_s + neg_s
labels = torch.tensor([1] * 4 + [0] * 4)
enc = [encode(t) for t in texts]
ids = torch.tensor([e[0] for e in enc])
types = torch.tensor([e[1] for e in enc])
mask = torch.tensor([e[2] for e in enc])
print(mask.sum(1))
torch.manual_seed(0)
model = TinyBert()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
for epoch in range(15):
    model.train()
    logits, _ = model(ids, types, mask)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 3 == 2:
        print(f"epoch {epoch} loss {loss.item():.5f}")
model.eval()
with torch.no_grad():
    logits, hidden = model(ids, types, mask)
    print(F.softmax(logits, -1))
    print(hidden.shape, hidden[0, -1, :4], hidden[0, 0, :4])
    m = mask.unsqueeze(-1).float()
    mean_pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1e-9)
    print(mean_pooled[:2, :5])
    sims = F.cosine_similarity(mean_pooled[:, None], mean_pooled[None], dim=-1)
    print(sims)
    test = encode("the dogs is very good")
    out, _ = model(*(torch.tensor([x]) for x in test))
    print(out.argmax(-1), F.softmax(out, -1))
