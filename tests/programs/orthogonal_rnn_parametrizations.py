# Models: RNNs with constrained recurrent weights via torch.nn.utils.parametrizations, as in
# the PyTorch parametrizations tutorial and expRNN-style experiments: an orthogonal
# hidden-to-hidden matrix (parametrizations.orthogonal, matrix_exp and cayley maps) keeping
# gradients from exploding on a long copy-memory task, weight_norm on the output layer,
# the parametrized modules' printing, parametrizations.original access and
# remove_parametrizations to bake the weights in.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrizations, parametrize


class OrthoRNN(nn.Module):
    def __init__(self, n_in, hidden, n_out, orthogonal_map=None):
        super().__init__()
        self.inp = nn.Linear(n_in, hidden)
        self.rec = nn.Linear(hidden, hidden, bias=False)
        if orthogonal_map is not None:
            parametrizations.orthogonal(self.rec, orthogonal_map=orthogonal_map)
        self.out = parametrizations.weight_norm(nn.Linear(hidden, n_out))

    def forward(self, x):
        h = torch.zeros(x.shape[0], self.rec.weight.shape[0])
        outs = []
        for t in range(x.shape[1]):
            h = torch.tanh(self.inp(x[:, t]) + self.rec(h))
            outs.append(self.out(h))
        return torch.stack(outs, 1)


def copy_task(batch, n_symbols=4, seq=4, delay=8):
    symbols = torch.randint(1, n_symbols + 1, (batch, seq))
    blank = torch.zeros(batch, delay, dtype=torch.long)
    marker = torch.full((batch, 1), n_symbols + 1)
    x = torch.cat([symbols, blank, marker, torch.zeros(batch, seq - 1, dtype=torch.long)], 1)
    y = torch.cat([torch.zeros(batch, seq + delay, dtype=torch.long), symbols], 1)
    return F.one_hot(x, n_symbols + 2).float(), y


torch.manual_seed(0)
model = OrthoRNN(6, 16, 5, orthogonal_map="matrix_exp")
print(model.rec)
print("parametrized:", parametrize.is_parametrized(model.rec, "weight"),
      "keys", list(model.state_dict().keys()))
W = model.rec.weight
print("W^T W = I:", torch.allclose(W.T @ W, torch.eye(16), atol=1e-5))

for name, ortho_map in (("plain", None), ("matrix_exp", "matrix_exp"), ("cayley", "cayley")):
    torch.manual_seed(1)
    net = OrthoRNN(6, 16, 5, orthogonal_map=ortho_map)
    opt = torch.optim.RMSprop(net.parameters(), lr=2e-3)
    for step in range(30):
        x, y = copy_task(16)
        logits = net(x)
        loss = F.cross_entropy(logits.reshape(-1, 5), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        gnorm = nn.utils.clip_grad_norm_(net.parameters(), 10.0)
        opt.step()
    with torch.no_grad():
        sv = torch.linalg.svdvals(net.rec.weight)
    print(f"{name:10s} loss {loss.item():.5f} grad norm {gnorm.item():.4f} "
          f"singular values [{sv.min().item():.4f}, {sv.max().item():.4f}]")

wn = model.out.parametrizations.weight
print("weight_norm originals", [tuple(wn.original0.shape), tuple(wn.original1.shape)])
print("g equals row norms", torch.allclose(wn.original0.squeeze(1), model.out.weight.norm(dim=1)))
parametrize.remove_parametrizations(model.rec, "weight", leave_parametrized=True)
parametrize.remove_parametrizations(model.out, "weight")
print("after removal", type(model.rec).__name__, [n for n, _ in model.named_parameters()])
print("still orthogonal", torch.allclose(model.rec.weight.T @ model.rec.weight, torch.eye(16),
                                         atol=1e-5))
