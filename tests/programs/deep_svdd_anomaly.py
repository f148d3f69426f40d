# Models: Deep SVDD (Ruff et al.) one-class anomaly detection: a bias-free encoder (so the
# hypersphere cannot collapse), autoencoder pretraining, the centre c set from the mean
# initial embedding with near-zero coordinates pushed to +-eps, one-class and soft-boundary
# objectives with the radius updated as a quantile of distances, and ROC-AUC on held-out
# normal and anomalous points, compared to a kernel-density baseline.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
D = 8
normal_train = torch.randn(400, D) @ torch.randn(D, D) * 0.3 + 1.0
normal_test = torch.randn(100, D) @ torch.randn(D, D) * 0.3 + 1.0
anomalies = torch.randn(100, D) * 1.5 - 0.5
x_test = torch.cat([normal_test, anomalies])
y_test = torch.cat([torch.zeros(100), torch.ones(100)])


def auc(scores, labels):
    ranks = torch.empty_like(scores)
    ranks[scores.argsort()] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    n_pos = labels.sum()
    n_neg = len(labels) - n_pos
    return ((ranks[labels == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()


encoder = nn.Sequential(nn.Linear(D, 32, bias=False), nn.LeakyReLU(0.1),
                        nn.Linear(32, 4, bias=False))
decoder = nn.Sequential(nn.Linear(4, 32, bias=False), nn.LeakyReLU(0.1),
                        nn.Linear(32, D, bias=False))
opt = torch.optim.Adam([*encoder.parameters(), *decoder.parameters()], lr=1e-3, weight_decay=1e-6)
for epoch in range(20):
    for idx in torch.randperm(400).split(50):
        loss = F.mse_loss(decoder(encoder(normal_train[idx])), normal_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 10 == 9:
        print(f"pretrain epoch {epoch + 1} reconstruction {loss.item():.5f}")
with torch.no_grad():
    rec_err = (decoder(encoder(x_test)) - x_test).pow(2).sum(1)
print(f"autoencoder AUC {auc(rec_err, y_test):.4f}")

state = {k: v.clone() for k, v in encoder.state_dict().items()}
for objective in ["one-class", "soft-boundary"]:
    encoder.load_state_dict(state)
    with torch.no_grad():
        c = encoder(normal_train).mean(0)
        eps = 0.1
        c[(c.abs() < eps) & (c < 0)] = -eps
        c[(c.abs() < eps) & (c >= 0)] = eps
    R, nu = torch.tensor(0.0), 0.1
    opt = torch.optim.Adam(encoder.parameters(), lr=1e-3, weight_decay=1e-6)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[15], gamma=0.1)
    for epoch in range(25):
        total = 0.0
        for idx in torch.randperm(400).split(50):
            dist = (encoder(normal_train[idx]) - c).pow(2).sum(1)
            if objective == "one-class":
                loss = dist.mean()
            else:
                loss = R ** 2 + (1 / nu) * (dist - R ** 2).clamp(min=0).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            if objective == "soft-boundary" and epoch >= 5:
                R = torch.quantile(dist.detach().sqrt(), 1 - nu)
        sched.step()
        if epoch % 8 == 7:
            print(f"{objective:13s} epoch {epoch + 1} loss {total / 8:.5f} R {R.item():.4f} "
                  f"lr {sched.get_last_lr()[0]:.0e}")
    with torch.no_grad():
        score = (encoder(x_test) - c).pow(2).sum(1)
    print(f"{objective:13s} AUC {auc(score, y_test):.4f} centre {c}")
    print("  scores normal:", score[:4], "anomalous:", score[100:104])

# Gaussian KDE baseline
bw = normal_train.std(0).mean() * len(normal_train) ** (-1 / (D + 4))
log_density = torch.logsumexp(-torch.cdist(x_test, normal_train) ** 2 / (2 * bw ** 2), 1)
print(f"KDE bandwidth {bw:.4f} AUC {auc(-log_density, y_test):.4f}")
