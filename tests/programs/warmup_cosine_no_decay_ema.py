# Models: a transformer fine-tuning script's optimizer setup: AdamW param groups with no weight
# decay for biases and LayerNorm weights, linear warmup then cosine decay with LambdaLR (as
# get_cosine_schedule_with_warmup), an exponential moving average of the weights for evaluation.
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 16), nn.LayerNorm(16), nn.GELU(), nn.Linear(16, 2))
no_decay = ["bias", "LayerNorm.weight", "1.weight"]
decay_params = [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)]
nodecay_params = [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)]
print([n for n, p in model.named_parameters() if any(nd in n for nd in no_decay)])
print(sum(p.numel() for p in decay_params), sum(p.numel() for p in nodecay_params))
opt = torch.optim.AdamW(
    [
        {"params": decay_params, "weight_decay": 0.1},
        {"params": nodecay_params, "weight_decay": 0.0},
    ],
    lr=3e-3,
    betas=(0.9, 0.98),
)


def get_cosine_schedule_with_warmup(
    optimizer, num_warmup_steps, num_training_steps, num_cycles=0.5
):
    def lr_lambda(current_step):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        progress = float(current_step - num_warmup_steps) / float(
            max(1, num_training_steps - num_warmup_steps)
        )
        return max(0.0, 0.5 * (1.0 + math.cos(math.pi * float(num_cycles) * 2.0 * progress)))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)


total = 30
sched = get_cosine_schedule_with_warmup(opt, 5, total)
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)


@torch.no_grad()
def ema_update(decay=0.9):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm.detach(), alpha=1 - decay)


x = torch.randn(40, 6)
y = (x[:, 0] * x[:, 1] > 0).long()
lrs = []
for step in range(total):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    sched.step()
    ema_update()
    lrs.append(sched.get_last_lr()[0])
    if step % 6 == 0:
        print(f"step {step:2d} lr {lrs[-1]:.6f} loss {loss.item():.5f}")
print([round(v, 6) for v in lrs[:7]])
print(sched.state_dict()["last_epoch"], sched.state_dict()["base_lrs"])
with torch.no_grad():
    acc = (model(x).argmax(1) == y).float().mean()
    acc_ema = (ema(x).argmax(1) == y).float().mean()
print("acc", acc.item(), "ema acc", acc_ema.item())
print(ema[1].weight[:4])
ema_m = torch.optim.swa_utils.AveragedModel(
    model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9)
)
ema_m.update_parameters(model)
print(ema_m.n_averaged, ema_m.module[3].bias)
