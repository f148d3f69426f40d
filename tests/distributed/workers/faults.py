"""A job in which rank 1 misbehaves as ``argv[1]`` says; the other ranks must not hang.

    faults.py MODE TIMEOUT_SECONDS
"""

import datetime
import os
import sys
import time

import ember as torch
import ember.distributed as dist

mode, timeout = sys.argv[1], float(sys.argv[2])
dist.init_process_group(timeout=datetime.timedelta(seconds=timeout))
r = dist.get_rank()
assert os.environ["RANK"] == str(r) and os.environ["LOCAL_RANK"] == str(r)
assert os.environ["WORLD_SIZE"] == str(dist.get_world_size())
x = torch.ones(3)
dist.all_reduce(x)
if r == 1:
    if mode == "raise":
        raise ValueError("boom on rank 1")
    if mode == "exit-early":
        sys.exit(0)
    if mode == "exit-status":
        sys.exit(3)
    if mode == "killed":
        os._exit(4)
    if mode == "mismatch":
        dist.all_reduce(torch.ones(4))
    if mode == "other-collective":
        dist.broadcast(torch.ones(3), 0)
    if mode == "hang":
        time.sleep(1000)
dist.all_reduce(x)
print(f"OK rank {r}", flush=True)
