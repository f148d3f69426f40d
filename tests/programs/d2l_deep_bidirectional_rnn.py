# Models: the d2l "deep recurrent neural networks" and "bidirectional RNNs" sections on a
# character-level toy corpus: nn.GRU/nn.LSTM with num_layers=2 and bidirectional=True, the
# shapes of outputs and final states, a concise RNNModel with a Linear head, training with
# gradient clipping by global norm (clip_grad_norm_), perplexity per epoch, and greedy predict.
import math

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
text = ("the time traveller for so it will be convenient to speak of him was expounding a "
        "recondite matter to us his grey eyes shone and twinkled ") * 3
vocab = sorted(set(text))
stoi = {c: i for i, c in enumerate(vocab)}
corpus = torch.tensor([stoi[c] for c in text])
print("vocab", len(vocab), "corpus", len(corpus))

for cell in (nn.GRU, nn.LSTM):
    for bidir in (False, True):
        rnn = cell(len(vocab), 16, num_layers=2, bidirectional=bidir)
        X = F.one_hot(corpus[:10].view(5, 2), len(vocab)).float()
        out, state = rnn(X)
        h = state[0] if isinstance(state, tuple) else state
        print(f"{cell.__name__} bidirectional={bidir}: output {tuple(out.shape)} "
              f"state {tuple(h.shape)} params {sum(p.numel() for p in rnn.parameters())}")
print([n for n, _ in nn.LSTM(3, 4, num_layers=2, bidirectional=True).named_parameters()][:6])


class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size):
        super().__init__()
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = rnn_layer.hidden_size
        self.num_directions = 2 if rnn_layer.bidirectional else 1
        self.linear = nn.Linear(self.num_hiddens * self.num_directions, vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size).to(torch.float32)
        Y, state = self.rnn(X, state)
        return self.linear(Y.reshape((-1, Y.shape[-1]))), state

    def begin_state(self, batch_size=1):
        shape = (self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens)
        if isinstance(self.rnn, nn.LSTM):
            return torch.zeros(shape), torch.zeros(shape)
        return torch.zeros(shape)


def batches(corpus, batch_size, num_steps):
    offset = 3
    n = ((len(corpus) - offset - 1) // batch_size) * batch_size
    Xs = corpus[offset:offset + n].reshape(batch_size, -1)
    Ys = corpus[offset + 1:offset + 1 + n].reshape(batch_size, -1)
    for i in range(0, Xs.shape[1] - num_steps + 1, num_steps):
        yield Xs[:, i:i + num_steps], Ys[:, i:i + num_steps]


def predict(prefix, num_preds, net):
    state = net.begin_state(1)
    outputs = [stoi[prefix[0]]]
    for y in prefix[1:]:
        _, state = net(torch.tensor([[outputs[-1]]]), state)
        outputs.append(stoi[y])
    for _ in range(num_preds):
        y, state = net(torch.tensor([[outputs[-1]]]), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return "".join(vocab[i] for i in outputs)


for cell in (nn.GRU, nn.LSTM):
    torch.manual_seed(1)
    net = RNNModel(cell(len(vocab), 32, num_layers=2), len(vocab))
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    for epoch in range(8):
        state = net.begin_state(4)
        total, count, norms = 0.0, 0, []
        for X, Y in batches(corpus, 4, 12):
            if isinstance(state, tuple):
                state = tuple(s.detach() for s in state)
            else:
                state = state.detach()
            y_hat, state = net(X, state)
            loss = F.cross_entropy(y_hat, Y.T.reshape(-1))
            opt.zero_grad()
            loss.backward()
            norms.append(nn.utils.clip_grad_norm_(net.parameters(), 1.0).item())
            opt.step()
            total += loss.item() * Y.numel()
            count += Y.numel()
        if epoch % 2 == 1:
            print(f"{cell.__name__} epoch {epoch + 1} perplexity {math.exp(total / count):.3f} "
                  f"max grad norm {max(norms):.3f}")
    print(repr(predict("the time ", 20, net)))

bi = RNNModel(nn.GRU(len(vocab), 8, bidirectional=True), len(vocab))
logits, state = bi(corpus[:12].view(2, 6), bi.begin_state(2))
print("bidirectional LM logits", tuple(logits.shape), "state", tuple(state.shape))
