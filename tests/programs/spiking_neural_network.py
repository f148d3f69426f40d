# Models: spiking neural networks with surrogate gradients as in the snntorch tutorials and
# Neftci et al. 2019: leaky integrate-and-fire neurons unrolled over time, a Heaviside spike
# with a fast-sigmoid surrogate in a custom autograd.Function, rate-coded Poisson inputs from
# torch.rand, soft reset, membrane traces, firing rates and BPTT training with Adam.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpikeFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem, slope):
        ctx.save_for_backward(mem)
        ctx.slope = slope
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (mem,) = ctx.saved_tensors
        grad = grad_output / (ctx.slope * mem.abs() + 1.0) ** 2
        return grad, None


spike = SpikeFn.apply


class LIF(nn.Module):
    def __init__(self, beta=0.9, threshold=1.0, slope=25.0):
        super().__init__()
        self.beta, self.threshold, self.slope = beta, threshold, slope

    def forward(self, inp, mem):
        mem = self.beta * mem + inp
        spk = spike(mem - self.threshold, self.slope)
        mem = mem - spk * self.threshold
        return spk, mem


class SNN(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.lif1 = LIF(beta=0.9)
        self.fc2 = nn.Linear(n_hidden, n_out)
        self.lif2 = LIF(beta=0.8)

    def forward(self, x):
        T, B = x.shape[:2]
        mem1 = torch.zeros(B, self.fc1.out_features)
        mem2 = torch.zeros(B, self.fc2.out_features)
        spk_rec, mem_rec = [], []
        for t in range(T):
            spk1, mem1 = self.lif1(self.fc1(x[t]), mem1)
            spk2, mem2 = self.lif2(self.fc2(spk1), mem2)
            spk_rec.append(spk2)
            mem_rec.append(mem2)
        return torch.stack(spk_rec), torch.stack(mem_rec)


torch.manual_seed(0)
lif = LIF(beta=0.95)
mem = torch.zeros(1)
trace = []
for t in range(30):
    cur = torch.tensor([0.3 if 5 <= t < 25 else 0.0])
    s, mem = lif(cur, mem)
    trace.append((int(s.item()), round(mem.item(), 4)))
print("single neuron spikes at", [t for t, (s, _) in enumerate(trace) if s])
print("membrane", [m for _, m in trace[:12]])

n_in, n_cls, T = 20, 3, 25
protos = torch.rand(n_cls, n_in)
labels = torch.randint(0, n_cls, (96,))
rates = (protos[labels] * 0.8).clamp(0, 1)
print("rates", rates.shape, rates.mean().item())


def poisson_encode(rates, T):
    return (torch.rand(T, *rates.shape) < rates).float()


data = poisson_encode(rates, T)
print("spike trains", data.shape, data.sum().item(), data.mean(0)[0, :6])

net = SNN(n_in, 32, n_cls)
opt = torch.optim.Adam(net.parameters(), lr=5e-3, betas=(0.9, 0.999))
for epoch in range(12):
    perm = torch.randperm(96)
    total, correct = 0.0, 0
    for i in range(0, 96, 32):
        idx = perm[i : i + 32]
        spk, memv = net(data[:, idx])
        loss = F.cross_entropy(memv.sum(0) / T, labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
        correct += (spk.sum(0).argmax(1) == labels[idx]).sum().item()
    if epoch % 3 == 0 or epoch == 11:
        print(f"epoch {epoch:2d} loss {total / 96:.4f} spike-count acc {correct / 96:.3f}")

with torch.no_grad():
    test = poisson_encode(rates, T)
    spk, memv = net(test)
    counts = spk.sum(0)
    print("test acc", (counts.argmax(1) == labels).float().mean().item())
    print("firing rate per output", counts.mean(0) / T)
    print("membrane at last step", memv[-1, :3])
print(
    "fc1 grad norm",
    net.fc1.weight.grad.norm().item(),
    "fc2 grad",
    net.fc2.weight.grad.abs().sum().item(),
)
print([k for k in net.state_dict()])
