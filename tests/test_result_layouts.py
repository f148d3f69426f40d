"""Pointwise results are laid out as torch's TensorIterator lays them out: in the dim order of
the inputs' strides, the first input that tells two dims apart deciding (NumPy's ufuncs fall
back to C order where their inputs disagree, and Ember's exact kernels compute on flat
copies). The layout decides ``stride()``, ``is_contiguous()``, whether ``view`` works, and the
order in which a later reduction adds."""

import itertools

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

SHAPES = [(3, 4), (2, 3, 4), (4, 1, 3)]
KINDS = "ctpsbr"


def make(lib, kind, shape):
    """A float tensor of ``shape`` in layout ``kind``: C-contiguous, transposed, permuted,
    strided, broadcast along the last dim, or along the first."""
    n = int(np.prod(shape))
    base = lib.arange(float(n)).add(1.0)
    nd = len(shape)
    if kind == "c":
        return base.reshape(shape)
    if kind == "t":
        return base.reshape(shape[::-1]).permute(*range(nd)[::-1])
    if kind == "p":
        return base.reshape(shape[1:] + shape[:1]).permute(nd - 1, *range(nd - 1))
    if kind == "s":
        return lib.arange(float(2 * n)).reshape(*shape[:-1], 2 * shape[-1])[..., ::2]
    if kind == "b":
        return base.reshape(shape)[..., :1]
    return base.reshape(shape)[:1]


