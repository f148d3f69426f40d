# Models: Dive into Deep Learning's attention chapter: masked_softmax with valid_lens (1-D and
# 2-D), AdditiveAttention and DotProductAttention modules, the Nadaraya-Watson kernel
# regression with a learnable bandwidth, and a Bahdanau-attention seq2seq decoder step loop
# with GRU, trained on a toy reversal task with a masked softmax cross-entropy.
import torch
from torch import nn

torch.manual_seed(0)


def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange((maxlen), dtype=torch.float32,
                        device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X


def masked_softmax(X, valid_lens):
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return nn.functional.softmax(X.reshape(shape), dim=-1)


print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([2, 3])))
print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([[1, 3], [2, 4]])))


class AdditiveAttention(nn.Module):
    def __init__(self, num_hiddens, dropout, **kwargs):
        super().__init__(**kwargs)
        self.W_k = nn.LazyLinear(num_hiddens, bias=False)
        self.W_q = nn.LazyLinear(num_hiddens, bias=False)
        self.w_v = nn.LazyLinear(1, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        features = queries.unsqueeze(2) + keys.unsqueeze(1)
        features = torch.tanh(features)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


class DotProductAttention(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / d ** 0.5
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


queries = torch.normal(0, 1, (2, 1, 20))
keys = torch.normal(0, 1, (2, 10, 2))
values = torch.normal(0, 1, (2, 10, 4))
valid_lens = torch.tensor([2, 6])
attention = AdditiveAttention(num_hiddens=8, dropout=0.1)
attention.eval()
print(attention(queries, keys, values, valid_lens))
print(attention)
queries = torch.normal(0, 1, (2, 1, 2))
attention = DotProductAttention(dropout=0.5)
attention.eval()
print(attention(queries, keys, values, valid_lens), attention.attention_weights.sum(-1))

n_train = 50
x_train, _ = torch.sort(torch.rand(n_train) * 5)
y_train = 2 * torch.sin(x_train) + x_train ** 0.8 + torch.normal(0.0, 0.5, (n_train,))
x_test = torch.arange(0, 5, 0.5)


class NWKernelRegression(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.rand((1,), requires_grad=True))

    def forward(self, queries, keys, values):
        queries = queries.repeat_interleave(keys.shape[1]).reshape((-1, keys.shape[1]))
        self.attention_weights = nn.functional.softmax(-((queries - keys) * self.w) ** 2 / 2, dim=1)
        return torch.bmm(self.attention_weights.unsqueeze(1), values.unsqueeze(-1)).reshape(-1)


X_tile = x_train.repeat((n_train, 1))
Y_tile = y_train.repeat((n_train, 1))
keys = X_tile[(1 - torch.eye(n_train)).type(torch.bool)].reshape((n_train, -1))
values = Y_tile[(1 - torch.eye(n_train)).type(torch.bool)].reshape((n_train, -1))
net = NWKernelRegression()
loss = nn.MSELoss(reduction="none")
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
for epoch in range(5):
    trainer.zero_grad()
    l = loss(net(x_train, keys, values), y_train)
    l.sum().backward()
    trainer.step()
    print(f"epoch {epoch + 1}, loss {float(l.sum()):.6f}, w {net.w.item():.5f}")
with torch.no_grad():
    print(net(x_test, x_train.repeat((len(x_test), 1)), y_train.repeat((len(x_test), 1))))


class Seq2SeqAttentionDecoder(nn.Module):
    def __init__(self, vocab_size, embed_size, num_hiddens):
        super().__init__()
        self.attention = AdditiveAttention(num_hiddens, 0.0)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, batch_first=True)
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def forward(self, X, enc_outputs, hidden, enc_valid_lens):
        X = self.embedding(X).permute(1, 0, 2)
        outputs = []
        for x in X:
            query = hidden[-1].unsqueeze(1)
            context = self.attention(query, enc_outputs, enc_outputs, enc_valid_lens)
            x = torch.cat((context, x.unsqueeze(1)), dim=-1)
            out, hidden = self.rnn(x, hidden)
            outputs.append(out)
        return self.dense(torch.cat(outputs, dim=1)), hidden


V, T = 8, 5
src = torch.randint(2, V, (16, T))
tgt = src.flip(1)
valid = torch.randint(3, T + 1, (16,))
encoder_emb = nn.Embedding(V, 6)
encoder = nn.GRU(6, 12, batch_first=True)
decoder = Seq2SeqAttentionDecoder(V, 6, 12)
enc_out, enc_h = encoder(encoder_emb(src))
decoder(torch.zeros(16, 1, dtype=torch.long), enc_out, enc_h, valid)
params = [*encoder_emb.parameters(), *encoder.parameters(), *decoder.parameters()]
opt = torch.optim.Adam(params, lr=0.01)
ce = nn.CrossEntropyLoss(reduction="none")
for epoch in range(30):
    opt.zero_grad()
    enc_out, enc_h = encoder(encoder_emb(src))
    dec_in = torch.cat([torch.ones(16, 1, dtype=torch.long), tgt[:, :-1]], 1)
    logits, _ = decoder(dec_in, enc_out, enc_h, valid)
    weights = sequence_mask(torch.ones_like(tgt, dtype=torch.float32), valid)
    l = (ce(logits.permute(0, 2, 1), tgt) * weights).mean(dim=1)
    l.sum().backward()
    nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1}: loss {l.sum().item():.5f}")
print(decoder.attention.attention_weights.shape, decoder.attention.attention_weights[0, 0])
