# Models: a CTC speech-recognition toy as in the torchaudio / DeepSpeech tutorials: synthetic
# "spectrogram" frames emitted per character with random durations, a bidirectional GRU
# acoustic model producing (T, N, C) log-probs, nn.CTCLoss with padded and concatenated
# targets, reductions and zero_infinity, greedy decoding with unique_consecutive, and the
# character error rate by edit distance.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
ALPHABET = "_abcd"  # index 0 is the CTC blank
N_FEAT = 6
char_emb = torch.randn(len(ALPHABET), N_FEAT) * 2


def synth_utterance(max_len=4):
    n = torch.randint(1, max_len + 1, (1,)).item()
    labels = torch.randint(1, len(ALPHABET), (n,))
    frames = []
    for c in labels.tolist():
        d = torch.randint(2, 4, (1,)).item()
        frames.append(char_emb[c].expand(d, N_FEAT) + 0.3 * torch.randn(d, N_FEAT))
        frames.append(char_emb[0] + 0.3 * torch.randn(1, N_FEAT))
    return torch.cat(frames), labels


batch = [synth_utterance() for _ in range(24)]
feats = nn.utils.rnn.pad_sequence([f for f, _ in batch])  # (T, N, F)
input_lengths = torch.tensor([len(f) for f, _ in batch])
targets = nn.utils.rnn.pad_sequence([lab for _, lab in batch], batch_first=True)
target_lengths = torch.tensor([len(lab) for _, lab in batch])
print("features:", tuple(feats.shape), "targets:", tuple(targets.shape))
print("input lengths:", input_lengths[:8].tolist(), "target lengths:", target_lengths[:8].tolist())


class AcousticModel(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.rnn = nn.GRU(N_FEAT, hidden, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, len(ALPHABET))

    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=False)
        out, _ = self.rnn(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, total_length=x.shape[0])
        return F.log_softmax(self.fc(out), dim=-1)


def greedy_decode(log_probs, lengths):
    best = log_probs.argmax(-1).t()
    results = []
    for seq, n in zip(best, lengths):
        collapsed = torch.unique_consecutive(seq[:n])
        results.append("".join(ALPHABET[i] for i in collapsed.tolist() if i != 0))
    return results


def edit_distance(a, b):
    d = torch.arange(len(b) + 1)
    for i, ca in enumerate(a, 1):
        prev, d[0] = d.clone(), i
        for j, cb in enumerate(b, 1):
            d[j] = min(prev[j] + 1, d[j - 1] + 1, prev[j - 1] + (ca != cb))
    return d[-1].item()


model = AcousticModel()
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
print(ctc, ctc.reduction)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(40):
    log_probs = model(feats, input_lengths)
    loss = ctc(log_probs, targets, input_lengths, target_lengths)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    if step % 10 == 0 or step == 39:
        print(f"step {step:2d} ctc {loss.item():.4f}")

with torch.no_grad():
    log_probs = model(feats, input_lengths)
    hyps = greedy_decode(log_probs, input_lengths)
    refs = ["".join(ALPHABET[i] for i in lab.tolist()) for _, lab in batch]
    for h, r in list(zip(hyps, refs))[:5]:
        print(f"ref {r!r:8s} hyp {h!r}")
    errs = sum(edit_distance(h, r) for h, r in zip(hyps, refs))
    print("CER:", errs / sum(len(r) for r in refs))
    concat = torch.cat([lab for _, lab in batch])
    for red in ["none", "sum", "mean"]:
        v = F.ctc_loss(log_probs, concat, input_lengths, target_lengths, reduction=red)
        print(red, v[:4] if red == "none" else v)

lp = torch.randn(3, 1, 5).log_softmax(2).requires_grad_()
impossible = F.ctc_loss(
    lp, torch.tensor([[1, 1, 2, 2]]), torch.tensor([3]), torch.tensor([4]), reduction="sum"
)
print("impossible alignment:", impossible)
zeroed = F.ctc_loss(
    lp,
    torch.tensor([[1, 1, 2, 2]]),
    torch.tensor([3]),
    torch.tensor([4]),
    reduction="sum",
    zero_infinity=True,
)
zeroed.backward()
print("zero_infinity:", zeroed, lp.grad.abs().sum())
lp.grad = None
ok = F.ctc_loss(lp, torch.tensor([[1, 2]]), torch.tensor([3]), torch.tensor([2]))
ok.backward()
print("possible:", ok, ok.grad_fn.name(), lp.grad[:, 0].sum(-1))
