"""FSDP on N real ranks against one process training the same model on the whole batch.

Every rank also trains the single-process reference (same seed, whole batch) and compares:
the losses (averaged over the ranks) and the full state dict agree within 1e-6 (relative
to the largest value) for each sharding strategy, with nested units, use_orig_params,
activation checkpointing inside units, no_sync and clip_grad_norm_. Then the state-dict
kinds, summon_full_params, and distributed.checkpoint saving from this sharding and
loading into others.
"""

import functools
import gc
import tempfile
import weakref
from datetime import timedelta

import numpy as np

import ember as torch
import ember.distributed as dist
import ember.distributed.checkpoint as dcp
from ember import nn
from ember.distributed.algorithms._checkpoint.checkpoint_wrapper import (
    CheckpointImpl,
    apply_activation_checkpointing,
    checkpoint_wrapper,
)
from ember.distributed.checkpoint.state_dict import (
    StateDictOptions,
    get_model_state_dict,
    get_optimizer_state_dict,
    get_state_dict,
    set_model_state_dict,
    set_optimizer_state_dict,
)
from ember.distributed.fsdp import (
    FullStateDictConfig,
    ShardingStrategy,
    StateDictType,
    _flat_param,
)
from ember.distributed.fsdp import (
    FullyShardedDataParallel as FSDP,
)
from ember.distributed.fsdp.wrap import (
    ModuleWrapPolicy,
    enable_wrap,
    size_based_auto_wrap_policy,
    wrap,
)

dist.init_process_group(timeout=timedelta(seconds=60))
R, W = dist.get_rank(), dist.get_world_size()
CPU = torch.device("cpu")


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        return x + torch.tanh(self.norm(self.fc(x)))


def model():
    return nn.Sequential(nn.Linear(7, 13), Block(13), Block(13), nn.Linear(13, 3))


def close(a, b, what, tol=1e-6):
    a = a.detach().float().numpy()
    b = b.detach().float().numpy()
    assert a.shape == b.shape, (what, a.shape, b.shape)
    rel = np.abs(a - b).max() / max(np.abs(a).max(), 1e-30) if a.size else 0.0
    assert rel <= tol, (what, rel)


torch.manual_seed(5)
X, Y = torch.randn(6 * W, 7), torch.randn(6 * W, 3)
n = len(X) // W
XS, YS = X[R * n:(R + 1) * n], Y[R * n:(R + 1) * n]


def reference(steps, clip=None, accumulate=1):
    torch.manual_seed(0)
    ref = model()
    opt = torch.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = 0
        for _ in range(accumulate):
            part = nn.functional.mse_loss(ref(X), Y)
            part.backward()
            loss = loss + part.detach()
        losses.append(loss)
        if clip:
            nn.utils.clip_grad_norm_(ref.parameters(), clip)
        opt.step()
    return ref, losses


