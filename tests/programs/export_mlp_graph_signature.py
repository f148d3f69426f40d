# Models: the torch.export "getting started" tutorial on a small MLP with a buffer: export with
# example inputs, print the graph module's code, the graph signature's parameter/buffer/user
# input names, run the exported program's module() against eager, state_dict keys.
import torch
import torch.nn as nn
from torch.export import export

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)
        self.register_buffer("scale", torch.tensor(0.5))

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))) * self.scale


m = MLP().eval()
x = torch.randn(3, 4)
ep = export(m, (x,))
print(type(ep).__name__)
sig = ep.graph_signature
print([s.arg.name for s in sig.input_specs])
print([str(s.kind) for s in sig.input_specs])
print([s.target for s in sig.input_specs])
print([s.arg.name for s in sig.output_specs])
print(sorted(ep.state_dict))
mod = ep.module()
print(torch.allclose(mod(x), m(x)))
print(mod(x))
ops = [n.target for n in ep.graph.nodes if n.op == "call_function"]
print([str(o) for o in ops])
print(len(list(ep.graph.nodes)))
