# Models: a "debugging PyTorch errors" cookbook chapter: for each snippet the exception class
# and message are printed -- indexing/scatter/gather shape rules, einsum and linalg errors,
# distributions argument validation, optimizer and scheduler constructor checks, DataLoader
# option conflicts, and Module registration/state_dict loading mistakes.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def show(title, fn):
    try:
        out = fn()
        if torch.is_tensor(out):
            out = tuple(out.shape)
        elif not isinstance(out, (int, float, str, list, tuple)):
            out = type(out).__name__
        print(f"[ok] {title}:", out)
    except Exception as e:
        print(f"[{type(e).__name__}] {title}: {e}")


a = torch.arange(12.0).view(3, 4)
idx = torch.tensor([[0, 1], [2, 3]])
show("gather dims", lambda: torch.gather(a, 1, torch.tensor([0, 1])))
show("gather index too big", lambda: torch.gather(a, 1, torch.tensor([[4]])))
show("gather float index", lambda: torch.gather(a, 1, idx.float()))
show(
    "scatter src dtype",
    lambda: torch.zeros(3, 4).scatter_(1, idx, torch.ones(2, 2, dtype=torch.float64)),
)
show(
    "scatter_add index size",
    lambda: torch.zeros(2, 2).scatter_add(0, torch.tensor([[0, 1, 1]]), torch.ones(1, 2)),
)
show("index_add dim", lambda: torch.zeros(3).index_add(0, torch.tensor([0, 1]), torch.ones(3)))
show("index_select 2-D index", lambda: a.index_select(0, idx))
show("take_along_dim", lambda: torch.take_along_dim(a, torch.tensor([[0], [1]]), dim=1))
show("masked_fill mask dtype", lambda: a.masked_fill(a > 5, 0.0).sum().item())
show("masked_fill float mask", lambda: a.masked_fill(torch.ones(3, 4), 0.0))
show("masked_select shape", lambda: a.masked_select(torch.ones(2, 4, dtype=torch.bool)))
show("bool index shape", lambda: a[torch.tensor([True, False])])
show("index out of range", lambda: a[3])
show("index_put shape", lambda: a.index_put_((torch.tensor([0, 1]),), torch.ones(3)))
show(
    "repeat_interleave",
    lambda: torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([1, 2, 3])),
)
show("repeat fewer dims", lambda: a.repeat(2))
show("roll dims", lambda: torch.roll(a, (1, 2), dims=0))
show("flip dup dims", lambda: torch.flip(a, (0, 0)))
show("narrow", lambda: a.narrow(1, 3, 2))
show("unflatten", lambda: a.unflatten(1, (3, 2)))
show("movedim", lambda: a.movedim((0, 1), (0,)))
show("chunk zero", lambda: a.chunk(0))
show("split sizes", lambda: a.split([1, 1], dim=0))
show("diag_embed", lambda: torch.diag_embed(a, dim1=0, dim2=0))
show("tril_indices", lambda: torch.tril_indices(3, 3, 1).shape)
show("cdist dims", lambda: torch.cdist(torch.randn(3, 2), torch.randn(4, 3)))
show("cdist p", lambda: torch.cdist(torch.randn(3, 2), torch.randn(4, 2), p=-1))
show("kron", lambda: torch.kron(torch.eye(2), torch.ones(2, 3)))
show("einsum operands", lambda: torch.einsum("ij,jk->ik", a))
show("einsum size", lambda: torch.einsum("ij,jk->ik", a, torch.ones(3, 2)))
show("einsum output letter", lambda: torch.einsum("ij->k", a))
show("tensordot", lambda: torch.tensordot(a, torch.ones(3, 2), dims=([1], [0])))
show("solve singular", lambda: torch.linalg.solve(torch.zeros(2, 2), torch.ones(2)))
show("inv singular", lambda: torch.linalg.inv(torch.ones(3, 3)))
show("cholesky not PD", lambda: torch.linalg.cholesky(-torch.eye(2)))
show("solve shapes", lambda: torch.linalg.solve(torch.eye(3), torch.ones(2)))
show("det non-square", lambda: torch.linalg.det(a))
show("eigh non-square", lambda: torch.linalg.eigh(a))
show("lstsq rows", lambda: torch.linalg.lstsq(torch.ones(3, 2), torch.ones(4, 1)))
show("matrix_power", lambda: torch.linalg.matrix_power(a, 2))
show("norm ord", lambda: torch.linalg.matrix_norm(a, ord=3))
show("vector_norm int", lambda: torch.linalg.vector_norm(torch.tensor([1, 2])))
show("cross dim", lambda: torch.linalg.cross(torch.ones(2), torch.ones(2)))
show("Normal scale", lambda: torch.distributions.Normal(0.0, -1.0))
show(
    "Categorical probs", lambda: torch.distributions.Categorical(probs=torch.tensor([[0.5, -0.1]]))
)
show("Bernoulli both", lambda: torch.distributions.Bernoulli(probs=0.3, logits=0.1))
show(
    "Normal log_prob support",
    lambda: torch.distributions.Exponential(1.0).log_prob(torch.tensor(-1.0)),
)
show("Dirichlet conc", lambda: torch.distributions.Dirichlet(torch.tensor(1.0)))
show(
    "MVN cov",
    lambda: torch.distributions.MultivariateNormal(
        torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])
    ),
)
show("Uniform bounds", lambda: torch.distributions.Uniform(1.0, 0.0))
p = [nn.Parameter(torch.ones(2))]
show("SGD lr", lambda: torch.optim.SGD(p, lr=-0.1))
show("SGD nesterov", lambda: torch.optim.SGD(p, lr=0.1, nesterov=True))
show("Adam betas", lambda: torch.optim.Adam(p, betas=(1.0, 0.9)))
show("Adam eps", lambda: torch.optim.Adam(p, eps=-1))
show("AdamW wd", lambda: torch.optim.AdamW(p, weight_decay=-0.1))
show("RMSprop alpha", lambda: torch.optim.RMSprop(p, alpha=-0.5))
show("empty params", lambda: torch.optim.Adam([]))
show("tensor not param list", lambda: torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1))
show("duplicate params", lambda: torch.optim.SGD([{"params": p}, {"params": p}], lr=0.1))
show("non-leaf param", lambda: torch.optim.SGD([torch.ones(2, requires_grad=True) * 2], lr=0.1))
opt = torch.optim.SGD(p, lr=0.1)
show("OneCycleLR total", lambda: torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1))
show("StepLR object", lambda: torch.optim.lr_scheduler.StepLR(object(), 2))
show(
    "CosineWarmRestarts T_0",
    lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0),
)
show("ReduceLROnPlateau mode", lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="up"))
show(
    "ReduceLROnPlateau factor", lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.5)
)
show("LinearLR factor", lambda: torch.optim.lr_scheduler.LinearLR(opt, start_factor=0))
show("CyclicLR momentum", lambda: torch.optim.lr_scheduler.CyclicLR(torch.optim.Adam(p), 0.01, 0.1))
ds = TensorDataset(torch.arange(10.0), torch.arange(10))
show("TensorDataset sizes", lambda: TensorDataset(torch.ones(3), torch.ones(4)))
show("batch_sampler + batch_size", lambda: DataLoader(ds, batch_size=2, batch_sampler=[[0, 1]]))
show("sampler + shuffle", lambda: DataLoader(ds, sampler=range(10), shuffle=True))
show("drop_last + batch_sampler", lambda: DataLoader(ds, batch_sampler=[[0]], drop_last=True))
show("negative workers", lambda: DataLoader(ds, num_workers=-1))
show("random_split lengths", lambda: torch.utils.data.random_split(ds, [3, 3]))
show(
    "random_split fractions",
    lambda: [len(s) for s in torch.utils.data.random_split(ds, [0.5, 0.3, 0.2])],
)
show(
    "WeightedRandomSampler",
    lambda: torch.utils.data.WeightedRandomSampler([0.1, 0.2], num_samples=0),
)
show("batch size 0", lambda: DataLoader(ds, batch_size=0))
m = nn.Linear(2, 2)
show("buffer name dot", lambda: m.register_buffer("a.b", torch.ones(1)))
show("buffer exists", lambda: m.register_buffer("weight", torch.ones(1)))
show("param non-Parameter", lambda: m.register_parameter("w2", torch.ones(1)))
show("add_module type", lambda: m.add_module("sub", 3))
show("add_module empty", lambda: m.add_module("", nn.ReLU()))
show("assign tensor to param", lambda: setattr(m, "weight", torch.ones(2, 2)))
show("get_submodule", lambda: nn.Sequential(nn.Linear(1, 1)).get_submodule("0.foo"))
show("get_parameter", lambda: m.get_parameter("bias.x"))
sd = {"weight": torch.ones(3, 2), "bias": torch.ones(2), "extra": torch.ones(1)}
show("load_state_dict", lambda: m.load_state_dict(sd))
show("load_state_dict non-strict", lambda: m.load_state_dict({"bias": torch.ones(2)}, strict=False))
show("Sequential index", lambda: nn.Sequential(nn.ReLU())[3])
show("ModuleList index", lambda: nn.ModuleList([nn.ReLU()])[2])
show("ModuleDict key", lambda: nn.ModuleDict({"a": nn.ReLU()})["b"])
show(
    "ParameterList append",
    lambda: len(nn.ParameterList([nn.Parameter(torch.ones(1))]).append(torch.ones(2))),
)
