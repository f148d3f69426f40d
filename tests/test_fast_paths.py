"""The fast paths give what the general paths give: values to the bit, dtypes, graphs.

Each fast path (the generated per-op path for same-dtype floating inputs, the raw NumPy
backward formulas of hot ops, the engine's inline path for nodes without hooks) is compared
with the general one it stands in for, on the cases it takes and on its edges.
"""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import registry as R


def _bits(t):
    a = t._data
    return a.dtype, a.shape, a.tobytes()


def _graph(t):
    """The graph below ``t`` as names and edges, newest first (the nodes' identity aside)."""
    out, stack, seen = [], [t.grad_fn], set()
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        out.append((n.name(), tuple((None if f is None else f.name(), nr)
                                    for f, nr in n.next_functions)))
        stack.extend(f for f, _ in n.next_functions)
    return out


def _leaf(shape, dtype, seed=0, requires_grad=True):
    a = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return ember.tensor(a, requires_grad=requires_grad)


# (op name, the other arguments after the first tensor; "T" is a second tensor like the first)
CASES = [
    ("add", ("T", 1)), ("add", (0.5, 1)), ("add", (3, 1)), ("add", ("T", 2)),
    ("sub", ("T", 1)), ("sub", (0.25, 1)), ("mul", ("T",)), ("mul", (1.0001,)), ("mul", (-2,)),
    ("div_true", ("T",)), ("div_true", (3.0,)), ("rsub_scalar", (1, 1)),
    ("rsub_scalar", (2.5, 1)), ("tanh", ()), ("sigmoid", ()), ("exp", ()), ("neg", ()),
    ("gt", ("T",)), ("gt", (0,)), ("eq", (0.5,)), ("maximum", ("T",)),
    ("sub", ("T", 2)), ("add", (0.5, 2.5)), ("sub", (0.25, -1.5)), ("mul", (3,)),
]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("shape", [(4, 4), (), (3, 1)])
@pytest.mark.parametrize("name,rest", CASES, ids=[f"{n}{i}" for i, (n, _) in enumerate(CASES)])
def test_fast_op_path_is_the_general_path(name, rest, shape, dtype):
    getattr(ember, name, None)          # the op's family loads on first use
    op = R.OPS[name]
    results = []
    for fast in (True, False):
        x = _leaf(shape, dtype)
        y = _leaf(shape, dtype, seed=1)
        args = (x,) + tuple(y if a == "T" else a for a in rest)
        out = op(*args) if fast else R.run(op, args)
        results.append((out, x, y))
    (fo, fx, fy), (go, gx, gy) = results
    assert _bits(fo) == _bits(go)
    assert _graph(fo) == _graph(go)
    assert fo.requires_grad == go.requires_grad
    if fo.requires_grad:
        fo.sum().backward()
        go.sum().backward()
        for a, b in ((fx, gx), (fy, gy)):
            assert (a.grad is None) == (b.grad is None)
            if a.grad is not None:
                assert _bits(a.grad) == _bits(b.grad)


def test_fast_path_leaves_other_cases_to_the_general_path():
    x = _leaf((3,), "float32")
    # promotion (float64 scalar tensor, int tensor, bool), reduced types, out=: the general path
    assert (x + ember.tensor(2.0, dtype=ember.float64)).dtype is ember.float32
    assert (x + ember.ones(3, dtype=ember.float64)).dtype is ember.float64
    assert (ember.ones(3, dtype=ember.int64) * 2.5).dtype is ember.float32
    assert (x * True).dtype is ember.float32
    assert (x.bfloat16() * 2).dtype is ember.bfloat16
    out = ember.empty(3)
    with pytest.raises(RuntimeError, match="out=... arguments don't support automatic"):
        ember.mul(x, 2, out=out)
    with ember.no_grad():
        assert ember.mul(x, 2, out=out) is out
    with pytest.raises(RuntimeError, match="The size of tensor a"):
        x + ember.ones(4)
    with pytest.raises(TypeError):
        ember.add(x, "a")
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with a bool"):
        x - ember.tensor([True, False, True])


