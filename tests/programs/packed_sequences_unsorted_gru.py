# Models: variable-length batches in an RNN classifier as in the pack_padded_sequence docs and
# forum answers: pad_sequence, pack_padded_sequence with enforce_sorted=False (sorted_indices /
# unsorted_indices), pad_packed_sequence with total_length, last hidden state per sequence.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import (
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
)

torch.manual_seed(0)
seqs = [torch.randn(n, 3) for n in (2, 5, 3, 4)]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True, padding_value=0.0)
print(padded.shape, lengths)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
print(packed.data.shape)
gru = nn.GRU(3, 4, batch_first=True, bidirectional=True)
out, h = gru(packed)
print(type(out).__name__, out.data.shape, h.shape)
unpacked, out_lens = pad_packed_sequence(out, batch_first=True, total_length=6)
print(unpacked.shape, out_lens)
print(unpacked[0, 2:].abs().sum().item())
last_fwd = unpacked[torch.arange(4), lengths - 1, :4]
print(torch.allclose(last_fwd, h[0], atol=1e-6))
print(torch.allclose(unpacked[:, 0, 4:], h[1], atol=1e-6))
for i, s in enumerate(seqs):
    o, hi = gru(s[None])
    print(i, torch.allclose(o[0], unpacked[i, : len(s)], atol=1e-6))
try:
    pack_padded_sequence(padded, lengths, batch_first=True)
except RuntimeError as e:
    print(e)
ps = pack_sequence(seqs, enforce_sorted=False)
print(ps.batch_sizes, torch.equal(ps.data, packed.data))
lstm = nn.LSTM(3, 5, num_layers=2)
o2, (h2, c2) = lstm(ps)
print(h2.shape, c2[1])
up2, l2 = pad_packed_sequence(o2, padding_value=-1.0)
print(up2.shape, up2[:, 0, 0])
clf = nn.Linear(8, 2)
logits = clf(torch.cat([h[0], h[1]], 1))
loss = nn.functional.cross_entropy(logits, torch.tensor([0, 1, 1, 0]))
loss.backward()
print(loss, gru.weight_hh_l0_reverse.grad.abs().sum() > 0)
