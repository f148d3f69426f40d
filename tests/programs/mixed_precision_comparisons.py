# Models: the "why does my bfloat16 mask differ" debugging notebook: thresholds, equality tests
# and modular arithmetic on bfloat16/float16 activations against Python floats and 0-d
# tensors, additive masks with alpha, scalar powers, and the float16 cross-entropy with label
# smoothing, printed exactly.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
acts = torch.randn(64) * 2
acts[5] = 0.3
acts[9] = -0.7
for dt in (torch.bfloat16, torch.float16):
    h = acts.to(dt)
    print(dt, (h == 0.3).nonzero().flatten().tolist(), (h != -0.7).sum().item(),
          (h >= torch.tensor(0.3)).sum().item(),
          h.eq(torch.tensor(-0.7)).nonzero().flatten().tolist())
    print(dt, torch.fmod(h, 0.3)[:6].tolist(), torch.remainder(h, -0.7)[:6].tolist())
    print(dt, (h + 0.1)[:6].tolist(), (0.1 - h)[:6].tolist(),
          torch.add(h, h.flip(0), alpha=0.3)[:6].tolist())
    print(dt, (h.abs() ** 1.5)[:6].tolist(), (h.abs() + 0.5).pow(-0.5)[:6].tolist())
    print(dt, F.threshold(h, 0.3, -1.0)[:8].tolist(), F.celu(h, 0.4)[:6].tolist())
    logits = h.view(8, 8)
    target = torch.arange(8)
    print(dt, F.cross_entropy(logits, target).item(),
          F.cross_entropy(logits, target, label_smoothing=0.2).item(),
          F.cross_entropy(logits, target, ignore_index=3).item())
    print(dt, h.sum().item(), h.view(8, 8).sum(0).tolist(), h.view(8, 8).mean(1).tolist())
    mask = torch.zeros(8, 8, dtype=dt).masked_fill(torch.ones(8, 8).triu(1).bool(), float("-inf"))
    print(dt, torch.softmax(logits + mask, -1)[3].tolist())
