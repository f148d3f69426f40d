"""FSDP2 (``fully_shard``) on 1, 2 or 3 ranks, written for torch: run by torchrun with
PyTorch and by Ember's launcher with ``import torch`` resolved to Ember; test_fsdp2 compares
what the two print (losses, gradient norms, shard shapes and placements, state-dict keys,
types and values, the module's printed form)."""

import shutil
import sys
import tempfile
import warnings

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed._composable.fsdp import fully_shard as composable_fully_shard
from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import (
    CheckpointImpl,
    checkpoint_wrapper,
)
from torch.distributed.checkpoint.state_dict import (
    StateDictOptions,
    get_model_state_dict,
    get_optimizer_state_dict,
    get_state_dict,
    set_model_state_dict,
    set_state_dict,
)
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import (
    CPUOffloadPolicy,
    FSDPModule,
    MixedPrecisionPolicy,
    fully_shard,
    register_fsdp_forward_method,
)
from torch.distributed.tensor import DTensor, Shard
from torch.utils.checkpoint import checkpoint

warnings.simplefilter("ignore")      # stderr would interleave with the report
dist.init_process_group("gloo")
R, W = dist.get_rank(), dist.get_world_size()


def say(*parts):
    if R == 0:
        line("| " + " ".join(map(str, parts)))


def everyone(*parts):
    # each rank's line, gathered on rank 0 so that they print in rank order
    lines = [None] * W
    dist.all_gather_object(lines, " ".join(map(str, parts)))
    for r, text in enumerate(lines):
        say(f"[{r}]", text)


def line(text):
    # one write, the newline included, so that lines of the ranks never interleave
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def fmt(t):
    if isinstance(t, DTensor):
        t = t.full_tensor()
    v = t.detach().float().reshape(-1)
    return " ".join(f"{x:.9g}" for x in v[:5].tolist()) + f" sum {v.double().sum().item():.9g}"


def model():
    return nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Sequential(nn.Linear(16, 16), nn.ReLU()),
                         nn.Linear(16, 3), nn.Linear(3, 1, bias=False))


def shard(m, **kw):
    for sub in (m[0], m[2], m[3]):
        fully_shard(sub, **kw)
    return fully_shard(m, **kw)


def data():
    torch.manual_seed(1)
    x, y = torch.randn(12, 6), torch.randn(12, 1)
    n = 12 // W
    return x[R * n:(R + 1) * n], y[R * n:(R + 1) * n]


def train(name, steps=3, accumulate=1, **kw):
    torch.manual_seed(0)
    m = shard(model(), **kw)
    opt = torch.optim.Adam(m.parameters(), lr=0.01)
    xs, ys = data()
    half = len(xs) // accumulate
    for _ in range(steps):
        opt.zero_grad()
        for i in range(accumulate):
            if accumulate > 1:
                m.set_requires_gradient_sync(i == accumulate - 1)
            out = m(xs[i * half:(i + 1) * half])
            loss = nn.functional.mse_loss(out.float(), ys[i * half:(i + 1) * half])
            loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5)
        opt.step()
        say(name, "loss", fmt(loss), "out", out.dtype, "norm", fmt(norm))
    for n, p in m.named_parameters():
        say(name, "param", n, type(p).__name__, tuple(p.shape), p.dtype, p.placements, fmt(p))
        everyone(name, "local", n, tuple(p.to_local().shape), type(p.grad).__name__,
                 p.grad.placements, fmt(p.grad.to_local()) if p.grad.to_local().numel() else "-")
    for k, v in m.state_dict().items():
        say(name, "state", k, type(v).__name__, tuple(v.shape), v.placements, fmt(v))
    return m


m = train("plain")
say(m)
say("mro", [c.__name__ for c in type(m).__mro__])
say("isinstance", isinstance(m, FSDPModule), isinstance(m[0], FSDPModule),
    isinstance(m[1], FSDPModule), isinstance(m[2][0], FSDPModule))
say("index", type(m[0:2]).__name__)
train("mp_bf16", mp_policy=MixedPrecisionPolicy(param_dtype=torch.bfloat16,
                                                 reduce_dtype=torch.float32))
train("mp_bf16_reduce", mp_policy=MixedPrecisionPolicy(param_dtype=torch.bfloat16))
train("mp_fp16", mp_policy=MixedPrecisionPolicy(param_dtype=torch.float16))
train("keep", reshard_after_forward=False, offload_policy=CPUOffloadPolicy(pin_memory=False))
train("accumulate", accumulate=2)
train("accumulate_mp", accumulate=2,
      mp_policy=MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32))

