# Models: the PyTorch "Hooks for autograd saved tensors" tutorial and the autograd mechanics
# notes on hooks: grad_fn._saved_* attributes, _raw_saved_*.register_hooks, the
# saved_tensors_hooks context manager (pack/unpack counting, saving to disk with torch.save),
# save_on_cpu, disable_saved_tensors_hooks, and Node hooks (register_hook / register_prehook),
# register_post_accumulate_grad_hook and register_multi_grad_hook.
import os
import tempfile
import uuid

import torch

torch.manual_seed(0)

# --- what autograd saves --------------------------------------------------------------------
a = torch.randn(5, requires_grad=True)
y = a.pow(2)
print(type(y.grad_fn).__name__, y.grad_fn.name())
print("saved self is a:", y.grad_fn._saved_self is a, torch.equal(y.grad_fn._saved_self, a))
print("exponent:", y.grad_fn._saved_exponent)
y = a.exp()
print("saved result equals y:", y.grad_fn._saved_result.equal(y), y.grad_fn._saved_result is y)
x = torch.randn(3, 4, requires_grad=True)
s = x.sum(dim=1, keepdim=True)
print(
    type(s.grad_fn).__name__,
    s.grad_fn._saved_dim,
    s.grad_fn._saved_keepdim,
    s.grad_fn._saved_self_sym_sizes,
)
m = torch.randn(4, 2)
z = x.mm(m)
print(type(z.grad_fn).__name__, z.grad_fn._saved_mat2.shape, z.grad_fn._saved_self)
print([type(n).__name__ if n is not None else None for n, _ in z.grad_fn.next_functions])

y = a.pow(2)
y.sum().backward()
try:
    print(y.grad_fn._saved_self)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])


# --- hooks on one saved tensor --------------------------------------------------------------
def pack_hook(x):
    print("Packing", x.shape)
    return x


def unpack_hook(x):
    print("Unpacking", x.shape)
    return x


a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
y = a * b
y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
print(y.grad_fn._saved_self)
y.sum().backward()
print(a.grad, b.is_leaf)

# --- the context manager ---------------------------------------------------------------------
a = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * a
print("backward:")
y.sum().backward()
print(torch.allclose(a.grad, 2 * a))

counts = {"pack": 0, "unpack": 0}


def count_pack(x):
    counts["pack"] += 1
    return x


def count_unpack(x):
    counts["unpack"] += 1
    return x


x = torch.randn(4, 4, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(count_pack, count_unpack):
    h = torch.tanh(x @ x)
    out = (h.sigmoid() * h).sum()
print("after forward:", counts)
out.backward()
print("after backward:", counts)
print(x.grad.norm().item())

# storing saved tensors on disk (the tutorial's SelfDeletingTempFile pattern)
tmp_dir = tempfile.mkdtemp()


class SelfDeletingTempFile:
    def __init__(self):
        self.name = os.path.join(tmp_dir, str(uuid.uuid4()))

    def __del__(self):
        os.remove(self.name)


def pack_to_disk(tensor):
    temp_file = SelfDeletingTempFile()
    torch.save(tensor, temp_file.name)
    return temp_file


def unpack_from_disk(temp_file):
    return torch.load(temp_file.name, weights_only=True)


x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_disk, unpack_from_disk):
    y = x.pow(2).sin()
print("files on disk:", len(os.listdir(tmp_dir)))
y.sum().backward()
print(torch.allclose(x.grad, 2 * x * torch.cos(x.pow(2))))
del y
print("files after del:", len(os.listdir(tmp_dir)))

# wrapping a module's forward
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
inp = torch.randn(3, 8)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    out = model(inp).pow(2).sum()
out.backward()
g1 = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
model(inp).pow(2).sum().backward()
print(
    "save_on_cpu grads equal:", all(torch.equal(a, p.grad) for a, p in zip(g1, model.parameters()))
)

with torch.autograd.graph.disable_saved_tensors_hooks("saved tensors hooks are off here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
            pass
    except RuntimeError as e:
        print("RuntimeError:", e)


# a pack hook that returns a different tensor changes what backward sees
def scale_pack(t):
    return t * 10


def ident_unpack(t):
    return t


w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(scale_pack, ident_unpack):
    loss = (w * w).sum()
loss.backward()
print("scaled grads:", w.grad)

# --- Node hooks, post-accumulate hooks, multi-grad hooks ------------------------------------
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.exp()


def node_hook(grad_inputs, grad_outputs):
    print("node hook", type(z.grad_fn).__name__, grad_inputs, grad_outputs)


def pre_hook(grad_outputs):
    print("pre hook", grad_outputs)
    return (grad_outputs[0] * 0 + 1,)


h1 = z.grad_fn.register_hook(node_hook)
h2 = z.grad_fn.register_prehook(pre_hook)
z.sum().backward()
print("x.grad:", x.grad)
h1.remove()
h2.remove()

lin = torch.nn.Linear(3, 1)
seen = []
for name, p in lin.named_parameters():
    p.register_post_accumulate_grad_hook(lambda p, name=name: seen.append((name, p.grad.shape)))
lin(torch.randn(2, 3)).sum().backward()
print("post-accumulate:", seen)

t1 = torch.randn(2, requires_grad=True)
t2 = torch.randn(2, requires_grad=True)


def multi(grads):
    print("multi-grad hook:", [g is not None for g in grads])


handle = torch.autograd.graph.register_multi_grad_hook((t1, t2), multi)
(t1 * 2).sum().backward(inputs=[t1])
(t1 * t2).sum().backward()
handle.remove()
print(t1.grad, t2.grad)
