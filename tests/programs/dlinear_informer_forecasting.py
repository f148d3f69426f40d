# Models: long-horizon forecasting baselines from the LTSF papers: DLinear (series
# decomposition with a moving-average AvgPool1d over replicate-padded input, separate seasonal
# and trend Linear heads, individual=True per channel via ModuleList), RevIN instance
# normalisation, a ProbSparse-style query selection with topk over a sparsity measure, and
# MSE/MAE metrics on sliding windows made with unfold.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(21)
T, C = 400, 3
t = torch.arange(T, dtype=torch.float32)
series = torch.stack([torch.sin(2 * torch.pi * t / 24) + 0.01 * t,
                      torch.cos(2 * torch.pi * t / 12) * 0.5 + 0.3 * torch.sin(t / 50),
                      torch.sign(torch.sin(2 * torch.pi * t / 36))], 1) + 0.1 * torch.randn(T, C)
L_in, L_out = 48, 12
windows = series.unfold(0, L_in + L_out, 1).permute(0, 2, 1)
print("windows:", windows.shape)
X, Y = windows[:, :L_in], windows[:, L_in:]
n_train = 250


class MovingAvg(nn.Module):
    def __init__(self, kernel_size, stride):
        super().__init__()
        self.kernel_size = kernel_size
        self.avg = nn.AvgPool1d(kernel_size=kernel_size, stride=stride, padding=0)

    def forward(self, x):
        front = x[:, 0:1, :].repeat(1, (self.kernel_size - 1) // 2, 1)
        end = x[:, -1:, :].repeat(1, (self.kernel_size - 1) // 2, 1)
        x = torch.cat([front, x, end], dim=1)
        x = self.avg(x.permute(0, 2, 1))
        return x.permute(0, 2, 1)


class SeriesDecomp(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.moving_avg = MovingAvg(kernel_size, stride=1)

    def forward(self, x):
        moving_mean = self.moving_avg(x)
        return x - moving_mean, moving_mean


class RevIN(nn.Module):
    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.affine_weight = nn.Parameter(torch.ones(num_features))
        self.affine_bias = nn.Parameter(torch.zeros(num_features))

    def forward(self, x, mode):
        if mode == "norm":
            self.mean = torch.mean(x, dim=1, keepdim=True).detach()
            var = torch.var(x, dim=1, keepdim=True, unbiased=False)
            self.stdev = torch.sqrt(var + self.eps).detach()
            return (x - self.mean) / self.stdev * self.affine_weight + self.affine_bias
        x = (x - self.affine_bias) / (self.affine_weight + self.eps * self.eps)
        return x * self.stdev + self.mean


class DLinear(nn.Module):
    def __init__(self, seq_len, pred_len, channels, individual):
        super().__init__()
        self.decomp = SeriesDecomp(25)
        self.individual = individual
        self.channels = channels
        self.revin = RevIN(channels)
        if individual:
            self.Linear_Seasonal = nn.ModuleList(
                [nn.Linear(seq_len, pred_len) for _ in range(channels)])
            self.Linear_Trend = nn.ModuleList(
                [nn.Linear(seq_len, pred_len) for _ in range(channels)])
        else:
            self.Linear_Seasonal = nn.Linear(seq_len, pred_len)
            self.Linear_Trend = nn.Linear(seq_len, pred_len)

    def forward(self, x):
        x = self.revin(x, "norm")
        seasonal_init, trend_init = self.decomp(x)
        seasonal_init, trend_init = seasonal_init.permute(0, 2, 1), trend_init.permute(0, 2, 1)
        if self.individual:
            seasonal_output = torch.stack(
                [m(seasonal_init[:, i]) for i, m in enumerate(self.Linear_Seasonal)], 1)
            trend_output = torch.stack(
                [m(trend_init[:, i]) for i, m in enumerate(self.Linear_Trend)], 1)
        else:
            seasonal_output = self.Linear_Seasonal(seasonal_init)
            trend_output = self.Linear_Trend(trend_init)
        x = (seasonal_output + trend_output).permute(0, 2, 1)
        return self.revin(x, "denorm")


for individual in (False, True):
    torch.manual_seed(0)
    model = DLinear(L_in, L_out, C, individual)
    opt = torch.optim.Adam(model.parameters(), lr=0.005)
    for epoch in range(4):
        perm = torch.randperm(n_train)
        for b in perm.split(32):
            opt.zero_grad()
            loss = F.mse_loss(model(X[b]), Y[b])
            loss.backward()
            opt.step()
        with torch.no_grad():
            pred = model(X[n_train:])
            mse = F.mse_loss(pred, Y[n_train:]).item()
            mae = F.l1_loss(pred, Y[n_train:]).item()
        print(f"individual={individual} epoch {epoch}: train {loss.item():.5f} "
              f"test mse {mse:.5f} mae {mae:.5f}")


def prob_sparse_scores(Q, K, factor=5):
    B, H, L_Q, D = Q.shape
    L_K = K.shape[2]
    u = min(factor * int(torch.ceil(torch.log(torch.tensor(float(L_Q)))).item()), L_Q)
    index_sample = torch.randint(L_K, (L_Q, u))
    K_expand = K.unsqueeze(-3).expand(B, H, L_Q, L_K, D)
    K_sample = K_expand[:, :, torch.arange(L_Q).unsqueeze(1), index_sample, :]
    Q_K_sample = torch.matmul(Q.unsqueeze(-2), K_sample.transpose(-2, -1)).squeeze(-2)
    M = Q_K_sample.max(-1)[0] - torch.div(Q_K_sample.sum(-1), L_K)
    M_top = M.topk(u, sorted=False)[1]
    return u, M_top


Q = torch.randn(2, 2, 24, 8)
K = torch.randn(2, 2, 24, 8)
u, top = prob_sparse_scores(Q, K)
print("u =", u, top.shape, top.sort(-1).values[0, 0])
