"""The smoke calls of tools/coverage.py: family rules plus per-name snippets.

A snippet is Python run with ``torch`` bound to torch or to ember (also ``nn``, ``F``, ``np``,
``io``, ``math``, ``os``, ``tmpfile()`` for a fresh temporary path) after :data:`PRELUDE`;
its last expression is its result. Snippets are written against torch 2.13's CPU behaviour,
including names Ember does not have yet, so that the figure rises when they arrive.
"""

from __future__ import annotations

PRELUDE = """
torch.manual_seed(0)
x = torch.randn(3, 4)
y = torch.randn(3, 4)
w = torch.randn(4, 5)
sq = torch.randn(4, 4)
v = torch.randn(4)
i = torch.tensor([2, 0, 1])
b = x > 0
img = torch.randn(2, 2, 4, 4)
q = torch.randn(1, 2, 3, 4)
xg = x.clone().requires_grad_()
torch.manual_seed(0)

def _flat(o):
    if isinstance(o, (list, tuple)):
        return [t for e in o for t in _flat(e)]
    return [o] if isinstance(o, torch.Tensor) else []

def _backward(out):
    outs = [t for t in _flat(out) if t.requires_grad and t.is_floating_point()]
    if outs:
        sum(t.sum() for t in outs).backward()

def _fg(fn, *args, **kw):
    out = fn(*args, **kw)
    _backward(out)
    return out, [a.grad for a in args if isinstance(a, torch.Tensor) and a.requires_grad]

def _mod(m, *args):
    out = m(*args)
    _backward(out)
    return (out, repr(m), [(n, p.grad) for n, p in m.named_parameters()],
            list(m.state_dict().items()),
            [a.grad for a in args if isinstance(a, torch.Tensor) and a.requires_grad])

def _opt(cls, steps=3, **kw):
    m = torch.nn.Linear(4, 2)
    opt = cls(m.parameters(), **kw)
    for _ in range(steps):
        opt.zero_grad()
        (m(x) ** 2).mean().backward()
        opt.step()
    return list(m.parameters()), opt.param_groups[0]["lr"]

def _sched(cls, steps=6, **kw):
    p = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([p], lr=0.1)
    s = cls(opt, **kw)
    lrs = []
    for _ in range(steps):
        opt.step()
        s.step()
        lrs.append(s.get_last_lr())
    return lrs, s.state_dict().get("last_epoch")

def _rpc(body):
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(sock.getsockname()[1]))
    torch.distributed.rpc.init_rpc("worker0", rank=0, world_size=1)
    try:
        return body()
    finally:
        torch.distributed.rpc.shutdown()

def _rpc_grad(fn):
    def run():
        a = x.clone().requires_grad_()
        with torch.distributed.autograd.context() as cid:
            out = fn(a)
            torch.distributed.autograd.backward(cid, [out.sum()])
            grads = torch.distributed.autograd.get_gradients(cid)
        return out, grads[a], a.grad, len(grads)
    return _rpc(run)

def _rpc_opt():
    p = torch.distributed.rpc.RRef(torch.nn.Parameter(y.clone()))
    o = torch.distributed.optim.DistributedOptimizer(torch.optim.SGD, [p], lr=0.5, momentum=0.9)
    for _ in range(2):
        with torch.distributed.autograd.context() as cid:
            torch.distributed.autograd.backward(cid, [(p.local_value() * x).sum()])
            o.step(cid)
    return p.local_value()

def _dist(body):
    torch.distributed.init_process_group("gloo", init_method="file://" + tmpfile(),
                                         rank=0, world_size=1)
    try:
        return body()
    finally:
        torch.distributed.destroy_process_group()

def _tp(body):
    import importlib
    importlib.import_module(torch.__name__ + ".distributed.tensor.parallel")
    importlib.import_module(torch.__name__ + ".distributed._tensor.device_mesh")
    def run():
        from_mesh = torch.distributed.device_mesh.init_device_mesh
        return body(from_mesh("cpu", (1,), mesh_dim_names=("tp",)))
    return _dist(run)

def _fsdp2(body, **kw):
    def run():
        fsdp = importlib.import_module(torch.__name__ + ".distributed.fsdp")
        torch.manual_seed(0)
        m = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.Linear(6, 4))
        fsdp.fully_shard(m[0], **kw)
        fsdp.fully_shard(m, **kw)
        out = m(x)
        out.float().sum().backward()
        return body(m, out, fsdp)
    import importlib
    return _dist(run)

def _tp_mlp(styles):
    def body(mesh):
        torch.manual_seed(0)
        m = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.Linear(6, 4))
        tp = torch.distributed.tensor.parallel
        tp.parallelize_module(m, mesh, {"0": styles[0], "2": styles[1]})
        out = m(x)
        out.sum().backward()
        if hasattr(out, "placements"):
            out = out.to_local()
        return (out, repr(styles[0]), [(n, str(p.placements), p.grad.to_local())
                                       for n, p in m.named_parameters()])
    return _tp(body)
"""

# ----------------------------------------------------------------------------- Tensor.*
# the expression for Tensor.<name>; names not listed are called as ``x.<name>()``
TENSOR = {
    "shape": "x.shape", "data": "x.data", "device": "x.device", "dtype": "x.dtype",
    "grad": "a = x.clone().requires_grad_(); a.sin().sum().backward(); a.grad",
    "requires_grad": "(x.requires_grad, xg.requires_grad, (xg * 2).requires_grad)",
    "T": "x.T", "mT": "img.mT", "ndim": "x.ndim", "layout": "x.layout",
    "grad_fn": "(xg * 2).grad_fn.name()",
    "is_cuda": "x.is_cuda", "is_sparse": "x.is_sparse", "is_nested": "x.is_nested",
    "is_xpu": "x.is_xpu", "is_quantized": "x.is_quantized",
    "to": "(x.to(torch.float64), x.to('cpu'), x.to(y), x.to(torch.int32), "
          "x.to('cpu', torch.float16))",
    "view": "(x.view(4, 3), x.view(-1), x.view(2, -1, 2))",
    "item": "(x[0, 0].item(), i[1].item(), b[0, 0].item())",
    "unsqueeze": "(x.unsqueeze(1).shape, x.unsqueeze(-1))",
    "transpose": "x.transpose(0, 1)",
    "backward": "a = x.clone().requires_grad_(); (a * a).sum().backward(); a.grad",
    "size": "(x.size(), x.size(1), x.size(-1))",
    "sum": "(x.sum(), x.sum(1), x.sum(dim=0, keepdim=True), i.sum())",
    "reshape": "(x.reshape(2, 6), x.reshape(-1))",
    "mean": "(x.mean(), x.mean(0), x.mean(dim=1, keepdim=True))",
    "squeeze": "(x.view(3, 1, 4).squeeze(), x.view(1, 3, 4).squeeze(0))",
    "float": "(i.float(), b.float())",
    "argmax": "(x.argmax(), x.argmax(1), x.argmax(dim=0, keepdim=True))",
    "permute": "(x.permute(1, 0), img.permute(0, 2, 3, 1).shape)",
    "max": "(x.max(), x.max(1), x.max(dim=0, keepdim=True).indices, x.max(y))",
    "min": "(x.min(), x.min(1), x.min(y))",
    "add": "(x.add(y), x.add(y, alpha=2), x.add(1))",
    "copy_": "a = torch.zeros(3, 4); a.copy_(y); a",
    "flatten": "(x.flatten(), img.flatten(1))",
    "contiguous": "(x.t().contiguous(), x.t().contiguous().is_contiguous())",
    "fill_": "x.clone().fill_(2.5)",
    "pow": "(x.pow(2), x.abs().pow(0.5), x.pow(y))",
    "repeat_interleave": "(x.repeat_interleave(2, dim=0), i.repeat_interleave(2))",
    "type": "(x.type(), x.type(torch.float64), i.type())",
    "masked_fill": "x.masked_fill(b, 0.0)",
    "masked_fill_": "x.clone().masked_fill_(b, -1.0)",
    "norm": "(x.norm(), x.norm(dim=1), x.norm(p=1), x.norm(2, dim=0, keepdim=True))",
    "var": "(x.var(), x.var(1), x.var(0, unbiased=False))",
    "std": "(x.std(), x.std(1), x.std(0, keepdim=True))",
    "zero_": "x.clone().zero_()",
    "new_zeros": "(x.new_zeros(2, 3), i.new_zeros((2,)))",
    "new_ones": "(x.new_ones(2), i.new_ones((2, 1)))",
    "new_full": "x.new_full((2,), 7.0)",
    "new_tensor": "(x.new_tensor([1, 2]), i.new_tensor([1.5]))",
    "new_empty": "e = x.new_empty(2, 3); (e.shape, e.dtype)",
    "new": "(x.new(2, 3).shape, x.new([1.0, 2.0]), i.new([1, 2]))",
    "add_": "a = x.clone(); a.add_(y); a.add_(1, alpha=2); a",
    "softmax": "(x.softmax(1), x.softmax(dim=0))",
    "clamp": "(x.clamp(-0.5, 0.5), x.clamp(min=0), x.clamp(max=0.1))",
    "clip": "x.clip(-0.5, 0.5)",
    "mm": "x.mm(w)", "matmul": "(x.matmul(w), x.matmul(v))", "dot": "v.dot(v)",
    "bmm": "x.view(1, 3, 4).bmm(w.view(1, 4, 5))",
    "split": "(x.split(2, 1), x.split([1, 2]))",
    "chunk": "(x.chunk(2, 1), x.chunk(3))",
    "eq": "(x.eq(y), x.eq(x))", "ge": "x.ge(y)",
    "repeat": "(x.repeat(2, 1), v.repeat(2, 2))",
    "stride": "(x.stride(), x.t().stride(), x.stride(1))",
    "expand": "(v.expand(3, 4), v.expand(2, -1))",
    "mul_": "a = x.clone(); a.mul_(y); a.mul_(2); a",
    "sqrt": "x.abs().sqrt()", "log": "x.abs().log()", "log10": "x.abs().log10()",
    "sqrt_": "x.abs().sqrt_()",
    "normal_": "(torch.empty(5).normal_(), torch.empty(3).normal_(2, 0.5))",
    "random_": "(torch.empty(5).random_(10), torch.empty(3).random_(2, 5))",
    "uniform_": "(torch.empty(5).uniform_(), torch.empty(3).uniform_(-1, 1))",
    "data_ptr": "(x[1].data_ptr() - x.data_ptr(), x.view(-1).data_ptr() == x.data_ptr())",
    "any": "(b.any(), b.any(1), x.any())",
    "all": "(b.all(), b.all(0))",
    "is_contiguous": "(x.is_contiguous(), x.t().is_contiguous())",
    "resize": "x.resize(2, 6)",
    "resize_": "x.clone().resize_(2, 2)",
    "view_as": "x.view_as(torch.empty(4, 3))",
    "index_select": "(x.index_select(1, i), x.index_select(0, i))",
    "mul": "(x.mul(y), x.mul(3))",
    "scatter_": "torch.zeros(3, 4).scatter_(1, torch.tensor([[0], [1], [2]]), 1.0)",
    "scatter": "torch.zeros(3, 4).scatter(1, torch.tensor([[0], [1], [2]]), y)",
    "retain_grad": "a = x.clone().requires_grad_(); c = a * 2; c.retain_grad(); "
                   "c.sum().backward(); c.grad",
    "to_sparse": "x.to_sparse().to_dense()",
    "to_sparse_coo": "x.to_sparse_coo().to_dense()",
    "to_sparse_csr": "x.to_sparse_csr().to_dense()",
    "to_dense": "x.to_dense()",
    "_values": "x.to_sparse()._values()",
    "_indices": "x.to_sparse()._indices()",
    "coalesce": "x.to_sparse().coalesce().to_dense()",
    "sparse_mask": "x.sparse_mask(y.to_sparse()).to_dense()",
    "record_stream": "x.record_stream(None)",
    "topk": "(v.topk(2), x.topk(2, dim=0, largest=False))",
    "trace": "sq.trace()", "det": "sq.det()",
    "byte": "i.byte()", "int": "x.int()", "long": "x.long()", "short": "x.short()",
    "half": "x.half()", "bfloat16": "x.bfloat16()", "double": "x.double()", "bool": "x.bool()",
    "gather": "x.gather(1, torch.tensor([[0], [1], [2]]))",
    "nonzero": "(b.nonzero(), b.nonzero(as_tuple=True))",
    "triu": "(sq.triu(), sq.triu(1))", "tril": "(sq.tril(), sq.tril(-1))",
    "type_as": "(i.type_as(x), x.type_as(i))",
    "cumsum": "(x.cumsum(1), i.cumsum(0))",
    "index_add_": "torch.zeros(3, 4).index_add_(1, torch.tensor([0, 2]), torch.ones(3, 2))",
    "addcdiv_": "x.clone().addcdiv_(y, x.abs() + 1, value=0.5)",
    "addcmul_": "x.clone().addcmul_(y, x, value=2)",
    "clamp_": "(x.clone().clamp_(min=0), x.clone().clamp_(-0.1, 0.1))",
    "div": "(x.div(y), x.div(2), i.div(2), x.div(2, rounding_mode='floor'))",
    "div_": "x.clone().div_(2)", "exp_": "x.clone().exp_()", "neg_": "x.clone().neg_()",
    "sub_": "x.clone().sub_(y)",
    "expand_as": "v.expand_as(x)",
    "pin_memory": "x.pin_memory()",
    "unbind": "x.unbind(1)",
    "detach_": "a = xg * 2; a.detach_(); (a.requires_grad, a.grad_fn)",
    "equal": "(x.equal(x.clone()), x.equal(y))",
    "allclose": "(x.allclose(x + 1e-9), x.allclose(y))",
    "narrow": "x.narrow(1, 1, 2)",
    "unflatten": "x.unflatten(1, (2, 2))",
    "unsqueeze_": "x.clone().unsqueeze_(0)",
    "squeeze_": "x.view(3, 1, 4).clone().squeeze_(1)",
    "logical_not": "b.logical_not()",
    "select": "(x.select(1, 2), x.select(0, -1))",
    "storage": "list(x.storage())",
    "storage_offset": "(x[1:].storage_offset(), x[:, 2:].storage_offset())",
    "take": "x.take(torch.tensor([0, 5]))",
    "unique": "(torch.tensor([3, 1, 3, 2]).unique(), "
              "torch.tensor([3, 1, 3]).unique(return_counts=True))",
    "amin": "(x.amin(1), x.amin())", "prod": "(x.prod(), x.prod(1))",
    "flip": "(x.flip(0), x.flip(dims=[0, 1]))",
    "fmod": "x.fmod(0.3)",
    "index_fill_": "x.clone().index_fill_(1, i, -1.0)",
    "movedim": "img.movedim(1, -1).shape",
    "nanmean": "torch.tensor([1.0, float('nan'), 3.0]).nanmean()",
    "register_hook": "a = x.clone().requires_grad_(); a.register_hook(lambda g: g * 2); "
                     "(a * 3).sum().backward(); a.grad",
    "register_post_accumulate_grad_hook":
        "a = x.clone().requires_grad_(); seen = []; "
        "a.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.sum().item())); "
        "a.sum().backward(); seen",
    "roll": "(x.roll(1, 1), x.roll(1))",
    "tile": "x.tile((2,))", "unfold": "x.unfold(1, 2, 1)",
    "element_size": "(x.element_size(), i.element_size(), b.element_size())",
    "tolist": "(x.tolist(), i.tolist())",
    "numpy": "x.numpy()",
    "requires_grad_": "(x.clone().requires_grad_(), x.clone().requires_grad_(False))",
    "cuda": "x.cuda()",
    "dequantize": "x.dequantize()",
    "ravel": "x.t().ravel()",
    "masked_select": "x.masked_select(b)",
}

