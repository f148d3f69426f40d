# Models: the d2l "Transformer" chapter built from its pieces: PositionWiseFFN, AddNorm,
# TransformerEncoderBlock / DecoderBlock with cached key-values in the decoder state, the
# encoder's valid_lens masking and the decoder's causal dec_valid_lens during training, trained
# on a toy reversal "translation" task with a masked cross-entropy, then greedy decoding step by
# step from the cached state.
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def masked_softmax(X, valid_lens):
    if valid_lens is None:
        return F.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = X.reshape(-1, shape[-1])
    mask = torch.arange(shape[-1])[None, :] < valid_lens[:, None]
    X = X.masked_fill(~mask, -1e6)
    return F.softmax(X.reshape(shape), dim=-1)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_hiddens, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.W_q = nn.Linear(num_hiddens, num_hiddens, bias=False)
        self.W_k = nn.Linear(num_hiddens, num_hiddens, bias=False)
        self.W_v = nn.Linear(num_hiddens, num_hiddens, bias=False)
        self.W_o = nn.Linear(num_hiddens, num_hiddens, bias=False)

    def split(self, X):
        X = X.reshape(X.shape[0], X.shape[1], self.num_heads, -1).permute(0, 2, 1, 3)
        return X.reshape(-1, X.shape[2], X.shape[3])

    def forward(self, q, k, v, valid_lens):
        q, k, v = self.split(self.W_q(q)), self.split(self.W_k(k)), self.split(self.W_v(v))
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, self.num_heads, dim=0)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(q.shape[-1])
        self.attention_weights = masked_softmax(scores, valid_lens)
        out = torch.bmm(self.attention_weights, v)
        out = out.reshape(-1, self.num_heads, out.shape[1], out.shape[2]).permute(0, 2, 1, 3)
        return self.W_o(out.reshape(out.shape[0], out.shape[1], -1))


class PositionWiseFFN(nn.Module):
    def __init__(self, ffn_num_hiddens, ffn_num_outputs):
        super().__init__()
        self.dense1 = nn.LazyLinear(ffn_num_hiddens)
        self.relu = nn.ReLU()
        self.dense2 = nn.LazyLinear(ffn_num_outputs)

    def forward(self, X):
        return self.dense2(self.relu(self.dense1(X)))


class AddNorm(nn.Module):
    def __init__(self, norm_shape, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.ln = nn.LayerNorm(norm_shape)

    def forward(self, X, Y):
        return self.ln(self.dropout(Y) + X)


ffn = PositionWiseFFN(4, 8)
ffn.eval()
print(ffn(torch.ones((2, 3, 4)))[0])
add_norm = AddNorm(4, 0.5)
print(add_norm(torch.ones((2, 3, 4)), torch.ones((2, 3, 4))).shape)


class EncoderBlock(nn.Module):
    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout):
        super().__init__()
        self.attention = MultiHeadAttention(num_hiddens, num_heads)
        self.addnorm1 = AddNorm(num_hiddens, dropout)
        self.ffn = PositionWiseFFN(ffn_num_hiddens, num_hiddens)
        self.addnorm2 = AddNorm(num_hiddens, dropout)

    def forward(self, X, valid_lens):
        Y = self.addnorm1(X, self.attention(X, X, X, valid_lens))
        return self.addnorm2(Y, self.ffn(Y))


