# Models: memory-saving training tricks from the saved-tensor-hooks tutorial: packing saved
# activations to float16 (and back) with saved_tensors_hooks, counting packs per layer type,
# save_on_cpu, non-reentrant activation checkpointing (torch.utils.checkpoint with
# use_reentrant=False, checkpoint_sequential), and checking the gradients match the plain run.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(8, 32), nn.GELU(), nn.SiLU(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 4)
)
x = torch.randn(16, 8)
y = torch.randn(16, 4)


def grads_of(run):
    model.zero_grad()
    loss = run()
    loss.backward()
    return loss.item(), [p.grad.clone() for p in model.parameters()]


base_loss, base = grads_of(lambda: nn.functional.mse_loss(model(x), y))
print("plain loss", base_loss)

packed = []


def pack(t):
    packed.append((tuple(t.shape), t.dtype))
    return t.to(torch.float16) if t.dtype == torch.float32 else t


def unpack(t):
    return t.to(torch.float32) if t.dtype == torch.float16 else t


with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    half_loss, half = grads_of(lambda: nn.functional.mse_loss(model(x), y))
print("packed", len(packed), packed[:4])
print(
    "fp16-saved loss",
    half_loss,
    "max grad diff",
    max((a - b).abs().max().item() for a, b in zip(base, half)) < 1e-2,
)

with torch.autograd.graph.save_on_cpu(pin_memory=False):
    cpu_loss, cpu = grads_of(lambda: nn.functional.mse_loss(model(x), y))
print("save_on_cpu same:", cpu_loss == base_loss, all(torch.equal(a, b) for a, b in zip(base, cpu)))

calls = {"n": 0}


def block(inp):
    calls["n"] += 1
    return model[2](model[1](model[0](inp)))


def run_ckpt():
    h = checkpoint(block, x, use_reentrant=False)
    return nn.functional.mse_loss(model[5](model[4](model[3](h))), y)


ck_loss, ck = grads_of(run_ckpt)
print(
    "checkpoint forward calls",
    calls["n"],
    "same grads:",
    all(torch.allclose(a, b, atol=1e-6) for a, b in zip(base, ck)),
)
seq_loss, seq = grads_of(
    lambda: nn.functional.mse_loss(checkpoint_sequential(model, 3, x, use_reentrant=False), y)
)
print(
    "checkpoint_sequential same:",
    abs(seq_loss - base_loss) < 1e-6,
    all(torch.allclose(a, b, atol=1e-6) for a, b in zip(base, seq)),
)

a = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 0 + 1, lambda t: t):
    out = (a * a).sum()
out.backward()
print("hooked saved tensors change the gradient:", a.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            pass
    except RuntimeError as e:
        print("RuntimeError:", e)
