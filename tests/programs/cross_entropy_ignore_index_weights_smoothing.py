# Models: a sequence-tagging loss cookbook: cross_entropy with ignore_index padding, class
# weights, label smoothing (and its interaction with weights), reduction none/sum/mean,
# probability targets, nll_loss on log_softmax, and the same losses per token by hand.
import torch
import torch.nn.functional as F

torch.manual_seed(5)
B, T, C = 2, 5, 4
logits = torch.randn(B, T, C, requires_grad=True)
tgt = torch.tensor([[1, 3, 0, -100, -100], [2, 2, 1, 0, -100]])
flat_logits, flat_tgt = logits.reshape(-1, C), tgt.reshape(-1)
loss = F.cross_entropy(flat_logits, flat_tgt)
print("mean ignore", loss)
mask = flat_tgt != -100
by_hand = -flat_logits.log_softmax(-1)[mask].gather(1, flat_tgt[mask, None]).mean()
print("by hand", by_hand)
print("none\n", F.cross_entropy(flat_logits, flat_tgt, reduction="none"))
print("sum", F.cross_entropy(flat_logits, flat_tgt, reduction="sum"))
print("transposed layout", F.cross_entropy(logits.transpose(1, 2), tgt))
w = torch.tensor([0.5, 1.0, 2.0, 1.5])
print("weighted", F.cross_entropy(flat_logits, flat_tgt, weight=w))
print("smoothed", F.cross_entropy(flat_logits, flat_tgt, label_smoothing=0.1))
print("smoothed weighted", F.cross_entropy(flat_logits, flat_tgt, weight=w, label_smoothing=0.2))
print("smoothed none", F.cross_entropy(flat_logits, flat_tgt, label_smoothing=0.1,
                                       reduction="none"))
probs = torch.softmax(torch.randn(B * T, C), -1)
print("soft targets", F.cross_entropy(flat_logits, probs))
print("soft smoothed", F.cross_entropy(flat_logits, probs, label_smoothing=0.3))
print("nll", F.nll_loss(flat_logits.log_softmax(-1), flat_tgt, ignore_index=-100))
print("custom ignore", F.cross_entropy(flat_logits, flat_tgt.clamp(min=0), ignore_index=0))
loss.backward()
print("grad rows for padding are zero", logits.grad[0, 3:].abs().sum().item())
print(loss.grad_fn.name())
all_ignored = torch.full((3,), -100)
print("all ignored", F.cross_entropy(torch.randn(3, C), all_ignored))
try:
    F.cross_entropy(flat_logits, flat_tgt.clamp(min=0) + 1)
except IndexError as e:
    print("IndexError:", e)
try:
    F.cross_entropy(flat_logits, flat_tgt.float())
except RuntimeError as e:
    print("RuntimeError:", e)
