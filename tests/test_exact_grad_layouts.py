"""Activation gradients bit for bit with torch's when the incoming gradient is laid out
otherwise than the input: the expanded gradient of ``sum``/``mean`` (stride 0), of a
reduction over one dim, of a transposed use. torch's TensorIterator then runs its vector
loop with the broadcast operand as one value, or its one-by-one loop (Sleef's functions in
the first, glibc's in the second, so the bits tell them apart). Also the kernels whose
multiply-adds the compiler fuses (``tanh``'s), and ``log_sigmoid``'s, which reads the
forward's buffer ``exp(-|x|)``."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402

FUNCTIONS = ["mish", "softplus", "elu", "silu", "gelu", "gelu_tanh", "celu", "selu",
             "logsigmoid", "hardswish", "sigmoid", "tanh"]
REDUCTIONS = {
    "sum": lambda L, y: y.sum(),
    "mean": lambda L, y: y.mean(),
    "sum over dim 1": lambda L, y: y.sum(1).pow(2).sum(),
    "sum over dim 0": lambda L, y: y.sum(0).pow(2).sum(),
    "keepdim": lambda L, y: y.sum(-1, keepdim=True).sum(),
    "dense": lambda L, y: (y * L.ones_like(y).cumsum(0)).sum(),
    "transposed": lambda L, y: (y.t() * L.ones(y.shape[::-1]).cumsum(1)).sum(),
}


def _apply(lib, name, x):
    if name == "gelu_tanh":
        return lib.nn.functional.gelu(x, approximate="tanh")
    if name in ("sigmoid", "tanh"):
        return getattr(x, name)()
    return getattr(lib.nn.functional, name)(x)


def _grad(lib, name, a, reduce):
    x = lib.tensor(a, requires_grad=True)
    reduce(lib, _apply(lib, name, x)).backward()
    return x.grad.numpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_gradient_bits_under_every_gradient_layout(name, dtype):
    rng = np.random.default_rng(3)
    for shape in [(37, 70), (300, 120), (5, 1), (1, 33)]:
        a = (rng.standard_normal(shape) * 3).astype(dtype)
        for rname, reduce in REDUCTIONS.items():
            want = _grad(torch, name, a, reduce)
            got = _grad(ember, name, a, reduce)
            assert np.array_equal(want.view(np.uint8), got.view(np.uint8)), (shape, rname)


def test_three_dims_with_a_partly_broadcast_gradient():
    a = np.random.default_rng(4).standard_normal((4, 3, 50)).astype(np.float32)
    for reduce in (lambda L, y: y.sum((0, 2)).pow(2).sum(),
                   lambda L, y: y.sum(1).pow(2).sum(),
                   lambda L, y: y.sum()):
        for name in ("silu", "mish", "gelu_tanh", "tanh"):
            assert np.array_equal(_grad(torch, name, a, reduce), _grad(ember, name, a, reduce))


def test_binary_mask_follows_tensor_iterator():
    from ember._ops import _sleef
    x = np.zeros((37, 70), np.float32)
    full = np.broadcast_to(np.float32(1), x.shape)
    rows = np.broadcast_to(np.ones((37, 1), np.float32), x.shape)
    same = _sleef._scalar_mask(x)
    assert np.array_equal(_sleef.binary_mask(full, x), same)        # one value: vectors
    per_row = _sleef.binary_mask(rows, x)                             # a tail in every row
    assert per_row[:, 64:].all() and not per_row[:, :64].any()
    assert _sleef.binary_mask(x.T.copy().T, x).all()                 # strided: one by one


def test_double_backward_still_differentiates():
    for L in (torch, ember):
        x = L.tensor([0.3, -1.2, 2.0], dtype=L.float64, requires_grad=True)
        for f in (lambda v: v.tanh(), L.nn.functional.logsigmoid):
            assert L.autograd.gradgradcheck(f, (x,))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("exponent", [0, 1, 0.0, 1.0])
def test_pow_zero_and_one_fill_and_copy(dtype, exponent):
    vals = [0.0, -0.0, 1.5, -2.5, float("nan"), float("inf"), -float("inf"), 1e-40, -3.0]
    want = torch.tensor(vals, dtype=getattr(torch, dtype)).pow(exponent)
    got = ember.tensor(vals, dtype=getattr(ember, dtype)).pow(exponent)
    assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
    assert np.array_equal(want.float().numpy(), got.float().numpy(), equal_nan=True)
    assert np.array_equal(np.signbit(want.float().numpy()), np.signbit(got.float().numpy()))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_layer_norm_backward_is_torchs_kernel(dtype, threads):
    rng = np.random.default_rng(1)
    saved = torch.get_num_threads(), ember.get_num_threads()
    torch.set_num_threads(threads)
    ember.set_num_threads(threads)
    try:
        for shape, ns in [((7, 10), (10,)), ((4, 5, 37), (37,)), ((3, 4, 6), (4, 6)),
                          ((8, 300), (300,)), ((1, 16), (16,)), ((5,), (5,))]:
            for affine in (True, False):
                x, g = (rng.standard_normal(shape).astype(dtype) for _ in range(2))
                w, b = (rng.standard_normal(ns).astype(dtype) for _ in range(2))
                out = []
                for L in (torch, ember):
                    X = L.tensor(x, requires_grad=True)
                    W, B = ((L.tensor(w, requires_grad=True), L.tensor(b, requires_grad=True))
                            if affine else (None, None))
                    (L.nn.functional.layer_norm(X, ns, W, B) * L.tensor(g)).sum().backward()
                    out.append([X.grad.numpy()] + ([W.grad.numpy(), B.grad.numpy()]
                                                   if affine else []))
                for want, got in zip(*out):
                    assert np.array_equal(want, got), (shape, ns, affine)
    finally:
        torch.set_num_threads(saved[0])
        ember.set_num_threads(saved[1])


def test_layer_norm_double_backward_stays_differentiable():
    x = ember.randn(3, 5, dtype=ember.float64, requires_grad=True)
    w = ember.randn(5, dtype=ember.float64, requires_grad=True)
    assert ember.autograd.gradgradcheck(
        lambda a, b: ember.nn.functional.layer_norm(a, (5,), b), (x, w))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_formula_gradients_group_as_torchs(dtype):
    """``derivatives.yaml``'s expressions evaluate left to right: ``grad * other * recip``
    for atan2 (recip 0 where the sum of squares is 0), ``grad * self / result`` for hypot,
    ``grad * result * M_LN2`` for exp2."""
    rng = np.random.default_rng(5)
    a, b, g = (rng.standard_normal((37, 70)).astype(dtype) for _ in range(3))
    a[0, :3] = b[0, :3] = 0
    cases = [("atan2", lambda L, x, y: L.atan2(x, y)), ("exp2", lambda L, x, y: x.exp2())]
    if dtype == "float32":          # float64 hypot: Sleef's hypot_u05 is not emulated
        cases.append(("hypot", lambda L, x, y: L.hypot(x, y)))
    for name, f in cases:
        out = []
        for L in (torch, ember):
            x, y = L.tensor(a, requires_grad=True), L.tensor(b, requires_grad=True)
            (f(L, x, y) * L.tensor(g)).sum().backward()
            out.append([x.grad.numpy()] + ([] if y.grad is None else [y.grad.numpy()]))
        for want, got in zip(*out):
            assert np.array_equal(want, got, equal_nan=True), name


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_group_norm_backward_is_torchs_kernel(dtype, threads):
    # one thread, or N * groups == 1, runs parallel_for's inlined copy of the kernel, whose
    # compiler turns the gamma-weighted tail of a group's channels (C / groups past a
    # multiple of the vector) into half vectors of rounded products
    for seed in range(2):
        rng = np.random.default_rng(seed)
        for shape, groups in [((2, 6, 5, 5), 3), ((3, 32, 4, 4), 8), ((2, 20, 7), 4),
                              ((2, 64, 3, 3), 4), ((4, 6, 33), 2), ((2, 4), 2),
                              ((3, 48, 2, 2, 2), 6), ((2, 24, 50), 1), ((1, 6, 5), 1),
                              ((1, 3, 7, 7), 1), ((1, 20, 9), 1), ((1, 13, 3), 1),
                              ((2, 14, 3), 1), ((1, 30, 2, 3), 3)]:
            for affine in (True, False):
                x, g = (rng.standard_normal(shape).astype(dtype) for _ in range(2))
                w, b = (rng.standard_normal(shape[1]).astype(dtype) for _ in range(2))
                out = []
                for L in (torch, ember):
                    X = L.tensor(x, requires_grad=True)
                    W, B = ((L.tensor(w, requires_grad=True), L.tensor(b, requires_grad=True))
                            if affine else (None, None))
                    (L.nn.functional.group_norm(X, groups, W, B) * L.tensor(g)).sum().backward()
                    out.append([X.grad.numpy()] + ([W.grad.numpy(), B.grad.numpy()]
                                                   if affine else []))
                for want, got in zip(*out):
                    assert np.array_equal(want, got), (shape, groups, affine)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("scale_grad_by_freq", [False, True])
@pytest.mark.parametrize("padding_idx", [None, 2, -1])
def test_embedding_backward_adds_in_order_in_the_dtype(dtype, scale_grad_by_freq, padding_idx):
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((10, 6)).astype(dtype)
    idx = rng.integers(0, 10, (7, 13))
    g = rng.standard_normal((7, 13, 6)).astype(dtype)
    out = []
    for L in (torch, ember):
        w = L.tensor(w0, requires_grad=True)
        y = L.nn.functional.embedding(L.tensor(idx), w, padding_idx=padding_idx,
                                      scale_grad_by_freq=scale_grad_by_freq)
        (y * L.tensor(g)).sum().backward()
        out.append(w.grad.numpy())
    assert np.array_equal(*out)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_more_kernels_and_formulas_are_torchs(dtype):
    """glu's kernel (Sleef's exp in the vectors) and backward, sinc's and log10's
    gradients (derivatives.yaml's grouping and literal), soft_margin_loss's kernels."""
    rng = np.random.default_rng(9)
    a = rng.standard_normal((38, 70)).astype(dtype)
    t = np.sign(rng.standard_normal((38, 70))).astype(dtype)
    cases = [lambda L, x: L.nn.functional.glu(x, 1), lambda L, x: L.nn.functional.glu(x, 0),
             lambda L, x: x.sinc(), lambda L, x: (x.abs() + 0.1).log10(),
             lambda L, x: L.nn.functional.soft_margin_loss(x, L.tensor(t))]
    for f in cases:
        out = []
        for L in (torch, ember):
            x = L.tensor(a, requires_grad=True)
            y = f(L, x)
            g = np.arange(y.numel(), dtype=dtype).reshape(y.shape) * 0.01
            (y * L.tensor(g)).sum().backward()
            out.append((y.detach().numpy(), x.grad.numpy()))
        assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_scalar_base_pow_and_addcdiv_are_torchs(dtype):
    """``2.5 ** x`` runs pow(tensor, tensor) with the base as one value into a contiguous
    output (one by one when the exponent is transposed); base 0's exponent gradient is 0
    where the exponent is >= 0; addcdiv's ``value / tensor2`` divides."""
    rng = np.random.default_rng(0)
    for base in (2.5, 2, 0, 10):
        for shape, transpose in [((37, 70), False), ((37, 70), True), ((5,), False), ((), False)]:
            a = (rng.standard_normal(shape) * 3).astype(dtype)
            out = []
            for L in (torch, ember):
                x = L.tensor(a, requires_grad=True)
                y = base ** (x.t() if transpose else x)
                (y * 1.5).sum().backward()
                out.append((y.detach().numpy(), x.grad.numpy()))
            assert np.array_equal(out[0][0], out[1][0], equal_nan=True), (base, shape)
            assert np.array_equal(out[0][1], out[1][1], equal_nan=True), (base, shape)
    a, b = (rng.standard_normal((37, 70)).astype(dtype) for _ in range(2))
    out = []
    for L in (torch, ember):
        x = L.tensor(a, requires_grad=True)
        L.addcdiv(x, x, L.tensor(np.abs(b) + 1), value=0.3).sum().backward()
        out.append(x.grad.numpy())
    assert np.array_equal(*out)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta",
                                  "Adamax", "NAdam", "RAdam", "ASGD", "Rprop"])
