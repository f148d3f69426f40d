# Models: the torch.optim.swa_utils recipe in a CIFAR-style loop: AveragedModel with
# get_ema_avg_fn and a custom avg_fn, SWALR with cos and linear annealing after a StepLR phase,
# update_bn over a DataLoader yielding (x, y) tuples and dicts, n_averaged bookkeeping,
# checkpointing the averaged model's state_dict, and evaluation of the SWA vs base model.
import io

import torch
import torch.nn.functional as F
from torch import nn
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_avg_fn, update_bn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(2)
X = torch.randn(96, 1, 6, 6)
y = (X[:, 0, :3].sum((1, 2)) > X[:, 0, 3:].sum((1, 2))).long()
loader = DataLoader(TensorDataset(X, y), batch_size=24, shuffle=True)


def make():
    return nn.Sequential(nn.Conv2d(1, 4, 3, bias=False), nn.BatchNorm2d(4), nn.ReLU(),
                         nn.Flatten(), nn.Linear(64, 2))


for anneal in ("cos", "linear"):
    torch.manual_seed(0)
    model = make()
    swa = AveragedModel(model)
    ema = AveragedModel(model, avg_fn=get_ema_avg_fn(0.8))
    mean_abs = AveragedModel(model, avg_fn=lambda avg, p, n: avg + (p - avg) / (n + 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    base = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    swa_sched = SWALR(opt, swa_lr=0.02, anneal_epochs=2, anneal_strategy=anneal)
    for epoch in range(7):
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            F.cross_entropy(model(xb), yb).backward()
            opt.step()
        ema.update_parameters(model)
        if epoch >= 3:
            swa.update_parameters(model)
            mean_abs.update_parameters(model)
            swa_sched.step()
        else:
            base.step()
        print(anneal, epoch, [round(g["lr"], 6) for g in opt.param_groups], swa.n_averaged.item(),
              ema.n_averaged.item())
    print("bn before update:", swa.module[1].running_mean)
    update_bn(loader, swa)
    print("bn after update:", swa.module[1].running_mean, swa.module[1].num_batches_tracked)
    dict_loader = [{"x": xb} for xb, _ in loader]

    class DictModel(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, batch):
            return self.m(batch["x"] if isinstance(batch, dict) else batch)

    dm = DictModel(ema.module)
    try:
        update_bn(dict_loader, dm)
        print("dict loader ok")
    except Exception as e:
        print(type(e).__name__, str(e)[:60])
    for name, m in (("base", model), ("swa", swa), ("ema", ema), ("mean", mean_abs)):
        m.eval()
        with torch.no_grad():
            logits = m(X)
            print(f"{name}: loss {F.cross_entropy(logits, y).item():.5f} "
                  f"acc {(logits.argmax(1) == y).float().mean().item():.4f}")
    buf = io.BytesIO()
    torch.save(swa.state_dict(), buf)
    buf.seek(0)
    sd = torch.load(buf)
    print(sorted(sd.keys())[:3], sd["n_averaged"])
    print(swa_sched.state_dict()["anneal_epochs"], swa_sched.get_last_lr())
