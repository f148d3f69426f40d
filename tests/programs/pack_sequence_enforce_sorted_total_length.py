# Models: an RNN data-pipeline FAQ: pack_sequence with enforce_sorted True/False, the
# PackedSequence fields (data, batch_sizes, sorted_indices, unsorted_indices),
# pad_packed_sequence with total_length and padding_value, running an LSTM on the packed
# batch, and the errors for unsorted input and zero lengths.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import (
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
)

seqs = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0, 6.0]), torch.tensor([7.0])]
packed = pack_sequence(seqs, enforce_sorted=False)
print(packed)
print("data", packed.data, "batch_sizes", packed.batch_sizes)
print("sorted", packed.sorted_indices, "unsorted", packed.unsorted_indices)
padded, lengths = pad_packed_sequence(packed, batch_first=True, padding_value=-1.0,
                                      total_length=6)
print(padded, lengths, sep="\n")
srt = pack_sequence(sorted(seqs, key=len, reverse=True))
print("sorted pack", srt.sorted_indices, srt.batch_sizes)
torch.manual_seed(0)
lstm = nn.LSTM(1, 2, batch_first=True)
feats = [s.unsqueeze(-1) for s in seqs]
out, (h, c) = lstm(pack_sequence(feats, enforce_sorted=False))
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print("h_n\n", h[0])
print("last outputs", unpacked[torch.arange(3), lens - 1])
print("match h_n", torch.allclose(unpacked[torch.arange(3), lens - 1], h[0]))
pp = pad_sequence(seqs, batch_first=False, padding_side="left")
print("left padded\n", pp)
try:
    pack_sequence(seqs)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    pack_padded_sequence(torch.zeros(2, 3), torch.tensor([3, 0]), batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    pad_packed_sequence(packed, total_length=2)
except ValueError as e:
    print("ValueError:", e)
