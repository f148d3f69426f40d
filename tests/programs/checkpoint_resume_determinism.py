# Models: the "resume training exactly" recipes of public training scripts: a checkpoint of the
# model, optimizer (AdamW with per-group settings), LR scheduler, GradScaler-free loop state,
# and the CPU RNG state saved to io.BytesIO mid-training; a fresh process-like restart loads
# it and continues; the continuation must match an uninterrupted run bit for bit, including
# dropout masks and DataLoader shuffling driven by a seeded Generator.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

X = torch.linspace(-1, 1, 96).unsqueeze(1).repeat(1, 3) * torch.tensor([1.0, -0.5, 2.0])
Y = (X.sum(1) > 0).long()
ds = TensorDataset(X, Y)


def build(seed=0):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Dropout(0.25), nn.Linear(16, 2))
    decay = [p for n, p in model.named_parameters() if n.endswith("weight")]
    no_decay = [p for n, p in model.named_parameters() if n.endswith("bias")]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}],
        lr=0.02,
    )
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=36)
    gen = torch.Generator().manual_seed(123)
    loader = DataLoader(ds, batch_size=16, shuffle=True, generator=gen)
    return model, opt, sched, gen, loader


def run_epochs(model, opt, sched, loader, epochs, log):
    for _ in range(epochs):
        model.train()
        for xb, yb in loader:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            log.append(loss.item())


# uninterrupted reference run: 6 epochs
model, opt, sched, gen, loader = build()
ref_log = []
run_epochs(model, opt, sched, loader, 6, ref_log)
ref_params = [p.detach().clone() for p in model.parameters()]
print("reference final losses:", [round(v, 6) for v in ref_log[-3:]])

# interrupted run: 3 epochs, checkpoint, "crash", rebuild, resume
model, opt, sched, gen, loader = build()
log = []
run_epochs(model, opt, sched, loader, 3, log)
buf = io.BytesIO()
torch.save(
    {
        "epoch": 3,
        "model": model.state_dict(),
        "optimizer": opt.state_dict(),
        "scheduler": sched.state_dict(),
        "rng": torch.get_rng_state(),
        "loader_gen": gen.get_state(),
        "log": log,
    },
    buf,
)
print("checkpoint bytes > 0:", buf.tell() > 0)
del model, opt, sched, gen, loader

model, opt, sched, gen, loader = build(seed=999)
buf.seek(0)
ckpt = torch.load(buf, weights_only=False)
print("checkpoint keys:", sorted(ckpt))
print(
    "optimizer state keys:",
    sorted(ckpt["optimizer"]),
    "groups:",
    [(g["weight_decay"], len(g["params"])) for g in ckpt["optimizer"]["param_groups"]],
)
print("step counts:", [s["step"] for s in ckpt["optimizer"]["state"].values()])
print(
    "scheduler last_epoch:",
    ckpt["scheduler"]["last_epoch"],
    "last lr:",
    [round(v, 8) for v in ckpt["scheduler"]["_last_lr"]],
)
model.load_state_dict(ckpt["model"])
opt.load_state_dict(ckpt["optimizer"])
sched.load_state_dict(ckpt["scheduler"])
torch.set_rng_state(ckpt["rng"])
gen.set_state(ckpt["loader_gen"])
log = ckpt["log"]
run_epochs(model, opt, sched, loader, 3, log)
print("resumed final losses:  ", [round(v, 6) for v in log[-3:]])
print("loss logs identical:", log == ref_log, len(log))
print(
    "parameters identical:", all(torch.equal(a, b) for a, b in zip(ref_params, model.parameters()))
)
print("lr after resume:", opt.param_groups[0]["lr"], sched.get_last_lr())
print("exp_avg_sq sample:", opt.state[opt.param_groups[1]["params"][0]]["exp_avg_sq"][:4])

# a resume that forgets the RNG state diverges through the dropout masks
model2, opt2, sched2, gen2, loader2 = build(seed=5)
model2.load_state_dict(ckpt["model"])
opt2.load_state_dict(ckpt["optimizer"])
sched2.load_state_dict(ckpt["scheduler"])
gen2.set_state(ckpt["loader_gen"])
log2 = list(ckpt["log"])
run_epochs(model2, opt2, sched2, loader2, 3, log2)
print("without RNG state identical:", log2 == ref_log)

# state_dict round trip of a module with buffers, and strict loading errors
bn = nn.BatchNorm1d(3)
bn(torch.randn(8, 3))
buf = io.BytesIO()
torch.save(bn.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
print("bn keys:", list(sd), sd["num_batches_tracked"])
bn2 = nn.BatchNorm1d(3)
print(bn2.load_state_dict(sd))
sd.pop("running_var")
sd["extra"] = torch.zeros(1)
try:
    bn2.load_state_dict(sd)
except RuntimeError as e:
    print("strict load:", e)
print(bn2.load_state_dict(sd, strict=False))