# ----------------------------------------------------------------------------- torch.*
# the arguments of ``torch.<name>(...)`` (default: ``(x)``), or a full snippet (with "=")
TORCH_ARGS = {
    "cat": "[x, y]", "stack": "[x, y], dim=2", "softmax": "x, dim=1", "argmax": "x, dim=1",
    "triu": "sq, diagonal=1", "tril": "sq, -1", "einsum": "'ij,jk->ik', x, w",
    "allclose": "x, x + 1e-9", "pow": "x, 2", "matmul": "x, w", "mm": "x, w",
    "bmm": "x.view(1, 3, 4), w.view(1, 4, 5)", "topk": "v, 2", "unsqueeze": "x, 0",
    "rsqrt": "x.abs()", "sqrt": "x.abs()", "log": "x.abs()", "log2": "x.abs()",
    "log10": "x.abs()", "log1p": "x.abs()", "equal": "x, x.clone()", "dot": "v, v",
    "nonzero": "b", "gather": "x, 1, torch.tensor([[0], [1], [2]])", "unbind": "x, 1",
    "chunk": "x, 2, 1", "maximum": "x, y", "sort": "x, 1", "split": "x, [1, 2]",
    "acos": "x.clamp(-1, 1)", "asin": "x.clamp(-1, 1)", "arccos": "x.clamp(-1, 1)",
    "arcsin": "x.clamp(-1, 1)", "isnan": "torch.tensor([1.0, float('nan')])",
    "cumsum": "x, dim=1", "cumprod": "x, 1", "mv": "x, v", "add": "x, y, alpha=2",
    "eq": "x, y", "full_like": "x, 2.0", "clamp_min": "x, 0", "clip": "x, -0.5, 0.5",
    "det": "sq", "mul": "x, y", "outer": "v, v", "tile": "x, (2, 1)", "amax": "x, 1",
    "amin": "x, 0", "argmin": "x, 1", "argsort": "x, 1",
    "bitwise_and": "torch.tensor([12, 10]), torch.tensor([10, 6])",
    "bitwise_xor": "torch.tensor([12, 10]), torch.tensor([10, 6])",
    "fmod": "x, 0.3", "log_softmax": "x, 1", "matrix_exp": "sq * 0.5",
    "reshape": "x, (2, -1)", "roll": "x, 1, 0", "squeeze": "x.view(3, 1, 4)",
    "transpose": "x, 0, 1", "var_mean": "x, 1", "std_mean": "x, 1", "where": "b, x, y",
    "diag": "v", "cross": "torch.randn(2, 3), torch.randn(2, 3), dim=1",
    "nanmean": "torch.tensor([1.0, float('nan'), 3.0])",
    "nansum": "torch.tensor([1.0, float('nan'), 3.0])",
    "real": "torch.tensor([1 + 2j, 3 - 1j])",
    "view_as_real": "torch.tensor([1 + 2j, 3 - 1j])",
    "view_as_complex": "torch.randn(3, 2)",
    "polar": "torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0])",
    "histogram": "x, bins=4", "bincount": "torch.tensor([0, 1, 1, 3])",
    "cdist": "x, y", "dist": "x, y", "lgamma": "x", "digamma": "x.abs() + 0.5",
    "multinomial": "torch.tensor([0.1, 0.5, 0.4]), 5, replacement=True",
    "bernoulli": "torch.full((6,), 0.5)", "is_tensor": "x", "clone": "x",
    "randperm": "6", "eye": "3", "spmm": "x.to_sparse(), w",
    "round": "x * 10", "square": "x", "abs": "x", "neg": "x",
}

