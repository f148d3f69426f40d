# Models: the AMP training-loop recipe run on CPU: torch.autocast("cpu", bfloat16) around the
# forward, torch.amp.GradScaler scaling the loss, gradient accumulation over micro-batches,
# scaler.unscale_ before clip_grad_norm_, skipped steps on inf/NaN gradients, and the scaler's
# state_dict saved and restored.
import torch
import torch.nn as nn

torch.manual_seed(5)
model = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 10, growth_interval=3)
print("scale", scaler.get_scale(), "enabled", scaler.is_enabled())
X, Y = torch.randn(64, 8), torch.randint(0, 4, (64,))
accum = 2
step = 0
for epoch in range(4):
    for i, (xb, yb) in enumerate(zip(X.split(8), Y.split(8))):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(xb)
            loss = nn.functional.cross_entropy(logits, yb) / accum
        if i == 0 and epoch == 0:
            print("autocast dtypes", logits.dtype, loss.dtype)
        scaler.scale(loss).backward()
        if (i + 1) % accum == 0:
            if step == 5:
                model[0].weight.grad[0, 0] = float("inf")
            scaler.unscale_(opt)
            norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(opt)
            scaler.update()
            opt.zero_grad(set_to_none=True)
            print(f"step {step} norm {norm.item():.4f} scale {scaler.get_scale()}")
            step += 1
    with torch.no_grad():
        full = nn.functional.cross_entropy(model(X), Y)
    print(f"epoch {epoch} loss {full.item():.5f}")
state = scaler.state_dict()
print(sorted(state), state["scale"], state["_growth_tracker"])
fresh = torch.amp.GradScaler("cpu")
fresh.load_state_dict(state)
print(fresh.get_scale(), fresh.get_growth_factor(), fresh.get_backoff_factor())
off = torch.amp.GradScaler("cpu", enabled=False)
t = torch.tensor(3.0)
print(off.scale(t), off.get_scale(), off.is_enabled())
with torch.autocast("cpu", dtype=torch.bfloat16):
    a, b = torch.randn(3, 4), torch.randn(4, 2)
    mm = a @ b
    s = mm.sum()
    e = torch.exp(mm.float())
print(mm.dtype, s.dtype, e.dtype)
print(mm)
