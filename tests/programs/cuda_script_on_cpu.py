# Models: a training script written for a GPU and run on a CPU-only machine, as users paste
# them into forums: torch.cuda.amp.GradScaler()/autocast() (deprecated and disabled without
# CUDA), pin_memory=True loaders, torch.cuda.* calls guarded by is_available(), seeding
# helpers (cuda.manual_seed_all), map_location when loading a checkpoint, and the CUDA errors
# that unguarded calls raise.
import io
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)


seed_everything(42)
device = "cuda" if torch.cuda.is_available() else "cpu"
print(device, torch.cuda.is_available(), torch.cuda.device_count(), torch.backends.cudnn.enabled)
scaler = torch.cuda.amp.GradScaler()
print("scaler enabled", scaler.is_enabled())
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
data = TensorDataset(torch.randn(40, 4), torch.randn(40, 1))
loader = DataLoader(data, batch_size=10, shuffle=True, pin_memory=True, num_workers=0)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        with torch.cuda.amp.autocast():
            loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        total += loss.item()
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    print(f"epoch {epoch} loss {total / len(loader):.5f} pinned {xb.is_pinned()}")
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
state = torch.load(buf, map_location=torch.device("cpu"))
print({k: v.device for k, v in state.items()})
buf.seek(0)
state2 = torch.load(buf, map_location=lambda storage, loc: storage)
print(torch.equal(state2["0.weight"], state["0.weight"]))
buf.seek(0)
print(list(torch.load(buf, map_location="cpu", weights_only=True))[:2])
for call in (lambda: torch.zeros(2).cuda(), lambda: torch.zeros(2, device="cuda"),
             lambda: torch.cuda.get_device_name(0), lambda: model.cuda()):
    try:
        call()
        print("no error")
    except (RuntimeError, AssertionError, AttributeError) as e:
        print(type(e).__name__, str(e).splitlines()[0][:100])
print(torch.cuda.is_bf16_supported() if hasattr(torch.cuda, "is_bf16_supported") else None)
print(torch.backends.mps.is_available(), torch.backends.mkldnn.is_available() in (True, False))
print(torch.device(device), torch.zeros(1).device == torch.device("cpu"))