# unshard / reshard by hand, and the parameters registered in between
torch.manual_seed(0)
m = model()
composable_fully_shard(m[0])
composable_fully_shard(m)
m.unshard()
say("unshard", [(n, type(p).__name__, tuple(p.shape)) for n, p in m.named_parameters()])
handle = m[0].unshard(async_op=True)
handle.wait()
say("unshard 0", [(n, type(p).__name__) for n, p in m[0].named_parameters()])
m.reshard()
m[0].reshard()
say("reshard", [(n, type(p).__name__, p.placements) for n, p in m.named_parameters()])
m.set_reshard_after_forward(True)
out = m(data()[0])
say("after forward", [type(p).__name__ for p in m.parameters()], fmt(out))
with torch.no_grad():
    out = m(data()[0])
say("no_grad", [type(p).__name__ for p in m.parameters()], fmt(out))
sd = m.state_dict()
say("full", [(k, fmt(v)) for k, v in sd.items()])
p = next(m.parameters())
say("dtensor", type(p).__name__, p.device_mesh, p.placements == (Shard(0),), p.requires_grad)


# state dicts: load_state_dict of DTensors, full state dicts through distributed.checkpoint
def small(seed):
    torch.manual_seed(seed)
    m = nn.Sequential(nn.Linear(6, 5), nn.Tanh(), nn.Linear(5, 3))
    fully_shard(m[0])
    return fully_shard(m)


a, b = small(0), small(1)
b.load_state_dict(a.state_dict())
say("load", [torch.equal(p.full_tensor(), q.full_tensor()) for p, q in zip(a.parameters(),
                                                                           b.parameters())])
full = get_model_state_dict(a, options=StateDictOptions(full_state_dict=True))
say("full", [(k, type(v).__name__, tuple(v.shape)) for k, v in full.items()])
everyone("rank0 only", len(get_model_state_dict(
    a, options=StateDictOptions(full_state_dict=True, cpu_offload=True))))
c = small(2)
set_model_state_dict(c, full, options=StateDictOptions(full_state_dict=True))
say("set", [torch.equal(p.full_tensor(), q.full_tensor()) for p, q in zip(a.parameters(),
                                                                          c.parameters())])
# two backwards accumulate into the sharded gradients
opt = torch.optim.AdamW(c.parameters(), lr=0.1)
x = data()[0]
c(x).sum().backward()
c(x).sum().backward()
say("accumulated", [fmt(p.grad) for p in c.parameters()])
opt.step()
osd = get_optimizer_state_dict(c, opt)
say("optim state", sorted(osd["state"]),
    [(k, type(v).__name__) for k, v in osd["state"]["0.weight"].items()])

# a distributed checkpoint of the shards, loaded into fresh shards and into whole tensors
where = [tempfile.mkdtemp() if R == 0 else None]
dist.broadcast_object_list(where)
model_sd, optim_sd = get_state_dict(c, opt)
dcp.save({"model": model_sd, "optim": optim_sd}, checkpoint_id=where[0])
d = small(3)
opt_d = torch.optim.AdamW(d.parameters(), lr=0.1)
d(x).sum().backward()
opt_d.step()
model_sd, optim_sd = get_state_dict(d, opt_d)
state = {"model": model_sd, "optim": optim_sd}
dcp.load(state, checkpoint_id=where[0])
set_state_dict(d, opt_d, model_state_dict=state["model"], optim_state_dict=state["optim"])
say("dcp shards", [torch.equal(p.full_tensor(), q.full_tensor())
                   for p, q in zip(c.parameters(), d.parameters())],
    [torch.equal(opt.state[p]["exp_avg"].full_tensor(), opt_d.state[q]["exp_avg"].full_tensor())
     for p, q in zip(c.parameters(), d.parameters())])
torch.manual_seed(4)
whole = nn.Sequential(nn.Linear(6, 5), nn.Tanh(), nn.Linear(5, 3))
state = {"model": whole.state_dict()}
dcp.load(state, checkpoint_id=where[0])
whole.load_state_dict(state["model"])
everyone("dcp whole", [torch.equal(p.full_tensor(), q)
                       for p, q in zip(c.parameters(), whole.parameters())])
dist.barrier()
if R == 0:
    shutil.rmtree(where[0])

# to()/double() give the groups new sharded parameters
e = small(5).double()
e(x.double()).sum().backward()
say("double", [(p.dtype, fmt(p.grad)) for p in e.parameters()])

# a tied weight within a group, a frozen parameter, ignored parameters (not sharded, their
# gradients not reduced)
torch.manual_seed(0)
t = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 4), nn.Linear(4, 10, bias=False),
                  nn.Linear(10, 2))
