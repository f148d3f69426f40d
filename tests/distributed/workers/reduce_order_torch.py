"""Floating-point sums over 3 ranks, written for torch: all_reduce and reduce_scatter_tensor
(SUM and AVG, float32, float16 and bfloat16) of terms whose sum depends on the order of the
ranks; test_collectives compares the printed bits with PyTorch's gloo."""

import sys

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
R, W = dist.get_rank(), dist.get_world_size()


def show(name, t):
    lines = [None] * W
    dist.all_gather_object(lines, " ".join(f"{v:.9g}" for v in t.double().tolist()))
    if R == 0:
        for r, text in enumerate(lines):
            sys.stdout.write(f"| {name} [{r}] {text}\n")


torch.manual_seed(R)
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    for n in (1, 5, 12, 40):
        x = (torch.randn(n) * torch.exp(torch.randn(n) * 3)).to(dtype)
        for op in (dist.ReduceOp.SUM, dist.ReduceOp.AVG):
            t = x.clone()
            dist.all_reduce(t, op=op)
            show(f"all_reduce {dtype} {n} {op}", t)
            out = torch.empty(n, dtype=dtype)
            dist.reduce_scatter_tensor(out, torch.cat([x] * W) * (R + 1), op=op)
            show(f"reduce_scatter_tensor {dtype} {n} {op}", out)
dist.destroy_process_group()
sys.stdout.write(("| done\n" if R == 0 else "") + f"OK rank {R}\n")