TORCH = {
    "tensor": "(torch.tensor([1, 2]), torch.tensor([[1.0, 2.0]]), torch.tensor(3.5), "
              "torch.tensor([True]), torch.tensor([1, 2], dtype=torch.float64), "
              "torch.tensor([1e-300, 1e300], dtype=torch.float64))",
    "Tensor": "(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, isinstance(x, torch.Tensor), "
              "torch.Tensor)",
    "randn": "(torch.randn(2, 3), torch.randn(4, dtype=torch.float64), torch.randn((2,)))",
    "rand": "(torch.rand(2, 3), torch.rand(2, dtype=torch.float64))",
    "no_grad": "with torch.no_grad():\n    r = xg * 2\n(r.requires_grad, torch.is_grad_enabled())",
    "device": "(torch.device('cpu'), torch.device('cuda', 0), str(torch.device('cuda:1')), "
              "torch.device('cpu').type, torch.device('cuda:1').index)",
    "manual_seed": "torch.manual_seed(3); torch.rand(2)",
    "arange": "(torch.arange(5), torch.arange(1, 2, 0.25), "
              "torch.arange(0, 10, 3, dtype=torch.float32), torch.arange(0.0, 1.0, 0.1))",
    "ones": "(torch.ones(2, 3), torch.ones((2,), dtype=torch.long))",
    "zeros": "(torch.zeros(2, 3), torch.zeros((2,), dtype=torch.bool))",
    "empty": "e = torch.empty(2, 3); (e.shape, e.dtype)",
    "empty_like": "e = torch.empty_like(i); (e.shape, e.dtype)",
    "load": "buf = io.BytesIO(); torch.save({'w': x, 'n': 3, 'l': [i]}, buf); buf.seek(0); "
            "torch.load(buf)",
    "save": "p = tmpfile(); torch.save(torch.nn.Linear(4, 2).state_dict(), p); "
            "torch.load(p, weights_only=True)",
    "max": "(torch.max(x), torch.max(x, 1), torch.max(x, y))",
    "min": "(torch.min(x), torch.min(x, 0), torch.min(x, y))",
    "from_numpy": "torch.from_numpy(np.arange(6.0).reshape(2, 3))",
    "randint": "(torch.randint(0, 10, (5,)), torch.randint(5, (2, 2)))",
    "linspace": "(torch.linspace(0, 1, 5), torch.linspace(-1, 1, steps=7))",
    "sum": "(torch.sum(x), torch.sum(x, dim=1), torch.sum(b))",
    "mean": "(torch.mean(x), torch.mean(x, 1, keepdim=True))",
    "FloatTensor": "(torch.FloatTensor([1, 2]), torch.FloatTensor(2, 3).shape, "
                   "isinstance(x, torch.FloatTensor), x.type(torch.FloatTensor).dtype)",
    "LongTensor": "(torch.LongTensor([1, 2]), torch.LongTensor(2).shape, "
                  "isinstance(i, torch.LongTensor), x.type(torch.LongTensor))",
    "BoolTensor": "(torch.BoolTensor([True, False]), isinstance(b, torch.BoolTensor))",
    "compile": "f = torch.compile(lambda a: a.sin() * 2, backend='eager'); "
               "m = torch.compile(torch.nn.Linear(4, 2), backend='eager'); (f(x), m(x))",
    "inference_mode": "with torch.inference_mode():\n    r = xg * 2\n(r.requires_grad, r)",
    "__version__": "(torch.__version__ >= '2.0', torch.__version__ > '1.10.0', "
                   "torch.__version__ < '9', isinstance(torch.__version__, str))",
    "where": "(torch.where(b, x, y), torch.where(b, x, 0.0), torch.where(b))",
    "normal": "(torch.normal(0.0, 1.0, (3,)), torch.normal(x, 2.0))",
    "full": "(torch.full((2, 3), 1.5), torch.full((2,), 7), torch.full((1,), True))",
    "as_tensor": "(torch.as_tensor([1, 2]), torch.as_tensor(np.arange(3.0)), "
                 "torch.as_tensor(x) is x)",
    "flatten": "(torch.flatten(x), torch.flatten(img, 1))",
    "Generator": "g = torch.Generator().manual_seed(42); (torch.rand(3, generator=g), "
                 "g.initial_seed())",
    "all": "(torch.all(b), torch.all(b, dim=1))",
    "norm": "(torch.norm(x), torch.norm(x, dim=1), torch.norm(x, p=1))",
    "Size": "(torch.Size([2, 3]), x.shape == torch.Size([3, 4]), torch.Size([2, 3]).numel(),"
            " isinstance(x.shape, torch.Size))",
    "clamp": "(torch.clamp(x, -0.5, 0.5), torch.clamp(x, min=0))",
    "sparse_coo_tensor": "torch.sparse_coo_tensor(torch.tensor([[0, 1], [1, 0]]), "
                         "torch.tensor([3.0, 4.0]), (2, 2)).to_dense()",
    "sparse_csr_tensor": "torch.sparse_csr_tensor(torch.tensor([0, 1, 2]), torch.tensor([1, 0]),"
                         " torch.tensor([3.0, 4.0]), (2, 2)).to_dense()",
    "set_printoptions": "torch.set_printoptions(precision=2); s = str(x); "
                        "torch.set_printoptions(profile='default'); (s, str(x))",
    "unique": "torch.unique(torch.tensor([3, 1, 3, 2]), return_counts=True)",
    "autocast": "with torch.autocast('cpu'):\n    r = x @ w\nr.dtype",
    "dist": "(torch.dist(x, y), torch.dist(x, y, p=1), torch.dist(x, y, 0), "
            "torch.dist(x, y, float('inf')), torch.dist(x, y, 3))",
    "repeat_interleave": "(torch.repeat_interleave(torch.tensor([1, 2]), 2), "
                         "torch.repeat_interleave(x, torch.tensor([1, 0, 2]), dim=0))",
    "dtype": "(isinstance(torch.float32, torch.dtype), torch.float32.is_floating_point, "
             "torch.int64.is_floating_point, torch.complex64.is_complex, torch.float16.itemsize)",
    "set_default_device": "torch.set_default_device('cpu'); r = torch.ones(2).device; "
                          "torch.set_default_device(None); r",
    "vmap": "torch.vmap(torch.dot)(x, y)",
    "digamma": "(torch.digamma(x.abs() + 0.5), torch.digamma(torch.tensor([0.0, -1.0, 1.0, "
               "-0.5, 30.0])), torch.digamma(torch.tensor([1.5], dtype=torch.float64)))",
    "lgamma": "(torch.lgamma(x), torch.lgamma(torch.tensor([0.0, -1.0, 1.0, -0.5, 30.0, 2.5])),"
              " _fg(torch.lgamma, xg))",
    "set_float32_matmul_precision": "torch.set_float32_matmul_precision('high'); "
                                    "r = torch.get_float32_matmul_precision(); "
                                    "torch.set_float32_matmul_precision('highest'); r",
    "set_grad_enabled": "with torch.set_grad_enabled(False):\n    r = xg * 2\n"
                        "torch.set_grad_enabled(False); s = torch.is_grad_enabled(); "
                        "torch.set_grad_enabled(True); (r.requires_grad, s)",
    "finfo": "f = torch.finfo(torch.float32); (f.eps, f.max, f.min, f.tiny, f.bits, "
             "f.resolution, torch.finfo(torch.float16).max, torch.finfo().eps, "
             "torch.finfo(torch.float64).eps, torch.iinfo(torch.int32).max, "
             "torch.iinfo(torch.uint8).min, torch.iinfo(torch.int64).bits)",
    "histc": "(torch.histc(x, bins=4, min=-2, max=2), torch.histc(x), "
             "torch.histc(torch.tensor([1.0, 2, 1]), bins=4, min=0, max=3))",
    "histogram": "(torch.histogram(x, bins=4), torch.histogram(x, bins=3, range=(-1.0, 1.0)), "
                 "torch.histogram(x, torch.tensor([-2.0, 0.0, 0.5, 2.0])))",
    "bincount": "(torch.bincount(torch.tensor([0, 1, 1, 3])), torch.bincount(torch.tensor([0, 1,"
                " 1]), weights=torch.tensor([0.5, 1.0, 2.0]), minlength=4))",
    "cdist": "(torch.cdist(x, y), torch.cdist(x, y, p=1), torch.cdist(img, img), "
             "_fg(torch.cdist, xg, y))",
    "is_grad_enabled": "torch.is_grad_enabled()",
    "jagged": "str(torch.jagged)",
    "channels_last": "(torch.channels_last, img.contiguous(memory_format=torch.channels_last)"
                     ".stride(), img.is_contiguous(memory_format=torch.channels_last))",
    "preserve_format": "(torch.preserve_format, x.t().clone(memory_format=torch.preserve_format)"
                       ".stride())",
    "contiguous_format": "(torch.contiguous_format, x.t().contiguous(memory_format="
                         "torch.contiguous_format).stride())",
    "meshgrid": "(torch.meshgrid(torch.arange(2), torch.arange(3), indexing='ij'), "
                "torch.meshgrid(torch.arange(2), torch.arange(3), indexing='xy'))",
    "svd": "U, S, V = torch.svd(sq); (S, torch.allclose(U @ torch.diag(S) @ V.T, sq, "
           "atol=1e-5))",
    "set_num_threads": "n = torch.get_num_threads(); torch.set_num_threads(1); "
                       "r = torch.get_num_threads(); torch.set_num_threads(n); r",
    "get_num_threads": "isinstance(torch.get_num_threads(), int)",
    "_amp_foreach_non_finite_check_and_unscale_":
        "g = [torch.tensor([2.0, 4.0])]; f = torch.zeros(1); "
        "torch._amp_foreach_non_finite_check_and_unscale_(g, f, torch.tensor(0.5)); (g, f)",
    "div": "(torch.div(x, y), torch.div(x, 2, rounding_mode='trunc'))",
    "enable_grad": "with torch.no_grad():\n    with torch.enable_grad():\n        r = xg * 2\n"
                   "r.requires_grad",
    "get_default_dtype": "torch.get_default_dtype()",
    "sin_": "a = x.clone(); r = torch.sin_(a); (a, r is a)",
    "std": "(torch.std(x), torch.std(x, 1))",
    "prod": "(torch.prod(x), torch.prod(x, 1))",
    "use_deterministic_algorithms": "torch.use_deterministic_algorithms(True); "
                                    "r = torch.are_deterministic_algorithms_enabled(); "
                                    "torch.use_deterministic_algorithms(False); r",
    "matrix_exp": "(torch.matrix_exp(sq * 0.5), torch.matrix_exp(torch.zeros(2, 2)), "
                  "_fg(torch.matrix_exp, (sq * 0.5).requires_grad_()))",
    "view_as_complex": "r = torch.randn(3, 2); c = torch.view_as_complex(r); "
                       "(c, torch.view_as_real(c))",
    "polar": "(torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0])), "
             "torch.polar(torch.tensor([1.0], dtype=torch.float64), "
             "torch.tensor([2.0], dtype=torch.float64)))",
    "cuda.is_available": "torch.cuda.is_available()",
    "cuda.synchronize": "torch.cuda.synchronize()",
    "cuda.max_memory_allocated": "torch.cuda.max_memory_allocated()",
    "cuda.memory_allocated": "torch.cuda.memory_allocated()",
    "cuda.memory_reserved": "torch.cuda.memory_reserved()",
    "cuda.reset_peak_memory_stats": "torch.cuda.reset_peak_memory_stats()",
    "cuda.reset_max_memory_allocated": "torch.cuda.reset_max_memory_allocated()",
    "cuda.Event": "torch.cuda.Event(enable_timing=True)",
    "cuda.empty_cache": "torch.cuda.empty_cache()",
    "cuda.set_device": "torch.cuda.set_device(0)",
    "cuda.manual_seed": "torch.cuda.manual_seed(1); torch.rand(2)",
    "cuda.manual_seed_all": "torch.cuda.manual_seed_all(1); torch.rand(2)",
    "cuda.device_count": "torch.cuda.device_count()",
    "cuda.current_device": "torch.cuda.current_device()",
    "cuda.get_device_name": "torch.cuda.get_device_name()",
    "cuda.get_device_capability": "torch.cuda.get_device_capability()",
    "cuda.Stream": "torch.cuda.Stream()",
    "cuda.current_stream": "torch.cuda.current_stream()",
    "cuda.is_bf16_supported": "torch.cuda.is_bf16_supported()",
    "cuda.memory_summary": "torch.cuda.memory_summary()",
    "cuda.amp.autocast": "with torch.cuda.amp.autocast():\n    r = x @ w\nr.dtype",
    "cuda.amp.GradScaler": "s = torch.cuda.amp.GradScaler(); (s.is_enabled(), s.get_scale())",
    "amp.GradScaler": "s = torch.amp.GradScaler('cpu'); (s.is_enabled(), s.get_scale())",
    "amp.autocast": "with torch.amp.autocast('cpu', dtype=torch.bfloat16):\n    r = x @ w\n"
                    "r.dtype",
    "version.cuda": "torch.version.cuda",
    "backends.mps.is_available": "torch.backends.mps.is_available()",
    "backends.cudnn.deterministic": "torch.backends.cudnn.deterministic",
    "backends.cudnn.benchmark": "torch.backends.cudnn.benchmark",
    "backends.cudnn.enabled": "torch.backends.cudnn.enabled",
    "backends.cudnn.allow_tf32": "torch.backends.cudnn.allow_tf32",
    "backends.cudnn.version": "torch.backends.cudnn.version()",
    "backends.cudnn.is_available": "torch.backends.cudnn.is_available()",
    "backends.cudnn.flags": "with torch.backends.cudnn.flags(enabled=False):\n"
                            "    r = torch.backends.cudnn.enabled\n"
                            "(r, torch.backends.cudnn.enabled)",
    "backends.cuda.matmul": "torch.backends.cuda.matmul.allow_tf32",
    "accelerator.current_accelerator": "torch.accelerator.current_accelerator()",
    "accelerator.is_available": "torch.accelerator.is_available()",
    "accelerator.device_count": "torch.accelerator.device_count()",
    "accelerator.set_device_index": "torch.accelerator.set_device_index(0)",
    "testing.assert_close":
        "torch.testing.assert_close(x, x + 1e-7)\n"
        "try:\n    torch.testing.assert_close(x, y)\n"
        "except AssertionError as e:\n    r = str(e).splitlines()[0]\n"
        "try:\n    torch.testing.assert_close(i, i.float())\n"
        "except AssertionError as e:\n    s = str(e).splitlines()[0]\n(r, s)",
    "testing.assert_allclose": "torch.testing.assert_allclose(x, x.clone())",
    "autograd.Variable": "a = torch.autograd.Variable(x, requires_grad=True); "
                         "(a * 2).sum().backward(); a.grad",
    "autograd.Function":
        "class Sq(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, a):\n"
        "        ctx.save_for_backward(a)\n        return a * a\n"
        "    @staticmethod\n    def backward(ctx, g):\n"
        "        a, = ctx.saved_tensors\n        return 2 * a * g\n"
        "a = x.clone().requires_grad_(); r = Sq.apply(a); r.sum().backward(); (r, a.grad)",
    "autograd.grad": "a = x.clone().requires_grad_(); torch.autograd.grad((a ** 3).sum(), a)",
    "autograd.gradcheck": "torch.autograd.gradcheck(torch.sin, "
                          "(torch.randn(3, dtype=torch.float64, requires_grad=True),))",
    "autograd.function.once_differentiable":
        "class Sq(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, a):\n"
        "        ctx.save_for_backward(a)\n        return a * a\n"
        "    @staticmethod\n    @torch.autograd.function.once_differentiable\n"
        "    def backward(ctx, g):\n"
        "        a, = ctx.saved_tensors\n        return 2 * a * g\n"
        "a = x.clone().requires_grad_(); r = Sq.apply(a); r.sum().backward(); (r, a.grad)",
    "autograd.functional.jacobian": "torch.autograd.functional.jacobian(torch.sin, v)",
    "autograd.functional.vjp": "torch.autograd.functional.vjp(torch.sin, v, torch.ones(4))",
    "autograd.graph.saved_tensors_hooks":
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 2, lambda t: t):\n"
        "    r = (xg * xg).sum()\nr.backward(); xg.grad",
    "autograd.graph.save_on_cpu": "with torch.autograd.graph.save_on_cpu():\n"
                                  "    r = (xg * xg).sum()\nr.backward(); xg.grad",
    "autograd.profiler.profile":
        "with torch.autograd.profiler.profile() as p:\n    x.relu()\n"
        "'aten::relu' in {e.key for e in p.key_averages()}",
    "autograd.profiler.record_function":
        "with torch.autograd.profiler.profile() as p:\n"
        "    with torch.autograd.profiler.record_function('block'):\n        x.relu()\n"
        "'block' in {e.key for e in p.key_averages()}",
    "profiler.profile":
        "with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as p:\n"
        "    x.relu()\n'aten::relu' in {e.key for e in p.key_averages()}",
    "profiler.record_function":
        "with torch.profiler.profile() as p:\n"
        "    with torch.profiler.record_function('block'):\n        x.relu()\n"
        "'block' in {e.key for e in p.key_averages()}",
    "profiler.ProfilerActivity": "str(torch.profiler.ProfilerActivity.CPU)",
    "profiler.schedule": "s = torch.profiler.schedule(wait=1, warmup=1, active=2); "
                         "[str(s(k)) for k in range(5)]",
    "autograd.forward_ad.dual_level":
        "fwad = torch.autograd.forward_ad\nwith fwad.dual_level():\n"
        "    r = fwad.unpack_dual(fwad.make_dual(v, torch.ones(4)).sin())\n"
        "(r.primal, r.tangent)",
    "utils.benchmark.Timer": "t = torch.utils.benchmark.Timer(stmt='a + a', globals={'a': x});"
                             " m = t.timeit(3); (m.number_per_run, len(m.times), m.mean > 0)",
    "utils.benchmark.Compare": "type(torch.utils.benchmark.Compare([])).__name__",
    "func.vmap": "(torch.func.vmap(lambda a: a.sum())(x), torch.func.vmap(torch.mv, (None, 0))"
                 "(x, w.T))",
    "func.grad": "torch.func.grad(lambda a: (a ** 2).sum())(v)",
    "func.jacrev": "torch.func.jacrev(torch.sin)(v)",
    "func.jacfwd": "torch.func.jacfwd(torch.sin)(v)",
    "func.hessian": "torch.func.hessian(lambda a: (a ** 3).sum())(v)",
    "func.vjp": "out, fn = torch.func.vjp(torch.sin, v); (out, fn(torch.ones(4)))",
    "func.jvp": "torch.func.jvp(torch.sin, (v,), (torch.ones(4),))",
    "func.functional_call": "m = torch.nn.Linear(4, 2); torch.func.functional_call(m, "
                            "{'weight': torch.ones(2, 4), 'bias': torch.zeros(2)}, (x,))",
    "func.stack_module_state": "p, bu = torch.func.stack_module_state([torch.nn.Linear(4, 2), "
                               "torch.nn.Linear(4, 2)]); p",
    "distributions.Categorical":
        "d = torch.distributions.Categorical(probs=torch.tensor([0.2, 0.3, 0.5])); "
        "(d.sample((5,)), d.log_prob(torch.tensor(1)), d.entropy())",
    "distributions.MultivariateNormal":
        "d = torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2)); "
        "(d.sample(), d.log_prob(torch.ones(2)), d.entropy())",
    "distributions.multinomial.Multinomial":
        "d = torch.distributions.multinomial.Multinomial(5, torch.tensor([0.2, 0.8])); "
        "(d.sample(), d.log_prob(torch.tensor([1.0, 4.0])))",
    "distributions.binomial.Binomial":
        "d = torch.distributions.binomial.Binomial(5, torch.tensor([0.3])); "
        "(d.sample(), d.log_prob(torch.tensor([2.0])))",
    "distributions.poisson.Poisson":
        "d = torch.distributions.poisson.Poisson(torch.tensor([2.0])); "
        "(d.sample(), d.log_prob(torch.tensor([1.0])))",
    # spawn starts a fresh interpreter (seconds): its signature, and the shared machinery
    "multiprocessing.spawn": "import inspect\n(list(inspect.signature(torch.multiprocessing."
                             "spawn).parameters), torch.multiprocessing.start_processes("
                             "math.sqrt, nprocs=2, start_method='fork'))",
    "multiprocessing.Process": "p = torch.multiprocessing.Process(target=math.sqrt, args=(4,));"
                               " p.start(); p.join(); p.exitcode",
    "multiprocessing.set_start_method": "torch.multiprocessing.set_start_method('fork', "
                                        "force=True); torch.multiprocessing.get_start_method()",
    "multiprocessing.get_start_method": "torch.multiprocessing.get_start_method()",
    "serialization.safe_globals":
        "import fractions\nbuf = io.BytesIO(); torch.save({'f': fractions.Fraction(1, 3)}, buf)"
        "\nbuf.seek(0)\ntry:\n    torch.load(buf)\nexcept Exception as e:\n    err = e\n"
        "buf.seek(0)\nwith torch.serialization.safe_globals([fractions.Fraction]):\n"
        "    ok = torch.load(buf)\n(err, ok['f'] == fractions.Fraction(1, 3))",
    "utils.model_zoo.load_url":
        "d = tmpfile(); os.mkdir(d); p = os.path.join(d, 'w.pt'); torch.save({'a': x}, p)\n"
        "torch.utils.model_zoo.load_url('file://' + p, model_dir=os.path.join(d, 'hub'))",
    "utils.swap_tensors": "a = torch.ones(2); c = torch.zeros(3); torch.utils.swap_tensors(a, c);"
                          " (a, c)",
    "utils._triton.has_triton": "torch.utils._triton.has_triton()",
    "__future__.set_swap_module_params_on_conversion":
        "torch.__future__.set_swap_module_params_on_conversion(True); "
        "r = torch.__future__.get_swap_module_params_on_conversion(); "
        "torch.__future__.set_swap_module_params_on_conversion(False); "
        "(r, torch.__future__.get_swap_module_params_on_conversion())",
    "linalg.eig": "torch.linalg.eig(sq)",
    "linalg.eigvalsh": "torch.linalg.eigvalsh(sq @ sq.T)",
    "linalg.solve": "torch.linalg.solve(sq, x.T)",
    "fft.fft": "torch.fft.fft(v)",
    "futures.Future": "f = torch.futures.Future(); f.set_result(3); (f.done(), f.wait())",
    "futures.wait_all": "f = torch.futures.Future(); f.set_result(2); torch.futures.wait_all([f])",
    "_dynamo.reset": "torch._dynamo.reset()",
    "jit.ScriptModule": "class S(torch.jit.ScriptModule):\n"
                        "    def __init__(self):\n        super().__init__()\n"
                        "        self.l = torch.nn.Linear(4, 2)\n"
                        "    def forward(self, a):\n        return self.l(a)\n"
                        "s = S()\n(repr(s), s(x))",
    "jit.script": "m = torch.jit.script(torch.nn.Linear(4, 2)); (repr(m), m(x))",
    "jit.trace": "m = torch.jit.trace(torch.nn.Linear(4, 2), x); (repr(m), m(y))",
    "ops.aten.add": "(torch.ops.aten.add(x, y), torch.ops.aten.add.Tensor(x, y, alpha=2), "
                    "torch.ops.aten.add.Scalar(x, 2))",
    "ops.aten.add_": "a = x.clone(); torch.ops.aten.add_.Tensor(a, y); a",
    "ops.aten.neg": "(torch.ops.aten.neg(x), torch.ops.aten.neg.default(x))",
    "ops.aten.t": "torch.ops.aten.t.default(x)",
    "ops.aten.transpose": "torch.ops.aten.transpose.int(x, 0, 1)",
    "ops.aten.clone": "torch.ops.aten.clone.default(x)",
    "ops.aten.gelu": "(torch.ops.aten.gelu.default(x), torch.ops.aten.gelu(x, approximate='tanh'))",
    "ops.aten.maximum": "torch.ops.aten.maximum.default(x, y)",
    "distributed.init_process_group":
        "_dist(lambda: (torch.distributed.is_initialized(), torch.distributed.get_rank(), "
        "torch.distributed.get_world_size(), torch.distributed.get_backend()))",
    "distributed.all_reduce": "t = x.clone(); _dist(lambda: torch.distributed.all_reduce(t)); t",
    "distributed.broadcast": "t = x.clone(); _dist(lambda: torch.distributed.broadcast(t, 0)); t",
    "distributed.barrier": "_dist(torch.distributed.barrier)",
    "distributed.reduce_scatter":
        "t = torch.empty(4); _dist(lambda: torch.distributed.reduce_scatter(t, [v])); t",
    "distributed._tensor.Shard":
        "S = _tp(lambda m: torch.distributed._tensor.Shard); "
        "(str(S(0)), repr(S(-1)), S(1) == S(1), S(0) == S(1), S(0).is_shard(0))",
    "distributed._tensor.Replicate":
        "R = _tp(lambda m: torch.distributed._tensor.Replicate); "
        "(str(R()), repr(R()), R() == R(), R().is_replicate())",
    "distributed.tensor.Shard":
        "_tp(lambda m: torch.distributed.tensor.distribute_tensor("
        "x, m, [torch.distributed.tensor.Shard(1)]).to_local())",
    "distributed.tensor.distribute_tensor":
        "_tp(lambda m: (lambda d: (repr(d), d.placements, d.shape, d.full_tensor()))("
        "torch.distributed.tensor.distribute_tensor(x, m, [torch.distributed.tensor.Shard(0)])))",
    "distributed.tensor.DTensor":
        "_tp(lambda m: (lambda d: (str(d.placements), tuple(d.shape), (d * 2).sum().to_local(), "
        "(d @ d.t()).to_local(), d.redistribute(m, [torch.distributed.tensor.Replicate()])"
        ".to_local()))(torch.distributed.tensor.DTensor.from_local("
        "x, m, [torch.distributed.tensor.Shard(0)])))",
    "distributed.device_mesh.init_device_mesh":
        "_tp(lambda m: (repr(m), m.size(), m.get_local_rank(), m.get_coordinate(), "
        "m.mesh_dim_names, m['tp'].ndim))",
    "distributed._tensor.device_mesh.init_device_mesh":
        "import importlib; dm = importlib.import_module(torch.__name__ + "
        "'.distributed._tensor.device_mesh'); "
        "_tp(lambda m: repr(dm.init_device_mesh('cpu', (1,))))",
    "distributed.fsdp.fully_shard":
        "_fsdp2(lambda m, out, fsdp: (repr(m), out, [(n, type(p).__name__, str(p.placements), "
        "p.to_local(), p.grad.to_local()) for n, p in m.named_parameters()]))",
    "distributed.fsdp.FSDPModule":
        "_fsdp2(lambda m, out, fsdp: (isinstance(m[0], fsdp.FSDPModule), "
        "type(m).__mro__[1].__name__, m.unshard(), [type(p).__name__ for p in m.parameters()], "
        "m.reshard(), [type(p).__name__ for p in m.parameters()], "
        "m.set_requires_gradient_sync(False), m.set_reshard_after_forward(True), "
        "m(x).sum().backward(), [p.grad.to_local() for p in m.parameters()]))",
    "distributed.fsdp.MixedPrecisionPolicy":
        "_fsdp2(lambda m, out, fsdp: (repr(fsdp.MixedPrecisionPolicy(torch.bfloat16)), out, "
        "[(p.dtype, p.grad.to_local()) for p in m.parameters()]), "
        "mp_policy=torch.distributed.fsdp.MixedPrecisionPolicy(param_dtype=torch.bfloat16))",
    "distributed.tensor.parallel.ColwiseParallel":
        "_tp_mlp([torch.distributed.tensor.parallel.ColwiseParallel(), "
        "torch.distributed.tensor.parallel.RowwiseParallel()])",
    "distributed.tensor.parallel.RowwiseParallel":
        "_tp_mlp([torch.distributed.tensor.parallel.ColwiseParallel(use_local_output=False), "
        "torch.distributed.tensor.parallel.RowwiseParallel(use_local_output=False)])",
    "distributed.tensor.parallel.parallelize_module":
        "_tp_mlp([torch.distributed.tensor.parallel.RowwiseParallel(input_layouts="
        "torch.distributed.tensor.Replicate()), "
        "torch.distributed.tensor.parallel.ColwiseParallel()])",
    "distributed.tensor.parallel.SequenceParallel":
        "_tp(lambda m: (lambda n: (repr(torch.distributed.tensor.parallel.SequenceParallel()), "
        "n(img).to_local()))(torch.distributed.tensor.parallel.parallelize_module("
        "torch.nn.LayerNorm(4), m, torch.distributed.tensor.parallel.SequenceParallel())))",
    "distributed.tensor.parallel.PrepareModuleInput":
        "_tp(lambda m: torch.distributed.tensor.parallel.parallelize_module("
        "torch.nn.Identity(), m, torch.distributed.tensor.parallel.PrepareModuleInput("
        "input_layouts=torch.distributed.tensor.Shard(0), "
        "desired_input_layouts=torch.distributed.tensor.Replicate()))(x).placements)",
    "distributed.is_initialized": "torch.distributed.is_initialized()",
    "distributed.ReduceOp": "str(torch.distributed.ReduceOp.SUM)",
    "distributed.get_default_backend_for_device":
        "torch.distributed.get_default_backend_for_device('cpu')",
    "distributed.is_nccl_available": "torch.distributed.is_nccl_available()",
    "distributed.is_mpi_available": "torch.distributed.is_mpi_available()",
    "distributed.rpc.init_rpc":
        "_rpc(lambda: (repr(torch.distributed.rpc.get_worker_info()), "
        "torch.distributed.rpc.get_worker_info('worker0').id))",
    "distributed.fsdp.FullyShardedDataParallel":
        "def body():\n"
        "    torch.manual_seed(0)\n"
        "    f = torch.distributed.fsdp.FullyShardedDataParallel(\n"
        "        torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Linear(3, 2)),\n"
        "        device_id=torch.device('cpu'), use_orig_params=True)\n"
        "    r = f(x); r.sum().backward()\n"
        "    named = [(n, p.shape, p.grad) for n, p in f.named_parameters()]\n"
        "    return r, named, list(f.state_dict())\n"
        "_dist(body)",
    "distributed.fsdp.fully_sharded_data_parallel.StateDictType":
        "[str(k) for k in torch.distributed.fsdp.fully_sharded_data_parallel.StateDictType]",
    "distributed.fsdp.StateDictType": "[str(k) for k in torch.distributed.fsdp.StateDictType]",
    "distributed.fsdp.ShardingStrategy":
        "[str(k) for k in torch.distributed.fsdp.ShardingStrategy]",
    "distributed.fsdp.MixedPrecision":
        "m = torch.distributed.fsdp.MixedPrecision(param_dtype=torch.bfloat16)\n"
        "(m.param_dtype, m.reduce_dtype, m.buffer_dtype, m.keep_low_precision_grads, "
        "m.cast_forward_inputs, m.cast_root_forward_inputs)",
    "distributed.fsdp.FullStateDictConfig":
        "repr(torch.distributed.fsdp.FullStateDictConfig(offload_to_cpu=True, rank0_only=True))",
    "distributed.fsdp.wrap.size_based_auto_wrap_policy":
        "p = torch.distributed.fsdp.wrap.size_based_auto_wrap_policy\n"
        "m = torch.nn.Linear(4, 2)\n"
        "[p(m, r, n, min_num_params=10) for r in (True, False) for n in (5, 10)]",
    "distributed.fsdp.wrap.transformer_auto_wrap_policy":
        "p = torch.distributed.fsdp.wrap.transformer_auto_wrap_policy\n"
        "[p(m, r, 0, transformer_layer_cls={torch.nn.Linear}) for m in (torch.nn.Linear(2, 2), "
        "torch.nn.ReLU()) for r in (True, False)]",
    "distributed.checkpoint.state_dict.StateDictOptions":
        "repr(torch.distributed.checkpoint.state_dict.StateDictOptions(full_state_dict=True))",
    "distributed.checkpoint.state_dict.get_model_state_dict":
        "torch.manual_seed(0); m = torch.nn.Sequential(torch.nn.Linear(4, 2))\n"
        "torch.distributed.checkpoint.state_dict.get_model_state_dict(m)",
    "distributed.checkpoint.state_dict.set_model_state_dict":
        "m = torch.nn.Linear(4, 2)\n"
        "r = torch.distributed.checkpoint.state_dict.set_model_state_dict(m, "
        "{'weight': w.T[:2], 'bias': v[:2]})\n"
        "(repr(r), m.weight, m.bias)",
    "distributed.checkpoint.state_dict.get_optimizer_state_dict":
        "torch.manual_seed(0); m = torch.nn.Linear(4, 2)\n"
        "o = torch.optim.Adam(m.parameters(), lr=0.1); m(x).sum().backward(); o.step()\n"
        "torch.distributed.checkpoint.state_dict.get_optimizer_state_dict(m, o)",
    "distributed.checkpoint.state_dict.set_optimizer_state_dict":
        "torch.manual_seed(0); m = torch.nn.Linear(4, 2)\n"
        "o = torch.optim.Adam(m.parameters(), lr=0.1); m(x).sum().backward(); o.step()\n"
        "sd = torch.distributed.checkpoint.state_dict.get_optimizer_state_dict(m, o)\n"
        "o2 = torch.optim.Adam(m.parameters(), lr=0.5)\n"
        "torch.distributed.checkpoint.state_dict.set_optimizer_state_dict(m, o2, sd)\n"
        "o2.state_dict()",
    "distributed.checkpoint.save_state_dict":
        "import tempfile; d = tempfile.mkdtemp(); dcp = torch.distributed.checkpoint\n"
        "dcp.save_state_dict({'a': x, 'n': 3}, dcp.FileSystemWriter(d), no_dist=True)\n"
        "t = {'a': torch.zeros(3, 4), 'n': 0}\n"
        "dcp.load_state_dict(t, dcp.FileSystemReader(d), no_dist=True); (t, sorted(os.listdir(d)))",
    "distributed.checkpoint.load_state_dict":
        "import tempfile; d = tempfile.mkdtemp(); dcp = torch.distributed.checkpoint\n"
        "dcp.save({'m': {'w': w}, 'l': [v]}, checkpoint_id=d, no_dist=True)\n"
        "t = {'m': {'w': torch.zeros(4, 5)}, 'l': [torch.zeros(4)]}\n"
        "dcp.load_state_dict(t, dcp.FileSystemReader(d), no_dist=True); t",
    "distributed.checkpoint.FileSystemWriter":
        "import tempfile; d = tempfile.mkdtemp(); dcp = torch.distributed.checkpoint\n"
        "m = dcp.save({'a': x}, storage_writer=dcp.FileSystemWriter(d), no_dist=True)\n"
        "(sorted(os.listdir(d)), list(m.state_dict_metadata), m.state_dict_metadata['a'].size)",
    "distributed.checkpoint.FileSystemReader":
        "import tempfile; d = tempfile.mkdtemp(); dcp = torch.distributed.checkpoint\n"
        "dcp.save({'a': x}, checkpoint_id=d, no_dist=True)\n"
        "md = dcp.FileSystemReader(d).read_metadata().state_dict_metadata['a']\n"
        "(md.size, [(c.offsets, c.sizes) for c in md.chunks], md.properties.dtype)",
    "distributed.checkpoint.default_planner.DefaultSavePlanner":
        "import tempfile; d = tempfile.mkdtemp(); dcp = torch.distributed.checkpoint\n"
        "dcp.save({'m': {'a': x}}, checkpoint_id=d, no_dist=True,\n"
        "         planner=dcp.default_planner.DefaultSavePlanner())\n"
        "t = {'m': {'a': torch.zeros(3, 4)}}\n"
        "dcp.load(t, checkpoint_id=d, no_dist=True,\n"
        "         planner=dcp.default_planner.DefaultLoadPlanner()); t",
    "distributed.algorithms._checkpoint.checkpoint_wrapper.checkpoint_wrapper":
        "ck = torch.distributed.algorithms._checkpoint.checkpoint_wrapper\n"
        "torch.manual_seed(0); m = ck.checkpoint_wrapper(torch.nn.Linear(4, 2))\n"
        "a = xg.clone(); r = m(a); r.sum().backward()\n"
        "(r, m.weight.grad, list(m.state_dict()), [n for n, _ in m.named_parameters()], repr(m))",
    "distributed.algorithms._checkpoint.checkpoint_wrapper.CheckpointImpl":
        "[str(k) for k in "
        "torch.distributed.algorithms._checkpoint.checkpoint_wrapper.CheckpointImpl]",
    "distributed.algorithms._checkpoint.checkpoint_wrapper.apply_activation_checkpointing":
        "ck = torch.distributed.algorithms._checkpoint.checkpoint_wrapper\n"
        "torch.manual_seed(0)\n"
        "m = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))\n"
        "ck.apply_activation_checkpointing(m, check_fn=lambda l: isinstance(l, torch.nn.Linear))\n"
        "r = m(x); r.sum().backward()\n"
        "(r, [p.grad for p in m.parameters()], list(m.state_dict()), repr(m))",
    "distributed.rpc.rpc_sync":
        "_rpc(lambda: torch.distributed.rpc.rpc_sync('worker0', torch.add, args=(x, 1)))",
    "distributed.rpc.rpc_async":
        "_rpc(lambda: torch.distributed.rpc.rpc_async(0, torch.mul, args=(x, y)).wait())",
    "distributed.rpc.remote":
        "_rpc(lambda: torch.distributed.rpc.remote('worker0', torch.mul, args=(x, 2)).to_here())",
    "distributed.rpc.RRef":
        "_rpc(lambda: (lambda r: (r.local_value(), r.is_owner(), r.owner_name(), repr(r)))("
        "torch.distributed.rpc.RRef(x)))",
    "distributed.rpc.TensorPipeRpcBackendOptions":
        "o = torch.distributed.rpc.TensorPipeRpcBackendOptions(num_worker_threads=4, "
        "rpc_timeout=20); (o.num_worker_threads, o.rpc_timeout, o.init_method)",
    "distributed.autograd.context":
        "_rpc_grad(lambda a: torch.distributed.rpc.rpc_sync('worker0', torch.mul, "
        "args=(a, a)))",
    "distributed.optim.DistributedOptimizer": "_import('distributed.optim'); _rpc(_rpc_opt)",
    "distributed.rpc.functions.async_execution":
        "f = torch.distributed.rpc.functions.async_execution(torch.add); "
        "(f(x, y), f.__name__, hasattr(f, '_wrapped_async_rpc_function'))",
    "distributed.nn.RemoteModule":
        "_import('distributed.nn'); torch.manual_seed(0); "
        "_rpc(lambda: torch.distributed.nn.RemoteModule("
        "'worker0/cpu', torch.nn.Linear, args=(4, 2))(x))",
}
for _n in ("shutdown", "get_worker_info"):
    TORCH[f"distributed.rpc.{_n}"] = TORCH["distributed.rpc.init_rpc"]
