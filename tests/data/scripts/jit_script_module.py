"""A torch.jit.ScriptModule subclass with script_method, saved and loaded, and freeze."""
import io

import torch


class M(torch.jit.ScriptModule):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(2, 2)

    @torch.jit.script_method
    def forward(self, x):
        return self.l(x).relu()


torch.manual_seed(0)
m = M()
print(m)
print(m(torch.ones(1, 2)))
print(isinstance(m, torch.jit.ScriptModule), isinstance(m, torch.nn.Module), type(m).__name__)
print(sorted(k for k, _ in m.named_parameters()))
print(m.l)
m.eval()
print(m.training)
buf = io.BytesIO()
torch.jit.save(m, buf)
buf.seek(0)
loaded = torch.jit.load(buf)
print(loaded)
print(loaded(torch.ones(1, 2)))
frozen = torch.jit.freeze(torch.jit.script(torch.nn.Sequential(torch.nn.Linear(2, 2)).eval()))
print(frozen, list(frozen.parameters()), frozen(torch.ones(1, 2)).shape)
try:
    torch.jit.freeze(torch.nn.Linear(2, 2).eval())
except RuntimeError as e:
    print(e)
try:
    torch.jit.save(torch.nn.Linear(2, 2), io.BytesIO())
except AttributeError as e:
    print(e)
