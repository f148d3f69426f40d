"""Train a small CNN on the 8×8 handwritten digits shipped with ember.

    python -m ember.examples.digits [--epochs 12] [--batch-size 32] [--lr 0.01] [--seed 0]
                                     [--out DIR] [--backend ember|torch] [--ranks N]

The same script runs under real torch (``--backend torch``) for a side-by-side check: after
the same seed both draw the same initial weights and the same batches, so their losses
agree. It writes to ``--out`` a checkpoint in torch's format (``model.pt``, loadable by
``torch.load``), the per-epoch metrics (``metrics.json``) and, where matplotlib is
installed, a plot of the curves (``curves.png``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import pathlib
import sys
import time

import numpy as np

DATA = pathlib.Path(__file__).with_name("data") / "digits.npz"


def load_digits():
    """Images as float32 in [0, 1], shape (1797, 1, 8, 8), and int64 labels."""
    with np.load(DATA) as d:
        images = d["images"].astype(np.float32)[:, None] / 16.0
        labels = d["labels"].astype(np.int64)
    return images, labels


def build_model(nn):
    """Two 3×3 conv blocks with max-pooling, then two linear layers."""
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 2 * 2, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 10))


def _progress(iterable, total, desc):
    try:
        from tqdm import tqdm
    except ImportError:
        return _PlainProgress(iterable, total, desc)
    # a terminal redraws the bar twice a second; a log file (not a tty) gets a line at most
    # every 30 s, so an epoch writes two lines there, not one per batch
    return tqdm(iterable, total=total, desc=desc, leave=True, file=sys.stdout,
                dynamic_ncols=False, ncols=90, mininterval=0.5 if sys.stdout.isatty() else 30)


class _PlainProgress:
    """A stand-in for tqdm: prints the postfix once per epoch."""

    def __init__(self, iterable, total, desc):
        self.iterable, self.desc, self.postfix = iterable, desc, ""

    def __iter__(self):
        yield from self.iterable
        print(f"{self.desc}: {self.postfix}")

    def set_postfix_str(self, s="", refresh=True):
        self.postfix = s


def evaluate(torch, model, x, y) -> tuple[float, float]:
    model.eval()
    with torch.no_grad():
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits, y).item()
        acc = (logits.argmax(1) == y).float().mean().item()
    model.train()
    return loss, acc


def train(args) -> dict:
    torch = importlib.import_module(args.backend)
    nn = torch.nn
    images, labels = load_digits()
    torch.manual_seed(args.seed)
    perm = torch.randperm(len(labels)).numpy()
    n_test = len(labels) // 5
    test_idx, train_idx = perm[:n_test], perm[n_test:]
    x_train, y_train = torch.tensor(images[train_idx]), torch.tensor(labels[train_idx])
    x_test, y_test = torch.tensor(images[test_idx]), torch.tensor(labels[test_idx])
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x_train, y_train),
                                         batch_size=args.batch_size, shuffle=True)
    model = build_model(nn)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    loss_fn = nn.CrossEntropyLoss()
    history = {"epoch": [], "train_loss": [], "train_acc": [], "test_loss": [], "test_acc": [],
               "step_losses": []}
    start = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        bar = _progress(loader, len(loader), f"epoch {epoch:2d}/{args.epochs}")
        total, correct, seen = 0.0, 0, 0
        for xb, yb in bar:
            opt.zero_grad()
            logits = model(xb)
            loss = loss_fn(logits, yb)
            loss.backward()
            opt.step()
            history["step_losses"].append(loss.item())
            total += loss.item() * len(yb)
            correct += int((logits.argmax(1) == yb).sum().item())
            seen += len(yb)
            # shown at the bar's own redraws (a refresh here would redraw every batch, with
            # the count tqdm has not yet stored: 0/45 until the epoch ends)
            bar.set_postfix_str(f"loss {total / seen:.4f} acc {correct / seen:.3f}",
                                refresh=False)
        sched.step()
        test_loss, test_acc = evaluate(torch, model, x_test, y_test)
        for k, v in (("epoch", epoch), ("train_loss", total / seen),
                     ("train_acc", correct / seen), ("test_loss", test_loss),
                     ("test_acc", test_acc)):
            history[k].append(v)
        print(f"           test loss {test_loss:.4f}  test accuracy {test_acc:.4f}")
    history["seconds"] = time.perf_counter() - start
    history["backend"] = args.backend
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), out / "model.pt")
    (out / "metrics.json").write_text(json.dumps(history, indent=1))
    print(f"final test accuracy {history['test_acc'][-1]:.4f} in {history['seconds']:.1f} s "
          f"({args.backend}); checkpoint {out / 'model.pt'}")
    _plot(history, out)
    return history


def _plot(history: dict, out: pathlib.Path) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no plot: matplotlib is not installed (pip install 'ember[plot]' or "
              f"pip install matplotlib); the metrics are in {out / 'metrics.json'}")
        return
    fig = _figure(plt, history)
    fig.savefig(out / "curves.png", dpi=100)
    plt.close(fig)
    print(f"plot {out / 'curves.png'}")


def _figure(plt, history: dict):
    """The loss and accuracy curves, one tick per whole epoch (never 0.5 on short runs)."""
    from matplotlib.ticker import MaxNLocator
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    for ax in (ax1, ax2):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax1.plot(history["epoch"], history["train_loss"], label="train")
    ax1.plot(history["epoch"], history["test_loss"], label="test")
    ax1.set_xlabel("epoch")
    ax1.set_ylabel("cross-entropy loss")
    ax1.legend()
    ax2.plot(history["epoch"], history["train_acc"], label="train")
    ax2.plot(history["epoch"], history["test_acc"], label="test")
    ax2.set_xlabel("epoch")
    ax2.set_ylabel("accuracy")
    ax2.legend()
    fig.suptitle(f"digits CNN ({history['backend']})")
    fig.tight_layout()
    return fig


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="Train a small CNN on the 8x8 digits.")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="out")
    p.add_argument("--backend", choices=("ember", "torch"), default="ember")
    p.add_argument("--ranks", type=int, default=1,
                   help="train on this many processes (DistributedDataParallel over MPI)")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.ranks > 1:
        from .digits_ranks import main as main_ranks
        return main_ranks(args, sys.argv[1:] if argv is None else list(argv))
    if args.backend == "torch":
        try:
            import torch  # noqa: F401
        except ImportError:
            print("--backend torch needs torch: pip install torch==2.13.0", file=sys.stderr)
            return 1
    train(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