for _n in ("backward", "get_gradients"):
    TORCH[f"distributed.autograd.{_n}"] = TORCH["distributed.autograd.context"]
for _n in ("destroy_process_group", "get_rank", "get_world_size", "get_backend"):
    TORCH[f"distributed.{_n}"] = TORCH["distributed.init_process_group"]
for _n in ("make_dual", "unpack_dual"):
    TORCH[f"autograd.forward_ad.{_n}"] = TORCH["autograd.forward_ad.dual_level"]

# names that had no smoke call: what a CPU-only torch answers, errors included
TORCH.update({
    "_logging.set_logs":
        "import logging\ntorch._logging.set_logs(dynamo=logging.INFO, graph_breaks=True)\n"
        "torch._logging.set_logs()\ntry:\n    torch._logging.set_logs(bogus=True)\n"
        "except TypeError as e:\n    r = str(e)\nr",
    "jit.load": "m = torch.jit.script(torch.nn.Linear(4, 2)); p = tmpfile(); torch.jit.save(m, p);"
                " torch.jit.load(p)(x)",
    "jit.freeze": "torch.jit.freeze(torch.jit.script(torch.nn.Linear(4, 2).eval()))(x)",
    "jit.export": "class M(torch.nn.Module):\n    def forward(self, a):\n        return a * 2\n"
                  "    @torch.jit.export\n    def twice(self, a):\n        return a * 4\n"
                  "M().twice(x)",
    "fx.symbolic_trace": "gm = torch.fx.symbolic_trace(torch.nn.Sequential(torch.nn.Linear(4, 2),"
                         " torch.nn.ReLU())); (gm.code, str(gm.graph), str(gm), gm(x))",
    "fx.GraphModule": "g = torch.fx.Graph(); a = g.placeholder('a'); "
                      "g.output(g.call_function(torch.add, (a, g.get_attr('p'))));"
                      " gm = torch.fx.GraphModule({'p': torch.ones(4)}, g); (gm.code, gm(x))",
    "fx.Node": "gm = torch.fx.symbolic_trace(lambda a: torch.relu(a).sum(1) + 1)\n"
               "[(n.op, n.name, str(n.args), n.format_node(), isinstance(n, torch.fx.Node))"
               " for n in gm.graph.nodes]",
    "fx.Proxy": "g = torch.fx.Graph(); p = torch.fx.Proxy(g.placeholder('a'))\n"
                "g.output(((p * 2)[0] + p.mean(dim=1)).node); str(g)",
    "fx.Graph": "g = torch.fx.Graph(); a = g.placeholder('a'); r = g.call_method('relu', (a,)); "
                "g.output(g.call_function(torch.cat, ([a, r],), {'dim': 1})); g.lint(); "
                "(str(g), g.python_code('self').src)",
    "fx.node.map_arg": "g = torch.fx.Graph(); a = g.placeholder('a'); "
                       "torch.fx.node.map_arg((a, [a, {'k': a}], 3), lambda n: n.name)",
    "fx.Tracer": "class B(torch.nn.Module):\n    def forward(self, a):\n"
                 "        return torch.relu(a) * 2\n"
                 "class T(torch.fx.Tracer):\n    def is_leaf_module(self, m, name):\n"
                 "        return isinstance(m, B) or super().is_leaf_module(m, name)\n"
                 "m = torch.nn.Sequential(B(), torch.nn.Linear(4, 2), torch.nn.Sequential(B()))\n"
                 "(str(T().trace(m)), str(torch.fx.Tracer().trace(m)))",
    "fx.proxy.GraphAppendingTracer": "g = torch.fx.Graph(); "
                                     "t = torch.fx.proxy.GraphAppendingTracer(g); "
                                     "p = torch.fx.Proxy(g.placeholder('a'), t); "
                                     "g.output((p.abs() - 1).node); str(g)",
    "fx.wrap": "def clip(a):\n    return a.clamp(0, 1)\ntorch.fx.wrap('clip')\n"
               "gm = torch.fx.symbolic_trace(lambda a: clip(a) * 2); (gm.code, gm(x))",
    "fx.experimental.optimization.fuse":
        "m = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 1), torch.nn.BatchNorm2d(3)); "
        "m(img); m.eval(); f = _import('fx.experimental.optimization').fuse(m); "
        "(f.code, f(img))",
    "fx.replace_pattern": "gm = torch.fx.symbolic_trace(lambda a, b: torch.add(a, b).relu() * 2)\n"
                          "m = torch.fx.replace_pattern(gm, lambda a, b: torch.add(a, b).relu(), "
                          "lambda a, b: torch.sub(a, b).sigmoid())\n"
                          "(gm.code, str(gm.graph), len(m), str(m[0].anchor), gm(x, x))",
    "fx.Interpreter": "torch.fx.Interpreter(torch.fx.symbolic_trace(torch.nn.Linear(4, 2)))"
                      ".run(x)",
    "export.export": "m = torch.nn.Sequential(torch.nn.Linear(4, 2), torch.nn.ReLU())\n"
                     "ep = torch.export.export(m, (x,))\n"
                     "(ep.graph_module.code, str(ep.graph), str(ep.graph_signature),"
                     " ep.module()(x), str(ep.run_decompositions().graph))",
    "library.Library": "lib = torch.library.Library('smokelib', 'FRAGMENT')\n"
                       "lib.define('scale(Tensor x, float a=2.0) -> Tensor')\n"
                       "lib.impl('scale', lambda t, a=2.0: t * a, 'CPU')\n"
                       "(repr(lib), torch.ops.smokelib.scale(x), torch.ops.smokelib.scale(x, 3.0),"
                       " str(torch.ops.smokelib.scale.default._schema))",
    "library.impl": "torch.library.define('smokeimpl::neg', '(Tensor x) -> Tensor')\n"
                    "torch.library.impl('smokeimpl::neg', 'cpu')(lambda t: -t)\n"
                    "torch.ops.smokeimpl.neg(x)",
    "library.impl_abstract": "torch.library.define('smokeabs::f', '(Tensor x) -> Tensor')\n"
                             "torch.library.impl_abstract('smokeabs::f')(lambda t: t)\n"
                             "torch.library.impl('smokeabs::f', 'cpu')(lambda t: t + 1)\n"
                             "torch.ops.smokeabs.f(x)",
    "library.get_ctx": "torch.library.get_ctx()",
    "library.custom_op": "@torch.library.custom_op('smoke::twice', mutates_args=())\n"
                         "def twice(t: torch.Tensor) -> torch.Tensor:\n"
                         "    return t * 2\n"
                         "(twice(x), torch.ops.smoke.twice(x))",
    "export.Dim": "b = torch.export.Dim('batch', min=2, max=16)\n"
                  "ep = torch.export.export(torch.nn.Linear(4, 2), (x,),"
                  " dynamic_shapes={'input': {0: b}})\n"
                  "(repr(b), str(ep.graph), str(ep.range_constraints),"
                  " ep.module()(torch.ones(5, 4)))",
    "accelerator.device_index":
        "with torch.accelerator.device_index(None):\n    r = 1\ntry:\n"
        "    with torch.accelerator.device_index(0):\n        pass\n"
        "except RuntimeError as e:\n    r = (r, str(e))\nr",
    "cuda.stream": "with torch.cuda.stream(None):\n    r = x * 2\nr",
    "distributed.scatter": "t = torch.zeros(3, 4); _dist(lambda: torch.distributed.scatter(t, [x],"
                           " src=0)); t",
    "distributed.all_gather": "out = [torch.zeros(3, 4)]; _dist(lambda: torch.distributed."
                              "all_gather(out, x)); out",
    "utils.benchmark.Language": "L = _import('utils.benchmark').Language; (str(L.PYTHON), "
                                "list(L.__members__))",
    "cuda.memory._record_memory_history": "torch.cuda.memory._record_memory_history()",
    "cuda.memory._snapshot": "torch.cuda.memory._snapshot()",
    "cuda.nccl.version": "torch.cuda.nccl.version()",
    "backends.quantized.engine": "(torch.backends.quantized.engine, "
                                 "torch.backends.quantized.supported_engines)",
    "utils.benchmark.Measurement":
        "m = _import('utils.benchmark').Timer('a + a', globals={'a': x}).timeit(3)\n"
        "(type(m).__name__, m.number_per_run, len(m.times), m.mean > 0, m.task_spec.stmt)",
    "_dynamo.allow_in_graph": "torch._dynamo.allow_in_graph(math.sqrt)(4.0)",
    "_dynamo.config.suppress_errors": "torch._dynamo.config.suppress_errors",
    "profiler.tensorboard_trace_handler":
        "d = tmpfile(); h = torch.profiler.tensorboard_trace_handler(d)\n"
        "with torch.profiler.profile(on_trace_ready=h):\n    x.relu()\n"
        "[f.endswith('.pt.trace.json') for f in os.listdir(d)]",
})

