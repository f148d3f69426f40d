# Models: misuse errors that beginners post about, caught and printed as a robust script would
# -- optimizer construction mistakes, Module attribute/buffer/parameter registration errors,
# missing forward, DataLoader/sampler argument errors, distribution validate_args failures,
# interpolate/pad argument errors, Embedding padding_idx and index errors, RNN hidden-state
# shape errors, reshape/view/split/chunk/unflatten misuse, and state_dict size mismatches.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def attempt(label, fn):
    try:
        out = fn()
        print(f"{label}: ok {tuple(out.shape) if hasattr(out, 'shape') else type(out).__name__}")
    except Exception as e:
        msg = str(e).strip().splitlines()
        print(f"{label}: {type(e).__name__}: {msg[0] if msg else ''}")


torch.manual_seed(0)
lin = nn.Linear(3, 2)
attempt("sgd lr", lambda: torch.optim.SGD(lin.parameters(), lr=-0.1))
attempt("adam betas", lambda: torch.optim.Adam(lin.parameters(), betas=(1.0, 0.9)))
attempt("adam eps", lambda: torch.optim.Adam(lin.parameters(), eps=-1))
attempt("empty params", lambda: torch.optim.SGD([], lr=0.1))
attempt("tensor params", lambda: torch.optim.SGD(lin.weight, lr=0.1))
attempt("momentum nesterov", lambda: torch.optim.SGD(lin.parameters(), lr=0.1, nesterov=True))
attempt("weight decay", lambda: torch.optim.AdamW(lin.parameters(), weight_decay=-1))
attempt("duplicate groups", lambda: torch.optim.SGD([{"params": lin.weight},
                                                     {"params": lin.weight}], lr=0.1))


class NoForward(nn.Module):
    pass


attempt("no forward", lambda: NoForward()(torch.ones(1)))
m = nn.Module()
attempt("buffer name dot", lambda: m.register_buffer("a.b", torch.ones(1)))
attempt("buffer empty name", lambda: m.register_buffer("", torch.ones(1)))
attempt("buffer not tensor", lambda: m.register_buffer("buf", [1, 2]))
attempt("param not Parameter", lambda: m.register_parameter("w", torch.ones(1)))
m.x = 5
attempt("buffer existing attr", lambda: m.register_buffer("x", torch.ones(1)))
attempt("assign tensor to param", lambda: setattr(lin, "weight", torch.ones(2, 3)))
attempt("missing attr", lambda: lin.wieght)
attempt("add_module bad", lambda: m.add_module("a.b", nn.ReLU()))
attempt("add_module type", lambda: m.add_module("r", "relu"))
attempt("sequential index", lambda: nn.Sequential(nn.ReLU())[3])
attempt("modulelist index", lambda: nn.ModuleList([nn.ReLU()])[2])
attempt("moduledict key", lambda: nn.ModuleDict({"a": nn.ReLU()})["b"])
attempt("get_submodule", lambda: nn.Sequential(nn.ReLU()).get_submodule("5"))
attempt("get_parameter", lambda: lin.get_parameter("bias2"))

ds = TensorDataset(torch.ones(4, 2), torch.zeros(4))
attempt("tensordataset sizes", lambda: TensorDataset(torch.ones(4), torch.ones(3)))
attempt("batch_size 0", lambda: DataLoader(ds, batch_size=0))
attempt("shuffle+sampler", lambda: DataLoader(ds, shuffle=True,
                                              sampler=torch.utils.data.SequentialSampler(ds)))
attempt("batch_sampler+bs", lambda: DataLoader(ds, batch_size=2, batch_sampler=[[0, 1]]))
attempt("random_split sums", lambda: torch.utils.data.random_split(ds, [2, 3]))
attempt("weighted sampler", lambda: torch.utils.data.WeightedRandomSampler([0.1, 0.2], -1))

