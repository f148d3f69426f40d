# Models: a speech-command / keyword-spotting tutorial in miniature: variable-length
# synthetic "MFCC" frames, a Conv1d front end with lengths recomputed through the stride,
# a bidirectional 2-layer GRU over pack_padded_sequence (enforce_sorted=False), then
# pad_packed_sequence(total_length=...) with masked mean pooling, an LSTM with proj_size,
# RNNCell/GRUCell unrolled by hand, unpad/unpack/pack_sequence helpers, and CTC greedy decoding.
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
n_mfcc, n_classes = 8, 4


def make_utterance(label):
    length = int(torch.randint(12, 25, (1,)))
    t = torch.arange(length, dtype=torch.float).unsqueeze(1)
    freq = torch.arange(1, n_mfcc + 1, dtype=torch.float)
    x = torch.sin(t * 0.3 * (label + 1) + freq * 0.5) + 0.3 * torch.randn(length, n_mfcc)
    return x


labels = torch.randint(0, n_classes, (24,))
utts = [make_utterance(int(y)) for y in labels]
lengths = torch.tensor([len(u) for u in utts])
batch = pad_sequence(utts, batch_first=True)
print("batch", tuple(batch.shape), "lengths", lengths.tolist()[:8])


class KWS(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(n_mfcc, 16, kernel_size=3, stride=2, padding=1)
        self.gru = nn.GRU(16, 12, num_layers=2, batch_first=True, bidirectional=True, dropout=0.1)
        self.fc = nn.Linear(24, n_classes)

    def forward(self, x, lengths):
        h = F.relu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        out_len = (lengths + 2 * 1 - 3) // 2 + 1
        packed = pack_padded_sequence(h, out_len, batch_first=True, enforce_sorted=False)
        out, hn = self.gru(packed)
        padded, plen = pad_packed_sequence(out, batch_first=True, total_length=h.size(1))
        mask = torch.arange(h.size(1))[None, :] < plen[:, None]
        pooled = (padded * mask.unsqueeze(-1)).sum(1) / plen.unsqueeze(1)
        return self.fc(pooled), hn, plen


model = KWS()
logits, hn, plen = model(batch, lengths)
print("logits", tuple(logits.shape), "h_n", tuple(hn.shape), "conv lengths", plen.tolist()[:8])
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(15):
    model.train()
    opt.zero_grad()
    logits, _, _ = model(batch, lengths)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    pred = model(batch, lengths)[0].argmax(1)
print("train acc", (pred == labels).float().mean().item())

# LSTM with projections
lstm = nn.LSTM(n_mfcc, 10, proj_size=4, batch_first=True)
print(lstm, [tuple(p.shape) for p in lstm.parameters()])
packed = pack_padded_sequence(batch[:3], lengths[:3], batch_first=True, enforce_sorted=False)
out, (h, c) = lstm(packed)
print("proj out", tuple(out.data.shape), "h", tuple(h.shape), "c", tuple(c.shape))
print("sorted_indices", out.sorted_indices, "unsorted", out.unsorted_indices)
print(h[0])

# cells unrolled by hand agree with the layer
rnn_cell = nn.RNNCell(n_mfcc, 6, nonlinearity="relu")
gru_cell = nn.GRUCell(n_mfcc, 6)
x = utts[0]
hr = torch.zeros(1, 6)
hg = torch.zeros(1, 6)
for t in range(len(x)):
    hr = rnn_cell(x[t : t + 1], hr)
    hg = gru_cell(x[t : t + 1], hg)
rnn = nn.RNN(n_mfcc, 6, nonlinearity="relu")
rnn.load_state_dict(
    {
        k.replace("_ih", "_ih_l0").replace("_hh", "_hh_l0"): v
        for k, v in rnn_cell.state_dict().items()
    }
)
print("rnn cell == layer", torch.allclose(rnn(x)[1][0], hr[0], atol=1e-6), rnn_cell)
print("gru cell final", hg)
print("unbatched cell", tuple(gru_cell(x[0]).shape))

# helpers
seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
ps = pack_sequence(seqs, enforce_sorted=False)
print(ps.data, ps.batch_sizes)
print([s.tolist() for s in unpack_sequence(ps)])
padded = pad_sequence(seqs, batch_first=True, padding_value=-1.0, padding_side="left")
print(padded)
print(
    [
        s.tolist()
        for s in unpad_sequence(
            pad_sequence(seqs, batch_first=True), torch.tensor([3, 1, 2]), batch_first=True
        )
    ]
)

# CTC on frame-level outputs, greedy decode
T, C = 10, 5
log_probs = torch.randn(T, 2, C).log_softmax(2).requires_grad_()
targets = torch.tensor([[1, 2, 2], [3, 4, 0]])
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
loss = ctc(log_probs, targets, torch.tensor([10, 8]), torch.tensor([3, 2]))
loss.backward()
print(f"ctc {loss.item():.4f}", log_probs.grad.abs().sum().item() > 0)
best = log_probs.argmax(2).T
for row in best:
    collapsed = torch.unique_consecutive(row)
    print(row.tolist(), "->", collapsed[collapsed != 0].tolist())
