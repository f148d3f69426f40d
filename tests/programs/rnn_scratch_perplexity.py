# Models: the d2l.ai "Recurrent Neural Network Implementation from Scratch" chapter -- one-hot
# inputs, tanh RNN with hand-made parameters, gradient clipping by global norm, perplexity and
# greedy prediction, then the concise nn.RNN version with the same weights.
import math

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
text = "the time machine by h g wells " * 12
vocab = sorted(set(text))
stoi = {ch: i for i, ch in enumerate(vocab)}
corpus = torch.tensor([stoi[ch] for ch in text])
vocab_size = len(vocab)
print(vocab_size, corpus[:12], corpus.dtype)
print(F.one_hot(torch.tensor([0, 2]), vocab_size))
X = torch.arange(10).reshape((2, 5))
print(F.one_hot(X.T, vocab_size).shape)


def seq_data_iter_sequential(corpus, batch_size, num_steps):
    offset = int(torch.randint(0, num_steps, (1,)))
    num_tokens = ((len(corpus) - offset - 1) // batch_size) * batch_size
    Xs = corpus[offset : offset + num_tokens]
    Ys = corpus[offset + 1 : offset + 1 + num_tokens]
    Xs, Ys = Xs.reshape(batch_size, -1), Ys.reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_steps * num_batches, num_steps):
        yield Xs[:, i : i + num_steps], Ys[:, i : i + num_steps]


def get_params(vocab_size, num_hiddens):
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return torch.randn(size=shape) * 0.01

    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens)
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_rnn_state(batch_size, num_hiddens):
    return (torch.zeros((batch_size, num_hiddens)),)


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    (H,) = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


class RNNModelScratch:
    def __init__(self, vocab_size, num_hiddens, get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens)
        self.init_state, self.forward_fn = init_state, forward_fn

    def __call__(self, X, state):
        X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        return self.forward_fn(X, state, self.params)

    def begin_state(self, batch_size):
        return self.init_state(batch_size, self.num_hiddens)


num_hiddens = 32
net = RNNModelScratch(vocab_size, num_hiddens, get_params, init_rnn_state, rnn)
state = net.begin_state(X.shape[0])
Y, new_state = net(X, state)
print(Y.shape, len(new_state), new_state[0].shape)


def predict(prefix, num_preds, net):
    state = net.begin_state(batch_size=1)
    outputs = [stoi[prefix[0]]]

    def get_input():
        return torch.tensor([outputs[-1]]).reshape((1, 1))

    for y in prefix[1:]:
        _, state = net(get_input(), state)
        outputs.append(stoi[y])
    for _ in range(num_preds):
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return "".join(vocab[i] for i in outputs)


print(repr(predict("time ", 10, net)))


def grad_clipping(net, theta):
    if isinstance(net, nn.Module):
        params = [p for p in net.parameters() if p.requires_grad]
    else:
        params = net.params
    norm = torch.sqrt(sum(torch.sum(p.grad**2) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm


def train_epoch(net, updater, batch_size, num_steps):
    state = None
    total_loss, n = 0.0, 0
    loss = nn.CrossEntropyLoss()
    norms = []
    for X, Y in seq_data_iter_sequential(corpus, batch_size, num_steps):
        if state is None:
            state = net.begin_state(batch_size=X.shape[0])
        elif isinstance(net, nn.Module) and not isinstance(state, tuple):
            state.detach_()
        else:
            for s in state:
                s.detach_()
        y = Y.T.reshape(-1)
        y_hat, state = net(X, state)
        l = loss(y_hat, y.long()).mean()
        updater.zero_grad()
        l.backward()
        norms.append(float(grad_clipping(net, 1)))
        updater.step()
        total_loss += l.item() * y.numel()
        n += y.numel()
    return math.exp(total_loss / n), max(norms)


updater = torch.optim.SGD(net.params, lr=1.0)
for epoch in range(30):
    ppl, max_norm = train_epoch(net, updater, batch_size=4, num_steps=8)
    if (epoch + 1) % 10 == 0:
        print(f"epoch {epoch + 1} perplexity {ppl:.3f} max grad norm {max_norm:.4f}")
print(repr(predict("time ", 20, net)))


class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size):
        super().__init__()
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        self.linear = nn.Linear(self.num_hiddens, self.vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size).to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

    def begin_state(self, batch_size=1):
        return torch.zeros((self.rnn.num_layers, batch_size, self.num_hiddens))


rnn_layer = nn.RNN(vocab_size, num_hiddens)
concise = RNNModel(rnn_layer, vocab_size)
print(concise)
with torch.no_grad():
    W_xh, W_hh, b_h, W_hq, b_q = net.params
    rnn_layer.weight_ih_l0.copy_(W_xh.T)
    rnn_layer.weight_hh_l0.copy_(W_hh.T)
    rnn_layer.bias_ih_l0.copy_(b_h)
    rnn_layer.bias_hh_l0.zero_()
    concise.linear.weight.copy_(W_hq.T)
    concise.linear.bias.copy_(b_q)
    Xb = corpus[:10].reshape(2, 5)
    y1, (h1,) = net(Xb, net.begin_state(2))
    y2, h2 = concise(Xb, concise.begin_state(2))
    print(torch.allclose(y1, y2, atol=1e-5), torch.allclose(h1, h2[0], atol=1e-5))
    print(y2[:2, :6])
print(repr(predict("the ", 12, concise)))
opt = torch.optim.SGD(concise.parameters(), lr=0.5)
for epoch in range(5):
    ppl, max_norm = train_epoch(concise, opt, batch_size=4, num_steps=8)
print(f"concise perplexity {ppl:.3f} max grad norm {max_norm:.4f}")
print(nn.utils.clip_grad_norm_(concise.parameters(), 0.5))
print(concise.rnn.weight_hh_l0.grad.norm())