class DecoderBlock(nn.Module):
    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout, i):
        super().__init__()
        self.i = i
        self.attention1 = MultiHeadAttention(num_hiddens, num_heads)
        self.addnorm1 = AddNorm(num_hiddens, dropout)
        self.attention2 = MultiHeadAttention(num_hiddens, num_heads)
        self.addnorm2 = AddNorm(num_hiddens, dropout)
        self.ffn = PositionWiseFFN(ffn_num_hiddens, num_hiddens)
        self.addnorm3 = AddNorm(num_hiddens, dropout)

    def forward(self, X, state):
        enc_outputs, enc_valid_lens = state[0], state[1]
        if state[2][self.i] is None:
            key_values = X
        else:
            key_values = torch.cat((state[2][self.i], X), dim=1)
        state[2][self.i] = key_values
        if self.training:
            batch_size, num_steps, _ = X.shape
            dec_valid_lens = torch.arange(1, num_steps + 1).repeat(batch_size, 1)
        else:
            dec_valid_lens = None
        X2 = self.attention1(X, key_values, key_values, dec_valid_lens)
        Y = self.addnorm1(X, X2)
        Y2 = self.attention2(Y, enc_outputs, enc_outputs, enc_valid_lens)
        Z = self.addnorm2(Y, Y2)
        return self.addnorm3(Z, self.ffn(Z)), state


def pos_encoding(max_len, d):
    P = torch.zeros(1, max_len, d)
    X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(
        10000, torch.arange(0, d, 2, dtype=torch.float32) / d)
    P[:, :, 0::2], P[:, :, 1::2] = torch.sin(X), torch.cos(X)
    return P


class Seq2Seq(nn.Module):
    def __init__(self, vocab, d, ffn, heads, layers, dropout=0.0):
        super().__init__()
        self.d = d
        self.src_emb, self.tgt_emb = nn.Embedding(vocab, d), nn.Embedding(vocab, d)
        self.P = pos_encoding(50, d)
        self.enc = nn.ModuleList(EncoderBlock(d, ffn, heads, dropout) for _ in range(layers))
        self.dec = nn.ModuleList(DecoderBlock(d, ffn, heads, dropout, i) for i in range(layers))
        self.dense = nn.Linear(d, vocab)

    def encode(self, src, valid_lens):
        X = self.src_emb(src) * math.sqrt(self.d) + self.P[:, :src.shape[1]]
        for blk in self.enc:
            X = blk(X, valid_lens)
        return [X, valid_lens, [None] * len(self.dec)]

    def decode(self, tgt, state, offset=0):
        X = self.tgt_emb(tgt) * math.sqrt(self.d) + self.P[:, offset:offset + tgt.shape[1]]
        for blk in self.dec:
            X, state = blk(X, state)
        return self.dense(X), state


BOS, EOS, PAD, V = 1, 2, 0, 10
n, L = 48, 5
lens = torch.randint(2, L + 1, (n,))
src = torch.full((n, L + 1), PAD)
tgt_in = torch.full((n, L + 2), PAD)
tgt_out = torch.full((n, L + 2), PAD)
for i in range(n):
    s = torch.randint(3, V, (lens[i].item(),))
    src[i, :len(s)] = s
    src[i, len(s)] = EOS
    r = s.flip(0)
    tgt_in[i, 0] = BOS
    tgt_in[i, 1:len(r) + 1] = r
    tgt_out[i, :len(r)] = r
    tgt_out[i, len(r)] = EOS
src_valid = lens + 1
print("example:", src[0].tolist(), "->", tgt_out[0].tolist())

model = Seq2Seq(V, 16, 32, 2, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(24):
    model.train()
    state = model.encode(src, src_valid)
    logits, _ = model.decode(tgt_in, state)
    l = F.cross_entropy(logits.reshape(-1, V), tgt_out.reshape(-1), reduction="none")
    mask = (tgt_out != PAD).reshape(-1).float()
    loss = (l * mask).sum() / mask.sum()
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if epoch % 8 == 7:
        print(f"epoch {epoch + 1} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    for i in range(3):
        state = model.encode(src[i:i + 1], src_valid[i:i + 1])
        tok, out = torch.tensor([[BOS]]), []
        for step in range(L + 2):
            logits, state = model.decode(tok, state, offset=step)
            tok = logits.argmax(-1)
            if tok.item() == EOS:
                break
            out.append(tok.item())
        print(src[i, :lens[i]].tolist(), "->", out, "cache len", state[2][0].shape[1])
    w = model.dec[0].attention2.attention_weights
    print("last cross-attention weights (head 0)", w[0])
