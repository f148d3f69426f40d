# Models: the recurrent-layer options a sequence-modelling course walks through: LSTM with
# proj_size (LSTMP), stacked bidirectional GRU with inter-layer dropout, an RNN with ReLU,
# hand-unrolled LSTMCell/GRUCell loops checked against the fused layers, packed sequences with
# enforce_sorted=False and pad_packed_sequence(total_length=...), and a classifier trained a
# few epochs on variable-length sequences.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
lstmp = nn.LSTM(input_size=5, hidden_size=8, proj_size=3, num_layers=2, batch_first=True)
print([(n, tuple(p.shape)) for n, p in lstmp.named_parameters()][:5])
x = torch.randn(2, 6, 5)
out, (h, c) = lstmp(x)
print(out.shape, h.shape, c.shape)
print(out[0, -1], h[-1, 0])
gru = nn.GRU(5, 4, num_layers=2, bidirectional=True, dropout=0.3)
gru.train()
torch.manual_seed(1)
o1, h1 = gru(x.transpose(0, 1))
print(o1.shape, h1.shape, o1[-1, 0])
gru.eval()
o2, _ = gru(x.transpose(0, 1))
print(o2[-1, 0])
rnn = nn.RNN(5, 3, nonlinearity="relu", bias=False)
print(rnn(x.transpose(0, 1))[1])

cell = nn.LSTMCell(5, 4)
layer = nn.LSTM(5, 4)
layer.weight_ih_l0.data.copy_(cell.weight_ih)
layer.weight_hh_l0.data.copy_(cell.weight_hh)
layer.bias_ih_l0.data.copy_(cell.bias_ih)
layer.bias_hh_l0.data.copy_(cell.bias_hh)
hx, cx = torch.zeros(2, 4), torch.zeros(2, 4)
steps = []
for t in range(6):
    hx, cx = cell(x[:, t], (hx, cx))
    steps.append(hx)
fused, _ = layer(x.transpose(0, 1))
print("cell vs layer:", torch.allclose(torch.stack(steps), fused, atol=1e-6))
gcell = nn.GRUCell(5, 4)
hg = torch.zeros(2, 4)
for t in range(6):
    hg = gcell(x[:, t], hg)
print(hg)
print(gcell(x[0, 0]))

lengths = torch.tensor([3, 6, 1, 4])
seqs = [torch.randn(n, 5) for n in lengths.tolist()]
padded = pad_sequence(seqs, batch_first=True)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
po, (ph, pc) = lstmp(packed)
unpacked, lens = pad_packed_sequence(po, batch_first=True, total_length=7)
print(unpacked.shape, lens)
print(unpacked[2], ph[-1])


class SeqClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(5, 8, proj_size=4, bidirectional=True, batch_first=True)
        self.head = nn.Linear(8, 3)

    def forward(self, padded, lengths):
        packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
        _, (h, _) = self.rnn(packed)
        return self.head(torch.cat([h[0], h[1]], dim=1))


torch.manual_seed(2)
data_lengths = torch.randint(2, 9, (16,))
data = pad_sequence([torch.randn(n, 5) for n in data_lengths.tolist()], batch_first=True)
labels = (data.sum(dim=(1, 2)) > 0).long() + (data_lengths > 5).long()
model = SeqClassifier()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(8):
    logits = model(data, data_lengths)
    loss = nn.functional.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    acc = (logits.argmax(1) == labels).float().mean()
    print(f"epoch {epoch} loss {loss.item():.5f} acc {acc.item():.3f}")
