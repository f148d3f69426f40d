# Models: pytorch/examples word_language_model -- a corpus tokenised into a word dictionary,
# batchify into columns, get_batch with bptt, an RNNModel (Embedding, LSTM, dropout, Linear
# decoder with tied weights), repackage_hidden between batches, clip_grad_norm_, manual SGD
# updates with a decaying lr, and perplexity on a validation split.
import math

import torch
import torch.nn as nn

torch.manual_seed(1111)

text = ("the cat sat on the mat . the dog sat on the log . a cat and a dog met on the mat . "
        "the log was near the mat . a dog ran to the cat . the cat ran to the log . ") * 6


class Dictionary:
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


dictionary = Dictionary()
ids = torch.tensor([dictionary.add_word(w) for w in text.split()], dtype=torch.int64)
split = int(0.8 * len(ids))
train_ids, val_ids = ids[:split], ids[split:]
print("vocab", len(dictionary), "train tokens", len(train_ids), "val tokens", len(val_ids))


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


train_data = batchify(train_ids, 4)
val_data = batchify(val_ids, 2)
print("train_data", train_data.shape, "val_data", val_data.shape)
bptt = 8


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.2, tie_weights=True):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.nhid, self.nlayers = nhid, nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.decoder.out_features)
        return torch.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


model = RNNModel(len(dictionary), 16, 16, 2)
print(model)
print("parameters", sum(p.numel() for p in model.parameters()))
criterion = nn.NLLLoss()


def evaluate(data_source):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(data_source.size(1))
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, bptt):
            data, targets = get_batch(data_source, i)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


lr = 5.0
best_val = None
for epoch in range(1, 5):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(train_data.size(1))
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
    val_loss = evaluate(val_data)
    print(f"| epoch {epoch:3d} | train loss {total_loss / (batch + 1):5.3f} | "
          f"valid loss {val_loss:5.3f} | valid ppl {math.exp(val_loss):8.3f}")
    if best_val is None or val_loss < best_val:
        best_val = val_loss
    else:
        lr /= 4.0
print("best val ppl", round(math.exp(best_val), 3))

model.eval()
hidden = model.init_hidden(1)
inp = torch.tensor([[dictionary.word2idx["the"]]])
words = []
with torch.no_grad():
    for _ in range(10):
        output, hidden = model(inp, hidden)
        word_weights = output.squeeze().div(1.0).exp()
        word_idx = torch.multinomial(word_weights, 1)[0]
        inp.fill_(word_idx)
        words.append(dictionary.idx2word[word_idx])
print(" ".join(words))
