# Models: d2l chapter "Gated Recurrent Units (GRU)", concise implementation: a character
# vocabulary from a short text, random sequence minibatches, nn.GRU + Linear language model,
# gradient clipping by global norm, perplexity per epoch, and greedy prediction from a prefix.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
text = ("the time traveller for so it will be convenient to speak of him was expounding a "
        "recondite matter to us his grey eyes shone and twinkled ") * 3
vocab = sorted(set(text))
stoi = {c: i for i, c in enumerate(vocab)}
corpus = torch.tensor([stoi[c] for c in text])
print("vocab size", len(vocab), "corpus", len(corpus))


def seq_data_iter_random(corpus, batch_size, num_steps):
    offset = int(torch.randint(0, num_steps, (1,)))
    corpus = corpus[offset:]
    num_subseqs = (len(corpus) - 1) // num_steps
    starts = torch.randperm(num_subseqs) * num_steps
    for i in range(0, num_subseqs // batch_size * batch_size, batch_size):
        idx = starts[i:i + batch_size]
        X = torch.stack([corpus[j:j + num_steps] for j in idx.tolist()])
        Y = torch.stack([corpus[j + 1:j + 1 + num_steps] for j in idx.tolist()])
        yield X, Y


class RNNModel(nn.Module):
    def __init__(self, vocab_size, num_hiddens):
        super().__init__()
        self.rnn = nn.GRU(vocab_size, num_hiddens)
        self.vocab_size = vocab_size
        self.linear = nn.Linear(num_hiddens, vocab_size)

    def forward(self, inputs, state):
        X = nn.functional.one_hot(inputs.T.long(), self.vocab_size).to(torch.float32)
        Y, state = self.rnn(X, state)
        return self.linear(Y.reshape((-1, Y.shape[-1]))), state

    def begin_state(self, batch_size):
        return torch.zeros((1, batch_size, self.rnn.hidden_size))


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


net = RNNModel(len(vocab), 32)
opt = torch.optim.SGD(net.parameters(), lr=1.0)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(6):
    total, n = 0.0, 0
    for X, Y in seq_data_iter_random(corpus, 8, 10):
        state = net.begin_state(X.shape[0])
        y_hat, state = net(X, state)
        l = loss_fn(y_hat, Y.T.reshape(-1))
        opt.zero_grad()
        l.backward()
        norm = nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        total += l.item() * Y.numel()
        n += Y.numel()
    print(f"epoch {epoch} perplexity {math.exp(total / n):.4f} last norm {norm.item():.4f}")
print(predict("time ", 15, net))
print(y_hat.grad_fn.name(), state.shape)
