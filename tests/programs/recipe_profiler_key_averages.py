# Models: the PyTorch profiler recipe: torch.profiler.profile with record_function labels,
# key_averages() grouped and sorted, the events' names and counts (not the timings), and the
# older torch.autograd.profiler.profile context manager on a small model.
import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile, record_function

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
inputs = torch.randn(5, 16)

with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    with record_function("model_inference"):
        out = model(inputs)

print(out.shape)
names = {e.key for e in prof.key_averages()}
print("model_inference" in names)
for e in prof.key_averages():
    if e.key == "model_inference":
        print(e.key, e.count)
print(type(prof.key_averages()).__name__)
evs = prof.events()
print(any(e.name == "model_inference" for e in evs))

with profile(activities=[ProfilerActivity.CPU]) as prof2:
    for i in range(3):
        with record_function("step"):
            y = model(inputs).sum()
            y.backward()
steps = [e for e in prof2.key_averages() if e.key == "step"]
print(steps[0].count)

with torch.autograd.profiler.profile() as prof3:
    with torch.autograd.profiler.record_function("label-z"):
        z = torch.mm(inputs, inputs.t())
print(z.shape)
print(any(e.key == "label-z" for e in prof3.key_averages()))
print(sum(e.count for e in prof3.key_averages() if e.key == "label-z"))


@torch.autograd.profiler.record_function("decorated")
def f(x):
    return x * 2


print(f(torch.ones(2)))
