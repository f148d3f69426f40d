# Models: a fast.ai-style training framework written in plain torch (the "Practical Deep
# Learning for Coders" part-2 miniai Learner): callbacks with order and before/after hooks
# raising CancelBatchException/CancelEpochException, a one-cycle scheduler callback built on
# OneCycleLR, a metrics callback with running averages, discriminative learning rates via
# param groups, freeze/unfreeze of a body, and a recorder of losses and lrs.
import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(2024)


class CancelBatchException(Exception):
    pass


class CancelEpochException(Exception):
    pass


class Callback:
    order = 0


def run_cbs(cbs, method_nm, learn=None):
    for cb in sorted(cbs, key=lambda c: c.order):
        method = getattr(cb, method_nm, None)
        if method is not None:
            method(learn)


class Learner:
    def __init__(self, model, dls, loss_func, lr, cbs, opt_func=torch.optim.SGD):
        self.model, self.dls, self.loss_func, self.lr = model, dls, loss_func, lr
        self.cbs, self.opt_func = cbs, opt_func

    def one_batch(self):
        self.preds = self.model(self.batch[0])
        self.loss = self.loss_func(self.preds, self.batch[1])
        if self.training:
            self.loss.backward()
            self.opt.step()
            self.opt.zero_grad()

    def one_epoch(self, train):
        self.model.train(train)
        self.training = train
        self.dl = self.dls[0] if train else self.dls[1]
        try:
            self.callback("before_epoch")
            for self.iter, self.batch in enumerate(self.dl):  # noqa: B020
                try:
                    self.callback("before_batch")
                    self.one_batch()
                    self.callback("after_batch")
                except CancelBatchException:
                    pass
            self.callback("after_epoch")
        except CancelEpochException:
            pass

    def fit(self, n_epochs, param_groups=None):
        self.n_epochs = n_epochs
        self.opt = self.opt_func(param_groups or self.model.parameters(), self.lr)
        self.callback("before_fit")
        for self.epoch in range(n_epochs):
            self.one_epoch(True)
            with torch.no_grad():
                self.one_epoch(False)
        self.callback("after_fit")

    def callback(self, name):
        run_cbs(self.cbs, name, self)


class OneCycleCB(Callback):
    def before_fit(self, learn):
        total = learn.n_epochs * len(learn.dls[0])
        max_lrs = [g["lr"] * 10 for g in learn.opt.param_groups]
        self.sched = torch.optim.lr_scheduler.OneCycleLR(learn.opt, max_lr=max_lrs,
                                                         total_steps=total, pct_start=0.3)

    def after_batch(self, learn):
        if learn.training:
            self.sched.step()


class MetricsCB(Callback):
    order = 1

    def before_epoch(self, learn):
        self.loss_sum, self.correct, self.count = 0.0, 0, 0

    def after_batch(self, learn):
        n = len(learn.batch[1])
        self.loss_sum += learn.loss.item() * n
        self.correct += (learn.preds.argmax(1) == learn.batch[1]).sum().item()
        self.count += n

    def after_epoch(self, learn):
        phase = "train" if learn.training else "valid"
        print(f"epoch {learn.epoch} {phase}: loss {self.loss_sum / self.count:.5f} "
              f"acc {self.correct / self.count:.4f}")


class RecorderCB(Callback):
    order = 2

    def before_fit(self, learn):
        self.lrs, self.losses = [], []

    def after_batch(self, learn):
        if learn.training:
            self.lrs.append([round(g["lr"], 7) for g in learn.opt.param_groups])
            self.losses.append(learn.loss.item())


class SkipEveryThirdCB(Callback):
    def before_batch(self, learn):
        if learn.training and learn.iter % 3 == 2:
            raise CancelBatchException()


class EarlyValidStopCB(Callback):
    def before_batch(self, learn):
        if not learn.training and learn.iter >= 1:
            raise CancelEpochException()


X = torch.randn(240, 10)
y = (X[:, :3].sum(1) > 0).long() + (X[:, 3] > 1).long()
train_ds, valid_ds = TensorDataset(X[:192], y[:192]), TensorDataset(X[192:], y[192:])
dls = (DataLoader(train_ds, batch_size=32, shuffle=True), DataLoader(valid_ds, batch_size=24))
body = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
head = nn.Linear(16, 3)
model = nn.Sequential(body, head)
rec = RecorderCB()
learn = Learner(model, dls, F.cross_entropy, lr=0.01,
                cbs=[OneCycleCB(), MetricsCB(), rec, SkipEveryThirdCB()],
                opt_func=lambda p, lr: torch.optim.AdamW(p, lr=lr, weight_decay=0.01))
for p in body.parameters():
    p.requires_grad_(False)
print("trainable (frozen):", sum(p.numel() for p in model.parameters() if p.requires_grad))
learn.fit(2, param_groups=[{"params": head.parameters()}])
for p in body.parameters():
    p.requires_grad_(True)
print("trainable (unfrozen):", sum(p.numel() for p in model.parameters() if p.requires_grad))
learn.cbs.append(EarlyValidStopCB())
learn.fit(3, param_groups=[{"params": body.parameters(), "lr": 1e-3},
                           {"params": head.parameters(), "lr": 1e-2}])
print("recorded steps:", len(rec.lrs), "first lrs:", rec.lrs[0],
      "peak:", max(r[1] for r in rec.lrs))
print("last lrs:", rec.lrs[-1], "smoothed loss:",
      round(sum(rec.losses[-5:]) / 5, 6), math.isfinite(rec.losses[-1]))