def test_fast_path_records_a_view_of_a_base_that_requires_grad():
    base = _leaf((2, 3), "float32")
    with ember.no_grad():
        v = base[0]
    y = v * 2.0
    assert y.grad_fn is not None and y.grad_fn.name() == "MulBackward0"


def test_fast_path_is_off_while_profiling():
    x = _leaf((2,), "float32", requires_grad=False)
    with ember.profiler.profile() as prof:
        x * 2.0
        x.tanh()
    names = [e.name for e in prof.events()]
    assert "aten::mul" in names and "aten::tanh" in names


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("fn", [
    lambda x, y: (x * 1.0001 + 0.5).tanh() - y * 0.25,
    lambda x, y: (x * y).sigmoid() * x,
    lambda x, y: (x * 3).tanh() * (y * -2).sigmoid(),
])
def test_raw_backward_formulas_are_the_ember_formulas(fn, dtype):
    grads = []
    for create_graph in (False, True):     # create_graph runs the ember formulas
        x = _leaf((3, 4), dtype)
        y = _leaf((3, 4), dtype, seed=1)
        gx, gy = ember.autograd.grad(fn(x, y).sum(), (x, y), create_graph=create_graph)
        grads.append((_bits(gx), _bits(gy)))
    assert grads[0] == grads[1]


def test_raw_formulas_decline_what_they_do_not_cover():
    # a float64 gradient into a float32 result, inputs of two dtypes: the ember formulas run
    x = _leaf((3,), "float32")
    y = x.tanh()
    g = ember.ones(3, dtype=ember.float64)
    y.backward(g)
    ref = (1 - y.detach().double() * y.detach().double())
    assert x.grad.dtype is ember.float32
    assert np.allclose(x.grad._data, ref._data.astype(np.float32))
    z = _leaf((2,), "float64")
    w = _leaf((2,), "float32", seed=1)
    (z * w).sum().backward()        # other of another dtype: the ember formula promotes
    assert z.grad.dtype is ember.float64 and w.grad.dtype is ember.float32
    assert np.array_equal(z.grad._data, w._data.astype(np.float64))


def _chain(x):
    y = x
    for _ in range(5):
        y = (y * 1.5 + 0.25).tanh() - 0.5
    return y


def test_engine_inline_path_is_the_hooked_path():
    results = []
    for hooked in (False, True):
        x = _leaf((4, 4), "float32")
        y = _chain(x)
        if hooked:      # a hook on every node sends each one through _run_node
            n, seen = y.grad_fn, []
            while n is not None and n.next_functions:
                n.register_hook(lambda gi, go: None)
                seen.append(n)
                n = n.next_functions[0][0]
        y.sum().backward()
        results.append(_bits(x.grad))
    assert results[0] == results[1]


def test_engine_inline_path_keeps_released_graph_errors():
    x = _leaf((2,), "float32")
    y = (x * 2.0).tanh().sum()
    y.backward()
    once = x.grad._data.copy()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second"):
        y.backward()
    x.grad = None
    y = (x * 2.0).tanh().sum()
    y.backward(retain_graph=True)
    y.backward()
    assert np.array_equal(x.grad._data, once + once)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,to", [((128, 10), (10,)), ((4, 3, 5), (3, 1)),
                                      ((2, 3), (1, 3)), ((40, 7), (40, 1)), ((3,), (1,))])
def test_sum_to_shape_without_a_graph_is_the_sum_op(shape, to, dtype):
    from ember._ops.util import sum_to_shape
    g = _leaf(shape, dtype, requires_grad=False)
    with ember.no_grad():
        fast = sum_to_shape(g, to)
    general = sum_to_shape(g, to)
    assert _bits(fast) == _bits(general) and tuple(fast.shape) == to


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 31, 32, 33, 64, 100, 4099, 200704])
def test_blas_fused_axpy_is_the_exact_fused_multiply_add(n, dt):
    from ember._ops import _exact
    from ember._ops._fused import fma_
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n).astype(dt)
    b = (rng.standard_normal(n) * 10.0 ** rng.integers(-6, 3, n)).astype(dt)
    s = dt(-0.0123)
    want = _exact.fma(np.full(n, s), b, a)
    got = a.copy()
    fma_(got, s, b)
    assert np.array_equal(want.view(np.uint8), got.view(np.uint8))


