# Models: "The Annotated Transformer" (Harvard NLP) on its copy task: clones(), subsequent_mask,
# scaled dot-product attention with masked_fill(-1e9), Noam learning-rate schedule through
# LambdaLR, LabelSmoothing with KLDivLoss(reduction="sum"), SimpleLossCompute and greedy decoding.
import copy
import math

import torch
import torch.nn as nn


def clones(module, N):
    return nn.ModuleList([copy.deepcopy(module) for _ in range(N)])


def subsequent_mask(size):
    return torch.triu(torch.ones(1, size, size), diagonal=1).type(torch.uint8) == 0


def attention(query, key, value, mask=None, dropout=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    p_attn = scores.softmax(dim=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return torch.matmul(p_attn, value), p_attn


class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model, dropout=0.1):
        super().__init__()
        self.d_k, self.h = d_model // h, h
        self.linears = clones(nn.Linear(d_model, d_model), 4)
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)
        nb = query.size(0)
        query, key, value = [lin(x).view(nb, -1, self.h, self.d_k).transpose(1, 2)
                             for lin, x in zip(self.linears, (query, key, value))]
        x, self.attn = attention(query, key, value, mask=mask, dropout=self.dropout)
        x = x.transpose(1, 2).contiguous().view(nb, -1, self.h * self.d_k)
        return self.linears[-1](x)


class LayerNorm(nn.Module):
    def __init__(self, features, eps=1e-6):
        super().__init__()
        self.a_2 = nn.Parameter(torch.ones(features))
        self.b_2 = nn.Parameter(torch.zeros(features))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        std = x.std(-1, keepdim=True)
        return self.a_2 * (x - mean) / (std + self.eps) + self.b_2


class Sublayer(nn.Module):
    def __init__(self, size, dropout):
        super().__init__()
        self.norm, self.dropout = LayerNorm(size), nn.Dropout(dropout)

    def forward(self, x, sublayer):
        return x + self.dropout(sublayer(self.norm(x)))


class FFN(nn.Module):
    def __init__(self, d, d_ff, dropout=0.1):
        super().__init__()
        self.w_1, self.w_2 = nn.Linear(d, d_ff), nn.Linear(d_ff, d)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.w_2(self.dropout(self.w_1(x).relu()))


class EncoderLayer(nn.Module):
    def __init__(self, d, h, d_ff, dropout):
        super().__init__()
        self.attn, self.ff = MultiHeadedAttention(h, d, dropout), FFN(d, d_ff, dropout)
        self.sub = clones(Sublayer(d, dropout), 2)

    def forward(self, x, mask):
        x = self.sub[0](x, lambda x: self.attn(x, x, x, mask))
        return self.sub[1](x, self.ff)


class DecoderLayer(nn.Module):
    def __init__(self, d, h, d_ff, dropout):
        super().__init__()
        self.self_attn = MultiHeadedAttention(h, d, dropout)
        self.src_attn = MultiHeadedAttention(h, d, dropout)
        self.ff = FFN(d, d_ff, dropout)
        self.sub = clones(Sublayer(d, dropout), 3)

    def forward(self, x, memory, src_mask, tgt_mask):
        x = self.sub[0](x, lambda x: self.self_attn(x, x, x, tgt_mask))
        x = self.sub[1](x, lambda x: self.src_attn(x, memory, memory, src_mask))
        return self.sub[2](x, self.ff)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return self.dropout(x + self.pe[:, : x.size(1)].requires_grad_(False))


class EncoderDecoder(nn.Module):
    def __init__(self, vocab, d=32, h=4, d_ff=64, N=2, dropout=0.1):
        super().__init__()
        self.src_embed = nn.Sequential(nn.Embedding(vocab, d), PositionalEncoding(d, dropout))
        self.tgt_embed = nn.Sequential(nn.Embedding(vocab, d), PositionalEncoding(d, dropout))
        self.enc = clones(EncoderLayer(d, h, d_ff, dropout), N)
        self.dec = clones(DecoderLayer(d, h, d_ff, dropout), N)
        self.enc_norm, self.dec_norm = LayerNorm(d), LayerNorm(d)
        self.generator = nn.Linear(d, vocab)
        self.d = d
        for p in self.parameters():
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)

    def encode(self, src, src_mask):
        x = self.src_embed(src) * math.sqrt(self.d)
        for layer in self.enc:
            x = layer(x, src_mask)
        return self.enc_norm(x)

    def decode(self, memory, src_mask, tgt, tgt_mask):
        x = self.tgt_embed(tgt) * math.sqrt(self.d)
        for layer in self.dec:
            x = layer(x, memory, src_mask, tgt_mask)
        return self.dec_norm(x)


