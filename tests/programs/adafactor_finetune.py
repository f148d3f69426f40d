# Models: a T5-style fine-tuning script that switches to torch.optim.Adafactor to save optimizer
# memory: factored second-moment state for matrices (row/column variances) vs full state for
# vectors, the relative-step defaults, weight decay, comparing its state size with Adam's,
# and a state_dict save/load roundtrip through io.BytesIO mid-training.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyEncoder(nn.Module):
    def __init__(self, vocab=20, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.ff = nn.Sequential(nn.Linear(d, 32, bias=False), nn.ReLU(), nn.Linear(32, d,
                                                                                   bias=False))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, 2)

    def forward(self, tok):
        h = self.emb(tok)
        h = self.norm(h + self.ff(h))
        return self.head(h.mean(1))


tokens = torch.randint(0, 20, (64, 6))
labels = ((tokens == 3).any(1) | (tokens.sum(1) > 60)).long()
print("label balance", labels.float().mean().item())

model = TinyEncoder()
opt = torch.optim.Adafactor(model.parameters(), lr=0.05, weight_decay=0.01)
print(opt)
for step in range(12):
    loss = F.cross_entropy(model(tokens), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(f"step {step:2d} loss {loss.item():.6f}")

for name, p in model.named_parameters():
    st = opt.state[p]
    shapes = {k: tuple(v.shape) for k, v in st.items() if torch.is_tensor(v)}
    print(f"{name:12s} {tuple(p.shape)} -> {shapes}")
fac = sum(v.numel() for st in opt.state.values() for v in st.values()
          if torch.is_tensor(v) and v.dim() > 0)
adam = 2 * sum(p.numel() for p in model.parameters())
print("optimizer floats: adafactor", fac, "adam", adam)

buf = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, buf)
buf.seek(0)
ckpt = torch.load(buf)
clone = TinyEncoder()
clone.load_state_dict(ckpt["model"])
opt2 = torch.optim.Adafactor(clone.parameters(), lr=0.05, weight_decay=0.01)
opt2.load_state_dict(ckpt["opt"])
group = opt2.state_dict()["param_groups"][0]
print("param_groups", {k: v for k, v in group.items() if k != "params"})
for step in range(3):
    for m, o in ((model, opt), (clone, opt2)):
        loss = F.cross_entropy(m(tokens), labels)
        o.zero_grad()
        loss.backward()
        o.step()
    print("resumed step", step, loss.item(),
          all(torch.equal(a, b) for a, b in zip(model.parameters(), clone.parameters())))
row = opt.state[model.ff[0].weight]
print("row_var", row["row_var"].flatten()[:4], "col_var", row["col_var"].flatten()[:4])
print("step", row["step"])
for beta2_decay in (-0.8, -0.5):
    p = nn.Parameter(torch.ones(3, 2))
    o = torch.optim.Adafactor([p], lr=0.1, beta2_decay=beta2_decay, maximize=True)
    (p ** 2).sum().backward()
    o.step()
    print(beta2_decay, p.data)
try:
    torch.optim.Adafactor(model.parameters(), lr=-1.0)
except ValueError as e:
    print("ValueError:", e)
