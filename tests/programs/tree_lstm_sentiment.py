# Models: the Child-Sum Tree-LSTM (Tai et al.) in the style of its PyTorch reference code:
# recursive traversal over parse trees built from nested tuples, node states gathered with
# torch.stack, per-node sentiment loss summed over the tree, Adagrad with weight decay, and
# a recursive neural tensor composition (bilinear via einsum) for comparison.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(4)
words = "the a movie film was not very good bad great boring fun".split()
vocab = {w: i for i, w in enumerate(words)}


class Tree:
    def __init__(self, label, children=(), word=None):
        self.label, self.children, self.word = label, list(children), word

    def size(self):
        return 1 + sum(c.size() for c in self.children)


def leaf(w, y):
    return Tree(y, word=vocab[w])


trees = [
    Tree(2, [Tree(1, [leaf("the", 1), leaf("movie", 1)]),
             Tree(2, [leaf("was", 1), leaf("good", 2)])]),
    Tree(0, [Tree(1, [leaf("the", 1), leaf("film", 1)]),
             Tree(0, [leaf("was", 1), leaf("bad", 0)])]),
    Tree(0, [leaf("not", 1), Tree(2, [leaf("very", 1), leaf("good", 2)])]),
    Tree(2, [Tree(1, [leaf("a", 1), leaf("movie", 1)]),
             Tree(2, [leaf("very", 1), leaf("fun", 2)])]),
    Tree(0, [leaf("boring", 0), leaf("film", 1)]),
    Tree(2, [leaf("great", 2), leaf("film", 1)]),
]
print([t.size() for t in trees])


class ChildSumTreeLSTM(nn.Module):
    def __init__(self, in_dim, mem_dim, n_words, n_classes):
        super().__init__()
        self.emb = nn.Embedding(n_words, in_dim)
        self.mem_dim = mem_dim
        self.ioux = nn.Linear(in_dim, 3 * mem_dim)
        self.iouh = nn.Linear(mem_dim, 3 * mem_dim)
        self.fx = nn.Linear(in_dim, mem_dim)
        self.fh = nn.Linear(mem_dim, mem_dim)
        self.out = nn.Linear(mem_dim, n_classes)

    def node_forward(self, inputs, child_c, child_h):
        child_h_sum = torch.sum(child_h, dim=0, keepdim=True)
        iou = self.ioux(inputs) + self.iouh(child_h_sum)
        i, o, u = torch.split(iou, iou.size(1) // 3, dim=1)
        i, o, u = torch.sigmoid(i), torch.sigmoid(o), torch.tanh(u)
        f = torch.sigmoid(self.fh(child_h) + self.fx(inputs).repeat(len(child_h), 1))
        fc = torch.mul(f, child_c)
        c = torch.mul(i, u) + torch.sum(fc, dim=0, keepdim=True)
        h = torch.mul(o, torch.tanh(c))
        return c, h

    def forward(self, tree, losses):
        for child in tree.children:
            self.forward(child, losses)
        if not tree.children:
            child_c = torch.zeros(1, self.mem_dim)
            child_h = torch.zeros(1, self.mem_dim)
            x = self.emb(torch.tensor([tree.word]))
        else:
            child_c = torch.cat([c.state[0] for c in tree.children], dim=0)
            child_h = torch.cat([c.state[1] for c in tree.children], dim=0)
            x = torch.zeros(1, self.emb.embedding_dim)
        tree.state = self.node_forward(x, child_c, child_h)
        logits = self.out(tree.state[1])
        losses.append(F.cross_entropy(logits, torch.tensor([tree.label])))
        tree.pred = logits.argmax(1).item()
        return tree.state


model = ChildSumTreeLSTM(8, 10, len(vocab), 3)
opt = torch.optim.Adagrad(model.parameters(), lr=0.05, weight_decay=1e-4)
for epoch in range(12):
    total = 0.0
    for t in trees:
        opt.zero_grad()
        losses = []
        model(t, losses)
        loss = torch.stack(losses).sum()
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 4 == 3:
        print(f"epoch {epoch + 1}: loss {total:.5f} root preds {[t.pred for t in trees]}")


class RNTN(nn.Module):
    def __init__(self, d, n_words, n_classes):
        super().__init__()
        self.emb = nn.Embedding(n_words, d)
        self.V = nn.Parameter(torch.randn(d, 2 * d, 2 * d) * 0.01)
        self.W = nn.Linear(2 * d, d)
        self.out = nn.Linear(d, n_classes)

    def forward(self, tree, losses):
        if tree.word is not None:
            h = self.emb.weight[tree.word]
        else:
            a = self.forward(tree.children[0], losses)
            b = self.forward(tree.children[-1], losses)
            ab = torch.cat([a, b])
            h = torch.tanh(torch.einsum("i,kij,j->k", ab, self.V, ab) + self.W(ab))
        losses.append(F.cross_entropy(self.out(h)[None], torch.tensor([tree.label])))
        return h


rntn = RNTN(6, len(vocab), 3)
opt = torch.optim.Adagrad(rntn.parameters(), lr=0.1)
for epoch in range(10):
    total = 0.0
    for t in trees:
        opt.zero_grad()
        losses = []
        rntn(t, losses)
        loss = torch.stack(losses).mean()
        loss.backward()
        opt.step()
        total += loss.item()
print(f"rntn loss {total:.6f}", rntn.V.grad.abs().sum().item() > 0)