def test_blas_fused_axpy_declines_what_it_does_not_cover():
    from ember._ops._blas import axpy_blocks
    a = np.ones(64, np.float32)
    s = np.float32(0.5)
    assert axpy_blocks(a[::2].copy(), s, np.ones(64, np.float32)[::2]) == 0   # strided
    assert axpy_blocks(a, s, a) == 0                                          # overlapping
    assert axpy_blocks(a.astype(np.float16), np.float16(0.5), a.astype(np.float16)) == 0
    assert axpy_blocks(a.astype(np.float64), np.float64(0.5), a) == 0         # mixed dtypes
    assert axpy_blocks(np.ones(16, np.float32), s, np.ones(16, np.float32)) == 16  # padded
    assert np.array_equal(a, np.ones(64, np.float32))


def _fake_axpy(dt, fused: bool, tail: int = 0):
    """A stand-in for the BLAS kernel's calling convention: ``y += s * x`` on the first
    ``n`` elements (``fused``: one rounding; else the product and the sum round apart),
    the last ``tail`` of them unfused (as a kernel's remainder loop may be)."""
    import ctypes

    from ember._ops import _exact
    item = ctypes.c_float if dt == np.float32 else ctypes.c_double

    def fn(n, _a, _b, s, px, _ix, py, _iy, _c, _d):
        x = np.ctypeslib.as_array(ctypes.cast(px, ctypes.POINTER(item)), (n,))
        y = np.ctypeslib.as_array(ctypes.cast(py, ctypes.POINTER(item)), (n,))
        m = n - tail if fused else 0
        y[m:] = y[m:] + s * x[m:]
        y[:m] = _exact.fma(np.full(m, s), x[:m], y[:m])
        return 0
    return fn


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_blas_probe_takes_fused_kernels_only(dt):
    from ember._ops import _blas
    dt = np.dtype(dt)
    assert _blas._probe(_fake_axpy(dt, fused=True), dt)
    assert not _blas._probe(_fake_axpy(dt, fused=False), dt)
    assert not _blas._probe(_fake_axpy(dt, fused=True, tail=8), dt)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_blas_probe_reference_is_the_exact_fused_result(dt):
    from ember._ops import _blas, _exact
    x, y, s, fused = _blas._probe_operands(np.dtype(dt))
    ints = np.int32 if dt == np.float32 else np.int64
    assert np.array_equal(fused.view(ints), _exact.fma(np.full(x.size, s), x, y).view(ints))
    unfused = (s * x + y).astype(dt)        # the product and the sum rounded apart
    assert np.count_nonzero(unfused != fused) > 100


def test_blas_probe_needs_no_numpy_random():
    """The first fused update of a program (SGD's, Adam's) loads no NumPy generator."""
    import subprocess
    import sys
    code = ("import sys, numpy as np, ember\n"
            "from ember._ops import _blas\n"
            "_blas._load(np.dtype(np.float32))\n"
            "print('numpy.random' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False"]


