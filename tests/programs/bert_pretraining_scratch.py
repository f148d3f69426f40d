# Models: the d2l.ai "Bidirectional Encoder Representations from Transformers (BERT)" and
# "Pretraining BERT" chapters -- multi-head attention with transpose_qkv and masked softmax,
# AddNorm/PositionWiseFFN encoder blocks, segment and learned position embeddings, the masked
# LM head (repeat_interleave batch index) and next-sentence prediction, trained jointly.
import math

import torch
from torch import nn

torch.manual_seed(2)


def masked_softmax(X, valid_lens):
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = (
            torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :]
            < valid_len[:, None]
        )
        X[~mask] = value
        return X

    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return nn.functional.softmax(X.reshape(shape), dim=-1)


class DotProductAttention(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_hiddens, num_heads, dropout, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.attention = DotProductAttention(dropout)
        self.W_q = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_k = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_v = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_o = nn.LazyLinear(num_hiddens, bias=bias)

    def transpose_qkv(self, X):
        X = X.reshape(X.shape[0], X.shape[1], self.num_heads, -1)
        X = X.permute(0, 2, 1, 3)
        return X.reshape(-1, X.shape[2], X.shape[3])

    def transpose_output(self, X):
        X = X.reshape(-1, self.num_heads, X.shape[1], X.shape[2])
        X = X.permute(0, 2, 1, 3)
        return X.reshape(X.shape[0], X.shape[1], -1)

    def forward(self, queries, keys, values, valid_lens):
        queries = self.transpose_qkv(self.W_q(queries))
        keys = self.transpose_qkv(self.W_k(keys))
        values = self.transpose_qkv(self.W_v(values))
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        output = self.attention(queries, keys, values, valid_lens)
        return self.W_o(self.transpose_output(output))


num_hiddens, num_heads = 16, 4
attention = MultiHeadAttention(num_hiddens, num_heads, 0.5)
print(attention)
batch_size, num_queries, num_kvpairs = 2, 4, 6
valid_lens = torch.tensor([3, 2])
X = torch.ones((batch_size, num_queries, num_hiddens))
Y = torch.ones((batch_size, num_kvpairs, num_hiddens))
attention.eval()
print(attention(X, Y, Y, valid_lens).shape)
print(attention.W_q, attention.W_q.weight.shape)


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


ln = nn.LayerNorm(2)
bn = nn.LazyBatchNorm1d()
X = torch.tensor([[1, 2], [2, 3]], dtype=torch.float32)
print("layer norm:", ln(X), "\nbatch norm:", bn(X))
add_norm = AddNorm(4, 0.5)
print(add_norm(torch.ones((2, 3, 4)), torch.ones((2, 3, 4))).shape)


class TransformerEncoderBlock(nn.Module):
    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout, use_bias=False):
        super().__init__()
        self.attention = MultiHeadAttention(num_hiddens, num_heads, dropout, use_bias)
        self.addnorm1 = AddNorm(num_hiddens, dropout)
        self.ffn = PositionWiseFFN(ffn_num_hiddens, num_hiddens)
        self.addnorm2 = AddNorm(num_hiddens, dropout)

    def forward(self, X, valid_lens):
        Y = self.addnorm1(X, self.attention(X, X, X, valid_lens))
        return self.addnorm2(Y, self.ffn(Y))


def get_tokens_and_segments(tokens_a, tokens_b=None):
    tokens = ["<cls>"] + tokens_a + ["<sep>"]
    segments = [0] * (len(tokens_a) + 2)
    if tokens_b is not None:
        tokens += tokens_b + ["<sep>"]
        segments += [1] * (len(tokens_b) + 1)
    return tokens, segments


print(get_tokens_and_segments(["a", "crane", "is", "flying"], ["it", "lands"]))


class BERTEncoder(nn.Module):
    def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, dropout,
                 max_len=1000):  # fmt: skip
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, num_hiddens)
        self.segment_embedding = nn.Embedding(2, num_hiddens)
        self.blks = nn.Sequential()
        for i in range(num_blks):
            self.blks.add_module(
                f"{i}",
                TransformerEncoderBlock(num_hiddens, ffn_num_hiddens, num_heads, dropout, True),
            )
        self.pos_embedding = nn.Parameter(torch.randn(1, max_len, num_hiddens))

    def forward(self, tokens, segments, valid_lens):
        X = self.token_embedding(tokens) + self.segment_embedding(segments)
        X = X + self.pos_embedding[:, : X.shape[1], :]
        for blk in self.blks:
            X = blk(X, valid_lens)
        return X


