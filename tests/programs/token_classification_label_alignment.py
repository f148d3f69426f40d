# Models: NER token classification the way the fine-tuning scripts do it without the library:
# subword splitting by hand, labels aligned to the first subword with -100 elsewhere,
# CrossEntropyLoss ignoring -100, attention masks, and seqeval-like entity span extraction.
import torch
import torch.nn as nn

torch.manual_seed(0)
sentences = [["John", "lives", "in", "New", "York"], ["Acme", "Corporation", "hired", "Mary"]]
tags = [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-ORG", "I-ORG", "O", "B-PER"]]
label_list = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
l2i = {l: i for i, l in enumerate(label_list)}
vocab = {"[PAD]": 0, "[CLS]": 1, "[SEP]": 2}


def subwords(w):
    return [w[:3], "##" + w[3:]] if len(w) > 4 else [w]


def tokenize(words, labels):
    ids, lab, word_ids = [1], [-100], [None]
    for wi, (w, t) in enumerate(zip(words, labels)):
        for k, sw in enumerate(subwords(w)):
            ids.append(vocab.setdefault(sw, len(vocab)))
            lab.append(l2i[t] if k == 0 else -100)
            word_ids.append(wi)
    return ids + [2], lab + [-100], word_ids + [None]


enc = [tokenize(s, t) for s, t in zip(sentences, tags)]
L = max(len(e[0]) for e in enc)
input_ids = torch.tensor([e[0] + [0] * (L - len(e[0])) for e in enc])
labels = torch.tensor([e[1] + [-100] * (L - len(e[1])) for e in enc])
attn = (input_ids != 0).long()
print(input_ids)
print(labels)
print(attn.sum(1))


class Tagger(nn.Module):
    def __init__(self, V, C):
        super().__init__()
        self.emb = nn.Embedding(V, 16, padding_idx=0)
        enc_layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(enc_layer, 1, enable_nested_tensor=False)
        self.cls = nn.Linear(16, C)

    def forward(self, ids, mask):
        return self.cls(self.enc(self.emb(ids), src_key_padding_mask=mask == 0))


model = Tagger(len(vocab), len(label_list))
loss_fct = nn.CrossEntropyLoss()
opt = torch.optim.AdamW(model.parameters(), lr=5e-3)
for ep in range(30):
    logits = model(input_ids, attn)
    loss = loss_fct(logits.view(-1, len(label_list)), labels.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if ep % 10 == 0:
        print(f"epoch {ep} loss {loss.item():.5f}")
pred = logits.argmax(-1)
for b, e in enumerate(enc):
    word_pred = [
        label_list[pred[b, i]]
        for i, wi in enumerate(e[2])
        if wi is not None and labels[b, i] != -100
    ]
    spans, cur = [], None
    for i, p in enumerate(word_pred):
        if p.startswith("B-"):
            cur = [p[2:], i, i]
            spans.append(cur)
        elif p.startswith("I-") and cur and cur[0] == p[2:]:
            cur[2] = i
        else:
            cur = None
    print(word_pred, spans)
print(((pred == labels) | (labels == -100)).all().item(), (labels != -100).sum().item())
