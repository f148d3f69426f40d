# Models: a checkpointing recipe: training for a few steps, saving model, optimizer (Adam with
# amsgrad), scheduler and RNG state into io.BytesIO, loading into fresh objects, and checking
# that resumed training reproduces the uninterrupted run exactly.
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
X, Y = torch.randn(32, 5), torch.randn(32, 1)


def make():
    m = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 1))
    opt = torch.optim.Adam(m.parameters(), lr=0.01, amsgrad=True, weight_decay=1e-3)
    sch = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    return m, opt, sch


def step(m, opt, sch):
    idx = torch.randint(0, 32, (8,))
    loss = nn.functional.mse_loss(m(X[idx]), Y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    sch.step()
    return loss.item()


torch.manual_seed(1)
m, opt, sch = make()
for _ in range(4):
    step(m, opt, sch)
buf = io.BytesIO()
torch.save({"model": m.state_dict(), "opt": opt.state_dict(), "sched": sch.state_dict(),
            "rng": torch.get_rng_state()}, buf)
print("bytes > 0", buf.tell() > 0)
cont = [step(m, opt, sch) for _ in range(4)]
print("continued", [round(v, 6) for v in cont])

buf.seek(0)
ck = torch.load(buf)
print(sorted(ck), sorted(ck["opt"]), ck["sched"]["last_epoch"], ck["sched"]["_last_lr"])
print(sorted(ck["opt"]["state"][0]))
torch.manual_seed(123)
m2, opt2, sch2 = make()
m2.load_state_dict(ck["model"])
opt2.load_state_dict(ck["opt"])
sch2.load_state_dict(ck["sched"])
torch.set_rng_state(ck["rng"])
resumed = [step(m2, opt2, sch2) for _ in range(4)]
print("resumed  ", [round(v, 6) for v in resumed])
print("identical", cont == resumed)
print(all(torch.equal(a, b) for a, b in zip(m.parameters(), m2.parameters())))
print(opt2.param_groups[0]["lr"], opt2.state_dict()["param_groups"][0]["amsgrad"])
print(ck["opt"]["state"][0]["step"], ck["opt"]["state"][0]["max_exp_avg_sq"].shape)
