# Models: a home-grown Keras/Lightning-style Trainer: callbacks for early stopping, best-model
# checkpointing (deepcopy of the state_dict and torch.save to an in-memory buffer), metric
# averaging meters, ReduceLROnPlateau driven by validation loss, a history dict, and reload of
# the best weights for final evaluation.
import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value, n=1):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(1, self.count)


class Callback:
    def on_epoch_end(self, trainer, epoch, logs):
        pass


class EarlyStopping(Callback):
    def __init__(self, patience=3, min_delta=1e-4):
        self.patience, self.min_delta, self.best, self.wait = patience, min_delta, float("inf"), 0

    def on_epoch_end(self, trainer, epoch, logs):
        if logs["val_loss"] < self.best - self.min_delta:
            self.best, self.wait = logs["val_loss"], 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                print(f"early stopping at epoch {epoch}")
                trainer.stop = True


class Checkpoint(Callback):
    def __init__(self):
        self.best, self.state, self.buffer = float("inf"), None, io.BytesIO()

    def on_epoch_end(self, trainer, epoch, logs):
        if logs["val_loss"] < self.best:
            self.best = logs["val_loss"]
            self.state = copy.deepcopy(trainer.model.state_dict())
            self.buffer = io.BytesIO()
            torch.save({"epoch": epoch, "state": self.state,
                        "opt": trainer.opt.state_dict()}, self.buffer)
            print(f"  saved checkpoint at epoch {epoch} ({self.buffer.tell()} bytes)")


class Trainer:
    def __init__(self, model, opt, sched, callbacks):
        self.model, self.opt, self.sched, self.callbacks = model, opt, sched, callbacks
        self.history = {"loss": [], "val_loss": [], "acc": [], "lr": []}
        self.stop = False

    def run_epoch(self, loader, train):
        self.model.train(train)
        loss_m, acc_m = AverageMeter(), AverageMeter()
        with torch.set_grad_enabled(train):
            for xb, yb in loader:
                out = self.model(xb)
                loss = F.cross_entropy(out, yb)
                if train:
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
                loss_m.update(loss.item(), len(xb))
                acc_m.update((out.argmax(1) == yb).float().mean().item(), len(xb))
        return loss_m.avg, acc_m.avg

    def fit(self, train_loader, val_loader, epochs):
        for epoch in range(epochs):
            loss, _ = self.run_epoch(train_loader, True)
            val_loss, acc = self.run_epoch(val_loader, False)
            self.sched.step(val_loss)
            logs = {"loss": loss, "val_loss": val_loss, "acc": acc,
                    "lr": self.opt.param_groups[0]["lr"]}
            for k, v in logs.items():
                self.history[k].append(v)
            print(f"epoch {epoch:2d} loss {loss:.5f} val {val_loss:.5f} acc {acc:.4f} "
                  f"lr {logs['lr']:.5f}")
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, logs)
            if self.stop:
                break


torch.manual_seed(27)
X = torch.randn(300, 5)
y = ((X[:, 0] * X[:, 1] > 0) ^ (X[:, 2] > 1)).long()
train_ds, val_ds = TensorDataset(X[:220], y[:220]), TensorDataset(X[220:], y[220:])
g = torch.Generator().manual_seed(5)
train_loader = DataLoader(train_ds, batch_size=32, shuffle=True, generator=g)
val_loader = DataLoader(val_ds, batch_size=64)
model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.3, patience=1,
                                                   threshold=1e-3)
ckpt = Checkpoint()
trainer = Trainer(model, opt, sched, [ckpt, EarlyStopping(patience=4)])
trainer.fit(train_loader, val_loader, 25)
print({k: [round(v, 4) for v in vals[-3:]] for k, vals in trainer.history.items()})
print(sched.state_dict()["best"], sched.num_bad_epochs, sched.get_last_lr())
ckpt.buffer.seek(0)
saved = torch.load(ckpt.buffer)
print("best epoch", saved["epoch"], sorted(saved["opt"]["state"])[:3],
      saved["opt"]["param_groups"][0]["lr"])
model.load_state_dict(saved["state"])
print("reloaded val", trainer.run_epoch(val_loader, False))