# ----------------------------------------------------------------------------- the rarely used
TORCH.update({
    "library.register_fake":
        "@torch.library.custom_op('smokefake::rows', mutates_args=())\n"
        "def rows(t: torch.Tensor) -> torch.Tensor:\n    return t.sum(1)\n"
        "f = torch.library.register_fake('smokefake::rows')(lambda t: t.new_empty(t.shape[0]))\n"
        "(f(x).shape, torch.library.opcheck(rows, (x,)))",
    "library.opcheck":
        "@torch.library.custom_op('smokecheck::twice', mutates_args=())\n"
        "def twice(t: torch.Tensor) -> torch.Tensor:\n    t.mul_(1.5)\n    return t * 2\n"
        "r = torch.library.opcheck(twice, (xg,), raise_exception=False)\n"
        "[(k, v if isinstance(v, str) else (type(v).__name__, str(v))) for k, v in r.items()]",
    "ops.load_library": "try:\n    torch.ops.load_library('/nonexistent/libcustom_ops.so')\n"
                        "except OSError as e:\n    r = (str(e), type(e.__cause__).__name__)\n"
                        "(r, torch.ops.loaded_libraries)",
    "classes.load_library": "try:\n    torch.classes.load_library('/nonexistent/libcls.so')\n"
                            "except OSError as e:\n    r = str(e)\n"
                            "try:\n    torch.classes.smokens.Stack\nexcept RuntimeError as e:\n"
                            "    r = (r, str(e))\nr",
    "classes.loaded_libraries": "(torch.classes.loaded_libraries,"
                                " torch.classes.loaded_libraries is torch.ops.loaded_libraries)",
    "_inductor.config.force_fuse_int_mm_with_mul":
        "c = torch._inductor.config\nwith c.patch(force_fuse_int_mm_with_mul=True):\n"
        "    r = c.force_fuse_int_mm_with_mul\n(r, c.force_fuse_int_mm_with_mul)",
    "_inductor.config.coordinate_descent_tuning":
        "c = torch._inductor.config; c.coordinate_descent_tuning = True\n"
        "r = c.coordinate_descent_tuning; c.coordinate_descent_tuning = False; r",
    "_inductor.config.coordinate_descent_check_all_directions":
        "torch._inductor.config.coordinate_descent_check_all_directions",
    "_inductor.config.cpp": "c = torch._inductor.config.cpp\n"
                            "(type(c).__name__, c.threads, c.simdlen, c.min_chunk_size)",
    "_inductor.config.epilogue_fusion": "torch._inductor.config.epilogue_fusion",
    "_C.DisableTorchFunctionSubclass":
        "class S(torch.Tensor):\n    pass\ns = x.as_subclass(S)\n"
        "with torch._C.DisableTorchFunctionSubclass():\n    a = type(s + 1).__name__\n"
        "(a, type(s + 1).__name__, torch._C.DisableTorchFunctionSubclass)",
    "cuda.amp.grad_scaler.GradScaler":
        "G = torch.cuda.amp.grad_scaler.GradScaler; s = G()\n"
        "(G is torch.cuda.amp.GradScaler, s.is_enabled(), s.get_scale())",
    "fx.node.Target": "str(torch.fx.node.Target)",
    "distributed.checkpoint.state_dict._init_optim_state":
        "S = _import('distributed.checkpoint.state_dict'); m = torch.nn.Linear(4, 2)\n"
        "o = torch.optim.Adam(m.parameters(), lr=0.1); S._init_optim_state(o)\n"
        "(o.state_dict(), [p.grad for p in m.parameters()], list(m.parameters()))",
    "utils.mobile_optimizer.optimize_for_mobile":
        "mo = _import('utils.mobile_optimizer'); s = torch.jit.script(torch.nn.Linear(4, 2))\n"
        "try:\n    mo.optimize_for_mobile(s)\nexcept RuntimeError as e:\n    r = str(e)\n"
        "try:\n    mo.optimize_for_mobile(torch.nn.Linear(4, 2))\nexcept TypeError as e:\n"
        "    r = (r, type(e).__name__)\n(r, int(mo.MobileOptimizerType.REMOVE_DROPOUT))",
    "utils.cpp_extension.load_inline":
        "ce = _import('utils.cpp_extension'); path = os.environ['PATH']; os.environ['PATH'] = ''\n"
        "try:\n    ce.load_inline('smoke_ext', 'at::Tensor f(at::Tensor x) { return x; }',"
        " functions=['f'])\nexcept RuntimeError as e:\n    r = str(e)\n"
        "finally:\n    os.environ['PATH'] = path\nr",
    "sparse.to_sparse_semi_structured":
        "try:\n    torch.sparse.to_sparse_semi_structured(torch.randn(64, 64))\n"
        "except RuntimeError as e:\n    r = str(e)\nr",
    "sparse.SparseSemiStructuredTensor":
        "C = torch.sparse.SparseSemiStructuredTensor\n"
        "try:\n    torch.sparse.SparseSemiStructuredTensorCUTLASS.from_dense(torch.randn(64, 64))\n"
        "except RuntimeError as e:\n    r = str(e)\n"
        "(r, C._FORCE_CUTLASS, issubclass(C, torch.Tensor))",
    "ao.pruning.WeightNormSparsifier":
        "P = _import('ao.pruning'); m = torch.nn.Sequential(torch.nn.Linear(4, 6))\n"
        "sp = P.WeightNormSparsifier(sparsity_level=0.5, sparse_block_shape=(1, 2),"
        " zeros_per_block=2)\nsp.prepare(m, config=[{'tensor_fqn': '0.weight'}]); sp.step()\n"
        "r = (m[0].weight, m(x), repr(m)); sp.squash_mask(); (r, m[0].weight, repr(m))",
    "_dynamo.explain":
        "e = torch._dynamo.explain(lambda a, b: (a * 2 + torch.relu(b)).sum())(x, y)\n"
        "t = str(e)\n(type(e).__name__, e.graph_count, e.graph_break_count, e.op_count,"
        " [[f.__name__ for f in ops] for ops in e.ops_per_graph], t[:t.index('Ops per')])",
    "_dynamo.utils.same":
        "same = _import('_dynamo.utils').same; q = lambda *a: None\n"
        "(same(x, x + 1e-6), same(x, x + 1, log_error=q), same([x, {'a': y}], [x, {'a': y}]),"
        " same(x, x.double(), log_error=q), same(x, x + 1e-3, fp64_ref=x.double(), log_error=q),"
        " same(x, x * 1.01, cos_similarity=True), same(2, 2))",
    "ops.profiler._record_function_enter":
        "P = torch.ops.profiler\nwith torch.profiler.profile() as prof:\n"
        "    h = P._record_function_enter('blk')\n    r = x + 1\n    P._record_function_exit(h)\n"
        "[(e.name, e.cpu_parent and e.cpu_parent.name) for e in prof.events()"
        " if e.name in ('blk', 'aten::add')]",
    "ops.profiler._record_function_exit":
        "P = torch.ops.profiler\nwith torch.profiler.profile() as prof:\n"
        "    h = P._record_function_enter_new('blk', None)\n    r = x * 2\n"
        "    P._record_function_exit._RecordFunction(h)\n"
        "[(e.name, e.cpu_parent and e.cpu_parent.name) for e in prof.events()"
        " if e.name in ('blk', 'aten::mul')]",
    "utils.benchmark.Fuzzer":
        "B = _import('utils.benchmark')\n"
        "f = B.Fuzzer([B.FuzzedParameter('n', 2, 9, 'uniform'), B.FuzzedParameter('m', 2, 64, "
        "'loguniform')], [B.FuzzedTensor('a', ('n', 'm'), probability_contiguous=0.3)], seed=5)\n"
        "[(sorted(p.items()), t['a'], t['a'].stride(), q['a']['is_contiguous'])"
        " for t, q, p in f.take(3)]",
    "utils.benchmark.FuzzedParameter":
        "B = _import('utils.benchmark'); import numpy\n"
        "s = numpy.random.RandomState(3)\n"
        "ps = [B.FuzzedParameter('a', 1, 100, 'loguniform'), B.FuzzedParameter('b', 0.0, 1.0,"
        " 'uniform')]\n[(p.name, p.strict, p.sample(s)) for p in ps]",
    "utils.benchmark.FuzzedTensor":
        "B = _import('utils.benchmark')\n"
        "f = B.Fuzzer([B.FuzzedParameter('k', 2, 6, 'uniform')], [B.FuzzedTensor('t', ('k', 3),"
        " steps=(1, 2), dtype=torch.int64)], seed=1)\n"
        "[(t['t'], q['t']['steps'], q['t']['numel']) for t, q, p in f.take(2)]",
    "utils.benchmark.op_fuzzers.binary.BinaryOpFuzzer":
        "try:\n    _import('utils.benchmark.op_fuzzers.binary').BinaryOpFuzzer(seed=0)\n"
        "except AssertionError as e:\n    r = str(e)\nr",
    "utils.benchmark.CallgrindStats":
        "B = _import('utils.benchmark'); import dataclasses\n"
        "c = B.FunctionCounts((B.FunctionCount(9, 'f'), B.FunctionCount(2, 'g')), False)\n"
        "([f.name for f in dataclasses.fields(B.CallgrindStats)], c.sum(), (c - c).sum())",
    "_decomp.get_decompositions":
        "D = _import('_decomp'); a = torch.ops.aten\n"
        "d = D.get_decompositions([a.addmm, a.gelu, a._softmax, a.silu, a.hardswish])\n"
        "(sorted(str(k) for k in d), d[a.addmm.default](torch.zeros(3, 5), x, w, alpha=2),"
        " d[a.gelu.default](x, approximate='tanh'), d[a._softmax.default](x, 1, False),"
        " d[a.silu.default](x.bfloat16()), d[a.hardswish.default](x))",
    "jit.script_method": "class M(torch.jit.ScriptModule):\n    def __init__(self):\n"
                         "        super().__init__()\n        self.l = torch.nn.Linear(4, 2)\n"
                         "    @torch.jit.script_method\n    def forward(self, a):\n"
                         "        return self.l(a).relu()\n"
                         "m = M(); (type(m).__name__, m(x))",
})