def test_maximize_on_a_zero_dim_parameter_steps_as_torch(name):
    """``maximize`` negated a 0-d gradient into a NumPy scalar, which SGD's momentum buffer
    then could not be updated in place."""
    kw = {"lr": 0.01} | ({"momentum": 0.9} if name == "SGD" else {})
    rng = np.random.default_rng(2)
    grads = rng.standard_normal(4).astype(np.float32)
    out = []
    for L in (torch, ember):
        p = L.nn.Parameter(L.tensor(np.float32(0.5)))
        opt = getattr(L.optim, name)([p], maximize=True, **kw)
        for g in grads:
            p.grad = L.tensor(g)
            opt.step()
        out.append(p.detach().numpy())
    assert np.array_equal(*out)


def test_var_and_std_over_dims_of_size_one():
    """``var``/``std`` over a dim of size 1 (or every dim of a one-element tensor) crashed:
    the Welford path took a kept dim for the reduced one, the all-element path read a
    one-element mean as a number."""
    import warnings
    for shape in ((1, 9), (1, 3, 4), (2, 1, 5), (3, 1), (1, 1), ()):
        b = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        for d in list(range(len(shape))) + [None]:
            for f in ("var", "std", "var_mean"):
                for kw in ({}, {"correction": 0}, {"keepdim": True}):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        want = getattr(torch, f)(torch.tensor(b), d, **kw)
                        got = getattr(ember, f)(ember.tensor(b), d, **kw)
                    for w, g in zip(*(([x] if not isinstance(x, tuple) else x)
                                      for x in (want, got))):
                        assert w.shape == tuple(g.shape)
                        assert np.array_equal(w.numpy(), g.numpy(), equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_batch_norm_eval_backward_is_torchs_kernel(dtype):
    """A frozen (evaluation-mode) BatchNorm's gradients: ``dy * invstd * w`` with the
    kernel's double invstd, and the training kernel's reductions around the running mean."""
    rng = np.random.default_rng(0)
    for shape, channels_last in [((4, 3, 5), False), ((8, 3), False), ((2, 4, 3, 3), False),
                                 ((2, 4, 3, 3), True), ((5, 16, 7), False)]:
        c = shape[1]
        x, g = (rng.standard_normal(shape).astype(dtype) for _ in range(2))
        rm, rv = rng.standard_normal(c).astype(dtype), (rng.random(c) + 0.5).astype(dtype)
        w, b = (rng.standard_normal(c).astype(dtype) for _ in range(2))
        out = []
        for L in (torch, ember):
            X = L.tensor(x, requires_grad=True)
            X2 = X.contiguous(memory_format=L.channels_last) if channels_last else X
            W, B = L.tensor(w, requires_grad=True), L.tensor(b, requires_grad=True)
            y = L.nn.functional.batch_norm(X2, L.tensor(rm), L.tensor(rv), W, B, training=False)
            (y * L.tensor(g)).sum().backward()
            out.append([X.grad.numpy(), W.grad.numpy(), B.grad.numpy()])
        for want, got in zip(*out):
            assert np.array_equal(want, got), (shape, channels_last)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_gradients_add_in_torchs_order(dtype, mode):
    """Reflect/replicate: ``cpu_padding_backward`` adds each output position into its input
    one in order, in the dtype; circular: ATen's composite pads the last dim first."""
    rng = np.random.default_rng(1)
    for shape, pad in [((1, 2, 5, 6), (1, 2, 2, 1)), ((2, 3, 7), (3, 2)),
                       ((1, 1, 3, 4, 5), (1, 1, 2, 1, 1, 2))]:
        a = rng.standard_normal(shape).astype(dtype)
        out = []
        for L in (torch, ember):
            x = L.tensor(a, requires_grad=True)
            y = L.nn.functional.pad(x, pad, mode=mode)
            g = np.random.default_rng(2).standard_normal(tuple(y.shape)).astype(dtype)
            (y * L.tensor(g)).sum().backward()
            out.append((y.detach().numpy(), x.grad.numpy()))
        assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cumprod_backward_with_zeros_is_torchs_linear_path(dtype):
    rng = np.random.default_rng(0)
    for shape, dim in [((6, 9), 1), ((6, 9), 0), ((3, 4, 5), 2), ((10,), 0)]:
        for frac in (0.1, 0.5):
            a = np.where(rng.random(shape) < frac, 0, rng.standard_normal(shape)).astype(dtype)
            g = rng.standard_normal(shape).astype(dtype)
            out = []
            for L in (torch, ember):
                x = L.tensor(a, requires_grad=True)
                (x.cumprod(dim) * L.tensor(g)).sum().backward()
                out.append(x.grad.numpy())
            assert np.array_equal(*out), (shape, dim, frac)


def test_dropout_draws_in_the_inputs_memory_order_and_init_sparse():
    """dropout's noise is ``empty_like(input)`` (the input's layout, strided inputs given
    dense strides in their dim order), filled in memory order; ``nn.init.sparse_``."""
    cases = [lambda L: L.nn.functional.dropout(L.ones(8, 9).t(), 0.4),
             lambda L: L.nn.functional.dropout(L.ones(8, 9)[:, ::2], 0.4),
             lambda L: L.nn.functional.dropout(L.ones(2, 3, 4).permute(2, 0, 1), 0.3),
             lambda L: L.nn.init.sparse_(L.empty(6, 4), 0.5),
             lambda L: L.nn.init.sparse_(L.empty(5, 3), 0.3, std=1,
                                         generator=L.Generator().manual_seed(3))]
    for f in cases:
        out = []
        for L in (torch, ember):
            L.manual_seed(5)
            out.append(f(L).numpy())
        assert np.array_equal(*out)
    for L in (torch, ember):
        x = L.ones(4, 5, 6).permute(2, 0, 1)[::2, :, 1:]
        out.append(L.empty_like(x).stride())
    assert out[-1] == out[-2]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_hardsigmoid_gradient_multiplies_by_the_float_sixth(dtype):
    a = (np.random.default_rng(4).standard_normal((30, 70)) * 3).astype(dtype)
    g = np.random.default_rng(5).standard_normal((30, 70)).astype(dtype)
    out = []
    for L in (torch, ember):
        x = L.tensor(a, requires_grad=True)
        (L.nn.functional.hardsigmoid(x) * L.tensor(g)).sum().backward()
        out.append(x.grad.numpy())
    assert np.array_equal(*out)


def test_grad_scan_tool_runs():
    import subprocess
    import sys
    root = __import__("pathlib").Path(__file__).resolve().parents[1]
    res = subprocess.run([sys.executable, str(root / "tools" / "grad_scan.py"), "--only",
                          "layer_norm"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and "4 of 4 cases identical" in res.stdout
