# Models: the "NLP From Scratch: Translation with a Sequence to Sequence Network and Attention"
# tutorial -- an EncoderRNN (Embedding + GRU) and an AttnDecoderRNN (Bahdanau-style additive
# attention with bmm), teacher forcing, NLLLoss, then greedy decoding, on a toy reversal task.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, EOS = 0, 1
VOCAB, HIDDEN, MAX_LEN = 8, 32, 6
random.seed(0)
torch.manual_seed(0)


def make_pair():
    n = random.randint(2, 4)
    src = [random.randint(2, VOCAB - 1) for _ in range(n)]
    return src + [EOS], src[::-1] + [EOS]


pairs = [make_pair() for _ in range(40)]
print(pairs[:3])


class EncoderRNN(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)

    def forward(self, x):
        return self.gru(self.embedding(x))


class BahdanauAttention(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.Wa = nn.Linear(hidden, hidden)
        self.Ua = nn.Linear(hidden, hidden)
        self.Va = nn.Linear(hidden, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        return torch.bmm(weights, keys), weights


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden)
        self.attention = BahdanauAttention(hidden)
        self.gru = nn.GRU(2 * hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def step(self, token, hidden, enc_out):
        embedded = self.embedding(token)
        query = hidden.permute(1, 0, 2)
        context, weights = self.attention(query, enc_out)
        output, hidden = self.gru(torch.cat((embedded, context), dim=2), hidden)
        return F.log_softmax(self.out(output), dim=-1), hidden, weights


encoder, decoder = EncoderRNN(VOCAB, HIDDEN), AttnDecoderRNN(HIDDEN, VOCAB)
params = list(encoder.parameters()) + list(decoder.parameters())
print(sum(p.numel() for p in params))
optimizer = torch.optim.Adam(params, lr=0.01)
criterion = nn.NLLLoss()

for epoch in range(1, 4):
    total = 0.0
    for src, tgt in pairs[:28]:
        x = torch.tensor([src])
        y = torch.tensor(tgt)
        enc_out, hidden = encoder(x)
        token = torch.tensor([[SOS]])
        loss = 0
        teacher = random.random() < 0.5
        for t in range(len(tgt)):
            logp, hidden, _ = decoder.step(token, hidden, enc_out)
            loss = loss + criterion(logp.squeeze(1), y[t:t + 1])
            token = y[t].view(1, 1) if teacher else logp.argmax(-1).detach()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() / len(tgt)
    print(f"epoch {epoch} loss {total / 28:.4f}")


def translate(src):
    with torch.no_grad():
        enc_out, hidden = encoder(torch.tensor([src]))
        token, out, attn = torch.tensor([[SOS]]), [], []
        for _ in range(MAX_LEN):
            logp, hidden, w = decoder.step(token, hidden, enc_out)
            token = logp.argmax(-1)
            attn.append(w.squeeze())
            if token.item() == EOS:
                break
            out.append(token.item())
        return out, torch.stack(attn)


correct = 0
for src, tgt in pairs[28:]:
    out, _ = translate(src)
    correct += out == tgt[:-1]
print("held-out exact matches:", correct, "of", len(pairs) - 28)
out, attn = translate([3, 5, 7, EOS])
print(out)
print(attn.shape, attn.sum(dim=1))
