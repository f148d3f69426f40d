"""DeviceMesh, DTensor and tensor parallelism on 2 ranks, run the same way under PyTorch
(torchrun, gloo) and under Ember (mpiexec): both print the same lines.

Layouts and redistribution, the placements the ops give, autograd through the layouts,
and Megatron-style blocks (an MLP, an attention block, a row-parallel embedding with a
class-parallel loss) trained with Adam and SGD on the mesh against the same model trained
unsharded in the same process: the losses and the full weights agree.
"""

import contextlib
import copy
import sys

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    PrepareModuleInput,
    RowwiseParallel,
    SequenceParallel,
    loss_parallel,
    parallelize_module,
)

mesh = init_device_mesh("cpu", (2,), mesh_dim_names=("tp",))
R = dist.get_rank()
lines = []


def say(*parts):
    lines.append(" ".join(str(p) for p in parts))


def r5(t):
    return [round(v, 4) for v in t.detach().reshape(-1).tolist()]


# ---------------------------------------------------------------- layouts
say(mesh, mesh.size(), mesh.get_local_rank(), mesh.get_coordinate(), mesh.mesh_dim_names)
x = torch.arange(10.).reshape(5, 2)
d = distribute_tensor(x, mesh, [Shard(0)])
say(d)
say(d.placements, d.shape, d.stride(), d.to_local().shape, d.full_tensor().tolist())
say(Shard(0), repr(Shard(-1)), Replicate(), repr(Partial()), Partial("max"), Shard(1) == Shard(1))
for src, dst in [(Shard(0), Replicate()), (Replicate(), Shard(1)), (Shard(0), Shard(1)),
                 (Shard(1), Shard(0))]:
    e = distribute_tensor(x, mesh, [src]).redistribute(mesh, [dst])
    say(src, dst, e.placements, e.to_local().tolist())
p = DTensor.from_local(torch.arange(5.) * (R + 1), mesh, [Partial()])
say(p.shape, p.redistribute(mesh, [Replicate()]).to_local().tolist(),
    p.redistribute(mesh, [Shard(0)]).to_local().tolist())
pm = DTensor.from_local(torch.arange(4.) * (R + 1), mesh, [Partial("max")])
say(pm.full_tensor().tolist())
u = DTensor.from_local(torch.ones(3 - R, 2) * R, mesh, [Shard(0)], shape=(5, 2), stride=(2, 1))
say(u.shape, u.full_tensor().tolist())
say(DTensor.from_local(torch.ones(2, 3), mesh, [Shard(1)]).shape)

# ---------------------------------------------------------------- op placements
w = distribute_tensor(torch.arange(15.).reshape(3, 5), mesh, [Shard(1)])
dr = distribute_tensor(torch.arange(6.).reshape(2, 3), mesh, [Replicate()])
say((d * 2 + 1).placements, d.sum().placements, d.sum(1).placements,
    d.sum(0, keepdim=True).placements, d.mean(1).placements, (-p).placements,
    (p * 2).placements, (p + p).placements, (p + 1).placements, p.relu().placements)
d4 = distribute_tensor(torch.arange(12.).reshape(4, 3), mesh, [Shard(0)])
say(d4.mean().placements, d4.mean(0).placements, d.mean().placements, d4.softmax(0).placements,
    d4.softmax(1).placements, F.log_softmax(d4, 1).placements)
say(d4.view(2, 2, 3).placements, d4.view(12).placements, d4.reshape(4, 3, 1).placements,
    d4.t().placements, d4.flatten().placements, d4.transpose(0, 1).shape)
say((dr @ w).placements, (dr @ w).shape, torch.mm(dr, w).full_tensor().tolist())
say(torch.zeros_like(d).placements, d.float().placements, (d + torch.tensor(1.)).placements)
say([(n.placements, round(n.full_tensor().item(), 4)) for n in
     (torch.linalg.vector_norm(d), torch.linalg.vector_norm(d, float("inf")), d.norm(1),
      torch.linalg.vector_norm(p), torch.linalg.vector_norm(d, 3.0))])
