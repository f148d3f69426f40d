# Models: a "golden values" regression script of the kind libraries keep to catch numeric
# drift: it runs a battery of float32 reductions, distances, normalisations, losses and
# complex ops on fixed random data and prints each result at full precision via .item().
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(37, 53)
y = torch.randn(37, 53)
v = torch.randn(1000)
w = torch.rand(1000)
checks = {
    "cumprod_last": torch.cumprod(1 + 0.01 * v, 0)[-1],
    "logcumsumexp_last": torch.logcumsumexp(v, 0)[-1],
    "prod_rows": torch.prod(1 + 0.1 * x, dim=1).sum(),
    "var_multi": x.var(dim=(0, 1)),
    "std_mean0": torch.std_mean(x, dim=0, correction=0)[0].sum(),
    "nanmean": torch.where(x > 1.5, float("nan"), x).nanmean(),
    "nansum": torch.where(x > 1.5, float("nan"), x).nansum(dim=1).sum(),
    "cdist_p1": torch.cdist(x[:5], y[:7], p=1).sum(),
    "cdist_inf": torch.cdist(x[:5], y[:7], p=float("inf")).sum(),
    "cdist_p3": torch.cdist(x[:5], y[:7], p=3).sum(),
    "pdist": F.pdist(x[:9]).sum(),
    "pdist_p1": F.pdist(x[:9], p=1).sum(),
    "cosine": F.cosine_similarity(x, y, dim=1).sum(),
    "pairwise": F.pairwise_distance(x, y, p=2.5).sum(),
    "normalize": F.normalize(x, p=3, dim=0).sum(),
    "renorm": torch.renorm(x, p=2, dim=0, maxnorm=5).sum(),
    "dist": torch.dist(x, y, p=1.5),
    "lrn": F.local_response_norm(x.view(1, 37, 53, 1), size=5).sum(),
    "group_norm": F.group_norm(x.view(1, 37, 53)[:, :36], 6).pow(2).sum(),
    "layer_norm2d": F.layer_norm(x, (37, 53)).pow(3).sum(),
    "rms_norm": F.rms_norm(x, (53,)).pow(3).sum(),
    "poisson_nll": F.poisson_nll_loss(x, y.abs(), log_input=True),
    "poisson_nll_full": F.poisson_nll_loss(x.abs(), y.abs() * 3, log_input=False, full=True),
    "gaussian_nll": F.gaussian_nll_loss(x, y, w[:53].expand(37, 53) + 0.1, full=True),
    "kl_logtarget": F.kl_div(F.log_softmax(x, 1), F.log_softmax(y, 1), reduction="batchmean",
                             log_target=True),
    "huber_sum": F.huber_loss(x, y, delta=0.7, reduction="sum"),
    "smooth_l1": F.smooth_l1_loss(x, y, beta=0.3),
    "soft_margin": F.soft_margin_loss(x, torch.sign(y)),
    "multilabel_soft": F.multilabel_soft_margin_loss(x, (y > 0).float()),
    "multi_margin": F.multi_margin_loss(x, torch.arange(37) % 53, p=2, margin=0.5),
    "hinge_emb": F.hinge_embedding_loss(x, torch.sign(y), margin=0.8),
    "trapz": torch.trapezoid(v.cumsum(0), dx=0.01),
    "cumtrapz": torch.cumulative_trapezoid(v, x=w.cumsum(0))[-1],
    "diff2": torch.diff(v, n=2).abs().sum(),
    "logdet": torch.logdet(x[:20, :20] @ x[:20, :20].T + torch.eye(20)),
    "slogdet": torch.linalg.slogdet(x[:20, :20])[1],
    "addcdiv": torch.addcdiv(v, w, w + 1, value=-0.3).sum(),
    "lerp_tensor": torch.lerp(v, v.flip(0), w).sum(),
    "float_power": torch.float_power(w, 2.5).sum(),
    "xlogy": torch.xlogy(w, w).sum(),
    "logaddexp2": torch.logaddexp2(v, w).sum(),
    "hypot": torch.hypot(v, w).sum(),
    "atan2": torch.atan2(v, w - 0.5).sum(),
    "copysign": torch.copysign(w, v).sum(),
    "complex_abs": torch.complex(v, w).abs().sum(),
    "complex_angle": torch.polar(w, v).angle().sum(),
    "complex_log": torch.log(torch.complex(v, w)).real.sum(),
    "complex_exp": torch.exp(torch.complex(v * 0.1, w)).imag.sum(),
    "complex_sqrt": torch.sqrt(torch.complex(v, w)).imag.sum(),
    "complex_mm": (torch.complex(x, y) @ torch.complex(y, x).T).abs().sum(),
    "sgn": torch.sgn(torch.complex(v, w)).real.sum(),
    "sinc": torch.sinc(v).sum(),
    "erfinv": torch.erfinv(w * 1.8 - 0.9).sum(),
    "i0": torch.i0(v).sum(),
    "lgamma": torch.lgamma(w + 0.1).sum(),
    "digamma": torch.digamma(w + 0.1).sum(),
    "polygamma2": torch.polygamma(2, w + 0.5).sum(),
    "mvlgamma": torch.mvlgamma(w + 2, 3).sum(),
    "logit": torch.logit(w, eps=1e-3).sum(),
    "frac": torch.frac(v * 7).sum(),
    "fmod": torch.fmod(v * 10, 3).sum(),
    "remainder": torch.remainder(v * 10, -3).sum(),
}
for name, val in checks.items():
    print(f"{name:20s} {val.item()!r}")
