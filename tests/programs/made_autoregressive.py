# Models: Karpathy's pytorch-made (MADE, Germain et al. 2015): a MaskedLinear layer whose mask
# is set from connectivity degrees assigned with a seeded permutation, several orderings
# ("order-agnostic training"), binary data with BCE-with-logits, an autoregressive check via
# the Jacobian, and sequential sampling.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MaskedLinear(nn.Linear):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias)
        self.register_buffer("mask", torch.ones(out_features, in_features))

    def set_mask(self, mask):
        self.mask.data.copy_(mask.to(torch.uint8).T)

    def forward(self, input):
        return F.linear(input, self.mask * self.weight, self.bias)


class MADE(nn.Module):
    def __init__(self, nin, hidden, nout, num_masks=1):
        super().__init__()
        self.nin, self.nout, self.hidden = nin, nout, hidden
        sizes = [nin] + hidden + [nout]
        layers = []
        for h0, h1 in zip(sizes, sizes[1:]):
            layers += [MaskedLinear(h0, h1), nn.ReLU()]
        self.net = nn.Sequential(*layers[:-1])
        self.num_masks, self.seed = num_masks, 0
        self.m = {}
        self.update_masks()

    def update_masks(self):
        g = torch.Generator().manual_seed(self.seed)
        self.seed = (self.seed + 1) % self.num_masks
        L = len(self.hidden)
        self.m[-1] = torch.randperm(self.nin, generator=g)
        for l in range(L):
            self.m[l] = torch.randint(int(self.m[l - 1].min()), self.nin - 1,
                                      (self.hidden[l],), generator=g)
        masks = [self.m[l - 1][:, None] <= self.m[l][None, :] for l in range(L)]
        masks.append(self.m[L - 1][:, None] < self.m[-1][None, :])
        for layer, mask in zip([l for l in self.net if isinstance(l, MaskedLinear)], masks):
            layer.set_mask(mask)

    def forward(self, x):
        return self.net(x)


D = 6
made = MADE(D, [24, 24], D, num_masks=2)
print(made)
print("ordering", made.m[-1].tolist())
print("mask sums", [int(l.mask.sum()) for l in made.net if isinstance(l, MaskedLinear)])

# the autoregressive property: output d depends only on inputs earlier in the ordering
x = torch.rand(1, D)
J = torch.autograd.functional.jacobian(lambda v: made(v), x).squeeze()
print((J.abs() > 0).int())

# binary data: a chain where each bit copies the previous one with noise
n = 256
bits = torch.zeros(n, D)
bits[:, 0] = (torch.rand(n) < 0.5).float()
for d in range(1, D):
    flip = (torch.rand(n) < 0.1).float()
    bits[:, d] = (bits[:, d - 1] + flip) % 2
print("column means", bits.mean(0))

opt = torch.optim.Adam(made.parameters(), lr=1e-2, weight_decay=1e-4)
for epoch in range(40):
    made.update_masks()
    logits = made(bits)
    loss = F.binary_cross_entropy_with_logits(logits, bits, reduction="sum") / n
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 8 == 0:
        print(f"epoch {epoch:2d} nll {loss.item():.5f}")

with torch.no_grad():
    made.seed = 0
    made.update_masks()
    order = made.m[-1]
    x = torch.zeros(5, D)
    for d in torch.argsort(order).tolist():
        p = torch.sigmoid(made(x))[:, d]
        x[:, d] = torch.bernoulli(p)
    print(x.int())
    agree = (x[:, 1:] == x[:, :-1]).float().mean()
    print("neighbour agreement", agree.item())
    ll = -F.binary_cross_entropy_with_logits(made(bits[:4]), bits[:4], reduction="none").sum(1)
    print("log-likelihoods", ll)
