# Models: the gradient-accumulation recipe of fine-tuning scripts (accumulate over micro-batches,
# scale the loss, step every N), zero_grad(set_to_none=True), and requires_grad_(False) for a
# frozen backbone with a parameter group per part.
import torch
import torch.nn as nn

torch.manual_seed(8)
backbone = nn.Sequential(nn.Linear(6, 12), nn.GELU())
head = nn.Linear(12, 1)
backbone.requires_grad_(False)
opt = torch.optim.Adam([{"params": head.parameters(), "lr": 1e-2},
                        {"params": backbone.parameters(), "lr": 1e-4}])
X, Y = torch.randn(48, 6), torch.randn(48, 1)
accum = 4
for epoch in range(3):
    for i, (xb, yb) in enumerate(zip(X.split(6), Y.split(6))):
        loss = nn.functional.mse_loss(head(backbone(xb)), yb) / accum
        loss.backward()
        if (i + 1) % accum == 0:
            opt.step()
            opt.zero_grad(set_to_none=True)
    with torch.no_grad():
        print(epoch, f"{nn.functional.mse_loss(head(backbone(X)), Y).item():.6f}")
print(head.weight.grad, backbone[0].weight.grad, backbone[0].weight.requires_grad)
print([len(g["params"]) for g in opt.param_groups], opt.param_groups[1]["lr"])
backbone.requires_grad_(True)
full = nn.functional.mse_loss(head(backbone(X)), Y)
full.backward()
print(backbone[0].bias.grad)
accumulated = [p.grad.clone() for p in head.parameters()]
head.zero_grad()
for xb, yb in zip(X.split(24), Y.split(24)):
    (nn.functional.mse_loss(head(backbone(xb)), yb) / 2).backward()
print([torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(accumulated, head.parameters())])
