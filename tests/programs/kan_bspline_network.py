# Models: the Kolmogorov-Arnold network tutorials (pykan / "efficient-KAN" reimplementations):
# B-spline bases by the Cox-de Boor recursion on an extended grid, a KANLinear layer with a
# SiLU base branch plus a spline branch, spline coefficients initialised from noise with
# torch.linalg.lstsq, an L1/entropy regulariser, and fitting a symbolic 2-d function.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class KANLinear(nn.Module):
    def __init__(self, in_features, out_features, grid_size=5, spline_order=3,
                 scale_noise=0.1, grid_range=(-1, 1)):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.grid_size, self.spline_order = grid_size, spline_order
        h = (grid_range[1] - grid_range[0]) / grid_size
        grid = (torch.arange(-spline_order, grid_size + spline_order + 1) * h
                + grid_range[0]).expand(in_features, -1).contiguous()
        self.register_buffer("grid", grid)
        self.base_weight = nn.Parameter(torch.empty(out_features, in_features))
        self.spline_weight = nn.Parameter(
            torch.empty(out_features, in_features, grid_size + spline_order))
        nn.init.kaiming_uniform_(self.base_weight, a=5 ** 0.5)
        with torch.no_grad():
            noise = (torch.rand(grid_size + 1, in_features, out_features) - 0.5) \
                * scale_noise / grid_size
            self.spline_weight.copy_(self.curve2coeff(
                self.grid.T[spline_order:-spline_order], noise))

    def b_splines(self, x):
        grid = self.grid
        x = x.unsqueeze(-1)
        bases = ((x >= grid[:, :-1]) & (x < grid[:, 1:])).to(x.dtype)
        for k in range(1, self.spline_order + 1):
            bases = ((x - grid[:, :-(k + 1)]) / (grid[:, k:-1] - grid[:, :-(k + 1)])
                     * bases[:, :, :-1]) + (
                (grid[:, k + 1:] - x) / (grid[:, k + 1:] - grid[:, 1:(-k)]) * bases[:, :, 1:])
        return bases.contiguous()

    def curve2coeff(self, x, y):
        A = self.b_splines(x).transpose(0, 1)
        B = y.transpose(0, 1)
        solution = torch.linalg.lstsq(A, B).solution
        return solution.permute(2, 0, 1).contiguous()

    def forward(self, x):
        base = F.linear(F.silu(x), self.base_weight)
        spline = F.linear(self.b_splines(x).view(x.size(0), -1),
                          self.spline_weight.view(self.out_features, -1))
        return base + spline

    def regularization_loss(self, act=1.0, ent=1.0):
        l1 = self.spline_weight.abs().mean(-1)
        total = l1.sum()
        p = l1 / total
        return act * total + ent * -torch.sum(p * p.log())


layer = KANLinear(2, 1)
print(layer.grid[0])
b = layer.b_splines(torch.tensor([[-0.95, 0.0], [0.3, 0.99]]))
print("bases shape", tuple(b.shape))
print(b[0])
print("partition of unity", b.sum(-1))

model = nn.Sequential(KANLinear(2, 5), KANLinear(5, 1))
print(model)
print("parameters", sum(p.numel() for p in model.parameters()))

x = torch.rand(128, 2) * 2 - 1
y = torch.exp(torch.sin(torch.pi * x[:, :1]) + x[:, 1:] ** 2)
opt = torch.optim.Adam(model.parameters(), lr=2e-2)
for step in range(60):
    pred = model(x)
    mse = F.mse_loss(pred, y)
    reg = sum(l.regularization_loss() for l in model)
    loss = mse + 1e-3 * reg
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:2d} mse {mse.item():.6f} reg {reg.item():.4f}")

xt = torch.tensor([[0.0, 0.0], [0.5, -0.5], [-0.25, 0.75]])
print("predictions", model(xt).detach().squeeze(1))
print("targets    ", torch.exp(torch.sin(torch.pi * xt[:, 0]) + xt[:, 1] ** 2))
scores = model[0].spline_weight.detach().abs().mean(-1)
print("edge importance\n", scores)
