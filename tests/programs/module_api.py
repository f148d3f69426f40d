# Models: the nn.Module API tour of course notebooks: printing a model, named_parameters,
# state_dict keys, children/modules, register_buffer, ModuleList/ModuleDict/ParameterList,
# parameter counting, .to(dtype), train()/eval() and extra_repr.
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        self.calls += 1
        return x * self.factor

    def extra_repr(self):
        return f"factor={self.factor}"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.heads = nn.ModuleDict({"cls": nn.Linear(4, 2), "reg": nn.Linear(4, 1)})
        self.gains = nn.ParameterList([nn.Parameter(torch.ones(4)) for _ in range(2)])
        self.scale = Scale(0.5)
        self.act = nn.SiLU()

    def forward(self, x):
        for blk, g in zip(self.blocks, self.gains):
            x = self.act(blk(x)) * g
        x = self.scale(x)
        return self.heads["cls"](x), self.heads["reg"](x)


torch.manual_seed(0)
net = Net()
print(net)
print([n for n, _ in net.named_parameters()])
print(list(net.state_dict().keys()))
print(sum(p.numel() for p in net.parameters()))
print([type(m).__name__ for m in net.modules()])
print([n for n, _ in net.named_children()], [n for n, _ in net.named_buffers()])
cls, reg = net(torch.randn(2, 4))
print(cls, reg, net.scale.calls)
net64 = net.to(torch.float64)
print(net64.blocks[0].weight.dtype, net.scale.calls.dtype)
net.eval()
print(net.training, net.blocks[1].training)
net.train()
print(net.heads["reg"].training, len(net.blocks), "cls" in net.heads)
net.blocks.append(nn.Linear(4, 4))
print(len(list(net.parameters())), net.get_submodule("heads.cls"))
print(net.get_parameter("gains.1"))
sd = net.state_dict()
print(sd["scale.calls"], sd["blocks.0.bias"].dtype)
frozen = [n for n, p in net.named_parameters() if not p.requires_grad]
print(frozen, net.scale)
