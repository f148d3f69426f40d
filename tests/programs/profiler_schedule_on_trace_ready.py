# Models: the profiler recipe's long-running-job section: torch.profiler.schedule with
# wait/warmup/active/repeat/skip_first, an on_trace_ready handler called once per cycle,
# prof.step() in the training loop, step_num, and the ProfilerAction for each step.
import torch
import torch.nn as nn
from torch.profiler import ProfilerAction, ProfilerActivity, profile, record_function, schedule

torch.manual_seed(0)
sched = schedule(wait=1, warmup=1, active=2, repeat=2, skip_first=1)
print([sched(i) for i in range(12)])
print(ProfilerAction.RECORD_AND_SAVE, ProfilerAction.NONE.name)
model = nn.Linear(8, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(16, 8), torch.randn(16, 2)
traces = []


def trace_handler(p):
    names = {e.key for e in p.key_averages()}
    traces.append((p.step_num, "train_step" in names))


with profile(
    activities=[ProfilerActivity.CPU], schedule=sched, on_trace_ready=trace_handler
) as prof:
    for step in range(12):
        with record_function("train_step"):
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        prof.step()
print(traces)
print(prof.step_num, f"{loss.item():.6f}")
print(schedule(wait=0, warmup=0, active=1)(0), schedule(wait=2, warmup=1, active=1)(3))
