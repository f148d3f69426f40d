# Models: two "modern" image architectures in miniature, as in timm and the papers' reference
# code: MLP-Mixer (token-mixing and channel-mixing MLPs over a patch grid made with
# Conv2d(stride=patch) and flatten/transpose) and ConvNeXt (7x7 depthwise conv, LayerNorm in
# channels-last through permute, inverted-bottleneck Linear layers, layer scale, stochastic
# depth / DropPath with a per-sample Bernoulli mask). Trained briefly on synthetic images.
import torch
import torch.nn as nn
import torch.nn.functional as F


def drop_path(x, drop_prob: float = 0.0, training: bool = False, scale_by_keep: bool = True):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob=0.0):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)

    def extra_repr(self):
        return f"drop_prob={round(self.drop_prob, 3):0.3f}"


class MixerBlock(nn.Module):
    def __init__(self, tokens, dim, tok_hidden, ch_hidden, dp=0.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.token_mlp = nn.Sequential(nn.Linear(tokens, tok_hidden), nn.GELU(),
                                       nn.Linear(tok_hidden, tokens))
        self.norm2 = nn.LayerNorm(dim)
        self.channel_mlp = nn.Sequential(nn.Linear(dim, ch_hidden), nn.GELU(),
                                         nn.Linear(ch_hidden, dim))
        self.drop_path = DropPath(dp)

    def forward(self, x):
        x = x + self.drop_path(self.token_mlp(self.norm1(x).transpose(1, 2)).transpose(1, 2))
        return x + self.drop_path(self.channel_mlp(self.norm2(x)))


class Mixer(nn.Module):
    def __init__(self, img=16, patch=4, dim=24, depth=2, classes=3):
        super().__init__()
        tokens = (img // patch) ** 2
        self.stem = nn.Conv2d(3, dim, patch, stride=patch)
        self.blocks = nn.Sequential(*[MixerBlock(tokens, dim, 16, 48, dp=0.1 * i)
                                      for i in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.stem(x).flatten(2).transpose(1, 2)
        return self.head(self.norm(self.blocks(x)).mean(1))


class LayerNorm2d(nn.LayerNorm):
    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)


class ConvNeXtBlock(nn.Module):
    def __init__(self, dim, dp=0.0, ls_init=1e-1):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, 7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(ls_init * torch.ones(dim))
        self.drop_path = DropPath(dp)

    def forward(self, x):
        shortcut = x
        x = self.dwconv(x).permute(0, 2, 3, 1)
        x = self.pwconv2(self.act(self.pwconv1(self.norm(x))))
        x = (self.gamma * x).permute(0, 3, 1, 2)
        return shortcut + self.drop_path(x)


class ConvNeXt(nn.Module):
    def __init__(self, dims=(8, 16), classes=3):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, dims[0], 4, stride=4),
                                  LayerNorm2d(dims[0], eps=1e-6))
        self.stage1 = ConvNeXtBlock(dims[0], dp=0.0)
        self.down = nn.Sequential(LayerNorm2d(dims[0], eps=1e-6),
                                  nn.Conv2d(dims[0], dims[1], 2, 2))
        self.stage2 = ConvNeXtBlock(dims[1], dp=0.2)
        self.head = nn.Sequential(nn.LayerNorm(dims[1], eps=1e-6), nn.Linear(dims[1], classes))

    def forward(self, x):
        x = self.stage2(self.down(self.stage1(self.stem(x))))
        return self.head(x.mean((-2, -1)))


torch.manual_seed(0)
N = 48
labels = torch.randint(0, 3, (N,))
images = 0.5 * torch.randn(N, 3, 16, 16)
images[labels == 0, 0, :8] += 1.0
images[labels == 1, 1, :, 8:] += 1.0
images[labels == 2, 2, 4:12, 4:12] += 1.0

for cls in (Mixer, ConvNeXt):
    torch.manual_seed(1)
    model = cls()
    if cls is Mixer:
        print(model.blocks[1])
    n_params = sum(p.numel() for p in model.parameters())
    decay = [p for n, p in model.named_parameters() if p.ndim > 1]
    no_decay = [p for n, p in model.named_parameters() if p.ndim <= 1]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05},
                             {"params": no_decay, "weight_decay": 0.0}], lr=3e-3)
    print(cls.__name__, "params", n_params, "decay/no-decay", len(decay), len(no_decay))
    for epoch in range(6):
        model.train()
        perm = torch.randperm(N)
        for i in range(0, N, 16):
            idx = perm[i:i + 16]
            loss = F.cross_entropy(model(images[idx]), labels[idx], label_smoothing=0.1)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            logits = model(images)
            acc = (logits.argmax(1) == labels).float().mean()
        print(f"  epoch {epoch} last loss {loss.item():.5f} eval acc {acc.item():.4f}")
    if cls is ConvNeXt:
        print("  layer scale", model.stage2.gamma.detach())

torch.manual_seed(3)
x = torch.ones(6, 2, 2)
print("drop path train", drop_path(x, 0.5, True)[:, 0, 0])
print("drop path eval", torch.equal(drop_path(x, 0.5, False), x))
