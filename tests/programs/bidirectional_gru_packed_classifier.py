# Models: a bidirectional 2-layer GRU sentence classifier over variable-length batches:
# pack_sequence / pack_padded_sequence with sorted lengths, h_n layout (num_layers *
# num_directions, batch, hidden) and concatenating the last layer's forward/backward states,
# comparison with the padded outputs at each sequence's last valid step, unpack_sequence /
# unpad_sequence, and a short training loop with class-weighted cross entropy.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import (
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
    unpack_sequence,
    unpad_sequence,
)

torch.manual_seed(0)
V, E, H = 12, 8, 6
sents = [torch.randint(1, V, (n,)) for n in (6, 5, 3, 2)]
labels = torch.tensor([1, 0, 1, 0])
lengths = torch.tensor([len(s) for s in sents])
emb = nn.Embedding(V, E, padding_idx=0)
gru = nn.GRU(E, H, num_layers=2, bidirectional=True, batch_first=True)
fc = nn.Linear(2 * H, 2)
print(gru)
print([n for n, _ in gru.named_parameters()][:8])

packed = pack_sequence([emb(s) for s in sents])
print("batch_sizes", packed.batch_sizes, "data", tuple(packed.data.shape))
out, h_n = gru(packed)
print("h_n", tuple(h_n.shape))
padded, lens = pad_packed_sequence(out, batch_first=True)
print("padded", tuple(padded.shape), lens)
fwd_last = padded[torch.arange(4), lens - 1, :H]
bwd_first = padded[:, 0, H:]
print("h_n[-2] is forward at last step:", torch.allclose(h_n[-2], fwd_last, atol=1e-6))
print("h_n[-1] is backward at step 0:", torch.allclose(h_n[-1], bwd_first, atol=1e-6))
h = h_n.view(2, 2, 4, H)
print("view layers x dirs:", torch.equal(h[1, 0], h_n[2]))
seqs = unpack_sequence(out)
print([tuple(s.shape) for s in seqs])
x = pad_sequence(sents, batch_first=True)
print(x)
print([t.tolist() for t in unpad_sequence(x, lengths, batch_first=True)])

params = list(emb.parameters()) + list(gru.parameters()) + list(fc.parameters())
opt = torch.optim.Adam(params, lr=0.02)
weights = torch.tensor([1.0, 2.0])
for epoch in range(15):
    p = pack_padded_sequence(emb(x), lengths, batch_first=True, enforce_sorted=True)
    _, h_n = gru(p)
    logits = fc(torch.cat([h_n[-2], h_n[-1]], dim=1))
    loss = F.cross_entropy(logits, labels, weight=weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f} preds {logits.argmax(1).tolist()}")
try:
    pack_padded_sequence(emb(x), torch.tensor([2, 5, 3, 6]), batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:100])