# ----------------------------------------------------------------------------- torch.nn
# class -> (constructor arguments, call arguments); the result is _mod(module, *args)
NN = {
    "Linear": ("4, 3", "xg"), "Conv2d": ("2, 3, 3, padding=1", "img"),
    "ReLU": ("", "xg"), "Dropout": ("0.5", "xg"), "Embedding": ("10, 3", "torch.tensor([[1, 2],"
                                                                     " [4, 9]])"),
    "CrossEntropyLoss": ("", "xg, torch.tensor([0, 3, 1])"),
    "BatchNorm2d": ("2", "img"), "LayerNorm": ("4", "xg"), "LazyLinear": ("3", "xg"),
    "ConvTranspose2d": ("2, 3, 3, stride=2", "img"), "MSELoss": ("", "xg, y"),
    "LeakyReLU": ("0.1", "xg"), "MaxPool2d": ("2", "img"), "Tanh": ("", "xg"),
    "Sigmoid": ("", "xg"), "LSTM": ("4, 5, batch_first=True", "torch.randn(2, 3, 4)"),
    "Conv1d": ("2, 3, 3", "torch.randn(1, 2, 8)"), "RMSNorm": ("4", "xg"),
    "GRU": ("4, 5", "torch.randn(3, 2, 4)"), "LazyConv2d": ("3, 3", "img"),
    "Flatten": ("", "img"), "GELU": ("", "xg"), "Softmax": ("dim=1", "xg"),
    "Dropout2d": ("0.5", "img"), "Identity": ("", "xg"), "InstanceNorm2d": ("2", "img"),
    "BatchNorm1d": ("4", "xg"), "NLLLoss": ("", "torch.log_softmax(xg, 1), torch.tensor([0, 3,"
                                                " 1])"),
    "BCELoss": ("", "xg.sigmoid(), torch.rand(3, 4)"), "GroupNorm": ("2, 4", "torch.randn(2, 4,"
                                                                          " 3)"),
    "AvgPool2d": ("2", "img"), "BCEWithLogitsLoss": ("", "xg, torch.rand(3, 4)"),
    "RNN": ("4, 5, num_layers=2", "torch.randn(3, 2, 4)"), "SiLU": ("", "xg"),
    "AdaptiveAvgPool2d": ("(2, 1)", "img"), "LazyBatchNorm2d": ("", "img"),
    "LogSoftmax": ("dim=1", "xg"), "EmbeddingBag": ("10, 3, mode='mean'",
                                                    "torch.tensor([[1, 2], [4, 9]])"),
    "KLDivLoss": ("reduction='batchmean'", "torch.log_softmax(xg, 1), torch.softmax(y, 1)"),
    "L1Loss": ("", "xg, y"), "LazyBatchNorm1d": ("", "xg"), "SmoothL1Loss": ("", "xg, y"),
    "Transformer": ("d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, "
                    "dim_feedforward=16, dropout=0.0",
                    "torch.randn(3, 2, 8), torch.randn(2, 2, 8)"),
    "ZeroPad2d": ("1", "img"), "ELU": ("", "xg"), "LSTMCell": ("4, 5", "xg"),
    "MultiheadAttention": ("4, 2, batch_first=True", "q[0], q[0], q[0]"),
    "PixelShuffle": ("2", "torch.randn(1, 8, 2, 2)"), "ReflectionPad2d": ("1", "img"),
    "Upsample": ("scale_factor=2, mode='nearest'", "img"),
    "AdaptiveAvgPool1d": ("2", "torch.randn(2, 3, 5)"), "AdaptiveMaxPool2d": ("2", "img"),
    "AvgPool1d": ("2", "torch.randn(2, 3, 5)"),
    "CosineEmbeddingLoss": ("", "xg, y, torch.tensor([1, -1, 1])"),
    "GRUCell": ("4, 5", "xg"), "PReLU": ("", "xg"), "ReplicationPad2d": ("1", "img"),
    "Softplus": ("", "xg"), "RNNCell": ("4, 5", "xg"),
    "TransformerEncoderLayer": ("8, 2, 16, dropout=0.0", "torch.randn(3, 2, 8)"),
}