def sharded_run(steps, clip=None, accumulate=1, prepare=None, **kw):
    torch.manual_seed(0)
    m = model()
    if prepare:
        prepare(m)
    f = FSDP(m, device_id=CPU, **kw)
    opt = torch.optim.SGD(f.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = 0
        for k in range(accumulate):
            ctx = f.no_sync() if k < accumulate - 1 else _null()
            with ctx:
                part = nn.functional.mse_loss(f(XS), YS)
                part.backward()
            loss = loss + part.detach()
        dist.all_reduce(loss)
        losses.append(loss / W)
        assert not _flat_param._LIVE, "unsharded parameters left after backward"
        if clip:
            f.clip_grad_norm_(clip)
        opt.step()
    return f, losses


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def check(name, steps=6, clip=None, accumulate=1, **kw):
    ref, ref_losses = reference(steps, clip, accumulate)
    f, losses = sharded_run(steps, clip, accumulate, **kw)
    for i, (a, b) in enumerate(zip(ref_losses, losses)):
        close(a, b, (name, "loss", i))
    cfg = FullStateDictConfig(offload_to_cpu=True, rank0_only=True)
    with FSDP.state_dict_type(f, StateDictType.FULL_STATE_DICT, cfg):
        sd = f.state_dict()
    # (NO_SHARD units give full state dicts whatever the config asks, as torch's do)
    if R == 0 or kw.get("sharding_strategy") is ShardingStrategy.NO_SHARD:
        want = ref.state_dict()
        assert list(sd) == list(want), (name, list(sd), list(want))
        for k in want:
            close(want[k], sd[k], (name, k), tol=1e-5)
    else:
        assert sd == {}, (name, sd)
    return f, ref


blocks = ModuleWrapPolicy({Block})
check("full_shard", auto_wrap_policy=blocks)
check("shard_grad_op", auto_wrap_policy=blocks, sharding_strategy=ShardingStrategy.SHARD_GRAD_OP)
check("no_shard", auto_wrap_policy=blocks, sharding_strategy=ShardingStrategy.NO_SHARD)
check("orig_params", use_orig_params=True,
      auto_wrap_policy=functools.partial(size_based_auto_wrap_policy, min_num_params=50))
check("clip", clip=0.05, auto_wrap_policy=blocks)
check("no_sync", accumulate=2, steps=3, auto_wrap_policy=blocks)
check("no_sync_no_shard", accumulate=2, steps=3, sharding_strategy=ShardingStrategy.NO_SHARD)
for impl in (CheckpointImpl.NO_REENTRANT, CheckpointImpl.REENTRANT):
    def prepare(m, impl=impl):
        apply_activation_checkpointing(
            m, checkpoint_wrapper_fn=lambda mod: checkpoint_wrapper(mod, impl),
            check_fn=lambda mod: isinstance(mod, Block))
    check(f"checkpointed {impl.name}", steps=3, auto_wrap_policy=blocks, prepare=prepare)

# FULL_SHARD frees every non-root unit after its forward (nothing keeps the gathered array
# alive: autograd's saved tensors are packed), and backward gathers it again
gathered = []
_gather = _flat_param.FlatParamHandle.gather


def recording_gather(self, dtype=None):
    arr = _gather(self, dtype)
    gathered.append((self, weakref.ref(arr)))
    return arr


_flat_param.FlatParamHandle.gather = recording_gather
torch.manual_seed(0)
f = FSDP(model(), device_id=CPU, auto_wrap_policy=blocks)
out = f(XS)
gc.collect()
assert [h.full is not None for h in (f._handle, f[1]._handle, f[2]._handle)] == [True, False, False]
assert [h is f._handle for h, r in gathered if r() is not None] == [True]
assert isinstance(f[1].fc.weight, torch.Tensor) and f[1].fc.weight.shape == (13, 13)
out.sum().backward()
gc.collect()
assert not _flat_param._LIVE and not [r for _, r in gathered if r() is not None]
assert len(gathered) == 5                 # 3 units in forward, the 2 freed ones again
_flat_param.FlatParamHandle.gather = _gather

# enable_wrap / wrap by hand
with enable_wrap(wrapper_cls=FSDP, device_id=CPU, sharding_strategy=ShardingStrategy.SHARD_GRAD_OP):
    torch.manual_seed(0)
    m = model()
    m[1] = wrap(m[1])
    hand = wrap(m)
assert isinstance(hand[1], FSDP) and hand[1].sharding_strategy is ShardingStrategy.SHARD_GRAD_OP

# summon_full_params: full tensors under the original names; writeback keeps changes
torch.manual_seed(0)
ref = model()
torch.manual_seed(0)
f = FSDP(model(), device_id=CPU, auto_wrap_policy=blocks)
with FSDP.summon_full_params(f):
    names = [n for n, _ in f.named_parameters()]
    assert names == [n for n, _ in ref.named_parameters()], names
    with torch.no_grad():
        f[1].fc.weight.mul_(2)
with FSDP.summon_full_params(f, writeback=False):
    close(f[1].fc.weight, ref[1].fc.weight * 2, "writeback")
    with torch.no_grad():
        f[1].fc.weight.zero_()
with FSDP.summon_full_params(f):
    close(f[1].fc.weight, ref[1].fc.weight * 2, "no writeback")

# SHARDED and LOCAL state dicts load back; sharded into a differently wrapped model too
f_sd, _ = sharded_run(2, auto_wrap_policy=blocks)
with FSDP.state_dict_type(f_sd, StateDictType.FULL_STATE_DICT):
    full = f_sd.state_dict()
with FSDP.state_dict_type(f_sd, StateDictType.SHARDED_STATE_DICT):
    sharded = f_sd.state_dict()
with FSDP.state_dict_type(f_sd, StateDictType.LOCAL_STATE_DICT):
    local = f_sd.state_dict()
assert list(local) == ["_flat_param", "1._flat_param", "2._flat_param"], list(local)
assert list(sharded) == list(full)
torch.manual_seed(9)
other = FSDP(model(), device_id=CPU, sharding_strategy=ShardingStrategy.NO_SHARD)
with FSDP.state_dict_type(other, StateDictType.SHARDED_STATE_DICT):
    other.load_state_dict(sharded)
with FSDP.state_dict_type(other, StateDictType.FULL_STATE_DICT):
    got = other.state_dict()
for k in full:
    close(full[k], got[k], ("sharded->other", k))
torch.manual_seed(9)
same = FSDP(model(), device_id=CPU, auto_wrap_policy=blocks)
with FSDP.state_dict_type(same, StateDictType.LOCAL_STATE_DICT):
    same.load_state_dict(local)
with FSDP.state_dict_type(same, StateDictType.FULL_STATE_DICT):
    got = same.state_dict()
for k in full:
    close(full[k], got[k], ("local", k))

# distributed.checkpoint: this sharding saves, other shardings (and a plain model) load
ckpt = [tempfile.mkdtemp(prefix="ember-dcp-") if R == 0 else None]
dist.broadcast_object_list(ckpt)
path = ckpt[0]
opt = torch.optim.Adam(f_sd.parameters(), lr=0.01)
nn.functional.mse_loss(f_sd(XS), YS).backward()
opt.step()
with FSDP.state_dict_type(f_sd, StateDictType.FULL_STATE_DICT):
    full = f_sd.state_dict()
msd, osd = get_state_dict(f_sd, opt)
assert all(type(v).__name__ == "ShardedTensor" for v in msd.values())
dcp.save({"model": msd, "optim": osd, "step": 3}, checkpoint_id=path)
import os  # noqa: E402

assert sorted(os.listdir(path)) == [".metadata"] + [f"__{r}_0.distcp" for r in range(W)]

torch.manual_seed(11)
fresh = FSDP(model(), device_id=CPU, use_orig_params=True, auto_wrap_policy=functools.partial(
    size_based_auto_wrap_policy, min_num_params=50))
fresh_opt = torch.optim.Adam(fresh.parameters(), lr=0.01)
nn.functional.mse_loss(fresh(XS), YS).backward()
fresh_opt.step()
msd2, osd2 = get_state_dict(fresh, fresh_opt)
target = {"model": msd2, "optim": osd2, "step": 0}
dcp.load(target, checkpoint_id=path)
assert target["step"] == 3
set_model_state_dict(fresh, target["model"])
set_optimizer_state_dict(fresh, fresh_opt, target["optim"])
got = get_model_state_dict(fresh, options=StateDictOptions(full_state_dict=True))
for k in full:
    close(full[k], got[k], ("dcp", k))
o1 = get_optimizer_state_dict(f_sd, opt, options=StateDictOptions(full_state_dict=True))
o2 = get_optimizer_state_dict(fresh, fresh_opt, options=StateDictOptions(full_state_dict=True))
assert sorted(o1["state"]) == sorted(o2["state"]) == sorted(full)
for k in o1["state"]:
    for s in ("exp_avg", "exp_avg_sq"):
        close(o1["state"][k][s], o2["state"][k][s], ("dcp optim", k, s))
# the same next step on both
for m, o in ((f_sd, opt), (fresh, fresh_opt)):
    o.zero_grad()
    nn.functional.mse_loss(m(XS), YS).backward()
    o.step()
a = get_model_state_dict(f_sd, options=StateDictOptions(full_state_dict=True))
b = get_model_state_dict(fresh, options=StateDictOptions(full_state_dict=True))
for k in a:
    close(a[k], b[k], ("step after load", k), tol=1e-5)

# a plain, unsharded model on every rank loads the full tensors from the shards
plain = {"model": model().state_dict()}
dcp.load(plain, checkpoint_id=path)
for k in full:
    close(full[k], plain["model"][k], ("dcp plain", k))

dist.barrier()
if R == 0:
    import shutil
    shutil.rmtree(path)
print(f"OK rank {R}", flush=True)
