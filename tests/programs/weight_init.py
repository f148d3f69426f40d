# Models: the weight-initialisation recipes of DCGAN / ResNet code: model.apply(init_fn) with
# normal_, xavier_uniform_, kaiming_normal_, constant_, orthogonal_ and zeros_, then the
# statistics of each layer's weights.
import torch
import torch.nn as nn


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


def init_linear(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        if m.bias is not None:
            nn.init.zeros_(m.bias)


torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 4, 3))
net.apply(weights_init)
for name, p in net.named_parameters():
    print(name, tuple(p.shape), f"{p.mean().item():.6f}", f"{p.std().item():.6f}")
mlp = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 5))
mlp.apply(init_linear)
print(mlp[0].weight[:2, :4], mlp[2].bias)
w = torch.empty(6, 4)
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print(w)
nn.init.kaiming_uniform_(w, a=0.1)
print(w.abs().max())
nn.init.orthogonal_(w)
print(w.t() @ w)
nn.init.trunc_normal_(w, std=0.02)
print(w[0])
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("tanh"))
emb = nn.Embedding(5, 3)
nn.init.uniform_(emb.weight, -0.1, 0.1)
print(emb.weight)
