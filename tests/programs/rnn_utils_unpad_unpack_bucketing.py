# Models: NLP data-loading utilities around RNNs: length bucketing with torch.bucketize, sorting
# by length and restoring order with argsort, pad_sequence(padding_side="left"), unpad_sequence
# and unpack_sequence round trips, and PackedSequence.to / is_cuda / type conversions.
import torch
from torch.nn.utils.rnn import pack_sequence, pad_sequence, unpack_sequence, unpad_sequence

torch.manual_seed(0)
lengths = torch.tensor([7, 3, 12, 5, 9, 1, 4])
boundaries = torch.tensor([4, 8])
bucket = torch.bucketize(lengths, boundaries)
print(bucket, torch.bucketize(lengths, boundaries, right=True))
seqs = [torch.randint(1, 50, (int(n),)) for n in lengths]
order = torch.argsort(lengths, descending=True, stable=True)
restore = torch.argsort(order)
print(order, restore)
padded = pad_sequence([seqs[i] for i in order], batch_first=True)
print(padded.shape, padded[:, :3])
left = pad_sequence(seqs[:3], batch_first=True, padding_value=-1, padding_side="left")
print(left)
back = unpad_sequence(padded, lengths[order], batch_first=True)
print(all(torch.equal(a, seqs[i]) for a, i in zip(back, order.tolist())))
ps = pack_sequence([s.float() for s in seqs], enforce_sorted=False)
print(ps.batch_sizes, ps.is_cuda, ps.data.dtype)
ps64 = ps.double()
print(ps64.data.dtype, type(ps64).__name__)
un = unpack_sequence(ps)
print([len(u) for u in un] == lengths.tolist(), torch.equal(un[2], seqs[2].float()))
for b in range(3):
    idx = (bucket == b).nonzero().flatten()
    batch = pad_sequence([seqs[i] for i in idx.tolist()], batch_first=True)
    print(b, idx.tolist(), tuple(batch.shape), (batch == 0).sum().item())