t[2].weight = t[0].weight
t[1].bias.requires_grad_(False)
fully_shard(t[1])
fully_shard(t, ignored_params=set(t[3].parameters()))
say("tied", [(n, type(p).__name__, p.requires_grad) for n, p in t.named_parameters()])
opt_t = torch.optim.SGD([p for p in t.parameters() if p.requires_grad], lr=0.1)
idx = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])[R % 3:R % 3 + 1]
for _ in range(2):
    opt_t.zero_grad()
    out = t(idx)
    out.square().mean().backward()
    say("tied", fmt(out), [(n, None if p.grad is None else fmt(p.grad))
                           for n, p in t.named_parameters()])
    opt_t.step()
say("tied", [(n, fmt(p)) for n, p in t.named_parameters()])

# HSDP: a 2-D mesh, replicated over its first dimension and sharded over its second
for shape in [(W, 1), (1, W)]:
    for dtype in (None, torch.float16):
        mesh = init_device_mesh("cpu", shape, mesh_dim_names=("replicate", "shard"))
        torch.manual_seed(0)
        h = nn.Sequential(nn.Linear(6, 5), nn.Tanh(), nn.Linear(5, 3))
        kw = dict(mesh=mesh, mp_policy=MixedPrecisionPolicy(param_dtype=dtype))
        fully_shard(h[0], **kw)
        fully_shard(h, **kw)
        say("hsdp", shape, [(n, p.placements, p.device_mesh) for n, p in h.named_parameters()])
        opt_h = torch.optim.Adam(h.parameters(), lr=0.1)
        for step in range(3):
            opt_h.zero_grad()
            if step == 1:               # reduce-scatter only, all-reduce with the next
                h.set_requires_all_reduce(False)
                h(x).float().square().mean().backward()
                h.set_requires_all_reduce(True)
            out = h(x)
            out.float().square().mean().backward()
            everyone("hsdp", shape, dtype, step, fmt(out),
                     [fmt(p.grad.to_local()) for p in h.parameters()])
            opt_h.step()
        say("hsdp", shape, [(n, fmt(p)) for n, p in h.named_parameters()])

# two modules in one group, the model run twice before one backward, and a forward (grad
# enabled) that is never backpropagated between backward and the optimizer step
torch.manual_seed(0)
q = nn.Sequential(nn.Linear(6, 7), nn.Tanh(), nn.Linear(7, 5), nn.Tanh(), nn.Linear(5, 2))
fully_shard([q[0], q[2]])
fully_shard(q[4])
fully_shard(q)
opt_q = torch.optim.SGD(q.parameters(), lr=0.1)
x2 = data()[0].flip(0)
for _ in range(3):
    opt_q.zero_grad()
    loss = q(x).square().mean() + q(x2).abs().mean()
    loss.backward()
    metric = q(x2).sum()
    say("twice", fmt(loss), fmt(metric), [(n, fmt(p.grad)) for n, p in q.named_parameters()])
    opt_q.step()
say("twice", [(n, fmt(p)) for n, p in q.named_parameters()])


# activation checkpointing inside sharded blocks: recomputed in backward with the gathered
# parameters (torch.utils.checkpoint in forward, or checkpoint_wrapper)
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(6, 6), nn.Linear(6, 6)

    def forward(self, x):
        return x + self.b(torch.tanh(self.a(x)))


class Blocks(nn.Module):
    def __init__(self, recompute):
        super().__init__()
        self.recompute = recompute
        self.blocks = nn.ModuleList([Block() for _ in range(2)])
        self.head = nn.Linear(6, 2)

    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False) if self.recompute else b(x)
        return self.head(x)


for recompute in (True, False):
    torch.manual_seed(0)
    net = Blocks(recompute)
    if not recompute:
        for i, b in enumerate(net.blocks):
            net.blocks[i] = checkpoint_wrapper(b, checkpoint_impl=CheckpointImpl.NO_REENTRANT)
    for b in net.blocks:
        fully_shard(b)
    fully_shard(net)
    opt_n = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(2):
        opt_n.zero_grad()
        out = net(x)
        out.square().mean().backward()
        say("checkpoint", recompute, fmt(out),
            [(n, fmt(p.grad)) for n, p in net.named_parameters()])
        opt_n.step()


class Gen(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)

    def forward(self, x):
        return self.lin(x)

    def generate(self, x):
        return self.lin(x) * 2


torch.manual_seed(0)
g = fully_shard(Gen())
register_fsdp_forward_method(g, "generate")
say("generate", fmt(g.generate(torch.ones(1, 3))))
g.train(False)
say("eval", fmt(g(torch.ones(1, 3))), [type(p).__name__ for p in g.parameters()])
dist.destroy_process_group()
say("done")
line(f"OK rank {R}")
