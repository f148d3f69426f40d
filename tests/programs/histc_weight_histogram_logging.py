# Models: "TensorBoard-free" training diagnostics printed to the console: torch.histc histograms
# of weights, gradients and activations per layer every few epochs, ASCII bar charts, dead-ReLU
# fractions, gradient norm tables per parameter, update-to-weight ratios (Karpathy's 1e-3 rule),
# and torch.histogram with explicit bin edges and density=True.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(3)
net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
X = torch.randn(256, 8)
y = (X[:, :4].sum(1) > 0).long()
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
acts = {}
for i, layer in enumerate(net):
    if isinstance(layer, nn.ReLU):
        layer.register_forward_hook(lambda m, inp, out, i=i: acts.__setitem__(i, out.detach()))


def bar(counts, width=30):
    top = max(counts.max().item(), 1)
    return ["#" * int(round(width * c / top)) for c in counts.tolist()]


for epoch in range(12):
    before = {n: p.detach().clone() for n, p in net.named_parameters()}
    out = net(X)
    loss = F.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    if epoch % 4 == 0:
        print(f"== epoch {epoch} loss {loss.item():.4f}")
        for name, p in net.named_parameters():
            if name.endswith("weight"):
                h = torch.histc(p.detach(), bins=6, min=-0.5, max=0.5)
                print(f"  {name:<9} hist {h.int().tolist()} grad norm {p.grad.norm().item():.5f}")
        for i, a in acts.items():
            print(f"  relu{i} dead fraction {(a == 0).float().mean().item():.4f} "
                  f"max {a.max().item():.4f}")
    opt.step()
    if epoch % 4 == 0:
        for name, p in net.named_parameters():
            ratio = ((p.detach() - before[name]).std() / before[name].std()).log10().item()
            print(f"  update/weight log10 {name:<9} {ratio:+.3f}")

w = net[2].weight.detach().flatten()
counts = torch.histc(w, bins=10, min=w.min().item(), max=w.max().item())
edges = torch.linspace(w.min().item(), w.max().item(), 11)
for lo, c, b in zip(edges[:-1].tolist(), counts.int().tolist(), bar(counts)):
    print(f"{lo:+.3f} {c:4d} {b}")
print("histc total", counts.sum().item(), "numel", w.numel())
print("histc default bins on ints-as-float",
      torch.histc(torch.tensor([1.0, 2, 1, 4, 4, 4]), bins=4))
print("histc outside range ignored",
      torch.histc(torch.tensor([-5.0, 0.1, 0.2, 5.0]), bins=2, min=0, max=1))
hist, bin_edges = torch.histogram(w, bins=torch.tensor([-1.0, -0.1, 0.0, 0.1, 1.0]))
print("histogram counts", hist, "edges", bin_edges)
dens, e = torch.histogram(acts[3].flatten(), bins=5, density=True)
print("activation density", dens, "edges", e)
print("integrates to", (dens * e.diff()).sum().item())