try:
    d + torch.ones(2)
except RuntimeError as e:
    say("RuntimeError", e)
say((d4 @ distribute_tensor(torch.ones(3, 2), mesh, [Replicate()])).placements)
say((distribute_tensor(torch.ones(2, 4), mesh, [Shard(1)])
     @ distribute_tensor(torch.ones(4, 3), mesh, [Shard(0)])).placements)

# ---------------------------------------------------------------- autograd through layouts
a = torch.arange(6., requires_grad=True)
da = DTensor.from_local(a, mesh, [Shard(0)])
(da.full_tensor() ** 2).sum().backward()
say(a.grad.tolist())
b = torch.arange(4., requires_grad=True)
db = DTensor.from_local(b, mesh, [Replicate()])
db.redistribute(mesh, [Shard(0)]).to_local().sum().backward()
say(b.grad.tolist())
c = torch.arange(4., requires_grad=True)
dc = DTensor.from_local(c * (R + 1), mesh, [Partial()])
(dc.redistribute(mesh, [Replicate()]).to_local() * torch.arange(4.)).sum().backward()
say(c.grad.tolist())
g = distribute_tensor(torch.arange(8.).reshape(4, 2), mesh, [Shard(0)])
g.requires_grad_()
(g * g).sum().backward()
say(type(g.grad).__name__, g.grad.placements, g.grad.full_tensor().tolist(), g.is_leaf)


# ---------------------------------------------------------------- training against unsharded
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(8)
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 8)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


class Attention(nn.Module):
    def __init__(self, dim=8, heads=2):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.q, self.k, self.v = (nn.Linear(dim, dim) for _ in range(3))
        self.o = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = (m(x).view(b, t, -1, self.hd).transpose(1, 2) for m in (self.q, self.k, self.v))
        att = (q @ k.transpose(-2, -1) / self.hd ** 0.5).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, -1)
        return self.o(y)


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(11, 8)
        self.attn = Attention()
        self.mlp = MLP()
        self.head = nn.Linear(8, 11, bias=False)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + self.attn(h)
        return self.head(self.mlp(h))


def close(a, b):
    diff = (a - b).abs().max().item()
    return diff <= 2e-5 * max(b.abs().max().item(), 1.0)


def train(make, plan, batches, lossf, opt_cls, parallel_loss=False, **opt_kw):
    torch.manual_seed(0)
    ref = make()
    model = copy.deepcopy(ref)
    parallelize_module(model, mesh, plan)
    opt_ref = opt_cls(ref.parameters(), **opt_kw)
    opt = opt_cls(model.parameters(), **opt_kw)
    placements = sorted(f"{n}={getattr(p, 'placements', None)}"
                        for n, p in model.named_parameters())
    for inp, tgt in batches:
        opt_ref.zero_grad()
        loss_ref = lossf(ref(inp), tgt, False)
        loss_ref.backward()
        opt_ref.step()
        opt.zero_grad()
        with loss_parallel() if parallel_loss else contextlib.nullcontext():
            loss = lossf(model(inp), tgt, True)
            loss.backward()
        opt.step()
        if isinstance(loss, DTensor):
            loss = loss.full_tensor()
        say("loss", round(loss.item(), 4), close(loss, loss_ref))
    grads = sorted(f"{n}={getattr(p.grad, 'placements', None)}"
                   for n, p in model.named_parameters())
    same = all(close(p.full_tensor() if isinstance(p, DTensor) else p, q)
               for p, q in zip(model.parameters(), ref.parameters()))
    say(placements)
    say("grads", grads)
    say("weights match", same)


torch.manual_seed(1)
xs = [(torch.randn(4, 5, 8), torch.randn(4, 5, 8)) for _ in range(3)]
train(MLP, {"fc1": ColwiseParallel(), "fc2": RowwiseParallel()}, xs,
      lambda y, t, _: F.mse_loss(y, t), torch.optim.Adam, lr=0.01)