BINARY = {
    "add": lambda lib, a, b: a + b,
    "mul": lambda lib, a, b: lib.mul(a, b),
    "sub_alpha": lambda lib, a, b: lib.sub(a, b, alpha=2),
    "atan2": lambda lib, a, b: lib.atan2(a, b),
    "maximum": lambda lib, a, b: lib.maximum(a, b),
    "eq": lambda lib, a, b: a == b,
    "where": lambda lib, a, b: lib.where(a > 2, a, b),
    "addcmul": lambda lib, a, b: lib.addcmul(a, b, a, value=0.5),
    "clamp": lambda lib, a, b: lib.clamp(a, min=b),
    "pow": lambda lib, a, b: lib.pow(a, b),
    "hypot": lambda lib, a, b: lib.hypot(a, b),
    "div": lambda lib, a, b: a / b,
    "lerp": lambda lib, a, b: lib.lerp(a, b, 0.3),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_layouts(name):
    fn = BINARY[name]
    for shape in SHAPES:
        for k1, k2 in itertools.product(KINDS, repeat=2):
            if name == "lerp" and 1 in shape:
                continue    # torch's lerp orders size-1 dims by size (only their strides)
            got = fn(ember, make(ember, k1, shape), make(ember, k2, shape))
            want = fn(torch, make(torch, k1, shape), make(torch, k2, shape))
            assert got.stride() == want.stride(), (shape, k1, k2)
            np.testing.assert_array_equal(got.numpy(), want.numpy())


UNARY = ["exp", "expm1", "log1p", "sinh", "cosh", "tanh", "sigmoid", "lgamma", "digamma",
         "sinc", "sqrt", "abs", "neg", "floor", "erf"]
ACTIVATIONS = ["gelu", "silu", "mish", "elu", "selu", "celu", "softplus", "logsigmoid",
               "hardswish", "relu"]


@pytest.mark.parametrize("name", UNARY + ACTIVATIONS)
def test_unary_layouts(name):
    for shape in [(5, 7), (2, 3, 4), (4, 1, 3)]:
        nd = len(shape)
        results = []
        for lib in (ember, torch):
            x = lib.linspace(0.1, 0.9, int(np.prod(shape)))
            x = x.reshape(shape[1:] + shape[:1]).permute(nd - 1, *range(nd - 1))
            fn = getattr(lib, name, None) if name in UNARY else getattr(lib.nn.functional, name)
            results.append(fn(x))
        got, want = results
        assert got.stride() == want.stride(), shape
        assert got.is_contiguous() == want.is_contiguous()


def test_view_of_a_transposed_sum_fails_as_in_torch():
    for lib in (ember, torch):
        a = lib.ones(3, 4).t()
        b = lib.ones(4, 3)
        with pytest.raises(RuntimeError, match="view size is not compatible"):
            (a + b).view(-1)


def test_reduction_after_a_transposed_sum_adds_in_torch_order():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((257, 129)).astype(np.float32)
    y = rng.standard_normal((129, 257)).astype(np.float32)
    got = (ember.tensor(x).t() * ember.tensor(y)).sum(1)
    want = (torch.tensor(x).t() * torch.tensor(y)).sum(1)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_grads_keep_torch_layouts():
    for lib in (ember, torch):
        w = lib.ones(3, 4, requires_grad=True)
        b = lib.ones(4, 3)
        (w.t() * b).exp().sum().backward()
    ew = ember.ones(3, 4, requires_grad=True)
    tw = torch.ones(3, 4, requires_grad=True)
    for lib, w in ((ember, ew), (torch, tw)):
        (w.t() * lib.arange(12.).reshape(4, 3)).sigmoid().sum().backward()
    assert ew.grad.stride() == tw.grad.stride()
    np.testing.assert_array_equal(ew.grad.numpy(), tw.grad.numpy())


OTHERS = {
    "cumsum": lambda lib, x: x.cumsum(0),
    "cumprod": lambda lib, x: x.cumprod(1),
    "masked_fill": lambda lib, x: x.masked_fill(x > 0.5, 0.0),
    "cat": lambda lib, x: lib.cat([x, x], 1),
    "stack": lambda lib, x: lib.stack([x, x]),
    "sort": lambda lib, x: x.sort(1)[0],
    "sort_indices": lambda lib, x: x.sort(0)[1],
    "argsort": lambda lib, x: x.argsort(1),
    "flip": lambda lib, x: x.flip(0),
    "roll": lambda lib, x: x.roll(1, 0),
}


@pytest.mark.parametrize("name", sorted(OTHERS))
def test_other_ops_layouts(name):
    fn = OTHERS[name]
    got, want = (fn(lib, lib.linspace(0.05, 0.95, 35).reshape(7, 5).t()) for lib in (ember, torch))
    assert got.stride() == want.stride()
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_cat_of_channels_last_stays_channels_last():
    for lib in (ember, torch):
        a = lib.ones(2, 3, 4, 5).to(memory_format=lib.channels_last)
        assert lib.cat([a, a], 1).is_contiguous(memory_format=lib.channels_last)
        assert lib.cat([a, lib.ones(2, 3, 4, 5)]).is_contiguous()


@pytest.mark.parametrize("name", ["rand_like", "randn_like", "randint_like"])
def test_random_like_draws_in_memory_order(name):
    """``rand_like(x.t())`` is ``empty_like(x.t()).uniform_()``: the draws fill memory in
    order, so a transposed input gets other values at each index than a contiguous one."""
    results = []
    for lib in (ember, torch):
        lib.manual_seed(0)
        x = lib.zeros(20, 30).t()
        args = (10,) if name == "randint_like" else ()
        results.append(getattr(lib, name)(x, *args))
    got, want = results
    assert got.stride() == want.stride()
    np.testing.assert_array_equal(got.numpy(), want.numpy())


CHANNELS_LAST = {
    "pad": lambda lib, x: lib.nn.functional.pad(x, (1, 1, 1, 1)),
    "pad_reflect": lambda lib, x: lib.nn.functional.pad(x, (1, 1, 1, 1), mode="reflect"),
    "pad_replicate": lambda lib, x: lib.nn.functional.pad(x, (1, 2, 0, 1), mode="replicate"),
    "max_pool_indices": lambda lib, x: lib.nn.functional.max_pool2d(x, 2,
                                                                     return_indices=True)[1],
}


@pytest.mark.parametrize("name", sorted(CHANNELS_LAST))
def test_channels_last_layouts(name):
    fn = CHANNELS_LAST[name]
    results = []
    for lib in (ember, torch):
        x = lib.linspace(0.05, 0.95, 216).reshape(2, 3, 6, 6)
        results.append((fn(lib, x.to(memory_format=lib.channels_last)),
                        fn(lib, x.permute(2, 1, 0, 3)[:, :, :2])))
    for got, want in zip(*results):
        assert got.stride() == want.stride()
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_dtype_conversion_of_a_non_dense_input_is_dense():
    for make_input in (lambda lib: lib.linspace(0.1, 0.9, 4).expand(3, 4),
                       lambda lib: lib.ones(2, 3, 4, 5).to(memory_format=lib.channels_last)[:, :2],
                       lambda lib: lib.ones(3, 4).t()):
        got, want = (make_input(lib).double() for lib in (ember, torch))
        assert got.stride() == want.stride()


RANDOM_LAYOUTS = {
    "bernoulli_": lambda lib, p: lib.zeros(30, 20).t().bernoulli_(p),
    "bernoulli_broadcast": lambda lib, p: lib.zeros(30, 20).t().bernoulli_(p[:1]),
    "alpha_dropout": lambda lib, p: lib.nn.functional.alpha_dropout(p, 0.3, True),
    "gumbel_softmax": lambda lib, p: lib.nn.functional.gumbel_softmax(p.log(), tau=0.5),
    "gumbel_softmax_hard": lambda lib, p: lib.nn.functional.gumbel_softmax(p.log(), hard=True),
}


@pytest.mark.parametrize("name", sorted(RANDOM_LAYOUTS))
def test_random_draws_follow_torchs_layout(name):
    """Draws land where torch's do for a transposed input: in its memory order where torch
    fills ``empty_like`` (``bernoulli_``, ``alpha_dropout``), in C order where torch asks for
    a contiguous buffer (``gumbel_softmax``)."""
    probs = np.linspace(0.05, 0.95, 600).reshape(20, 30).astype(np.float32)
    results = []
    for lib in (ember, torch):
        lib.manual_seed(0)
        y = RANDOM_LAYOUTS[name](lib, lib.tensor(probs.T.copy()).t())
        results.append((y.stride(), y.numpy().tobytes()))
    assert results[0] == results[1]


@pytest.mark.parametrize("name", ["mul", "atan2", "maximum", "exp", "sigmoid", "expm1"])
def test_general_path_lays_out_as_the_fast_path(name):
    """The registry's general runner and an op's generated fast path give one layout."""
    from ember._ops import registry
    a = ember.linspace(0.1, 0.9, 12).reshape(4, 3).t()
    b = ember.linspace(0.2, 0.8, 12).reshape(3, 4)
    fn = getattr(ember, name)          # (loads the op's family)
    d = registry.OPS[name]
    args = (a, b) if len(d.tensor_idx) > 1 else (a,)
    fast = fn(*args)
    general = registry.run(d, args)
    assert fast.stride() == general.stride() == (1, 3)
    np.testing.assert_array_equal(fast.numpy(), general.numpy())


def test_stack_is_cat_then_a_view_as_torch():
    """torch stacks along an existing dim as ``cat(…, dim).view(…)`` (channels-last inputs
    keep their layout under the new dim) and at the end as a cat of unsqueezed inputs."""
    for make in (lambda lib: lib.arange(120.0).reshape(2, 3, 4, 5)
                 .to(memory_format=lib.channels_last),
                 lambda lib: lib.arange(12.0).reshape(3, 4).t()):
        for d in range(make(torch).ndim + 1):
            got, want = (lib.stack([make(lib), make(lib) * 2], d) for lib in (ember, torch))
            assert got.stride() == want.stride(), d
            np.testing.assert_array_equal(got.numpy(), want.numpy())
