# Models: speech/OCR CTC training as in the nn.CTCLoss docs and CRNN repos: log_softmax outputs
# (T, N, C), padded and concatenated target formats, input/target lengths, reduction modes,
# zero_infinity for impossible alignments, and best-path (greedy) decoding collapsing repeats.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T, C, N, S = 12, 5, 3, 4
lstm = nn.LSTM(8, 16, bidirectional=True)
proj = nn.Linear(32, C)
feats = torch.randn(T, N, 8)
targets = torch.tensor([[1, 2, 2, 3], [4, 1, 0, 0], [3, 3, 1, 2]])
target_lengths = torch.tensor([4, 2, 4])
input_lengths = torch.tensor([12, 10, 9])
ctc = nn.CTCLoss(blank=0)
opt = torch.optim.Adam(list(lstm.parameters()) + list(proj.parameters()), lr=0.02)
for it in range(15):
    log_probs = proj(lstm(feats)[0]).log_softmax(2)
    loss = ctc(log_probs, targets, input_lengths, target_lengths)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 5 == 0:
        print(f"it {it} ctc {loss.item():.5f}")
print(loss.grad_fn.name())
lp = log_probs.detach()
flat = torch.cat([targets[i, : target_lengths[i]] for i in range(N)])
for red in ("none", "sum", "mean"):
    print(red, F.ctc_loss(lp, flat, input_lengths, target_lengths, reduction=red))
print(F.ctc_loss(lp, targets, tuple(input_lengths.tolist()), tuple(target_lengths.tolist())))
bad_targets = torch.tensor([[1, 1, 1, 1, 1, 1, 1, 1]])
imp = F.ctc_loss(lp[:, :1], bad_targets, torch.tensor([5]), torch.tensor([8]), reduction="none")
print(imp)
print(
    F.ctc_loss(
        lp[:, :1],
        bad_targets,
        torch.tensor([5]),
        torch.tensor([8]),
        reduction="none",
        zero_infinity=True,
    )
)
x = lp[:, :1].clone().requires_grad_(True)
F.ctc_loss(x, bad_targets, torch.tensor([5]), torch.tensor([8]), zero_infinity=True).backward()
print(x.grad.abs().sum())


def greedy_decode(lp, lengths, blank=0):
    best = lp.argmax(2).T
    outs = []
    for b in range(best.size(0)):
        seq = torch.unique_consecutive(best[b, : lengths[b]])
        outs.append(seq[seq != blank].tolist())
    return outs


print(lp.argmax(2).T)
print(greedy_decode(lp, input_lengths))