train(Attention, {"q": ColwiseParallel(), "k": ColwiseParallel(), "v": ColwiseParallel(),
                  "o": RowwiseParallel()}, xs, lambda y, t, _: F.mse_loss(y, t),
      torch.optim.SGD, lr=0.1, momentum=0.9)


class DAttention(Attention):
    """Attention on DTensor activations: the heads stay sharded through the views."""

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = (m(x).view(b, t, -1, self.hd).transpose(1, 2) for m in (self.q, self.k, self.v))
        sharded = isinstance(q, DTensor)
        if sharded:
            say("heads", q.placements, tuple(q.shape), q.to_local().shape)
        att = (q @ k.transpose(-2, -1) / self.hd ** 0.5).softmax(-1)
        if sharded:
            say("scores", att.placements, tuple(att.shape))
        y = (att @ v).transpose(1, 2).reshape(b, t, -1)
        if sharded:
            say("merged", y.placements, tuple(y.shape))
        return self.o(y)


train(DAttention, {"q": ColwiseParallel(use_local_output=False),
                     "k": ColwiseParallel(use_local_output=False),
                     "v": ColwiseParallel(use_local_output=False), "o": RowwiseParallel()},
      xs[:2], lambda y, t, _: F.mse_loss(y, t), torch.optim.SGD, lr=0.1)

sp_plan = {"norm": SequenceParallel(),
           "fc1": ColwiseParallel(input_layouts=Shard(1)),
           "fc2": RowwiseParallel(output_layouts=Shard(1))}


def sp_loss(y, t, sharded):
    if sharded:
        y = y.full_tensor() if isinstance(y, DTensor) else y
    return F.mse_loss(y, t)


class SPMLP(MLP):
    def forward(self, x):
        h = self.fc2(F.gelu(self.fc1(self.norm(x))))
        return h


train(SPMLP, sp_plan, xs, sp_loss, torch.optim.AdamW, lr=0.01)

ids = [(torch.randint(0, 11, (3, 5)), torch.randint(0, 11, (3, 5))) for _ in range(3)]


def lm_loss(logits, tgt, sharded):
    return F.cross_entropy(logits.flatten(0, 1), tgt.flatten())


lm_plan = {"emb": RowwiseParallel(input_layouts=Replicate()),
           "attn.q": ColwiseParallel(), "attn.k": ColwiseParallel(),
           "attn.v": ColwiseParallel(), "attn.o": RowwiseParallel(),
           "mlp.fc1": ColwiseParallel(), "mlp.fc2": RowwiseParallel(),
           "head": ColwiseParallel(use_local_output=False)}
train(LM, lm_plan, ids, lm_loss, torch.optim.SGD, parallel_loss=True, lr=0.2)

torch.manual_seed(0)
m = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4))
parallelize_module(m, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
m(torch.randn(3, 4)).pow(2).sum().backward()
n = torch.nn.utils.clip_grad_norm_(m.parameters(), 0.1)
say("norm", type(n).__name__, n.placements, round(n.full_tensor().item(), 4),
    r5(m[0].weight.grad.full_tensor()[:2]))
say(sorted(m.state_dict()), type(m.state_dict()["0.weight"]).__name__)
m.zero_grad(set_to_none=False)
say(m[0].weight.grad.to_local().abs().sum().item())
m.to(torch.float64)
say(m[0].weight.dtype, type(m[0].weight).__name__, m[0].weight.placements,
    m(torch.ones(1, 4, dtype=torch.float64)).dtype)

say(ColwiseParallel(), RowwiseParallel(output_layouts=Shard(1)), SequenceParallel(),
    PrepareModuleInput(input_layouts=Shard(0), desired_input_layouts=Replicate()))

for r in range(dist.get_world_size()):       # one rank after the other: whole lines
    if r == R:
        for line in lines:
            print(f"[{R}] {line}")
        sys.stdout.flush()
    dist.barrier()
print(f"OK rank {R}")
dist.destroy_process_group()
