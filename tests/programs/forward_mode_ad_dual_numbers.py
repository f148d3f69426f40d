# Models: the forward-mode AD tutorial: torch.autograd.forward_ad dual_level/make_dual/
# unpack_dual on elementwise ops, matmul, reductions and a small network, jvp vs reverse-mode vjp
# checks, tangents of several inputs, custom Functions with jvp, and the error for an op
# without a forward formula.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

torch.manual_seed(53)
x = torch.randn(4, dtype=torch.float64)
v = torch.randn(4, dtype=torch.float64)
with fwAD.dual_level():
    dx = fwAD.make_dual(x, v)
    for name, fn in [
        ("sin", torch.sin),
        ("exp", torch.exp),
        ("tanh", torch.tanh),
        ("square", lambda t: t * t),
        ("softmax", lambda t: t.softmax(0)),
        ("cumsum", lambda t: t.cumsum(0)),
        ("sort", lambda t: t.sort().values),
        ("norm", lambda t: t.norm()),
        ("logsumexp", lambda t: t.logsumexp(0)),
        ("relu", F.relu),
    ]:
        out = fn(dx)
        primal, tangent = fwAD.unpack_dual(out)
        ref = torch.autograd.functional.jvp(fn, x, v)[1]
        print(
            f"{name:9s} tangent matches reverse-mode jvp: {torch.allclose(tangent, ref)}  "
            f"{tangent.numpy().round(5).tolist()}"
        )
    print("unpack type", type(fwAD.unpack_dual(dx)).__name__, fwAD.unpack_dual(dx).tangent is v)
W = torch.randn(3, 4, dtype=torch.float64)
b = torch.randn(3, dtype=torch.float64)
with fwAD.dual_level():
    dW = fwAD.make_dual(W, torch.ones_like(W))
    y = torch.tanh(dW @ x + b)
    print("tangent wrt all-ones weight direction", fwAD.unpack_dual(y).tangent)
    dx2 = fwAD.make_dual(x, v)
    dW2 = fwAD.make_dual(W, torch.zeros_like(W))
    print("two duals, one zero tangent", fwAD.unpack_dual(dW2 @ dx2).tangent)
    plain = fwAD.unpack_dual(x * 2)
    print("no dual -> tangent", plain.tangent)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_forward(t)
        ctx.save_for_backward(t)
        return t**3

    @staticmethod
    def backward(ctx, g):
        (t,) = ctx.saved_tensors
        return 3 * t**2 * g

    @staticmethod
    def jvp(ctx, tangent):
        (t,) = ctx.saved_tensors
        return 3 * t**2 * tangent


with fwAD.dual_level():
    out = Cube.apply(fwAD.make_dual(x, v))
    print("custom jvp", torch.allclose(fwAD.unpack_dual(out).tangent, 3 * x**2 * v))
net = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.GELU(), torch.nn.Linear(5, 2)).double()
params = {k: p.detach() for k, p in net.named_parameters()}
tangents = {k: torch.randn_like(p) for k, p in params.items()}
with fwAD.dual_level():
    dual_params = {k: fwAD.make_dual(p, tangents[k]) for k, p in params.items()}
    out = torch.func.functional_call(net, dual_params, (x,))
    jvp_params = fwAD.unpack_dual(out).tangent
print("directional derivative wrt parameters", jvp_params)
eps = 1e-6
plus = torch.func.functional_call(net, {k: p + eps * tangents[k] for k, p in params.items()}, (x,))
minus = torch.func.functional_call(net, {k: p - eps * tangents[k] for k, p in params.items()}, (x,))
print("finite difference agrees", torch.allclose((plus - minus) / (2 * eps), jvp_params, atol=1e-6))
try:
    with fwAD.dual_level():
        fwAD.make_dual(x, torch.ones(3, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
try:
    fwAD.make_dual(x, v)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
