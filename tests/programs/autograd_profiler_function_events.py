# Models: the legacy torch.autograd.profiler API in older tutorials: profile(record_shapes=True),
# record_function ranges, function_events and key_averages(group_by_input_shape=True) keyed by
# name and input shapes, emit_nvtx/use_cuda flags off on CPU; names and counts only.
import torch
import torch.autograd.profiler as profiler
import torch.nn as nn

torch.manual_seed(0)


class MyModule(nn.Module):
    def __init__(self, in_features: int, out_features: int, bias: bool = True):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, bias)

    def forward(self, input, mask):
        with profiler.record_function("LINEAR PASS"):
            out = self.linear(input)
        with profiler.record_function("MASK INDICES"):
            threshold = out.sum(axis=1).mean().item()
            hi_idx = torch.nonzero(mask > threshold)
        return out, hi_idx


model = MyModule(20, 10)
input = torch.rand(16, 20)
mask = torch.rand((20, 10))
model(input, mask)
with profiler.profile(with_stack=False, profile_memory=False, record_shapes=True) as prof:
    out, idx = model(input, mask)
print(out.shape, idx.shape)
keys = [e.key for e in prof.key_averages()]
print("LINEAR PASS" in keys, "MASK INDICES" in keys)
ranges = sorted(e.name for e in prof.function_events if e.name in ("LINEAR PASS", "MASK INDICES"))
print(ranges)
by_shape = prof.key_averages(group_by_input_shape=True)
print(sorted({e.key for e in by_shape if e.key in ("LINEAR PASS", "MASK INDICES")}))
print(prof.enabled if hasattr(prof, "enabled") else False)
with profiler.profile(enabled=False) as off:
    model(input, mask)
print(off)
