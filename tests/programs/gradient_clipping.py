# Models: gradient clipping as in the word-language-model and RNN training examples:
# clip_grad_norm_ (returning the total norm, several norm types) and clip_grad_value_.
import torch
import torch.nn as nn

torch.manual_seed(4)
model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3))
x = torch.randn(16, 5) * 10
y = torch.randint(0, 3, (16,))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    after = torch.norm(torch.stack([p.grad.norm(2) for p in model.parameters()]), 2)
    print(step, f"{loss.item():.5f}", f"{total.item():.5f}", f"{after.item():.5f}")
    opt.step()
opt.zero_grad()
nn.functional.cross_entropy(model(x), y).backward()
print(nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type=float("inf")))
print(nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type=1))
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(model[0].weight.grad.abs().max(), model[2].bias.grad)
w = torch.tensor([3.0, 4.0], requires_grad=True)
(w * w).sum().backward()
print(nn.utils.clip_grad_norm_([w], 5.0), w.grad)
