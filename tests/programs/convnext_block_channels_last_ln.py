# Models: the ConvNeXt reference block: 7x7 depthwise conv, permute to channels-last,
# LayerNorm over channels, pointwise MLP as nn.Linear with GELU, layer scale gamma, stochastic
# depth (DropPath), and the channels_first LayerNorm module for downsampling layers.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape, eps=1e-6, data_format="channels_last"):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = eps
        self.data_format = data_format
        self.normalized_shape = (normalized_shape,)

    def forward(self, x):
        if self.data_format == "channels_last":
            return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        u = x.mean(1, keepdim=True)
        s = (x - u).pow(2).mean(1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.eps)
        return self.weight[:, None, None] * x + self.bias[:, None, None]


def drop_path(x, drop_prob=0.0, training=False):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    return x * random_tensor.div_(keep_prob)


class Block(nn.Module):
    def __init__(self, dim, drop_path=0.0, layer_scale_init_value=1e-6):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(layer_scale_init_value * torch.ones(dim))
        self.drop_path = drop_path

    def forward(self, x):
        inp = x
        x = self.dwconv(x).permute(0, 2, 3, 1)
        x = self.pwconv2(self.act(self.pwconv1(self.norm(x))))
        x = self.gamma * x
        return inp + drop_path(x.permute(0, 3, 1, 2), self.drop_path, self.training)


x = torch.randn(4, 8, 7, 7)
ln_cf = LayerNorm(8, data_format="channels_first")
a = ln_cf(x)
b = F.layer_norm(x.permute(0, 2, 3, 1), (8,), eps=1e-6).permute(0, 3, 1, 2)
print(torch.allclose(a, b, atol=1e-5), a.shape)
blk = Block(8, drop_path=0.25, layer_scale_init_value=0.5)
print(blk)
blk.eval()
y = blk(x)
print(y.shape, y.is_contiguous(), y[0, 0, 0])
blk.train()
torch.manual_seed(3)
y = blk(x)
print(((y - x).flatten(1).abs().sum(1) == 0).tolist())
y.square().mean().backward()
print(blk.gamma.grad)
print(blk.dwconv.weight.grad.shape, blk.norm.weight.grad[:3])
xc = x.to(memory_format=torch.channels_last)
print(xc.is_contiguous(memory_format=torch.channels_last), xc.stride())
blk.eval()
yc = blk(xc)
print(torch.allclose(yc, blk(x), atol=1e-6), yc.stride())
stem = nn.Sequential(
    nn.Conv2d(3, 8, kernel_size=4, stride=4), LayerNorm(8, data_format="channels_first")
)
print(stem(torch.randn(1, 3, 16, 16)).shape)