def test_sgd_and_adam_steps_with_and_without_the_blas_kernel():
    from ember._ops import _blas
    runs = []
    for fn in (None, "default"):
        saved = dict(_blas._FN)
        if fn is None:
            _blas._FN.update({np.dtype(np.float32): None, np.dtype(np.float64): None})
        try:
            ember.manual_seed(0)
            model = ember.nn.Linear(40, 33)
            sgd = ember.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
            adam = ember.optim.Adam(model.parameters(), lr=1e-3)
            x = ember.randn(8, 40)
            for opt in (sgd, adam, sgd, adam):
                opt.zero_grad()
                model(x).square().mean().backward()
                opt.step()
            runs.append([_bits(p) for p in model.parameters()])
        finally:
            _blas._FN.clear()
            _blas._FN.update(saved)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("fn", [
    lambda x, y: (x * 1.0001 + 0.5).tanh() - y * 0.25,
    lambda x, y: (x * y).sigmoid() * x,
    lambda x, y: ember.nn.functional.silu(x) * ember.nn.functional.elu(y),
    lambda x, y: ember.nn.functional.softplus(x) + ember.nn.functional.mish(y * 2),
])
def test_raw_direct_path_is_the_raw_path_through_the_environment(fn, dtype, monkeypatch):
    grads = []
    for direct in (True, False):
        if not direct:
            monkeypatch.setattr(R, "_apply_raw_direct", lambda node, op, g: None)
        x = _leaf((3, 4), dtype)
        y = _leaf((3, 4), dtype, seed=1)
        gx, gy = ember.autograd.grad(fn(x, y).sum(), (x, y))
        grads.append((_bits(gx), _bits(gy)))
    assert grads[0] == grads[1]


def test_raw_direct_path_leaves_modified_and_hooked_saved_tensors_to_the_general_path():
    x = _leaf((3,), "float32")
    y = x.tanh()
    z = y * 2.0
    with ember.no_grad():
        y.add_(1.0)                      # tanh's saved result is now stale
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    packed = []

    def pack(t):
        packed.append(1)
        return t

    x = _leaf((3,), "float32")
    with ember.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = x.tanh()
    y.sum().backward()
    assert packed and np.allclose(x.grad._data, 1 - np.tanh(x._data) ** 2, atol=1e-6)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_gradient_only_formulas_skip_the_environment(create_graph, dtype, monkeypatch):
    results = []
    for fast in (True, False):
        if not fast:
            for d in R.OPS.values():
                if d.grad_only is not None:
                    monkeypatch.setattr(d, "grad_only", None)
        x = _leaf((3, 4), "float32").to(getattr(ember, dtype)).detach().requires_grad_()
        y = _leaf((3, 4), "float32", seed=1).to(getattr(ember, dtype)).detach().requires_grad_()
        out = ((x + y) - 0.5 + (y - x) * x).neg().sum()
        gx, gy = ember.autograd.grad(out, (x, y), create_graph=create_graph)
        rec = [_bits(gx), _bits(gy)]
        if create_graph:
            rec.append(_graph(gx))
            rec.append(_bits(ember.autograd.grad(gx.sum(), x)[0]))
        results.append(rec)
    assert results[0] == results[1]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 8), (128, 10), (128, 256), (255, 33), (17, 100), (5, 4),
                                   (64, 96), (200, 7)])
def test_row_sum_fast_path_is_the_iterator_path(shape, dtype):
    from ember._ops import _exact as E
    a = np.random.default_rng(7).standard_normal(shape).astype(dtype)
    a[::3, ::2] *= 1e6
    for keepdim in (False, True):
        layout, y, out_shape, nred = E._prepare(a, (0,), keepdim)
        general = E._to_out(E._serial(E._pad2(y), nred, a.itemsize, E._LANES[a.dtype], False),
                            out_shape)
        fast = E.cascade_sum(a, (0,), keepdim)
        assert fast.shape == general.shape and fast.tobytes() == general.tobytes()


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
@pytest.mark.parametrize("shape", [(3, 4), (5,), ()])
def test_t_without_a_graph_is_the_op_path(mode, shape, monkeypatch):
    def made(base_of):
        x = _leaf(shape, "float32")
        v = x[...] if base_of else x
        with getattr(ember, mode)():
            r = v.t()
        return x, v, r

    def summary(x, v, r):
        return (_bits(r), r._base is (x if v._base is None else v._base), r._vc is x._vc,
                r.__dict__.get("_cm"), r.grad_fn, r.requires_grad, r.is_inference(),
                tuple(r.stride()))

    for base_of in (False, True):
        fast = summary(*made(base_of))
        with monkeypatch.context() as m:
            m.setattr(R, "PLAIN_RUNNERS", (None, None))      # the op's own path
            general = summary(*made(base_of))
        assert fast == general


