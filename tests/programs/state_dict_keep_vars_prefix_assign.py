# Models: a checkpoint-loading recipe: state_dict(keep_vars=True) vs detached tensors,
# prefix, non-persistent buffers left out, load_state_dict with strict=False reporting missing
# and unexpected keys, assign=True keeping the loaded tensors, and the size-mismatch error text.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("cache", torch.ones(2), persistent=False)


net = Net()
sd = net.state_dict()
print(list(sd), sd["fc.weight"].requires_grad)
kv = net.state_dict(keep_vars=True)
print("keep_vars", kv["fc.weight"].requires_grad, type(kv["fc.weight"]).__name__)
print("prefix", list(net.state_dict(prefix="model.")))
print("buffers", [n for n, _ in net.named_buffers()])
other = {"fc.weight": torch.full((2, 3), 0.5), "extra": torch.zeros(1)}
res = net.load_state_dict(other, strict=False)
print(res)
print("missing", res.missing_keys, "unexpected", res.unexpected_keys)
print(net.fc.weight)
new_w = torch.arange(6.0).reshape(2, 3)
net.load_state_dict({"fc.weight": new_w, "fc.bias": torch.zeros(2), "steps": torch.ones(1)},
                    assign=True)
print("assign shares", net.fc.weight.data_ptr() == new_w.data_ptr(),
      type(net.fc.weight).__name__, net.fc.weight.requires_grad)
net2 = Net()
net2.load_state_dict(net.state_dict())
print("roundtrip", torch.equal(net2.fc.weight, net.fc.weight), net2.steps)
try:
    net.load_state_dict({"fc.weight": torch.zeros(3, 3), "fc.bias": torch.zeros(2),
                         "steps": torch.zeros(1)})
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    net.load_state_dict({"fc.weight": torch.zeros(2, 3)})
except RuntimeError as e:
    print("RuntimeError:", e)
