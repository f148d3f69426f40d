"""DTensor on a 1-rank mesh: printing, placements of the ops, autograd, the parallel
styles' reprs and hooks, and the errors, printed the same under torch and Ember."""

import tempfile

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    PrepareModuleInput,
    PrepareModuleOutput,
    RowwiseParallel,
    SequenceParallel,
    loss_parallel,
    parallelize_module,
)

dist.init_process_group("gloo", init_method="file://" + tempfile.mktemp(), rank=0, world_size=1)
mesh = init_device_mesh("cpu", (1,), mesh_dim_names=("tp",))
print(mesh, mesh["tp"], mesh.get_group() is not None, mesh.shape, mesh.ndim)
torch.manual_seed(0)
x = torch.randn(4, 6)
d = distribute_tensor(x, mesh, [Shard(1)])
print(d)
print(d.placements, d.shape, d.size(1), d.dim(), d.numel(), d.dtype, d.requires_grad, len(d))
print(
    Shard(0).is_shard(), Shard(0).is_shard(1), Replicate().is_partial(), Partial().is_partial("sum")
)
print(
    hash(Shard(2)) == hash(Shard(2)), {Shard(0), Shard(0), Replicate()} == {Shard(0), Replicate()}
)
print(
    (d + d).placements,
    (d * 3).placements,
    d.relu().placements,
    torch.tanh(d).placements,
    F.gelu(d).placements,
    (d > 0).placements,
    (d - 1).placements,
)
print(
    d.sum().placements, d.sum(0).placements, d.sum(1).placements, d.mean(1, keepdim=True).placements
)
print(
    d.view(4, 2, 3).placements,
    d.t().placements,
    d.transpose(0, 1).placements,
    d.unsqueeze(0).placements,
    d.flatten(1).placements,
    d.t().reshape(6, 2, 2).placements,
)
print(F.softmax(d, -1).placements, F.softmax(d, 0).placements, d.log_softmax(0).placements)
print(
    F.layer_norm(d, (6,)).placements,
    F.layer_norm(d.redistribute(mesh, [Shard(0)]), (6,)).placements,
)
w = distribute_tensor(torch.randn(5, 6), mesh, [Shard(0)])
print(
    F.linear(distribute_tensor(x, mesh, [Replicate()]), w).placements,
    F.linear(d, distribute_tensor(torch.randn(5, 6), mesh, [Shard(1)])).placements,
)
e = distribute_tensor(torch.randn(7, 3), mesh, [Shard(1)])
ids = distribute_tensor(torch.tensor([[1, 2], [3, 6]]), mesh, [Replicate()])
print(F.embedding(ids, e).placements, F.embedding(ids, e.redistribute(mesh, [Shard(0)])).placements)
print(torch.zeros_like(d).placements, torch.ones_like(d).shape, d.detach().placements)
p = DTensor.from_local(torch.ones(3), mesh, [Partial()])
print(
    p, p.full_tensor(), (p * 2).placements, (p + p).placements, p.redistribute(mesh, [Replicate()])
)
for bad in (
    lambda: d + torch.ones(4, 6),
    lambda: distribute_tensor(x, mesh, [Partial()]),
    lambda: F.cross_entropy(d, torch.tensor([0, 1, 2, 3])),
):
    try:
        bad()
    except Exception as exc:
        print(type(exc).__name__, str(exc).splitlines()[0][:90])

a = torch.randn(4, 6, requires_grad=True)
da = DTensor.from_local(a, mesh, [Shard(1)])
out = (da * da).sum()
print(type(out).__name__, out.placements, out.requires_grad, out.is_leaf)
out.backward()
print(torch.allclose(a.grad, 2 * a))
leaf = distribute_tensor(torch.randn(3, 2, requires_grad=True), mesh, [Shard(0)])
print(leaf.is_leaf, leaf.requires_grad)
(leaf.exp()).sum().backward()
print(
    type(leaf.grad).__name__,
    leaf.grad.placements,
    torch.allclose(leaf.grad.to_local(), leaf.to_local().exp()),
)

torch.manual_seed(0)
m = nn.Sequential(nn.Embedding(10, 6), nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 10))
plan = {
    "0": RowwiseParallel(input_layouts=Replicate()),
    "1": ColwiseParallel(),
    "3": ColwiseParallel(use_local_output=False),
}
parallelize_module(m, mesh, plan)
print(
    sorted(
        (n, type(q).__name__, q.placements, isinstance(q, nn.Parameter))
        for n, q in m.named_parameters()
    )
)
tok = torch.tensor([[1, 2, 3], [4, 5, 6]])
logits = m(tok)
print(type(logits).__name__, logits.placements, logits.shape)
with loss_parallel():
    loss = F.cross_entropy(logits.flatten(0, 1), tok.flatten())
    print(type(loss).__name__, loss.placements, round(loss.full_tensor().item(), 4))
    loss.backward()
# (a row-sharded embedding's gradient: torch's is replicated, Ember's sharded as the table)
print(sorted((n, q.grad.placements) for n, q in m.named_parameters() if n != "0.weight"))
opt = torch.optim.Adam(m.parameters(), lr=0.1)
opt.step()
print(sorted((n, round(q.full_tensor().sum().item(), 3)) for n, q in m.named_parameters()))
print(round(F.cross_entropy(m(tok).flatten(0, 1).full_tensor(), tok.flatten()).item(), 4))
print(distribute_tensor(torch.ones(2), mesh, [Partial()]))

norm = parallelize_module(nn.LayerNorm(6), mesh, SequenceParallel(sequence_dim=0))
o = norm(torch.randn(4, 6))
print(type(o).__name__, o.placements, norm.weight.placements)
ident = parallelize_module(
    nn.Identity(),
    mesh,
    PrepareModuleOutput(output_layouts=Shard(0), desired_output_layouts=Replicate()),
)
print(type(ident(torch.ones(2))).__name__)


class Two(nn.Module):
    def forward(self, a, b):
        return a, b


two = parallelize_module(
    Two(),
    mesh,
    PrepareModuleInput(input_layouts=(Shard(0), None), desired_input_layouts=(Replicate(), None)),
)
print(
    [(type(t).__name__, getattr(t, "placements", None)) for t in two(torch.ones(2), torch.ones(2))]
)
print(
    ColwiseParallel(input_layouts=Shard(0)),
    PrepareModuleOutput(output_layouts=Shard(0), desired_output_layouts=Replicate()),
)
dist.destroy_process_group()
