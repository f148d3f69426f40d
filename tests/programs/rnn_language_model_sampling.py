# Models: the classic char-level RNN name generator (PyTorch tutorial style): one-hot category
# and letter inputs, a GRU language model with teacher forcing, temperature sampling with
# torch.multinomial from a seeded generator, top-k filtering, beam-free greedy decoding, and
# perplexity on held-out names.
import math
import string

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
names = {"lang_a": ["anna", "bella", "carla", "dana", "ella", "fiona", "gina", "hanna"],
         "lang_b": ["bob", "rob", "tom", "tim", "jim", "kim", "sam", "pam"]}
letters = string.ascii_lowercase + "."
n_letters = len(letters)
cats = list(names)


def encode(word):
    return torch.tensor([letters.index(c) for c in word + "."])


class NameGen(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.cat_emb = nn.Embedding(len(cats), 8)
        self.char_emb = nn.Embedding(n_letters, 16)
        self.gru = nn.GRU(24, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_letters)

    def forward(self, cat, chars, h=None):
        c = self.cat_emb(cat).unsqueeze(1).expand(-1, chars.shape[1], -1)
        out, h = self.gru(torch.cat([c, self.char_emb(chars)], -1), h)
        return self.out(out), h


model = NameGen()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
pairs = [(ci, w) for ci, c in enumerate(cats) for w in names[c]]
for epoch in range(10):
    total = 0.0
    for ci, w in pairs:
        seq = encode(w)
        inp = torch.cat([torch.tensor([n_letters - 1]), seq[:-1]]).unsqueeze(0)
        logits, _ = model(torch.tensor([ci]), inp)
        loss = F.cross_entropy(logits[0], seq)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} loss {total / len(pairs):.4f}")


def sample(cat, temperature=1.0, top_k=None, gen=None, greedy=False, max_len=10):
    with torch.no_grad():
        ch = torch.tensor([[n_letters - 1]])
        h, out = None, ""
        for _ in range(max_len):
            logits, h = model(torch.tensor([cat]), ch, h)
            logits = logits[0, -1] / temperature
            if top_k is not None:
                v, _ = logits.topk(top_k)
                logits = logits.masked_fill(logits < v[-1], float("-inf"))
            if greedy:
                nxt = logits.argmax()
            else:
                nxt = torch.multinomial(F.softmax(logits, -1), 1, generator=gen)[0]
            if nxt.item() == n_letters - 1:
                break
            out += letters[nxt.item()]
            ch = nxt.view(1, 1)
        return out


g = torch.Generator().manual_seed(42)
for ci, c in enumerate(cats):
    print(c, "greedy", sample(ci, greedy=True))
    print(c, "t=0.8", [sample(ci, 0.8, gen=g) for _ in range(4)])
    print(c, "top3", [sample(ci, 1.0, top_k=3, gen=g) for _ in range(4)])
held = [("lang_a", "lena"), ("lang_b", "tod")]
with torch.no_grad():
    nll, count = 0.0, 0
    for c, w in held:
        seq = encode(w)
        inp = torch.cat([torch.tensor([n_letters - 1]), seq[:-1]]).unsqueeze(0)
        logits, _ = model(torch.tensor([cats.index(c)]), inp)
        nll += F.cross_entropy(logits[0], seq, reduction="sum").item()
        count += len(seq)
print(f"held-out perplexity {math.exp(nll / count):.4f}")
