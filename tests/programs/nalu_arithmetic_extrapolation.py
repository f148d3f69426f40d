# Models: the Neural Arithmetic Logic Unit paper's experiments (Trask et al.): NAC cells with
# W = tanh(W_hat) * sigmoid(M_hat) biased toward {-1, 0, 1}, the NALU gate mixing an additive
# path and a multiplicative path in log space, trained on a + b, a - b, a * b and a / b of
# selected input subsets, with interpolation and extrapolation errors compared against a
# plain MLP.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class NAC(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.W_hat = nn.Parameter(torch.empty(n_out, n_in))
        self.M_hat = nn.Parameter(torch.empty(n_out, n_in))
        nn.init.kaiming_uniform_(self.W_hat)
        nn.init.kaiming_uniform_(self.M_hat)

    def weight(self):
        return torch.tanh(self.W_hat) * torch.sigmoid(self.M_hat)

    def forward(self, x):
        return F.linear(x, self.weight())


class NALU(nn.Module):
    def __init__(self, n_in, n_out, eps=1e-7):
        super().__init__()
        self.nac = NAC(n_in, n_out)
        self.G = nn.Parameter(torch.empty(n_out, n_in))
        nn.init.kaiming_uniform_(self.G)
        self.eps = eps

    def forward(self, x):
        a = self.nac(x)
        g = torch.sigmoid(F.linear(x, self.G))
        m = torch.exp(self.nac(torch.log(x.abs() + self.eps)))
        return g * a + (1 - g) * m


def make_data(n, lo, hi, op, g):
    x = torch.empty(n, 4).uniform_(lo, hi, generator=g)
    a, b = x[:, :2].sum(1), x[:, 2:3].sum(1)
    y = {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[op]
    return x, y[:, None]


def train(model, op, g, steps=300, lr=0.02):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(steps):
        x, y = make_data(64, 0.1, 2.0, op, g)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


g = torch.Generator().manual_seed(1)
x_int, _ = make_data(5, 0.1, 2.0, "add", g)
nac = NAC(4, 1)
print("NAC weight in (-1, 1):", bool((nac.weight().abs() < 1).all()))
for op in ["add", "sub", "mul", "div"]:
    torch.manual_seed(0)
    nalu = nn.Sequential(NALU(4, 2), NALU(2, 1))
    mlp = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    ln = train(nalu, op, g)
    lm = train(mlp, op, g)
    xi, yi = make_data(200, 0.1, 2.0, op, g)
    xe, ye = make_data(200, 2.0, 6.0, op, g)
    with torch.no_grad():
        errs = [F.l1_loss(m(x), y).item() for m in (nalu, mlp) for x, y in ((xi, yi), (xe, ye))]
    print(f"{op}: train mse nalu {ln:.5f} mlp {lm:.5f} | interp nalu {errs[0]:.4f} "
          f"mlp {errs[2]:.4f} | extrap nalu {errs[1]:.4f} mlp {errs[3]:.4f}")
    if op == "add":
        print("learned NAC weights:", nalu[0].nac.weight().detach())
