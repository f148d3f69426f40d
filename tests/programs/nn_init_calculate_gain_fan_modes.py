# Models: a weight-initialization lecture: calculate_gain for each nonlinearity, fan-in/fan-out
# of linear and conv weights, kaiming normal/uniform in fan_in and fan_out modes, xavier with a
# gain, trunc_normal_ bounds, orthogonal_ with gain, sparse_, dirac_ and eye_, seeded.
import torch
import torch.nn as nn

for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print(nl, nn.init.calculate_gain(nl))
print("leaky_relu", nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("leaky_relu"))
w_lin = torch.empty(6, 4)
w_conv = torch.empty(8, 3, 3, 3)
print("fans", nn.init._calculate_fan_in_and_fan_out(w_lin),
      nn.init._calculate_fan_in_and_fan_out(w_conv))
torch.manual_seed(0)
print("kaiming_normal fan_in std", nn.init.kaiming_normal_(torch.empty(256, 128)).std().item())
torch.manual_seed(0)
k = nn.init.kaiming_uniform_(torch.empty(3, 5), a=0.1, mode="fan_out", nonlinearity="leaky_relu")
print("kaiming_uniform fan_out\n", k)
torch.manual_seed(1)
print("xavier\n", nn.init.xavier_uniform_(torch.empty(2, 3), gain=nn.init.calculate_gain("tanh")))
torch.manual_seed(2)
t = nn.init.trunc_normal_(torch.empty(1000), mean=0.0, std=1.0, a=-0.5, b=0.5)
print("trunc bounds", t.min().item() >= -0.5, t.max().item() <= 0.5, t[:4])
torch.manual_seed(3)
o = nn.init.orthogonal_(torch.empty(3, 5), gain=2.0)
print("orthogonal rows\n", o @ o.T)
torch.manual_seed(4)
s = nn.init.sparse_(torch.empty(6, 3), sparsity=0.5)
print("sparse zeros per column", (s == 0).sum(0))
print("dirac\n", nn.init.dirac_(torch.empty(2, 2, 3))[:, :, 1])
print("eye\n", nn.init.eye_(torch.empty(2, 4)))
print("constant", nn.init.constant_(torch.empty(3), 0.3), nn.init.ones_(torch.empty(2)))
for bad in [lambda: nn.init.calculate_gain("gelu"), lambda: nn.init.eye_(torch.empty(2, 2, 2)),
            lambda: nn.init.kaiming_normal_(torch.empty(3, 3), mode="fan_avg"),
            lambda: nn.init.xavier_uniform_(torch.empty(3))]:
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)