NN_SNIPPETS = {
    "Module": "class Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
              "        self.fc = torch.nn.Linear(4, 2)\n    def forward(self, a):\n"
              "        return self.fc(a).relu()\n"
              "net = Net(); (_mod(net, xg), [n for n, _ in net.named_modules()])",
    "Sequential": "_mod(torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), "
                  "torch.nn.Linear(3, 2)), xg)",
    "Parameter": "p = torch.nn.Parameter(torch.ones(2)); (p, p.requires_grad, type(p).__name__,"
                 " repr(p), isinstance(p, torch.Tensor))",
    "ModuleList": "ml = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(2)]); "
                  "(len(ml), repr(ml), ml[1](x))",
    "ModuleDict": "md = torch.nn.ModuleDict({'a': torch.nn.Linear(4, 2), 'b': torch.nn.ReLU()});"
                  " (list(md.keys()), repr(md), md['a'](x))",
    "ParameterList": "pl = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(2)) for _ in "
                     "range(2)]); (len(pl), repr(pl), list(pl))",
    "DataParallel": "m = torch.nn.DataParallel(torch.nn.Linear(4, 2)); (m(x), repr(m), "
                    "type(m.module).__name__)",
    "parallel.DistributedDataParallel":
        "m = torch.nn.Linear(4, 2)\n"
        "def body():\n    d = torch.nn.parallel.DistributedDataParallel(m)\n"
        "    r = d(x); r.sum().backward()\n    return r, m.weight.grad\n_dist(body)",
    "attention.SDPBackend": "str(torch.nn.attention.SDPBackend.MATH)",
    "attention.sdpa_kernel": "with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend"
                             ".MATH):\n    r = F.scaled_dot_product_attention(q, q, q)\nr",
    "attention.bias.causal_lower_right":
        "b = torch.nn.attention.bias.causal_lower_right(2, 3)\n"
        "k = torch.ones(1, 3, 4) + torch.arange(4.)\n"
        "(repr(b), F.scaled_dot_product_attention(q[..., :2, :], k, k, attn_mask=b))",
    "attention.bias.causal_upper_left":
        "b = torch.nn.attention.bias.causal_upper_left(2, 3)\n"
        "k = torch.ones(1, 3, 4) + torch.arange(4.)\n"
        "(repr(b), F.scaled_dot_product_attention(q[..., :2, :], k, k, attn_mask=b))",
    "utils.clip_grad_norm_": "m = torch.nn.Linear(4, 2); m(x).sum().backward(); "
                             "n = torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5); "
                             "(n, m.weight.grad)",
    "utils.clip_grad_value_": "m = torch.nn.Linear(4, 2); m(x).sum().backward(); "
                              "torch.nn.utils.clip_grad_value_(m.parameters(), 0.5); "
                              "m.weight.grad",
    "utils.parametrize.register_parametrization":
        "class Sym(torch.nn.Module):\n    def forward(self, X):\n"
        "        return X.triu() + X.triu(1).T\n"
        "m = torch.nn.Linear(3, 3); P = torch.nn.utils.parametrize\n"
        "P.register_parametrization(m, 'weight', Sym())\n"
        "(m.weight, P.is_parametrized(m), m(torch.ones(1, 3)), "
        "sorted(n for n, _ in m.named_parameters()))",
    "utils.parametrize.remove_parametrizations":
        "class Sym(torch.nn.Module):\n    def forward(self, X):\n"
        "        return X.triu() + X.triu(1).T\n"
        "m = torch.nn.Linear(3, 3); P = torch.nn.utils.parametrize\n"
        "P.register_parametrization(m, 'weight', Sym())\n"
        "P.remove_parametrizations(m, 'weight'); (m.weight, P.is_parametrized(m))",
    "utils.parametrize.cached":
        "class Sym(torch.nn.Module):\n    def forward(self, X):\n"
        "        return X.triu() + X.triu(1).T\n"
        "m = torch.nn.Linear(3, 3); P = torch.nn.utils.parametrize\n"
        "P.register_parametrization(m, 'weight', Sym())\n"
        "with P.cached():\n    r = m.weight is m.weight\nr",
    "utils.rnn.pad_sequence": "(torch.nn.utils.rnn.pad_sequence([torch.ones(2), torch.ones(3)"
                              " * 2], batch_first=True), torch.nn.utils.rnn.pad_sequence("
                              "[torch.ones(2, 1), torch.ones(1, 1)], padding_value=-1.0))",
    "utils.rnn.pack_padded_sequence":
        "p = torch.nn.utils.rnn.pack_padded_sequence(torch.randn(2, 3, 4), torch.tensor([3, 2]),"
        " batch_first=True); lstm = torch.nn.LSTM(4, 3, batch_first=True); o, (h, c) = lstm(p);"
        " (p.data, p.batch_sizes, o.data, h)",
    "utils.rnn.pad_packed_sequence":
        "p = torch.nn.utils.rnn.pack_padded_sequence(torch.randn(2, 3, 4), torch.tensor([3, 2]),"
        " batch_first=True); torch.nn.utils.rnn.pad_packed_sequence(p, batch_first=True)",
    "utils.prune.l1_unstructured":
        "m = torch.nn.Linear(4, 2); torch.nn.utils.prune.l1_unstructured(m, 'weight', amount=0.5)"
        "; (m.weight, m.weight_mask, sorted(n for n, _ in m.named_parameters()))",
    "utils.prune.random_unstructured":
        "m = torch.nn.Linear(4, 2); torch.nn.utils.prune.random_unstructured(m, 'weight', "
        "amount=0.5); m.weight_mask",
    "utils.prune.ln_structured":
        "m = torch.nn.Linear(4, 2); torch.nn.utils.prune.ln_structured(m, 'weight', amount=0.5,"
        " n=2, dim=0); m.weight_mask",
    "utils.prune.remove":
        "m = torch.nn.Linear(4, 2); torch.nn.utils.prune.l1_unstructured(m, 'weight', amount=0.5)"
        "; torch.nn.utils.prune.remove(m, 'weight'); (m.weight, hasattr(m, 'weight_mask'))",
    "utils.prune.global_unstructured":
        "a, c = torch.nn.Linear(4, 2), torch.nn.Linear(2, 2); torch.nn.utils.prune."
        "global_unstructured([(a, 'weight'), (c, 'weight')], pruning_method=torch.nn.utils."
        "prune.L1Unstructured, amount=0.5); (a.weight_mask, c.weight_mask)",
    "utils.prune.L1Unstructured": "torch.nn.utils.prune.L1Unstructured(0.5).compute_mask(x, "
                                  "torch.ones_like(x))",
    "utils.prune.BasePruningMethod": "issubclass(torch.nn.utils.prune.L1Unstructured, "
                                     "torch.nn.utils.prune.BasePruningMethod)",
    "parallel.data_parallel": "torch.nn.parallel.data_parallel(torch.nn.Linear(4, 2), x)",
    "modules.linear.NonDynamicallyQuantizableLinear":
        "_mod(torch.nn.modules.linear.NonDynamicallyQuantizableLinear(4, 2), xg)",
    "init.calculate_gain": "(torch.nn.init.calculate_gain('relu'), torch.nn.init.calculate_gain"
                           "('leaky_relu', 0.2), torch.nn.init.calculate_gain('tanh'))",
    "init._calculate_fan_in_and_fan_out": "torch.nn.init._calculate_fan_in_and_fan_out("
                                          "torch.empty(3, 4, 5))",
}

# the single-process helpers of nn.parallel refuse CPU devices, as in torch
NN_SNIPPETS.update({
    "parallel.scatter": "torch.nn.parallel.scatter(x, ['cpu'])",
    "parallel.gather": "torch.nn.parallel.gather([x, x], 'cpu')",
    "parallel.replicate": "torch.nn.parallel.replicate(torch.nn.Linear(4, 2), ['cpu'])",
    "parallel.parallel_apply": "torch.nn.parallel.parallel_apply([torch.nn.Linear(4, 2)], [x])",
})

# torch.nn.init.<name>(tensor, args): the arguments after the tensor
INIT = {"normal_": "0, 0.02", "kaiming_uniform_": "a=math.sqrt(5)", "uniform_": "-0.1, 0.1",
        "constant_": "0.3", "constant": "0.3", "trunc_normal_": "std=0.02",
        "kaiming_normal_": "mode='fan_out', nonlinearity='relu'", "xavier_uniform_": "",
        "xavier_normal_": "gain=2.0", "zeros_": "", "ones_": "", "orthogonal_": "",
        "normal": ""}

# ----------------------------------------------------------------------------- nn.functional
# F.<name>: the arguments of _fg(F.<name>, ...) (default: ``xg``)
FUNCTIONAL = {
    "cross_entropy": "xg, torch.tensor([0, 3, 1])", "softmax": "xg, dim=1",
    "log_softmax": "xg, dim=1", "max_pool2d": "img.requires_grad_(), 2",
    "nll_loss": "torch.log_softmax(xg, 1), torch.tensor([0, 3, 1])",
    "scaled_dot_product_attention": "q.requires_grad_(), q, q, is_causal=True",
    "conv2d": "img.requires_grad_(), torch.randn(3, 2, 3, 3), padding=1",
    "one_hot": "torch.tensor([0, 2]), 3", "pad": "xg, (1, 2)",
    "binary_cross_entropy": "xg.sigmoid(), torch.rand(3, 4)", "dropout": "xg, 0.5",
    "linear": "xg, w.T", "normalize": "xg, dim=1",
    "interpolate": "img.requires_grad_(), scale_factor=2, mode='bilinear', align_corners=False",
    "relu_": "x.clone()", "avg_pool2d": "img.requires_grad_(), 2",
    "layer_norm": "xg, (4,)", "mse_loss": "xg, y",
    "binary_cross_entropy_with_logits": "xg, torch.rand(3, 4)",
    "embedding": "torch.tensor([1, 2]), torch.randn(4, 3, requires_grad=True)",
    "smooth_l1_loss": "xg, y", "affine_grid": "torch.randn(1, 2, 3), (1, 1, 2, 2), "
                                              "align_corners=False",
    "avg_pool1d": "torch.randn(2, 3, 5, requires_grad=True), 2",
    "conv1d": "torch.randn(1, 2, 8, requires_grad=True), torch.randn(3, 2, 3)",
    "conv_transpose2d": "img.requires_grad_(), torch.randn(2, 3, 3, 3), stride=2",
    "grid_sample": "img.requires_grad_(), torch.rand(2, 3, 3, 2) * 2 - 1, align_corners=False",
}

# ----------------------------------------------------------------------------- optim, data
OPTIM = {"Adam": "lr=0.01", "SGD": "lr=0.1, momentum=0.9", "AdamW": "lr=0.01",
         "RMSprop": "lr=0.01", "Adagrad": "lr=0.1", "Adadelta": "lr=1.0"}
SCHED = {"StepLR": "step_size=2, gamma=0.5", "LambdaLR": "lr_lambda=lambda e: 0.9 ** e",
         "CosineAnnealingLR": "T_max=4", "LinearLR": "start_factor=0.5, total_iters=3",
         "MultiStepLR": "milestones=[1, 3], gamma=0.1"}

# quantization: a small model quantized dynamically and statically, the numeric suite on it
_QMODEL = ("torch.manual_seed(0); fm = torch.nn.Sequential(torch.nn.Linear(4, 6), "
           "torch.nn.ReLU(), torch.nn.Linear(6, 3)).eval()\n")
_QSTATIC = ("torch.manual_seed(0); qa = torch.ao.quantization\n"
            "class QM(torch.nn.Module):\n"
            "    def __init__(self):\n"
            "        super().__init__(); self.quant = qa.QuantStub(); "
            "self.fc = torch.nn.Linear(4, 3); self.dequant = qa.DeQuantStub()\n"
            "    def forward(self, a):\n"
            "        return self.dequant(self.fc(self.quant(a)))\n"
            "sm = QM().eval()\n")
