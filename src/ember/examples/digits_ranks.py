"""The digits demo on several processes: ``python -m ember.examples.digits --ranks N``.

Started by hand, it launches itself on N ranks through ``python -m ember.distributed.run``
(so mpiexec); on each rank it trains the demo's CNN wrapped in ``DistributedDataParallel``,
each rank taking ``batch-size / N`` samples of every batch through a ``DistributedSampler``,
so the ranks together train with the demo's batch size. Rank 0 evaluates, prints and writes
the checkpoint (the plain model's ``state_dict``, as the one-process demo writes it).
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import time


def main(args, argv: list[str]) -> int:
    """Train on ``args.ranks`` ranks: relaunch under MPI, or (inside the job) train."""
    if args.backend != "ember":
        print("--ranks runs with the ember backend only", file=sys.stderr)
        return 2
    if os.environ.get("WORLD_SIZE") != str(args.ranks):
        cmd = [sys.executable, "-m", "ember.distributed.run", "--nproc-per-node",
               str(args.ranks), "-m", "ember.examples.digits", *argv]
        return subprocess.call(cmd)
    train(args)
    return 0


def train(args) -> dict:
    """One rank's share of the training; returns the history (complete on rank 0)."""
    from .. import distributed as dist
    from .. import manual_seed, nn, optim, randperm, tensor, zeros
    from ..utils.data import DataLoader, DistributedSampler, TensorDataset
    from .digits import _progress, build_model, evaluate, load_digits

    ember = sys.modules[__package__.rpartition(".")[0]]    # the package, as the demo uses it

    dist.init_process_group()
    rank, world = dist.get_rank(), dist.get_world_size()
    if args.batch_size % world:
        raise SystemExit(f"--batch-size {args.batch_size} must be a multiple of --ranks {world}")
    images, labels = load_digits()
    manual_seed(args.seed)
    perm = randperm(len(labels)).numpy()
    n_test = len(labels) // 5
    test_idx, train_idx = perm[:n_test], perm[n_test:]
    train_set = TensorDataset(tensor(images[train_idx]), tensor(labels[train_idx]))
    x_test, y_test = tensor(images[test_idx]), tensor(labels[test_idx])
    sampler = DistributedSampler(train_set, seed=args.seed)
    loader = DataLoader(train_set, batch_size=args.batch_size // world, sampler=sampler)
    model = nn.parallel.DistributedDataParallel(build_model(nn))
    manual_seed(args.seed + rank)                   # each rank its own dropout masks
    opt = optim.Adam(model.parameters(), lr=args.lr)
    sched = optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    loss_fn = nn.CrossEntropyLoss()
    history = {"epoch": [], "train_loss": [], "train_acc": [], "test_loss": [], "test_acc": []}
    start = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        sampler.set_epoch(epoch)
        batches = loader if rank else _progress(loader, len(loader),
                                                f"epoch {epoch:2d}/{args.epochs}")
        sums = zeros(3, dtype=ember.float64)             # loss sum, correct, seen
        for xb, yb in batches:
            opt.zero_grad()
            logits = model(xb)
            loss = loss_fn(logits, yb)
            loss.backward()
            opt.step()
            sums += tensor([loss.item() * len(yb), (logits.argmax(1) == yb).sum().item(),
                            len(yb)], dtype=ember.float64)
            if rank == 0:
                batches.set_postfix_str(f"loss {sums[0].item() / sums[2].item():.4f} "
                                        f"acc {sums[1].item() / sums[2].item():.3f}")
        sched.step()
        dist.all_reduce(sums)
        test_loss, test_acc = evaluate(ember, model.module, x_test, y_test)
        total, correct, seen = sums.tolist()
        for k, v in (("epoch", epoch), ("train_loss", total / seen),
                     ("train_acc", correct / seen), ("test_loss", test_loss),
                     ("test_acc", test_acc)):
            history[k].append(v)
        if rank == 0:
            print(f"           test loss {test_loss:.4f}  test accuracy {test_acc:.4f}")
    history["seconds"] = time.perf_counter() - start
    history["backend"] = f"ember, {world} ranks"
    if rank == 0:
        out = pathlib.Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        ember.save(model.module.state_dict(), out / "model.pt")
        (out / "metrics.json").write_text(json.dumps(history, indent=1))
        print(f"final test accuracy {history['test_acc'][-1]:.4f} in "
              f"{history['seconds']:.1f} s ({world} ranks); checkpoint {out / 'model.pt'}")
    dist.destroy_process_group()
    return history