class LabelSmoothing(nn.Module):
    def __init__(self, size, padding_idx, smoothing=0.0):
        super().__init__()
        self.criterion = nn.KLDivLoss(reduction="sum")
        self.padding_idx, self.confidence = padding_idx, 1.0 - smoothing
        self.smoothing, self.size = smoothing, size

    def forward(self, x, target):
        true_dist = x.data.clone()
        true_dist.fill_(self.smoothing / (self.size - 2))
        true_dist.scatter_(1, target.data.unsqueeze(1), self.confidence)
        true_dist[:, self.padding_idx] = 0
        mask = torch.nonzero(target.data == self.padding_idx)
        if mask.dim() > 0:
            true_dist.index_fill_(0, mask.squeeze(), 0.0)
        self.true_dist = true_dist
        return self.criterion(x, true_dist.clone().detach())


def rate(step, model_size, factor, warmup):
    if step == 0:
        step = 1
    return factor * (model_size ** (-0.5) * min(step ** (-0.5), step * warmup ** (-1.5)))


crit = LabelSmoothing(5, 0, 0.4)
predict = torch.FloatTensor([[0, 0.2, 0.7, 0.1, 0], [0, 0.2, 0.7, 0.1, 0],
                             [0, 0.2, 0.7, 0.1, 0]])
print(crit(predict.log(), torch.LongTensor([2, 1, 0])), crit.true_dist)
print(subsequent_mask(4))
torch.manual_seed(0)
V = 11
model = EncoderDecoder(V)
opt = torch.optim.Adam(model.parameters(), lr=0.5, betas=(0.9, 0.98), eps=1e-9)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: rate(s, 32, 1.0, 40))
criterion = LabelSmoothing(V, 0, 0.0)
for epoch in range(4):
    model.train()
    total, tokens = 0.0, 0
    for _ in range(5):
        data = torch.randint(1, V, size=(16, 8))
        data[:, 0] = 1
        src, tgt = data, data
        src_mask = (src != 0).unsqueeze(-2)
        tgt_in, tgt_y = tgt[:, :-1], tgt[:, 1:]
        tgt_mask = (tgt_in != 0).unsqueeze(-2) & subsequent_mask(tgt_in.size(-1))
        out = model.decode(model.encode(src, src_mask), src_mask, tgt_in, tgt_mask)
        logp = model.generator(out).log_softmax(-1)
        ntok = (tgt_y != 0).sum()
        loss = criterion(logp.contiguous().view(-1, V), tgt_y.contiguous().view(-1)) / ntok
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        sched.step()
        total += loss.item() * ntok.item()
        tokens += ntok.item()
    print(f"epoch {epoch} loss/token {total / tokens:.5f} lr {opt.param_groups[0]['lr']:.6f}")
model.eval()
src = torch.LongTensor([[1, 2, 3, 4, 5, 6, 7, 8]])
src_mask = torch.ones(1, 1, 8)
memory = model.encode(src, src_mask)
ys = torch.zeros(1, 1).fill_(1).type_as(src.data)
for i in range(7):
    out = model.decode(memory, src_mask, ys, subsequent_mask(ys.size(1)).type_as(src.data))
    prob = model.generator(out[:, -1]).log_softmax(-1)
    _, next_word = torch.max(prob, dim=1)
    ys = torch.cat([ys, torch.zeros(1, 1).type_as(src.data).fill_(next_word.data[0])], dim=1)
print(ys)
print(model.dec[0].src_attn.attn[0, 0].sum(-1))