_NS = "ns = _import('quantization._numeric_suite')\n"
QUANT = {
    "torch.qint8": "(torch.qint8, torch.quantize_per_tensor(x, 0.1, 0, torch.qint8).int_repr())",
    "torch.quantization.quantize_dynamic":
        _QMODEL + "qm = torch.quantization.quantize_dynamic(fm, {torch.nn.Linear}, "
        "dtype=torch.qint8)\n(repr(qm), qm(x), list(qm.state_dict()))",
    "Tensor.dequantize": "q = torch.quantize_per_tensor(x, 0.05, 3, torch.quint8); "
                         "(q.dequantize(), x.dequantize(), repr(q))",
    "Tensor.is_quantized": "(x.is_quantized, torch.quantize_per_tensor(x, 0.1, 0, "
                           "torch.qint8).is_quantized)",
    "torch.quantization.default_qconfig":
        "c = torch.quantization.default_qconfig; (c.activation().quant_max, "
        "str(c.weight().qscheme), type(c).__name__)",
    "torch.ao.quantization.default_dynamic_qconfig":
        "c = torch.ao.quantization.default_dynamic_qconfig; (c.activation().is_dynamic, "
        "str(c.weight().dtype), type(c.weight()).__name__)",
    "torch.ao.quantization.float_qparams_weight_only_qconfig":
        "c = torch.ao.quantization.float_qparams_weight_only_qconfig; o = c.weight(); o(w)\n"
        "(o.calculate_qparams(), str(o.qscheme))",
    "torch.quantization.get_default_qconfig":
        "c = torch.quantization.get_default_qconfig('x86'); o = c.activation(); o(x)\n"
        "(o.calculate_qparams(), type(o).__name__, type(c.weight()).__name__)",
    "torch.ao.quantization.QConfigMapping":
        "m = torch.ao.quantization.QConfigMapping().set_global("
        "torch.ao.quantization.default_qconfig).set_module_name('fc', None)\n"
        "(m.module_name_qconfigs, m.global_qconfig is torch.ao.quantization.default_qconfig)",
    "torch.quantization.quantize":
        _QSTATIC + "sm.qconfig = torch.quantization.default_qconfig\n"
        "qm = torch.quantization.quantize(sm, torch.quantization.default_eval_fn, "
        "[[(x, None), (y, None)]])\n(repr(qm), qm(x))",
    "torch.quantization.default_eval_fn":
        _QSTATIC + "sm.qconfig = torch.quantization.default_qconfig\n"
        "pm = torch.quantization.prepare(sm); torch.quantization.default_eval_fn(pm, "
        "[(x, None), (y, None)])\npm.fc.activation_post_process.calculate_qparams()",
    "torch.quantization._numeric_suite.compare_weights":
        _QMODEL + _NS + "qm = torch.quantization.quantize_dynamic(fm)\n"
        "d = ns.compare_weights(fm.state_dict(), qm.state_dict())\n"
        "[(k, v['float'], v['quantized'].dequantize()) for k, v in d.items()]",
    "torch.quantization._numeric_suite.compare_model_outputs":
        _QMODEL + _NS + "qm = torch.quantization.quantize_dynamic(fm)\n"
        "d = ns.compare_model_outputs(fm, qm, x)\n"
        "[(k, v['float'], v['quantized']) for k, v in d.items()]",
    "torch.quantization._numeric_suite.compare_model_stub":
        _QSTATIC + _NS + "sm.qconfig = torch.quantization.default_qconfig\n"
        "qm = torch.quantization.quantize(sm, torch.quantization.default_eval_fn, "
        "[[(x, None)]])\nd = ns.compare_model_stub(sm, qm, {torch.nn.Linear}, x)\n"
        "[(k, v['float'], v['quantized'][0].dequantize()) for k, v in d.items()]",
    "torch.quantization._numeric_suite.Logger":
        _NS + "lg = ns.Logger(); (lg.stats, str(lg.dtype), lg(x))",
    "torch.quantization._numeric_suite.ShadowLogger":
        _NS + "lg = ns.ShadowLogger(); lg(x, y); lg.stats",
    "torch.quantization._numeric_suite.get_logger_dict":
        _QMODEL + _NS + "qm = torch.quantization.quantize_dynamic(fm)\n"
        "ns.prepare_model_outputs(fm, qm); qm(x); sorted(ns.get_logger_dict(qm))",
    "torch.quantization._numeric_suite.get_matching_activations":
        _QMODEL + _NS + "qm = torch.quantization.quantize_dynamic(fm)\n"
        "ns.prepare_model_outputs(fm, qm); fm(x); qm(x)\n"
        "d = ns.get_matching_activations(fm, qm); [(k, v['quantized']) for k, v in d.items()]",
    "torch.quantization._numeric_suite.prepare_model_outputs":
        _QMODEL + _NS + "qm = torch.quantization.quantize_dynamic(fm)\n"
        "ns.prepare_model_outputs(fm, qm); (fm(x), qm(x), "
        "type(fm[0].activation_post_process).__name__)",
    "torch.quantization._numeric_suite.prepare_model_with_stubs":
        _QMODEL + _NS + "qm = torch.quantization.quantize_dynamic(fm)\n"
        "ns.prepare_model_with_stubs(fm, qm, {torch.nn.Linear}, ns.ShadowLogger); "
        "(qm(x), type(qm[0]).__name__, sorted(ns.get_logger_dict(qm)))",
}

OTHER = {
    "torch.masked.masked_tensor":
        "mt = torch.masked.masked_tensor(x[:2, :3], x[:2, :3] > 0, requires_grad=True)\n"
        "mt.exp().sum().backward()\n"
        "(repr(mt), repr(mt.sum(1)), repr(mt.amax()), repr(mt.grad), mt.to_tensor(0.0))",
    "torch.masked.as_masked_tensor":
        "(repr(torch.masked.as_masked_tensor(x[0], x[0] > 0) * 2), "
        "repr(torch.masked.as_masked_tensor(x[:2], x[:2] < 0).mean(0)), "
        "repr(torch.softmax(torch.masked.MaskedTensor(x[:2], x[:2] > 0), -1)))",
    "torch.optim.Optimizer": "isinstance(torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], "
                             "lr=0.1), torch.optim.Optimizer)",
    "torch.optim.LBFGS":
        "m = torch.nn.Linear(4, 2); opt = torch.optim.LBFGS(m.parameters(), lr=0.5)\n"
        "def closure():\n    opt.zero_grad(); loss = (m(x) ** 2).mean(); loss.backward()\n"
        "    return loss\n(opt.step(closure), list(m.parameters()))",
    "torch.utils.data.DataLoader":
        "dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(10.0)), "
        "batch_size=4, shuffle=True); (len(dl), [b for b in dl], [b for b in torch.utils.data."
        "DataLoader(list(range(5)), batch_size=2)])",
    "torch.utils.data.Dataset":
        "class Sq(torch.utils.data.Dataset):\n    def __len__(self):\n        return 5\n"
        "    def __getitem__(self, k):\n        return torch.tensor([k * 1.0]), k\n"
        "list(torch.utils.data.DataLoader(Sq(), batch_size=2))",
    "torch.utils.data.TensorDataset": "ds = torch.utils.data.TensorDataset(x, i); (len(ds), ds[1])",
    "torch.utils.data.Subset": "s = torch.utils.data.Subset(list(range(10)), [3, 5]); "
                               "(len(s), s[1])",
    "torch.utils.data.RandomSampler": "list(torch.utils.data.RandomSampler(range(6)))",
    "torch.utils.data.random_split":
        "[list(s) for s in torch.utils.data.random_split(range(10), [6, 4], "
        "generator=torch.Generator().manual_seed(1))]",
    "torch.utils.data.IterableDataset":
        "class It(torch.utils.data.IterableDataset):\n    def __iter__(self):\n"
        "        return iter(range(5))\nlist(torch.utils.data.DataLoader(It(), batch_size=2))",
    "torch.utils.data.distributed.DistributedSampler":
        "s = torch.utils.data.distributed.DistributedSampler(range(10), num_replicas=2, rank=0, "
        "seed=0); s.set_epoch(1); (len(s), list(s))",
    "torch.nested.nested_tensor":
        "nt = torch.nested.nested_tensor([x, y[:2]]); (nt.unbind(), nt.size(0), nt.dim(), "
        "repr(nt), (nt.relu() * 2).unbind())",
    "torch.nested.to_padded_tensor":
        "torch.nested.to_padded_tensor(torch.nested.nested_tensor([x, y[:2]]), 0.5)",
}

# ----------------------------------------------------------------------------- instances
MODULE = {
    "parameters": "m = torch.nn.Linear(4, 2); list(m.parameters())",
    "step": "_opt(torch.optim.SGD, lr=0.1)",
    "eval": "m = torch.nn.Dropout(); r = m.eval(); (r is m, m.training, m(x))",
    "train": "m = torch.nn.Dropout(); m.eval(); r = m.train(); (r is m, m.training, m(x))",
    "zero_grad": "m = torch.nn.Linear(4, 2); m(x).sum().backward(); "
                 "opt = torch.optim.SGD(m.parameters(), lr=0.1); opt.zero_grad(); "
                 "a = m.weight.grad; m(x).sum().backward(); m.zero_grad(); (a, m.weight.grad)",
    "state_dict": "m = torch.nn.BatchNorm1d(2); opt = torch.optim.Adam(m.parameters()); "
                  "(m.state_dict(), opt.state_dict())",
    "register_buffer": "m = torch.nn.Module(); m.register_buffer('r', torch.ones(2)); "
                       "m.register_buffer('t', torch.zeros(1), persistent=False); "
                       "(m.r, list(m.state_dict()), [n for n, _ in m.named_buffers()])",
    "load_state_dict": "a, c = torch.nn.Linear(4, 2), torch.nn.Linear(4, 2); "
                       "r = c.load_state_dict(a.state_dict()); (r, c.weight, c(x))",
    "apply": "m = torch.nn.Sequential(torch.nn.Linear(4, 2), torch.nn.Linear(2, 2)); "
             "m.apply(lambda s: torch.nn.init.zeros_(s.weight) if isinstance(s, torch.nn.Linear)"
             " else None); m[1].weight",
    "register_forward_hook": "m = torch.nn.Linear(4, 2); seen = []; h = m.register_forward_hook("
                             "lambda mod, inp, out: seen.append(out.shape)); m(x); h.remove(); "
                             "m(x); seen",
    "named_parameters": "list(torch.nn.Linear(4, 2).named_parameters())",
    "param_groups": "opt = torch.optim.Adam([torch.nn.Parameter(torch.ones(2))], lr=0.1); "
                    "sorted(opt.param_groups[0].items(), key=lambda kv: kv[0])",
    "add_module": "m = torch.nn.Module(); m.add_module('fc', torch.nn.Linear(2, 2)); "
                  "(repr(m), m.fc.weight)",
    "forward": "m = torch.nn.Linear(4, 2); m.forward(x)",
    "buffers": "list(torch.nn.BatchNorm1d(2).buffers())",
    "named_modules": "[n for n, _ in torch.nn.Sequential(torch.nn.Linear(2, 2), "
                     "torch.nn.Sequential(torch.nn.ReLU())).named_modules()]",
    "children": "[type(c).__name__ for c in torch.nn.Sequential(torch.nn.Linear(2, 2), "
                "torch.nn.ReLU()).children()]",
    "named_buffers": "list(torch.nn.BatchNorm1d(2).named_buffers())",
    "named_children": "[n for n, _ in torch.nn.Sequential(torch.nn.Linear(2, 2), "
                      "torch.nn.ReLU()).named_children()]",
    "modules": "[type(c).__name__ for c in torch.nn.Sequential(torch.nn.Linear(2, 2), "
               "torch.nn.ReLU()).modules()]",
    "get_last_lr": "_sched(torch.optim.lr_scheduler.StepLR, step_size=1, gamma=0.5)",
    "get_lr": "p = torch.nn.Parameter(torch.ones(1)); opt = torch.optim.SGD([p], lr=0.1); "
              "s = torch.optim.lr_scheduler.StepLR(opt, 1, 0.5); opt.step(); s.step(); s.get_lr()",
    "compile": "m = torch.nn.Linear(4, 2); m.compile(backend='eager'); m(x)",
    "register_parameter": "m = torch.nn.Module(); m.register_parameter('p', torch.nn.Parameter("
                          "torch.ones(2))); list(m.named_parameters())",
    "to_empty": "m = torch.nn.Linear(4, 2, device='meta'); m.to_empty(device='cpu'); "
                "(m.weight.shape, m.weight.device)",
    "share_memory": "m = torch.nn.Linear(4, 2); r = m.share_memory(); (r is m, m(x))",
    "register_backward_hook": "m = torch.nn.Linear(4, 2); seen = []; m.register_backward_hook("
                              "lambda mod, gi, go: seen.append(len(gi))); m(xg).sum().backward();"
                              " seen",
    "register_full_backward_hook": "m = torch.nn.Linear(4, 2); seen = []; "
                                   "m.register_full_backward_hook(lambda mod, gi, go: seen."
                                   "append((gi[0], go[0]))); m(xg).sum().backward(); seen",
}


def _module_alias(name: str) -> str | None:
    """``torch.nn.modules.linear.Linear`` (and ``torch.utils.data.dataloader.DataLoader`` …):
    the same object as its public name."""
    parts = name.split(".")
    public = {"torch.nn.modules": "torch.nn", "torch.nn.parameter": "torch.nn",
              "torch.utils.data.dataloader": "torch.utils.data",
              "torch.utils.data.dataset": "torch.utils.data",
              "torch.optim.optimizer": "torch.optim"}
    for prefix, home in public.items():
        if name.startswith(prefix + ".") and name.count(".") > prefix.count(".") + (
                prefix == "torch.nn.modules"):
            path = ".".join(parts[1:-1])
            return f"_import({path!r}).{parts[-1]} is {home}.{parts[-1]}"
    return None


SMOKES: dict = {}
SMOKES.update({f"torch.{k}": v for k, v in TORCH.items()})
SMOKES.update({f"torch.nn.{k}": v for k, v in NN_SNIPPETS.items()})
SMOKES.update({f"Module.{k}": v for k, v in MODULE.items()})
SMOKES.update(OTHER)
SMOKES.update(QUANT)


def generic(name: str, info: dict) -> tuple[str | None, bool]:
    """(snippet, whether written for the name) by the name's family rule."""
    leaf = name.rsplit(".", 1)[-1]
    table = {"Tensor": TENSOR, "torch.nn.functional": FUNCTIONAL}.get(info["ns"], TORCH_ARGS)
    return _generic(name, info), leaf in table and name.count(".") <= 3


def _generic(name: str, info: dict) -> str | None:
    ns, kind = info["ns"], info["kind"]
    alias = _module_alias(name)
    if alias:
        return alias
    leaf = name.rsplit(".", 1)[-1]
    if ns == "Tensor":
        return TENSOR.get(leaf, f"x.{leaf}()")
    if ns == "torch.nn.functional":
        return f"_fg(F.{leaf}, {FUNCTIONAL.get(leaf, 'xg')})"
    if name.startswith("torch.nn.init."):
        args = f", {INIT[leaf]}" if INIT.get(leaf) else ""
        return f"t = torch.empty(3, 4); r = torch.nn.init.{leaf}(t{args}); (t, r is t)"
    if ns == "torch.nn" and name.count(".") == 2 and leaf in NN:
        ctor, args = NN[leaf]
        return f"_mod(torch.nn.{leaf}({ctor}), {args})"
    if name.startswith("torch.optim.lr_scheduler.") and leaf in SCHED:
        return f"_sched(torch.optim.lr_scheduler.{leaf}, {SCHED[leaf]})"
    if ns == "torch.optim" and leaf in OPTIM:
        return f"_opt(torch.optim.{leaf}, {OPTIM[leaf]})"
    if ns == "torch" and name.count(".") == 1:
        if kind == "object":      # dtypes and constants: by value, and a tensor of the dtype
            return f"r = torch.{leaf}; (r, torch.zeros(2, dtype=r)) if isinstance(r, " \
                   f"torch.dtype) else r"
        if kind == "function":
            return f"torch.{leaf}({TORCH_ARGS.get(leaf, 'x')})"
    return None
