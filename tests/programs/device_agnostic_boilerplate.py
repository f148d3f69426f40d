# Models: the boilerplate at the top and bottom of public training scripts -- device selection
# with cuda/mps fallbacks, torch.backends flags, use_deterministic_algorithms, set_num_threads,
# .to(device) with non_blocking, pin_memory in a DataLoader, GradScaler(enabled=False) and
# autocast on CPU with bfloat16, torch.inference_mode for evaluation, torch.compile, model
# dtype conversions (double()/half()/to(dtype)), parameter counting and freezing, and
# named_modules/named_parameters filters.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

if torch.cuda.is_available():
    device = torch.device("cuda")
elif getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
    device = torch.device("mps")
else:
    device = torch.device("cpu")
print("device", device, device.type, device.index, torch.cuda.device_count())
torch.backends.cudnn.benchmark = False
torch.backends.cudnn.deterministic = True
torch.use_deterministic_algorithms(True)
print("deterministic", torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(False)
torch.set_num_threads(1)
print("threads", torch.get_num_threads())
torch.manual_seed(0)

model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 3)).to(device)
print(next(model.parameters()).device, next(model.parameters()).is_cuda)
X = torch.randn(64, 6)
y = (X[:, 0] > 0).long() + (X[:, 1] > 0.5).long()
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True, pin_memory=False)
scaler = torch.amp.GradScaler("cpu", enabled=False)
opt = torch.optim.AdamW(model.parameters(), lr=5e-3)
print("scaler enabled", scaler.is_enabled(), scaler.get_scale() if scaler.is_enabled() else "-")
for epoch in range(3):
    model.train()
    total = 0.0
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=False):
            logits = model(xb)
            loss = nn.functional.cross_entropy(logits, yb)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        total += loss.item() * len(xb)
    print(f"epoch {epoch} loss {total / len(X):.5f}")

with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    out = model(X[:4])
print("autocast output", out.dtype, torch.is_autocast_enabled("cpu"))
model.eval()
with torch.inference_mode():
    preds = model(X).argmax(1)
    print("inference tensor", preds.is_inference(), torch.is_inference_mode_enabled())
print("accuracy", (preds == y).float().mean().item())
compiled = torch.compile(model)
with torch.no_grad():
    print("compiled matches", torch.allclose(compiled(X[:5]), model(X[:5])))

n_params = sum(p.numel() for p in model.parameters())
n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
for p in model[0].parameters():
    p.requires_grad_(False)
n_frozen = sum(p.numel() for p in model.parameters() if not p.requires_grad)
print("params", n_params, n_train, "frozen", n_frozen)
print([n for n, m in model.named_modules() if isinstance(m, nn.Linear)])
print([n for n, p in model.named_parameters() if p.requires_grad])
m64 = model.double()
print(m64[0].weight.dtype, m64(X[:2].double()).dtype)
m16 = model.to(torch.float16)
print(m16[3].bias.dtype, model.float()[3].bias.dtype)
print(X.to("cpu").device, X.cpu() is X, X.to(torch.float64).dtype, X.to(X).dtype,
      X.to(device, torch.float16).dtype)
print(torch.tensor([1, 2], device="cpu").device, torch.zeros(2, device=device).device)
