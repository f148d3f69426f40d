"""FSDP on 2 ranks, written for torch: run by torchrun with PyTorch and by Ember's launcher
with ``import torch`` resolved to Ember; test_fsdp compares what the two print (losses,
gradient norms, parameter names and shapes, state-dict keys and values)."""

import functools
import sys
import warnings

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import (
    FullStateDictConfig,
    MixedPrecision,
    ShardingStrategy,
    StateDictType,
)
from torch.distributed.fsdp import (
    FullyShardedDataParallel as FSDP,
)
from torch.distributed.fsdp.wrap import (
    ModuleWrapPolicy,
    size_based_auto_wrap_policy,
)

warnings.simplefilter("ignore")      # stderr would interleave with the report
dist.init_process_group("gloo")
R = dist.get_rank()


def say(*parts):
    if R == 0:
        line("| " + " ".join(map(str, parts)))


def line(text):
    # one write, the newline included, so that lines of the two ranks never interleave
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def model():
    return nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Sequential(nn.Linear(16, 16), nn.ReLU()),
                         nn.Linear(16, 3))


def fmt(t):
    v = t.detach().float().reshape(-1)
    return " ".join(f"{x:.9g}" for x in v[:5].tolist()) + f" sum {v.double().sum().item():.9g}"


def tied():
    m = nn.Sequential(nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 6), nn.Linear(6, 3))
    m[2].weight = m[0].weight
    return m


def train(name, steps=4, make=model, **kw):
    torch.manual_seed(0)
    fsdp = FSDP(make(), device_id=torch.device("cpu"), **kw)
    opt = torch.optim.Adam(fsdp.parameters(), lr=0.01)
    torch.manual_seed(1)
    x, y = torch.randn(8, 6), torch.randn(8, 3)
    xs, ys = x[R * 4:(R + 1) * 4], y[R * 4:(R + 1) * 4]
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(fsdp(xs), ys)
        loss.backward()
        norm = fsdp.clip_grad_norm_(0.5)
        opt.step()
        say(name, "loss", fmt(loss), "norm", fmt(norm))
    # a parameter with nothing in this rank's shard has no gradient, so no optimizer state
    say(name, "grads", [None if p.grad is None else tuple(p.grad.shape)
                        for p in fsdp.parameters()], "states", len(opt.state))
    for n, p in fsdp.named_parameters():
        say(name, "param", n, tuple(p.shape), p.dtype, fmt(p))
    # (torch's offload_to_cpu=True fails on CPU tensors: "setStorage ... out of bounds")
    with FSDP.state_dict_type(fsdp, StateDictType.FULL_STATE_DICT, FullStateDictConfig()):
        sd = fsdp.state_dict()
    for k, v in sd.items():
        say(name, "state", k, tuple(v.shape), fmt(v))
    return fsdp


policy = ModuleWrapPolicy({nn.Linear})
train("full", auto_wrap_policy=policy)
train("grad_op", auto_wrap_policy=policy, sharding_strategy=ShardingStrategy.SHARD_GRAD_OP)
train("no_shard", sharding_strategy=ShardingStrategy.NO_SHARD)
train("orig", auto_wrap_policy=functools.partial(size_based_auto_wrap_policy,
                                                 min_num_params=100), use_orig_params=True)
train("mp", auto_wrap_policy=policy,
      mixed_precision=MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.float32))
def with_bn():
    return nn.Sequential(nn.Linear(6, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))


train("mp_bn", make=with_bn, auto_wrap_policy=policy,
      mixed_precision=MixedPrecision(param_dtype=torch.float16))
train("tied", make=tied)
train("tied_orig", make=tied, use_orig_params=True)
f = train("mp16", steps=2, mixed_precision=MixedPrecision(param_dtype=torch.float16))
with FSDP.summon_full_params(f):
    for n, p in f.named_parameters():
        say("summon", n, tuple(p.shape), p.dtype)
dist.destroy_process_group()
say("done")
line(f"OK rank {R}")
