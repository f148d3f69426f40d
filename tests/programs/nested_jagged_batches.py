# Models: variable-length batch handling from NLP and point-cloud code: torch.nested
# nested_tensor construction and to_padded_tensor, unbind, nested size/dim; versus the
# classic path of pad_sequence / pack_padded_sequence / pad_packed_sequence, lengths to masks,
# masked mean pooling, and an LSTM encoder whose outputs are unpacked with total_length.
import torch
from torch import nn
from torch.nn.utils.rnn import (
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
    unpack_sequence,
    unpad_sequence,
)

torch.manual_seed(14)
seqs = [torch.randn(n, 3) for n in (4, 2, 5)]
nt = torch.nested.nested_tensor(seqs)
print(nt.is_nested, nt.dim(), nt.size(0))
padded = torch.nested.to_padded_tensor(nt, 0.0)
print(padded.shape, padded[1, 2:].abs().sum().item())
print([t.shape for t in nt.unbind()])
padded2 = pad_sequence(seqs, batch_first=True)
print("same as pad_sequence:", torch.equal(padded, padded2))
print(pad_sequence(seqs, batch_first=False, padding_value=-1.0).shape)
print(pad_sequence(seqs, batch_first=True, padding_side="left")[1, :, 0])
lengths = torch.tensor([len(s) for s in seqs])
mask = torch.arange(lengths.max())[None, :] < lengths[:, None]
print(mask)
mean_pool = (padded2 * mask[..., None]).sum(1) / lengths[:, None]
print("masked mean:", mean_pool)
print("unpad:", [t.shape for t in unpad_sequence(padded2, lengths, batch_first=True)])

packed = pack_padded_sequence(padded2, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, packed.data.shape)
lstm = nn.LSTM(3, 4, batch_first=True, bidirectional=True)
out, (h, c) = lstm(packed)
unpacked, out_lens = pad_packed_sequence(out, batch_first=True, total_length=6)
print(unpacked.shape, out_lens)
print("padding positions are zero:", unpacked[1, 2:].abs().sum().item() == 0)
print("h_n:", h.shape, torch.allclose(h[0, 0], unpacked[0, lengths[0] - 1, :4]))
ps = pack_sequence(sorted(seqs, key=len, reverse=True))
print(ps.batch_sizes, [t.shape for t in unpack_sequence(ps)])
ps2 = pack_sequence(seqs, enforce_sorted=False)
print(ps2.sorted_indices, ps2.to(torch.float64).data.dtype)
try:
    pack_sequence(seqs)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])
gru = nn.GRU(3, 5)
o, hn = gru(pack_padded_sequence(pad_sequence(seqs), lengths, enforce_sorted=False))
print(type(o).__name__, hn.shape, pad_packed_sequence(o)[0].shape)
