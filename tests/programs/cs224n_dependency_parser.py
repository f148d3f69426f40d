# Models: CS224n assignment 3: a transition-based (arc-standard) dependency parser: the
# PartialParse shift/left-arc/right-arc state machine, minibatch parsing, and the parser
# model's embedding lookup of 36 features followed by a hidden layer with cube-free ReLU,
# Xavier init and Adam, with UAS evaluation on a toy treebank.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(224)


class PartialParse:
    def __init__(self, sentence):
        self.sentence = sentence
        self.stack = ["ROOT"]
        self.buffer = list(sentence)
        self.dependencies = []

    def parse_step(self, transition):
        if transition == "S":
            self.stack.append(self.buffer.pop(0))
        elif transition == "LA":
            dep = self.stack.pop(-2)
            self.dependencies.append((self.stack[-1], dep))
        elif transition == "RA":
            dep = self.stack.pop()
            self.dependencies.append((self.stack[-1], dep))

    def parse(self, transitions):
        for t in transitions:
            self.parse_step(t)
        return self.dependencies


def minibatch_parse(sentences, model, batch_size):
    partial_parses = [PartialParse(s) for s in sentences]
    unfinished = partial_parses[:]
    while unfinished:
        batch = unfinished[:batch_size]
        transitions = model.predict(batch)
        for pp, t in zip(batch, transitions):
            pp.parse_step(t)
        unfinished = [pp for pp in unfinished if len(pp.buffer) > 0 or len(pp.stack) > 1]
    return [pp.dependencies for pp in partial_parses]


pp = PartialParse(["parse", "this", "sentence"])
print(pp.parse(["S", "S", "LA", "S", "RA", "RA"]))


class ParserModel(nn.Module):
    def __init__(self, embeddings, n_features=6, hidden_size=32, n_classes=3, dropout_prob=0.5):
        super().__init__()
        self.n_features = n_features
        self.embed_size = embeddings.shape[1]
        self.embeddings = nn.Parameter(torch.tensor(embeddings))
        self.embed_to_hidden_weight = nn.Parameter(
            torch.empty(n_features * self.embed_size, hidden_size))
        nn.init.xavier_uniform_(self.embed_to_hidden_weight)
        self.embed_to_hidden_bias = nn.Parameter(torch.empty(hidden_size))
        nn.init.uniform_(self.embed_to_hidden_bias)
        self.dropout = nn.Dropout(dropout_prob)
        self.hidden_to_logits_weight = nn.Parameter(torch.empty(hidden_size, n_classes))
        nn.init.xavier_uniform_(self.hidden_to_logits_weight)
        self.hidden_to_logits_bias = nn.Parameter(torch.empty(n_classes))
        nn.init.uniform_(self.hidden_to_logits_bias)

    def embedding_lookup(self, w):
        return torch.index_select(self.embeddings, 0, w.view(-1)).view(w.shape[0], -1)

    def forward(self, w):
        x = self.embedding_lookup(w)
        h = F.relu(x @ self.embed_to_hidden_weight + self.embed_to_hidden_bias)
        return self.dropout(h) @ self.hidden_to_logits_weight + self.hidden_to_logits_bias


words = ["<NULL>", "ROOT", "the", "dog", "cat", "sees", "a", "big", "runs", "small"]
tok2id = {w: i for i, w in enumerate(words)}
emb = torch.randn(len(words), 8).numpy()
model = ParserModel(emb)
print(model.embeddings.shape, model.embed_to_hidden_weight.shape)


def gold_transitions(sent, heads):
    pp = PartialParse(sent)
    trans = []
    idx = {w: i + 1 for i, w in enumerate(sent)}
    idx["ROOT"] = 0
    feats = []
    while pp.buffer or len(pp.stack) > 1:
        s = pp.stack
        f = [tok2id[x] for x in (s[-1:] + ["<NULL>"])[:1]] + \
            [tok2id[x] for x in (s[-2:-1] + ["<NULL>"])[:1]] + \
            [tok2id[x] for x in (pp.buffer[:3] + ["<NULL>"] * 3)[:3]] + [len(s) % 10]
        feats.append(f)
        if len(s) >= 2 and s[-2] != "ROOT" and heads[idx[s[-2]]] == idx[s[-1]]:
            t = "LA"
        elif len(s) >= 2 and heads[idx[s[-1]]] == idx[s[-2]] and \
                all(heads[idx[b]] != idx[s[-1]] for b in pp.buffer):
            t = "RA"
        else:
            t = "S"
        trans.append(t)
        pp.parse_step(t)
    return feats, trans


treebank = [
    (["the", "dog", "sees", "a", "cat"], [None, 2, 3, 0, 5, 3]),
    (["a", "big", "cat", "runs"], [None, 3, 3, 4, 0]),
    (["the", "small", "dog", "runs"], [None, 3, 3, 4, 0]),
    (["a", "cat", "sees", "the", "big", "dog"], [None, 2, 3, 0, 6, 6, 3]),
]
T2I = {"S": 0, "LA": 1, "RA": 2}
X, Y = [], []
for sent, heads in treebank:
    f, t = gold_transitions(sent, heads)
    X += f
    Y += [T2I[x] for x in t]
X, Y = torch.tensor(X), torch.tensor(Y)
print("train examples:", X.shape, torch.bincount(Y).tolist())
opt = torch.optim.Adam(model.parameters(), lr=0.005)
loss_func = nn.CrossEntropyLoss()
for epoch in range(60):
    model.train()
    opt.zero_grad()
    loss = loss_func(model(X), Y)
    loss.backward()
    opt.step()
    if epoch % 20 == 0:
        print(f"epoch {epoch}: loss {loss.item():.5f}")


class Wrapper:
    def predict(self, partial_parses):
        feats = []
        for pp in partial_parses:
            s = pp.stack
            feats.append([tok2id[x] for x in (s[-1:] + ["<NULL>"])[:1]] +
                         [tok2id[x] for x in (s[-2:-1] + ["<NULL>"])[:1]] +
                         [tok2id[x] for x in (pp.buffer[:3] + ["<NULL>"] * 3)[:3]] + [len(s) % 10])
        model.eval()
        with torch.no_grad():
            logits = model(torch.tensor(feats))
        legal = torch.tensor([[len(pp.buffer) > 0, len(pp.stack) > 2, len(pp.stack) > 1]
                              for pp in partial_parses])
        logits = logits.masked_fill(~legal, float("-inf"))
        return [["S", "LA", "RA"][i] for i in logits.argmax(1).tolist()]


deps = minibatch_parse([s for s, _ in treebank], Wrapper(), batch_size=2)
correct = total = 0
for (sent, heads), d in zip(treebank, deps):
    idx = {w: i + 1 for i, w in enumerate(sent)}
    idx["ROOT"] = 0
    pred = {idx[dep]: idx[h] for h, dep in d}
    for i in range(1, len(sent) + 1):
        correct += pred.get(i) == heads[i]
        total += 1
    print(d)
print(f"UAS: {100.0 * correct / total:.2f}")
