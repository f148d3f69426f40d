"""A 2-d device mesh on 4 ranks (dp=2, tp=2): sub-meshes and their groups, DTensors laid
out over both dimensions (nested shards included), reduce_scatter, and an MLP made
tensor-parallel over "tp" and data-parallel over "dp" (gradients averaged over "dp" by
hand) against the same MLP trained on the whole batch in one process."""

import copy

import numpy as np

import ember as torch
import ember.distributed as dist
import ember.nn.functional as F
from ember import nn
from ember.distributed._tensor import DTensor, Partial, Replicate, Shard, distribute_tensor
from ember.distributed._tensor.device_mesh import init_device_mesh
from ember.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module

mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
R = dist.get_rank()
dp, tp = mesh["dp"], mesh["tp"]
assert repr(mesh) == "DeviceMesh((dp=2, tp=2), 'cpu', stride=(2, 1))", repr(mesh)
assert repr(dp) == "DeviceMesh((dp=2), 'cpu', stride=(2,))", repr(dp)
assert mesh.get_coordinate() == (R // 2, R % 2)
assert dp.get_local_rank() == R // 2 and tp.get_local_rank() == R % 2
assert mesh.get_local_rank("tp") == R % 2 and mesh.size() == 4 and mesh.size(1) == 2
assert dist.get_process_group_ranks(mesh.get_group("tp")) == [R - R % 2, R - R % 2 + 1]
assert dist.get_process_group_ranks(dp.get_group()) == [R % 2, R % 2 + 2]
assert mesh["dp", "tp"] is mesh and mesh.mesh.tolist() == [[0, 1], [2, 3]]
try:
    mesh.get_group()
except RuntimeError:
    pass
else:
    raise AssertionError("get_group() of a 2-d mesh")

x = torch.arange(30.).reshape(5, 6)
layouts = [(Shard(0), Shard(1)), (Replicate(), Shard(0)), (Shard(0), Shard(0)),
           (Shard(1), Replicate()), (Replicate(), Replicate())]
for src in layouts:
    d = distribute_tensor(x, mesh, src)
    assert torch.equal(d.full_tensor(), x), src
    for dst in layouts:
        e = d.redistribute(mesh, dst)
        assert e.placements == dst
        assert torch.equal(e.full_tensor(), x), (src, dst)
        assert torch.equal(e.to_local(), distribute_tensor(x, mesh, dst).to_local()), (src, dst)
p = DTensor.from_local(torch.ones(4) * (R + 1), mesh, [Partial(), Replicate()])
assert p.full_tensor().tolist() == [(R % 2 + 1) + (R % 2 + 3)] * 4
q = DTensor.from_local(torch.ones(4) * (R + 1), mesh, [Partial(), Partial()])
assert q.redistribute(mesh, [Replicate(), Shard(0)]).to_local().tolist() == [10.0, 10.0]

out = torch.empty(3)
dist.reduce_scatter(out, [torch.full((3,), float(R + i)) for i in range(4)])
assert out.tolist() == [float(sum(r + R for r in range(4)))] * 3, out
out = torch.empty(2)
dist.reduce_scatter(out, [torch.ones(2) * (R + 1)] * 4, op=dist.ReduceOp.MAX)
assert out.tolist() == [4.0, 4.0]
try:
    dist.reduce_scatter(out, [torch.ones(2)] * 3)
except ValueError:
    pass
else:
    raise AssertionError("reduce_scatter with a short list")

torch.manual_seed(0)
ref = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 6))
model = copy.deepcopy(ref)
parallelize_module(model, tp, {"0": ColwiseParallel(), "2": RowwiseParallel()})
opt_ref = torch.optim.SGD(ref.parameters(), lr=0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batch, target = torch.randn(8, 6), torch.randn(8, 6)
mine = slice(4 * dp.get_local_rank(), 4 * dp.get_local_rank() + 4)
for _ in range(4):
    opt_ref.zero_grad()
    F.mse_loss(ref(batch), target).backward()
    opt_ref.step()
    opt.zero_grad()
    F.mse_loss(model(batch[mine]), target[mine]).backward()
    for prm in model.parameters():
        dist.all_reduce(prm.grad.to_local(), group=dp.get_group())
        prm.grad.to_local().div_(2)
    opt.step()
for a, b in zip(model.parameters(), ref.parameters()):
    np.testing.assert_allclose(a.full_tensor().detach().numpy(), b.detach().numpy(), atol=1e-6)
print(f"OK rank {R}")
dist.destroy_process_group()
