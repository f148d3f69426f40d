# Models: a training script with validation-based early stopping and checkpointing: saves
# model/optimizer/scheduler/RNG state to an in-memory buffer when validation improves, stops
# after `patience` epochs without improvement, restores the best checkpoint, then resumes
# training from a mid-run checkpoint and checks that the resumed run matches an uninterrupted
# one bit for bit (torch.get_rng_state/set_rng_state, optimizer state_dict round trip).
import copy
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(80, 5)
w_true = torch.randn(5, 1)
y = X @ w_true + 0.3 * torch.randn(80, 1)
Xtr, ytr, Xva, yva = X[:60], y[:60], X[60:], y[60:]


def make():
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.5)
    return model, opt, sched


def run_epoch(model, opt, sched):
    model.train()
    perm = torch.randperm(60)
    for i in range(0, 60, 20):
        idx = perm[i : i + 20]
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(Xtr[idx]), ytr[idx])
        loss.backward()
        opt.step()
    sched.step()
    model.eval()
    with torch.no_grad():
        return loss.item(), nn.functional.mse_loss(model(Xva), yva).item()


def save(model, opt, sched, epoch):
    buf = io.BytesIO()
    torch.save(
        {
            "model": model.state_dict(),
            "opt": opt.state_dict(),
            "sched": sched.state_dict(),
            "epoch": epoch,
            "rng": torch.get_rng_state(),
        },
        buf,
    )
    return buf.getvalue()


model, opt, sched = make()
best, best_blob, patience, bad = float("inf"), None, 3, 0
for epoch in range(40):
    tr, va = run_epoch(model, opt, sched)
    improved = va < best - 1e-4
    if improved:
        best, best_blob, bad = va, save(model, opt, sched, epoch), 0
    else:
        bad += 1
    print(
        f"epoch {epoch:2d} train {tr:.4f} val {va:.4f} lr {sched.get_last_lr()[0]:.5f} "
        f"{'*' if improved else ''}"
    )
    if bad >= patience:
        print("early stopping at epoch", epoch)
        break

ck = torch.load(io.BytesIO(best_blob))
model.load_state_dict(ck["model"])
model.eval()
with torch.no_grad():
    print(
        "restored best epoch",
        ck["epoch"],
        "val",
        round(nn.functional.mse_loss(model(Xva), yva).item(), 6),
        "best",
        round(best, 6),
    )
print(sorted(ck["opt"].keys()), ck["opt"]["param_groups"][0]["lr"], ck["sched"])
print(sorted(ck["opt"]["state"][0].keys()), ck["opt"]["state"][0]["step"])

# resume determinism
model, opt, sched = make()
for epoch in range(3):
    run_epoch(model, opt, sched)
blob = save(model, opt, sched, 3)
ref = [run_epoch(model, opt, sched) for _ in range(3)]
ref_w = copy.deepcopy(model.state_dict())

model2, opt2, sched2 = make()
ck = torch.load(io.BytesIO(blob))
model2.load_state_dict(ck["model"])
opt2.load_state_dict(ck["opt"])
sched2.load_state_dict(ck["sched"])
torch.set_rng_state(ck["rng"])
res = [run_epoch(model2, opt2, sched2) for _ in range(3)]
print("resumed losses equal:", ref == res)
print("weights equal:", all(torch.equal(ref_w[k], v) for k, v in model2.state_dict().items()))
print(res[-1])
