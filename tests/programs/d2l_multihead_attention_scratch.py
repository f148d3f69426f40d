# Models: the d2l "multi-head attention" and "positional encoding" sections: masked_softmax with
# valid_lens (1-D and 2-D), DotProductAttention, the transpose_qkv / transpose_output reshapes,
# MultiHeadAttention built from Linear layers, its output compared with nn.MultiheadAttention
# given the same weights, and the sinusoidal PositionalEncoding table with its dropout.
import math

import torch
from torch import nn

torch.manual_seed(0)


def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange(maxlen, dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
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


class DotProductAttention(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


def transpose_qkv(X, num_heads):
    X = X.reshape(X.shape[0], X.shape[1], num_heads, -1)
    X = X.permute(0, 2, 1, 3)
    return X.reshape(-1, X.shape[2], X.shape[3])


def transpose_output(X, num_heads):
    X = X.reshape(-1, num_heads, X.shape[1], X.shape[2])
    X = X.permute(0, 2, 1, 3)
    return X.reshape(X.shape[0], X.shape[1], -1)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_hiddens, num_heads, dropout, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.attention = DotProductAttention(dropout)
        self.W_q = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_k = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_v = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_o = nn.LazyLinear(num_hiddens, bias=bias)

    def forward(self, queries, keys, values, valid_lens):
        queries = transpose_qkv(self.W_q(queries), self.num_heads)
        keys = transpose_qkv(self.W_k(keys), self.num_heads)
        values = transpose_qkv(self.W_v(values), self.num_heads)
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        output = self.attention(queries, keys, values, valid_lens)
        return self.W_o(transpose_output(output, self.num_heads))


num_hiddens, num_heads = 16, 4
attention = MultiHeadAttention(num_hiddens, num_heads, 0.0)
batch_size, num_queries, num_kvpairs = 2, 4, 6
valid_lens = torch.tensor([3, 2])
X = torch.randn((batch_size, num_queries, num_hiddens))
Y = torch.randn((batch_size, num_kvpairs, num_hiddens))
out = attention(X, Y, Y, valid_lens)
print(attention)
print("output shape", out.shape)
print("head-0 weights of batch 0:\n", attention.attention.attention_weights[0])

ref = nn.MultiheadAttention(num_hiddens, num_heads, bias=False, batch_first=True)
with torch.no_grad():
    ref.in_proj_weight.copy_(torch.cat([attention.W_q.weight, attention.W_k.weight,
                                        attention.W_v.weight]))
    ref.out_proj.weight.copy_(attention.W_o.weight)
mask = torch.arange(num_kvpairs)[None, :] >= valid_lens[:, None]
ref_out, ref_w = ref(X, Y, Y, key_padding_mask=mask)
print("matches nn.MultiheadAttention:", torch.allclose(out, ref_out, atol=1e-5))
print("averaged weights row sums", ref_w.sum(-1))


class PositionalEncoding(nn.Module):
    def __init__(self, num_hiddens, dropout, max_len=1000):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.P = torch.zeros((1, max_len, num_hiddens))
        X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(
            10000, torch.arange(0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
        self.P[:, :, 0::2] = torch.sin(X)
        self.P[:, :, 1::2] = torch.cos(X)

    def forward(self, X):
        X = X + self.P[:, :X.shape[1], :].to(X.device)
        return self.dropout(X)


pos = PositionalEncoding(8, 0.1)
torch.set_printoptions(precision=4, sci_mode=False)
print(pos.P[0, :6])
pos.train()
print(pos(torch.zeros(1, 3, 8)))
pos.eval()
print(pos(torch.zeros(1, 3, 8))[0, 2])
print("relative position: P[t+k] is a rotation of P[t]:")
k, w = 3, 1 / 10000 ** (2 * 1 / 8)
rot = torch.tensor([[math.cos(k * w), math.sin(k * w)], [-math.sin(k * w), math.cos(k * w)]])
print(torch.allclose(rot @ pos.P[0, 5, 2:4], pos.P[0, 8, 2:4], atol=1e-5))