D = torch.distributions
attempt("normal scale", lambda: D.Normal(0.0, -1.0))
attempt("categorical probs", lambda: D.Categorical(probs=torch.tensor([[-0.1, 1.1]])))
attempt("bernoulli both", lambda: D.Bernoulli(probs=0.3, logits=0.1))
attempt("bernoulli none", lambda: D.Bernoulli())
attempt("log_prob support", lambda: D.Exponential(1.0).log_prob(torch.tensor(-1.0)))
attempt("no validate", lambda: D.Normal(0.0, -1.0, validate_args=False).scale)
attempt("mvn cov", lambda: D.MultivariateNormal(torch.zeros(2), torch.eye(3)))

x = torch.randn(1, 1, 4, 4)
attempt("interp both", lambda: F.interpolate(x, size=8, scale_factor=2))
attempt("interp none", lambda: F.interpolate(x))
attempt("interp align", lambda: F.interpolate(x, scale_factor=2, align_corners=True))
attempt("interp mode", lambda: F.interpolate(x, scale_factor=2, mode="cubic"))
attempt("pad odd", lambda: F.pad(x, (1, 2, 3)))
attempt("pad reflect big", lambda: F.pad(x, (4, 4), mode="reflect"))
attempt("pad mode", lambda: F.pad(x, (1, 1), mode="wrap"))
attempt("embedding padding_idx", lambda: nn.Embedding(5, 2, padding_idx=7))
attempt("embedding max_norm", lambda: nn.Embedding(5, 2, max_norm=1.0)(torch.tensor([1, 2])))
attempt("embedding neg", lambda: nn.Embedding(5, 2)(torch.tensor([-1])))
lstm = nn.LSTM(3, 4, num_layers=2)
attempt("lstm h0 shape", lambda: lstm(torch.randn(5, 2, 3), (torch.zeros(1, 2, 4),
                                                              torch.zeros(2, 2, 4))))
attempt("lstm h0 tensor", lambda: lstm(torch.randn(5, 2, 3), torch.zeros(2, 2, 4)))
attempt("gru h0", lambda: nn.GRU(3, 4)(torch.randn(5, 2, 3), torch.zeros(1, 3, 4)))
attempt("rnn dropout", lambda: nn.RNN(3, 4, dropout=0.5))

t = torch.arange(12)
attempt("reshape", lambda: t.reshape(5, -1))
attempt("reshape two -1", lambda: t.reshape(-1, -1))
attempt("view -2", lambda: t.view(-2, 6))
attempt("split size", lambda: t.split([5, 5]))
attempt("chunk 0", lambda: t.chunk(0))
attempt("unflatten", lambda: t.unflatten(0, (5, 3)))
attempt("flatten dims", lambda: t.view(3, 4).flatten(1, 0))
attempt("narrow", lambda: t.narrow(0, 10, 5))
attempt("select", lambda: t.view(3, 4).select(1, 4))
attempt("index_select dtype", lambda: t.index_select(0, torch.tensor([0.0])))
attempt("transpose dim", lambda: t.transpose(0, 2))
attempt("unsqueeze", lambda: t.unsqueeze(3))
attempt("movedim", lambda: t.view(3, 4).movedim(0, 5))
attempt("repeat fewer", lambda: t.view(3, 4).repeat(2))
attempt("tile ok", lambda: t.view(3, 4).tile(2))
attempt("topk k", lambda: t.topk(20))
attempt("kthvalue", lambda: t.kthvalue(0))
attempt("diag 3d", lambda: torch.diag(torch.ones(2, 2, 2)))
attempt("trace 1d", lambda: torch.trace(torch.ones(3)))
attempt("cross", lambda: torch.linalg.cross(torch.ones(2), torch.ones(2)))
attempt("dot shapes", lambda: torch.dot(torch.ones(2), torch.ones(3)))
attempt("dot 2d", lambda: torch.dot(torch.ones(2, 2), torch.ones(2, 2)))
attempt("outer", lambda: torch.outer(torch.ones(2), torch.ones(2, 1)))
sd = lin.state_dict()
sd["weight"] = torch.ones(4, 3)
try:
    lin.load_state_dict(sd)
except RuntimeError as e:
    print(str(e))
