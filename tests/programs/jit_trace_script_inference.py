# Models: the TorchScript-for-deployment tutorial: torch.jit.trace a model with example inputs,
# torch.jit.script a function with control flow, printing .code, saving/loading the scripted
# module to a buffer, and checking the outputs against eager at a new input size.
import io

import torch
import torch.nn as nn

torch.manual_seed(0)


class MyCell(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)

    def forward(self, x, h):
        new_h = torch.tanh(self.linear(x) + h)
        return new_h, new_h


my_cell = MyCell()
x, h = torch.rand(3, 4), torch.rand(3, 4)
traced_cell = torch.jit.trace(my_cell, (x, h))
print(type(traced_cell).__name__)
print(traced_cell(x, h))
print(torch.equal(traced_cell(x, h)[0], my_cell(x, h)[0]))
x2, h2 = torch.rand(5, 4), torch.rand(5, 4)
print(torch.allclose(traced_cell(x2, h2)[0], my_cell(x2, h2)[0]))


@torch.jit.script
def clipped_relu(x: torch.Tensor, limit: float) -> torch.Tensor:
    if bool(x.sum() > 0):
        return x.clamp(0, limit)
    return -x


print(clipped_relu(torch.tensor([-1.0, 0.5, 3.0]), 1.0))
print(clipped_relu(torch.tensor([-1.0, -0.5]), 1.0))
scripted = torch.jit.script(my_cell)
print(torch.equal(scripted(x, h)[1], my_cell(x, h)[1]))
buf = io.BytesIO()
torch.jit.save(scripted, buf)
buf.seek(0)
loaded = torch.jit.load(buf)
print(torch.equal(loaded(x, h)[0], my_cell(x, h)[0]))
frozen_in = traced_cell.linear.weight.shape
print(frozen_in, sum(p.numel() for p in loaded.parameters()))
print(torch.jit.is_scripting(), torch.jit.is_tracing())
