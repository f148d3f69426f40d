# Models: the "Language translation with nn.Transformer" tutorial: Seq2SeqTransformer with token
# embeddings scaled by sqrt(d), sinusoidal PositionalEncoding, create_mask with
# generate_square_subsequent_mask and padding masks, a few training steps, greedy decoding.
import math

import torch
import torch.nn as nn
from torch.nn import Transformer

torch.manual_seed(0)
PAD_IDX, BOS_IDX, EOS_IDX = 1, 2, 3
SRC_V, TGT_V, EMB = 12, 11, 16


class PositionalEncoding(nn.Module):
    def __init__(self, emb_size, dropout, maxlen=50):
        super().__init__()
        den = torch.exp(-torch.arange(0, emb_size, 2) * math.log(10000) / emb_size)
        pos = torch.arange(0, maxlen).reshape(maxlen, 1)
        pe = torch.zeros((maxlen, emb_size))
        pe[:, 0::2] = torch.sin(pos * den)
        pe[:, 1::2] = torch.cos(pos * den)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("pos_embedding", pe.unsqueeze(-2))

    def forward(self, token_embedding):
        return self.dropout(token_embedding + self.pos_embedding[: token_embedding.size(0), :])


class Seq2SeqTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer = Transformer(
            d_model=EMB,
            nhead=2,
            num_encoder_layers=2,
            num_decoder_layers=2,
            dim_feedforward=32,
            dropout=0.1,
        )
        self.generator = nn.Linear(EMB, TGT_V)
        self.src_tok_emb = nn.Embedding(SRC_V, EMB)
        self.tgt_tok_emb = nn.Embedding(TGT_V, EMB)
        self.positional_encoding = PositionalEncoding(EMB, dropout=0.1)

    def forward(
        self,
        src,
        trg,
        src_mask,
        tgt_mask,
        src_padding_mask,
        tgt_padding_mask,
        memory_key_padding_mask,
    ):
        src_emb = self.positional_encoding(self.src_tok_emb(src) * math.sqrt(EMB))
        tgt_emb = self.positional_encoding(self.tgt_tok_emb(trg) * math.sqrt(EMB))
        outs = self.transformer(
            src_emb,
            tgt_emb,
            src_mask,
            tgt_mask,
            None,
            src_padding_mask,
            tgt_padding_mask,
            memory_key_padding_mask,
        )
        return self.generator(outs)

    def encode(self, src, src_mask):
        return self.transformer.encoder(
            self.positional_encoding(self.src_tok_emb(src) * math.sqrt(EMB)), src_mask
        )

    def decode(self, tgt, memory, tgt_mask):
        return self.transformer.decoder(
            self.positional_encoding(self.tgt_tok_emb(tgt) * math.sqrt(EMB)), memory, tgt_mask
        )


def generate_square_subsequent_mask(sz):
    mask = (torch.triu(torch.ones((sz, sz))) == 1).transpose(0, 1)
    return mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, 0.0)


def create_mask(src, tgt):
    src_seq_len, tgt_seq_len = src.shape[0], tgt.shape[0]
    tgt_mask = generate_square_subsequent_mask(tgt_seq_len)
    src_mask = torch.zeros((src_seq_len, src_seq_len)).type(torch.bool)
    return src_mask, tgt_mask, (src == PAD_IDX).transpose(0, 1), (tgt == PAD_IDX).transpose(0, 1)


print(generate_square_subsequent_mask(4))
print(
    torch.equal(generate_square_subsequent_mask(5), Transformer.generate_square_subsequent_mask(5))
)
model = Seq2SeqTransformer()
for p in model.parameters():
    if p.dim() > 1:
        nn.init.xavier_uniform_(p)
src = torch.tensor([[2, 5, 6, 7, 3], [2, 8, 4, 3, 1], [2, 9, 3, 1, 1]]).T
tgt = torch.tensor([[2, 7, 6, 5, 3], [2, 4, 8, 3, 1], [2, 9, 3, 1, 1]]).T
loss_fn = nn.CrossEntropyLoss(ignore_index=PAD_IDX)
opt = torch.optim.Adam(model.parameters(), lr=0.005, betas=(0.9, 0.98), eps=1e-9)
model.train()
for ep in range(12):
    tgt_input = tgt[:-1, :]
    src_mask, tgt_mask, src_pm, tgt_pm = create_mask(src, tgt_input)
    logits = model(src, tgt_input, src_mask, tgt_mask, src_pm, tgt_pm, src_pm)
    loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt[1:, :].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if ep % 3 == 0:
        print(f"epoch {ep} loss {loss.item():.5f}")


def greedy_decode(model, src, src_mask, max_len, start_symbol):
    memory = model.encode(src, src_mask)
    ys = torch.ones(1, 1).fill_(start_symbol).type(torch.long)
    for i in range(max_len - 1):
        tgt_mask = generate_square_subsequent_mask(ys.size(0)).type(torch.bool)
        out = model.decode(ys, memory, tgt_mask).transpose(0, 1)
        prob = model.generator(out[:, -1])
        _, next_word = torch.max(prob, dim=1)
        next_word = next_word.item()
        ys = torch.cat([ys, torch.ones(1, 1).type_as(src.data).fill_(next_word)], dim=0)
        if next_word == EOS_IDX:
            break
    return ys


model.eval()
s = src[:, :1]
print(greedy_decode(model, s, torch.zeros(5, 5).type(torch.bool), 7, BOS_IDX).flatten())