class MaskLM(nn.Module):
    def __init__(self, vocab_size, num_hiddens):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.LazyLinear(num_hiddens), nn.ReLU(), nn.LayerNorm(num_hiddens),
            nn.LazyLinear(vocab_size),
        )  # fmt: skip

    def forward(self, X, pred_positions):
        num_pred_positions = pred_positions.shape[1]
        pred_positions = pred_positions.reshape(-1)
        batch_size = X.shape[0]
        batch_idx = torch.arange(0, batch_size)
        batch_idx = torch.repeat_interleave(batch_idx, num_pred_positions)
        masked_X = X[batch_idx, pred_positions]
        masked_X = masked_X.reshape((batch_size, num_pred_positions, -1))
        return self.mlp(masked_X)


class NextSentencePred(nn.Module):
    def __init__(self):
        super().__init__()
        self.output = nn.LazyLinear(2)

    def forward(self, X):
        return self.output(X)


class BERTModel(nn.Module):
    def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, dropout,
                 max_len=1000):  # fmt: skip
        super().__init__()
        self.encoder = BERTEncoder(
            vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, dropout, max_len=max_len
        )
        self.hidden = nn.Sequential(nn.LazyLinear(num_hiddens), nn.Tanh())
        self.mlm = MaskLM(vocab_size, num_hiddens)
        self.nsp = NextSentencePred()

    def forward(self, tokens, segments, valid_lens=None, pred_positions=None):
        encoded_X = self.encoder(tokens, segments, valid_lens)
        if pred_positions is not None:
            mlm_Y_hat = self.mlm(encoded_X, pred_positions)
        else:
            mlm_Y_hat = None
        nsp_Y_hat = self.nsp(self.hidden(encoded_X[:, 0, :]))
        return encoded_X, mlm_Y_hat, nsp_Y_hat


vocab_size, max_len, n = 30, 12, 16
net = BERTModel(vocab_size, num_hiddens=16, ffn_num_hiddens=32, num_heads=2, num_blks=2,
                dropout=0.1, max_len=max_len)  # fmt: skip
tokens = torch.randint(4, vocab_size, (n, max_len))
valid_lens = torch.randint(6, max_len + 1, (n,))
segments = (torch.arange(max_len)[None, :] >= (valid_lens[:, None] // 2)).long()
pos = torch.arange(max_len)[None, :].expand(n, -1)
tokens[pos >= valid_lens[:, None]] = 0
tokens[:, 0] = 1
pred_positions = torch.stack([torch.randperm(5)[:3] + 1 for _ in range(n)])
mlm_Y = tokens.gather(1, pred_positions)
mlm_weights = torch.ones(n, 3)
mlm_weights[valid_lens < 7, 2] = 0
masked = tokens.scatter(1, pred_positions, 2)
nsp_y = (tokens[:, 1] > tokens[:, 2]).long()
print(masked[:2], mlm_Y[:2], nsp_y)
encoded_X, mlm_Y_hat, nsp_Y_hat = net(masked, segments, valid_lens.float(), pred_positions)
print(encoded_X.shape, mlm_Y_hat.shape, nsp_Y_hat.shape)
print(net.mlm.mlp)
print(sum(p.numel() for p in net.parameters()))
loss = nn.CrossEntropyLoss(reduction="none")


def _get_batch_loss_bert(net, loss, vocab_size, tokens_X, segments_X, valid_lens_x,
                         pred_positions_X, mlm_weights_X, mlm_Y, nsp_y):  # fmt: skip
    _, mlm_Y_hat, nsp_Y_hat = net(tokens_X, segments_X, valid_lens_x.reshape(-1), pred_positions_X)
    mlm_l = loss(mlm_Y_hat.reshape(-1, vocab_size), mlm_Y.reshape(-1)) * mlm_weights_X.reshape(
        -1, 1
    )
    mlm_l = mlm_l.sum() / (mlm_weights_X.sum() + 1e-8)
    nsp_l = loss(nsp_Y_hat, nsp_y)
    nsp_l = nsp_l.mean()
    l = mlm_l + nsp_l
    return mlm_l, nsp_l, l


trainer = torch.optim.Adam(net.parameters(), lr=0.01)
for step in range(12):
    trainer.zero_grad()
    mlm_l, nsp_l, l = _get_batch_loss_bert(
        net, loss, vocab_size, masked, segments, valid_lens.float(), pred_positions,
        mlm_weights, mlm_Y, nsp_y,
    )  # fmt: skip
    l.backward()
    trainer.step()
    if step % 3 == 2:
        print(f"step {step + 1}: MLM loss {mlm_l:.3f}, NSP loss {nsp_l:.3f}")
net.eval()
with torch.no_grad():
    enc, mlm_hat, nsp_hat = net(
        masked[:2], segments[:2], valid_lens[:2].float(), pred_positions[:2]
    )
    print(enc[:, 0, :4], mlm_hat.argmax(-1), nsp_hat.softmax(-1))
    attn = net.encoder.blks[0].attention.attention.attention_weights
    print(attn.shape, attn[0, 0], valid_lens[:2])