@pytest.mark.parametrize("name", ["Tanh", "Exp", "Ln", "Sqrt"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_vml_contiguous_call_is_the_general_call(name, dtype):
    from ember._ops import _vml
    if not _vml.available():
        pytest.skip("MKL's VML is not installed")
    a = np.abs(np.random.default_rng(3).standard_normal((5, 7)).astype(dtype)) + 0.5
    ro = a.copy()
    ro.flags.writeable = False                   # the general path (copy of the input)
    fast, general = _vml.call(name, a), _vml.call(name, ro)
    assert fast.flags.c_contiguous and fast.shape == a.shape
    assert fast.tobytes() == general.tobytes()


def _heap_order(root):
    """The engine's order by its definition: ready nodes newest first (ties in push order)."""
    import heapq
    import itertools
    deps, stack, seen = {}, [root], {root}
    while stack:
        n = stack.pop()
        for f, _ in n.next_functions:
            if f is None:
                continue
            deps[f] = deps.get(f, 0) + 1
            if f not in seen:
                seen.add(f)
                stack.append(f)
    c = itertools.count()
    heap, order = [(-root._seq, next(c), root)], []
    while heap:
        n = heapq.heappop(heap)[2]
        order.append(n)
        for f, _ in n.next_functions:
            if f is None:
                continue
            deps[f] -= 1
            if deps[f] == 0:
                heapq.heappush(heap, (-f._seq, next(c), f))
    return order


@pytest.mark.parametrize("hooked", [False, True])
def test_engine_runs_nodes_in_heap_order_when_chains_skip_the_heap(hooked):
    x = _leaf((3,), "float32")
    w = _leaf((3,), "float32", seed=1)
    a = x * 2.0
    b = a.tanh()
    c = (a * w).sigmoid()
    d = (b + c) * b - 0.5
    loss = (d * w).sum() + b.sum()
    expected = [n for n in _heap_order(loss.grad_fn)]
    ran = []
    real_apply = {}
    for n in expected:
        if hooked and type(n).__name__ != "AccumulateGrad":
            n.register_prehook(lambda go, n=n: ran.append(n))
        elif type(n).__name__ != "AccumulateGrad":
            cls = type(n)
            if cls not in real_apply:
                real_apply[cls] = cls.apply

                def apply(self, grads, _real=cls.apply):
                    ran.append(self)
                    return _real(self, grads)
                cls.apply = apply
    try:
        loss.backward()
    finally:
        for cls, fn in real_apply.items():
            cls.apply = fn
    want = [n for n in expected if type(n).__name__ != "AccumulateGrad"]
    assert [id(n) for n in ran] == [id(n) for n in want]



def _bits_and_layout(t):
    return _bits(t) + (t._data.strides,)


F = ember.nn.functional
# (loss of x, w, b; the nodes whose raw formulas run without a graph)
LAYER_CASES = [
    # a linear layer: addmm with the weight's transpose (a column-major operand)
    (lambda x, w, b: F.linear(x, w, b).relu().sum(), {"ReluBackward0", "AddmmBackward0"}),
    (lambda x, w, b: F.cross_entropy(F.linear(x, w, b), ember.tensor([0, 2, 1])),
     {"LogSoftmaxBackward0", "AddmmBackward0"}),
    (lambda x, w, b: F.log_softmax(F.linear(x, w), dim=1).sum() * 0.5,
     {"LogSoftmaxBackward0", "MmBackward0"}),
    (lambda x, w, b: (F.softmax(x.mm(w.t()), dim=0) * b).sum(),
     {"SoftmaxBackward0", "MmBackward0", "TBackward0"}),
    (lambda x, w, b: x.t().mm(x).relu().sum() + w.mm(w.t()).softmax(1)[0, 1],
     {"SoftmaxBackward0", "MmBackward0", "TBackward0", "ReluBackward0"}),
    (lambda x, w, b: ember.addmm(b, x, w.t(), beta=0.5).sum(), {"TBackward0"}),  # declined
    (lambda x, w, b: ember.addmm(b, x, w.t(), alpha=2).sum(), {"TBackward0"}),   # declined
]


def _layer_grads(fn, dtype, create_graph=False):
    x = _leaf((3, 4), dtype)
    w = _leaf((3, 4), dtype, seed=1)
    b = _leaf((3,), dtype, seed=2)
    gs = ember.autograd.grad(fn(x, w, b), (x, w, b), create_graph=create_graph,
                             allow_unused=True)
    return [None if g is None else _bits_and_layout(g) for g in gs]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("case", range(len(LAYER_CASES)))
def test_raw_layer_formulas_are_the_ember_formulas(case, dtype, monkeypatch):
    """mm/addmm, t, relu, softmax and log_softmax: raw backward (no graph) = ember formulas,
    values, dtypes and strides alike."""
    fn, expected = LAYER_CASES[case]
    took, direct = set(), R._apply_raw_direct

    def counted(node, op, g):
        out = direct(node, op, g)
        if out is not None:
            took.add(node.name())
        return out

    monkeypatch.setattr(R, "_apply_raw_direct", counted)
    raw = _layer_grads(fn, dtype)
    assert expected <= took and not ({"AddmmBackward0"} & took - expected)
    assert raw == _layer_grads(fn, dtype, create_graph=True)   # create_graph: ember formulas


@pytest.mark.parametrize("case", range(len(LAYER_CASES)))
def test_raw_layer_formulas_through_the_environment(case, monkeypatch):
    fn, _ = LAYER_CASES[case]
    direct = _layer_grads(fn, "float32")
    monkeypatch.setattr(R, "_apply_raw_direct", lambda node, op, g: None)
    assert direct == _layer_grads(fn, "float32")


_ACTIVATIONS = {
    "celu": lambda F, x: F.celu(x, alpha=0.7), "elu": lambda F, x: F.elu(x, 1.3),
    "selu": lambda F, x: F.selu(x), "gelu": lambda F, x: F.gelu(x),
    "gelu_tanh": lambda F, x: F.gelu(x, approximate="tanh"),
    "hardswish": lambda F, x: F.hardswish(x), "logsigmoid": lambda F, x: F.logsigmoid(x),
    "mish": lambda F, x: F.mish(x), "silu": lambda F, x: F.silu(x),
    "softplus": lambda F, x: F.softplus(x, beta=2, threshold=5), "relu": lambda F, x: F.relu(x),
    "sigmoid": lambda F, x: x.sigmoid(), "tanh": lambda F, x: x.tanh(),
    "softmax": lambda F, x: F.softmax(x, 1), "log_softmax": lambda F, x: F.log_softmax(x, 0),
    "linear": lambda F, x: F.linear(x, x[:3] * 0.5, x[0, :3]),
}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", sorted(_ACTIVATIONS))
def test_general_backward_without_graph_is_the_raw_path(name, dtype):
    """The formulas the general path runs when no graph is built (a profiler recording,
    ``__torch_function__`` dispatch on) give the raw kernels' bits: the activations' backward
    is torch's kernel as an op of its own (``EluBackwardBackward0`` …), and silu and mish take
    their kernels where torch's formula does (grad mode off)."""
    import ember.nn.functional as F
    grads = []
    plain, plain_inplace = R.run, R.run_inplace
    for general in (False, True):
        if general:
            R.route(lambda op, args, out=None, method=False: plain(op, args, out, method),
                    plain_inplace)
        try:
            x = ember.tensor(np.random.default_rng(0).standard_normal((6, 7)).astype(dtype)
                             * 3, requires_grad=True)
            out = _ACTIVATIONS[name](F, x)
            cot = ember.tensor(np.random.default_rng(2).standard_normal(out.shape).astype(dtype))
            (g,) = ember.autograd.grad(out, x, cot)
            grads.append(_bits(g))
        finally:
            R.route(plain, plain_inplace)
    assert grads[0] == grads[1]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64"])
@pytest.mark.parametrize("value", [1.0001, 0.1, -0.0, 0.0, 3, -7, 1e-50, 1e300, 2 ** 60,
                                   float("nan"), float("inf"), True])
def test_number_scalars_kept_are_the_ones_numpy_makes(value, dtype):
    import warnings
    npdt = np.dtype(dtype)
    for _ in range(3):          # made, then (where kept) read back
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = R._np_scalar(value, npdt)
        with warnings.catch_warnings(record=True) as expected:
            warnings.simplefilter("always")
            want = R._np_scalar_uncached(value, npdt)
        assert got.__class__ is want.__class__
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
        assert [str(w.message) for w in caught] == [str(w.message) for w in expected]


def test_equal_numbers_of_other_signs_or_types_keep_their_own_scalars():
    import torch
    x = ember.tensor([1.0, -1.0])
    xt = torch.tensor([1.0, -1.0])
    for v in (0.0, -0.0, 0.0, 1, 1.0, True, -0.0):
        if v is True:
            continue
        got, want = (x * v).numpy(), (xt * v).numpy()
        assert got.tobytes() == want.tobytes()
    assert R._np_scalar(-0.0, np.dtype(np.float32)).tobytes() == np.float32(-0.0).tobytes()


def test_saved_values_of_op_nodes_read_as_torchs():
    import torch
    for lib in (ember, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        node = (x * 2.5).grad_fn
        assert node._saved_self is None                 # (not needed: no grad for other)
        z = (x * x).sum()
        assert z.grad_fn.next_functions[0][0]._saved_self is x
        assert tuple(z.grad_fn._saved_self_sym_sizes) == (2,)
        with pytest.raises(AttributeError, match="'MulBackward0' object has no attribute "
                                                 "'_saved_foo'"):
            _ = node._saved_foo
        assert "_saved_self" in dir(node) and "_raw_saved_self" in dir(node)


def test_tensors_made_in_inference_mode_first_entered_in_another_thread():
    import subprocess
    import sys
    code = """
import threading
import ember
assert not ember.ones(2).is_inference()
seen = []
def work():
    with ember.inference_mode():
        seen.append(ember.ones(2).is_inference())
    seen.append(ember.ones(2).is_inference())
t = threading.Thread(target=work)
t.start(); t.join()
assert seen == [True, False], seen
assert not ember.ones(2).is_inference()
with ember.inference_mode():
    assert (ember.ones(2) * 2).is_inference()
    with ember.enable_grad():
        assert ember.ones(2).is_inference()
assert not (ember.ones(2) + 1).is_inference()
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


@pytest.mark.parametrize("how", ["detect", "set"])
def test_engine_inline_path_checks_anomalies_from_the_first_use(how):
    import subprocess
    import sys
    code = f"""
import warnings
warnings.simplefilter("ignore")
import {{lib}}
def run():
    x = {{lib}}.tensor([0.0, 1.0], requires_grad=True)
    (x / x).sum().backward()
run()                                   # (no anomaly mode yet: NaN gradients pass)
how = {how!r}
try:
    if how == "detect":
        with {{lib}}.autograd.detect_anomaly():
            run()
    else:
        {{lib}}.autograd.set_detect_anomaly(True)
        run()
except RuntimeError as e:
    print(str(e).splitlines()[0])
"""
    outs = [subprocess.run([sys.executable, "-c", code.replace("{lib}", lib)],
                           capture_output=True, text=True).stdout for lib in ("ember", "torch")]
    assert "returned nan values" in outs[1]
    assert outs[0] == outs[1]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [8, 13, 31, 32, 35, 61, 127, 480, 1001, 4099])
def test_inner_sum_lanes_and_tails_are_torchs_bits(n, dtype):
    # vectorized_inner_sum: the lanes' vector (row_sum with its leftovers) and the scalar
    # tail in one sequential sum; signed zeros keep torch's sign
    from .helpers import torch
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 7, n)).astype(dtype)
    cases = [a, np.full(n, -0.0, dtype), np.where(rng.random(n) < 0.7, -0.0, a),
             np.stack([a, -a[::-1]], 1)]
    for x in cases:
        for dims in ((), (0,)):
            ours = ember.from_numpy(x.copy()).sum(dims)._data
            theirs = torch.from_numpy(x.copy()).sum(dims).numpy()
            assert ours.shape == theirs.shape and ours.tobytes() == theirs.tobytes()


@pytest.mark.parametrize("mode", ["enable_grad", "no_grad", "inference_mode"])
@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "uint16", "complex64"])
@pytest.mark.parametrize("kind", ["leaf", "requires_grad", "view", "view_of_requires_grad"])
def test_select_without_a_graph_is_the_op_path(mode, dtype, kind, monkeypatch):
    # a dataset's samples (x[i], x.select(d, i)) take the view inline when nothing records
    if "requires_grad" in kind and dtype[0] in "iu":
        pytest.skip("integral tensors cannot require grad")

    def made():
        a = np.arange(24).reshape(2, 3, 4).astype(dtype)
        x = ember.tensor(a, requires_grad=kind in ("requires_grad", "view_of_requires_grad"))
        if kind.startswith("view"):
            with ember.no_grad():
                v = x[...]
        else:
            v = x
        with getattr(ember, mode)():
            rs = [v[1], v[-2], v.select(1, 2), v.select(-1, -1), ember.select(v, 2, 0)]
        return x, v, rs

    def summary(x, v, rs):
        return [(_bits(r), r._base is (x if v._base is None else v._base), r._vc is x._vc,
                 r.__dict__.get("_cm"), None if r.grad_fn is None else r.grad_fn.name(),
                 r.requires_grad, r.is_inference(), tuple(r.stride()), r.is_conj())
                for r in rs]

    fast = summary(*made())
    with monkeypatch.context() as m:
        m.setattr(R, "PLAIN_RUNNERS", (None, None))      # the op's own path
        general = summary(*made())
    assert fast == general
    x, v, rs = made()
    if not x.requires_grad and mode != "inference_mode":  # a write through the view
        # reaches the base
        before = x._vc.value
        rs[0].fill_(7)
        assert x._vc.value > before and (x[1] == 7).all()


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int64", "int64"),
                                    ("int64", "float32"), ("float64", "float16")])
def test_stack_of_one_dtype_is_torchs(shape, dtypes):
    from .helpers import torch
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(shape).astype(dtypes[i % 2]) for i in range(5)]
    for dim in range(-len(shape) - 1, len(shape) + 1):
        ours = ember.stack([ember.from_numpy(a) for a in arrays], dim)
        theirs = torch.stack([torch.from_numpy(a) for a in arrays], dim)
        assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.stride()) == theirs.stride()
        assert ours._data.tobytes() == theirs.numpy().tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,dims", [((128, 256), ()), ((64, 1000), ()), ((4, 6, 28, 28), ()),
                                        ((4, 6, 28, 28), (0, 2, 3)), ((300, 16, 20), (0,)),
                                        ((16, 512), (1,)), ((3, 5000), ())])
def test_strided_cascade_blocks_are_torchs_bits(shape, dims, dtype):
    # the cascade's blocks of short runs are copied before NumPy adds their rows
    from .helpers import torch
    rng = np.random.default_rng(sum(shape))
    a = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 7, shape)).astype(dtype)
    for x in (a, np.where(rng.random(shape) < 0.5, -0.0, a)):
        ours = ember.from_numpy(x.copy()).sum(dims)._data
        theirs = torch.from_numpy(x.copy()).sum(dims).numpy()
        assert ours.shape == theirs.shape and ours.tobytes() == theirs.tobytes()
