# Models: an RNN course exercise: stacked bidirectional LSTM/GRU, packed variable-length
# sequences, initial states, embedding padding_idx, sequence classification with masking.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import (
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
)

torch.manual_seed(1)
seqs = [torch.randint(1, 20, (n,)) for n in (5, 3, 7, 2)]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
print(padded)
emb = nn.Embedding(20, 8, padding_idx=0)
lstm = nn.LSTM(8, 6, num_layers=2, bidirectional=True, batch_first=True)
gru = nn.GRU(8, 5, batch_first=True)
x = emb(padded)
packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
out, (h, c) = lstm(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens, h.shape, c.shape)
print(unpacked[1, :4, :3])
feat = torch.cat([h[-2], h[-1]], dim=1)
head = nn.Linear(12, 3)
logits = head(feat)
loss = nn.functional.cross_entropy(logits, torch.tensor([0, 1, 2, 1]))
loss.backward()
print(loss, emb.weight.grad[0].abs().sum(), lstm.weight_hh_l1_reverse.grad.norm())
h0 = torch.zeros(1, 4, 5)
go, gh = gru(x, h0)
print(go.shape, gh.squeeze(0)[:, :2])
ps = pack_sequence([torch.randn(3, 8), torch.randn(2, 8)])
po, ph = gru(ps)
print(po.data.shape, po.batch_sizes, ph.sum())
rnn = nn.RNN(8, 4, nonlinearity="relu", bias=False)
ro, rh = rnn(x.transpose(0, 1))
print(ro.shape, rh.mean())
cell = nn.LSTMCell(8, 6)
hx, cx = torch.zeros(4, 6), torch.zeros(4, 6)
for t in range(3):
    hx, cx = cell(x[:, t], (hx, cx))
print(hx.sum(), cx.sum())
emb2 = nn.Embedding(10, 4, max_norm=1.0)
idx = torch.tensor([1, 2, 1])
e2 = emb2(idx)
print(e2.norm(dim=1), emb2.weight.norm(dim=1)[:3])
bag = nn.EmbeddingBag(10, 3, mode="mean")
print(bag(torch.tensor([1, 2, 4, 5, 4, 3]), torch.tensor([0, 2])))
print(nn.functional.one_hot(torch.tensor([0, 3, 1]), 4))
