"""The ``meta`` device against torch 2.13: tensors with a shape, dtype and strides but no data.

Each case runs with ember and with torch and compares what a meta tensor has (device, shape,
dtype, strides, storage offset, requires_grad, grad_fn), the printed text, the errors (class
and message) and, where data is real, the values.
"""

import copy
import io
import tracemalloc
import warnings

import pytest
import torch

import ember


def info(t):
    """What a tensor shows without data (and its values where it has them)."""
    if isinstance(t, (tuple, list)):
        return [info(x) for x in t]
    gf = t.grad_fn
    out = (t.device.type, t.is_meta, tuple(t.shape), str(t.dtype).split(".")[-1], t.stride(),
           t.storage_offset(), t.requires_grad, type(gf).__name__ if gf is not None else None,
           t.is_contiguous())
    return out if t.is_meta else out + (t.detach().tolist(),)


def outcome(fn, lib):
    try:
        return info(fn(lib))
    except Exception as e:      # noqa: BLE001  (the error is the outcome compared)
        return type(e).__name__, str(e)


def same(fn):
    e, t = outcome(fn, ember), outcome(fn, torch)
    assert e == t


def m(lib, *shape, **kw):
    return lib.empty(*shape, device="meta", **kw)


CREATE = {
    "empty": lambda t: t.empty(2, 3, device="meta"),
    "empty_int": lambda t: t.empty(4, dtype=t.int32, device="meta"),
    "zeros": lambda t: t.zeros(2, 3, device="meta"),
    "ones_rg": lambda t: t.ones(3, device="meta", requires_grad=True),
    "full": lambda t: t.full((2, 2), 7, device="meta"),
    "randn": lambda t: t.randn(3, 4, device="meta"),
    "rand": lambda t: t.rand(3, device="meta", dtype=t.float64),
    "randint": lambda t: t.randint(0, 5, (3,), device="meta"),
    "randperm": lambda t: t.randperm(5, device="meta"),
    "normal": lambda t: t.normal(0.0, 1.0, (2,), device="meta"),
    "arange": lambda t: t.arange(5, device="meta"),
    "linspace": lambda t: t.linspace(0, 1, 5, device="meta"),
    "eye": lambda t: t.eye(3, device="meta"),
    "tensor": lambda t: t.tensor([1.0, 2.0], device="meta"),
    "tensor_int": lambda t: t.tensor([1, 2], device="meta"),
    "zero_size": lambda t: t.empty(0, 3, device="meta"),
    "scalar": lambda t: t.empty((), device="meta"),
    "zeros_like_meta": lambda t: t.zeros_like(m(t, 2, 3)),
    "zeros_like_to_meta": lambda t: t.zeros_like(t.ones(2, 3), device="meta"),
    "randn_like": lambda t: t.randn_like(m(t, 2, 3)),
    "empty_like_t": lambda t: t.empty_like(m(t, 2, 3).t()),
    "full_like": lambda t: t.full_like(m(t, 2), 3.0),
    "new_empty": lambda t: m(t, 2).new_empty(3),
    "new_zeros": lambda t: m(t, 2).new_zeros(3, 2),
    "to_meta": lambda t: t.ones(2, 3).to("meta"),
    "to_meta_grad": lambda t: t.ones(2, requires_grad=True).to("meta"),
    "to_meta_dtype": lambda t: t.ones(2).to("meta", t.float64),
    "to_device_kw": lambda t: t.ones(2).to(device=t.device("meta")),
    "to_meta_like": lambda t: t.ones(2).to(m(t, 1, dtype=t.float64)),
    "meta_to_meta": lambda t: m(t, 2).to("meta"),
    "meta_to_dtype": lambda t: m(t, 2).to(t.float16),
    "empty_strided": lambda t: t.empty_strided((2, 3), (1, 2), device="meta"),
    "asarray": lambda t: t.asarray([1.0, 2.0], device="meta"),
    "as_tensor": lambda t: t.as_tensor([1.0, 2.0], device="meta"),
    "as_tensor_of_tensor": lambda t: t.as_tensor(t.ones(2), device="meta"),
    "tril_indices": lambda t: t.tril_indices(3, 3, device="meta"),
    "empty_channels_last": lambda t: t.empty(1, 2, 3, 4, device="meta",
                                             memory_format=t.channels_last),
    "contiguous_channels_last": lambda t: m(t, 1, 2, 3, 4).contiguous(
        memory_format=t.channels_last),
    "to_channels_last": lambda t: m(t, 1, 2, 3, 4).to(memory_format=t.channels_last),
    "new_tensor": lambda t: m(t, 2).new_tensor([1, 2]),
    "new_full": lambda t: m(t, 2).new_full((3,), 2.0),
}


@pytest.mark.parametrize("name", CREATE)
def test_creation(name):
    same(CREATE[name])


OPS = {
    "add_number": lambda t: m(t, 2, 3) + 1,
    "add_int_float": lambda t: m(t, 2, 3, dtype=t.int64) + m(t, 3),
    "add_int_number": lambda t: m(t, 2, dtype=t.int32) * 2.5,
    "compare": lambda t: m(t, 2, 3) > 0,
    "broadcast": lambda t: m(t, 4, 1, 3) * m(t, 2, 1),
    "bad_broadcast": lambda t: m(t, 2, 3) + m(t, 4),
    "matmul": lambda t: m(t, 2, 3) @ m(t, 2, 3).T,
    "matmul_batch": lambda t: m(t, 5, 2, 3) @ m(t, 3, 4),
    "matvec": lambda t: m(t, 2, 3) @ m(t, 3),
    "sum": lambda t: m(t, 2, 3).sum(),
    "sum_dim": lambda t: m(t, 2, 3).sum(1, keepdim=True),
    "sum_int": lambda t: m(t, 2, 3, dtype=t.int32).sum(),
    "mean": lambda t: m(t, 2, 3).mean(0),
    "max_dim": lambda t: m(t, 2, 3).max(1),
    "argmax": lambda t: m(t, 2, 3).argmax(),
    "cumsum": lambda t: m(t, 2, 3).cumsum(1),
    "unary_chain": lambda t: m(t, 2, 3).exp().log().sigmoid().tanh(),
    "relu": lambda t: t.relu(m(t, 2, 3)),
    "softmax": lambda t: t.softmax(m(t, 2, 3), 1),
    "cat": lambda t: t.cat([m(t, 2, 3), m(t, 1, 3)]),
    "stack": lambda t: t.stack([m(t, 2, 3), m(t, 2, 3)], 1),
    "where": lambda t: t.where(m(t, 2, 3) > 0, m(t, 2, 3), 0.0),
    "clone": lambda t: m(t, 2, 3).t().clone(),
    "contiguous": lambda t: m(t, 2, 3).t().contiguous(),
    "float_double": lambda t: m(t, 2, 3).double(),
    "view": lambda t: m(t, 2, 3).view(6),
    "reshape": lambda t: m(t, 2, 3).reshape(3, 2),
    "t": lambda t: m(t, 2, 3).t(),
    "T_slice": lambda t: m(t, 2, 3).T[1:],
    "permute": lambda t: m(t, 2, 3, 4).permute(2, 0, 1),
    "transpose": lambda t: m(t, 2, 3, 4).transpose(0, 2),
    "unsqueeze": lambda t: m(t, 2, 3).unsqueeze(0),
    "expand": lambda t: m(t, 2, 3).expand(4, 2, 3),
    "slice_cols": lambda t: m(t, 2, 3)[:, 1:],
    "select_row": lambda t: m(t, 2, 3)[1],
    "step_slice": lambda t: m(t, 10)[2::3],
    "narrow": lambda t: m(t, 4, 5).narrow(1, 1, 2),
    "chunk": lambda t: m(t, 6, 2).chunk(3),
    "linear": lambda t: t.nn.functional.linear(m(t, 5, 4), m(t, 3, 4), m(t, 3)),
    "layer_norm": lambda t: t.nn.functional.layer_norm(m(t, 2, 8), (8,)),
    "cross_entropy": lambda t: t.nn.functional.cross_entropy(m(t, 3, 4),
                                                             m(t, 3, dtype=t.int64)),
    "inplace_add": lambda t: m(t, 2, 3).add_(1),
    "inplace_fill": lambda t: m(t, 2, 3).fill_(2.0),
    "inplace_uniform": lambda t: m(t, 2, 3).uniform_(),
    "zero_": lambda t: m(t, 2).zero_(),
    "copy_from_cpu": lambda t: m(t, 2, 3).copy_(t.ones(2, 3)),
    "mul_cpu_scalar": lambda t: m(t, 2, 3) * t.tensor(2.0),
    "detach": lambda t: m(t, 2, requires_grad=True).detach(),
    "deepcopy": lambda t: copy.deepcopy(m(t, 2, 3).t()),
    "deepcopy_param": lambda t: copy.deepcopy(t.nn.Linear(2, 3, device="meta")).weight,
    "iter": lambda t: list(m(t, 2, 3)),
    "unbind": lambda t: m(t, 2, 3).unbind(1),
    "split": lambda t: m(t, 5, 3).split(2),
    "conv2d": lambda t: t.nn.functional.conv2d(m(t, 1, 3, 8, 8), m(t, 4, 3, 3, 3)),
    "max_pool2d": lambda t: t.nn.functional.max_pool2d(m(t, 1, 3, 8, 8), 2),
    "embedding": lambda t: t.nn.functional.embedding(m(t, 2, 3, dtype=t.int64), m(t, 10, 4)),
    "index_tensor": lambda t: m(t, 5, 3)[m(t, 2, dtype=t.int64)],
    "any": lambda t: m(t, 2).any(),
    "all_dim": lambda t: m(t, 2, 3).all(1),
    "norm": lambda t: m(t, 2, 3).norm(),
    "var": lambda t: m(t, 2, 3).var(1),
    "bmm": lambda t: t.bmm(m(t, 2, 3, 4), m(t, 2, 4, 5)),
    "einsum": lambda t: t.einsum("ij,jk->ik", m(t, 2, 3), m(t, 3, 4)),
    "sdpa": lambda t: t.nn.functional.scaled_dot_product_attention(
        m(t, 1, 2, 4, 8), m(t, 1, 2, 4, 8), m(t, 1, 2, 4, 8)),
    "gelu": lambda t: t.nn.functional.gelu(m(t, 2, 3)),
    "dropout": lambda t: t.nn.functional.dropout(m(t, 2, 3), 0.5),
    "topk": lambda t: m(t, 2, 5).topk(2),
    "sort": lambda t: m(t, 2, 5).sort(),
    "repeat": lambda t: m(t, 2, 3).repeat(2, 1),
    "flip": lambda t: m(t, 2, 3).flip(0),
    "pad": lambda t: t.nn.functional.pad(m(t, 2, 3), (1, 1)),
    "half_mm": lambda t: m(t, 2, 3, dtype=t.float16) @ m(t, 3, 2, dtype=t.float16),
    "bfloat16": lambda t: m(t, 2, 3, dtype=t.bfloat16) + 1,
    "complex": lambda t: m(t, 2, dtype=t.complex64) * 2,
    "inits": lambda t: [getattr(t.nn.init, f)(m(t, 4, 5)) for f in (
        "xavier_uniform_", "xavier_normal_", "kaiming_normal_", "trunc_normal_", "orthogonal_",
        "zeros_", "ones_", "eye_")],
}


@pytest.mark.parametrize("name", OPS)
def test_ops(name):
    same(OPS[name])


ERRORS = {
    "cpu": lambda t: m(t, 2, 3).cpu(),
    "to_cpu": lambda t: m(t, 2, 3).to("cpu"),
    "numpy": lambda t: m(t, 2, 3).numpy(),
    "item": lambda t: m(t, 1).item(),
    "item_many": lambda t: m(t, 2).item(),
    "tolist": lambda t: m(t, 2, 3).tolist(),
    "float": lambda t: float(m(t, ())),
    "int": lambda t: int(m(t, (), dtype=t.int64)),
    "bool": lambda t: bool(m(t, ())),
    "meta_plus_cpu": lambda t: m(t, 2, 3) + t.ones(2, 3),
    "cpu_plus_meta": lambda t: t.ones(2, 3) + m(t, 2, 3),
    "meta_mul_cpu": lambda t: m(t, 2, 3) * t.ones(2, 3),
    "meta_mm_cpu": lambda t: m(t, 2, 3) @ t.ones(3, 2),
    "cpu_copy_from_meta": lambda t: t.ones(2, 3).copy_(m(t, 2, 3)),
    "mm_shapes": lambda t: m(t, 2, 3).mm(m(t, 2, 3)),
    "view_bad": lambda t: m(t, 2, 3).view(4),
    "set_data": lambda t: t.ones(2).__setattr__("data", m(t, 2)),
    "cat_meta_cpu": lambda t: t.cat([m(t, 2, 3), t.ones(1, 3)]),
    "cat_cpu_meta": lambda t: t.cat([t.ones(1, 3), m(t, 2, 3)]),
    "stack_meta_cpu": lambda t: t.stack([m(t, 3), t.ones(3)]),
    "where_meta_cpu": lambda t: t.where(m(t, 3) > 0, t.ones(3), m(t, 3)),
    "mul_bad_broadcast": lambda t: m(t, 2, 3).mul(m(t, 2)),
    "format": lambda t: format(m(t, ()), ".2f"),
    "nonzero": lambda t: m(t, 5, 3).nonzero(),
    "bool_mask": lambda t: m(t, 5, 3)[m(t, 5, 3) > 0],
    "where_one": lambda t: t.where(m(t, 3) > 0),
    "equal": lambda t: m(t, 2).equal(m(t, 2)),
    "allclose": lambda t: t.allclose(m(t, 2), m(t, 2)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors(name):
    same(ERRORS[name])


PRINTS = {
    "plain": lambda t: m(t, 2, 3),
    "int64": lambda t: m(t, 2, dtype=t.int64),
    "bool": lambda t: m(t, 2, dtype=t.bool),
    "scalar": lambda t: m(t, ()),
    "empty": lambda t: m(t, 0, 3),
    "requires_grad": lambda t: m(t, 2, requires_grad=True),
    "grad_fn": lambda t: m(t, 2, requires_grad=True).sum(),
    "parameter": lambda t: t.nn.Linear(4, 3, device="meta").weight,
    "module": lambda t: t.nn.Linear(4, 3, device="meta"),
}


@pytest.mark.parametrize("name", PRINTS)
@pytest.mark.parametrize("form", [repr, str])
def test_printing(name, form):
    assert form(PRINTS[name](ember)) == form(PRINTS[name](torch))


def test_printing_float64_default():
    for lib in (ember, torch):
        lib.set_default_dtype(lib.float64)
    try:
        texts = [(repr(m(lib, 2)), repr(m(lib, 2, dtype=lib.float32)),
                  repr(m(lib, 2, dtype=lib.complex128))) for lib in (ember, torch)]
    finally:
        for lib in (ember, torch):
            lib.set_default_dtype(lib.float32)
    assert texts[0] == texts[1]


def test_device_and_flags():
    for lib in (ember, torch):
        x = m(lib, 2)
        assert x.is_meta and x.device.type == "meta" and x.device == lib.device("meta")
        assert not lib.ones(2).is_meta
        assert x.data_ptr() == 0 and x.nbytes == 8 and x.element_size() == 4


def test_random_inits_draw_nothing():
    """Initialising a model on meta consumes nothing from the CPU generator."""
    def run(lib):
        lib.manual_seed(0)
        lib.nn.Linear(4, 3, device="meta")
        with lib.device("meta"):
            lib.nn.Sequential(lib.nn.Linear(8, 8), lib.nn.Conv2d(3, 4, 3),
                              lib.nn.Embedding(5, 2), lib.nn.LayerNorm(4))
            lib.randn(5)
        m(lib, 4).normal_()
        return lib.randn(3).tolist()
    assert run(ember) == run(torch)


RANDOM = {
    "bernoulli": lambda t: t.bernoulli(m(t, 3)),
    "multinomial": lambda t: t.multinomial(m(t, 2, 3), 2),
    "dropout": lambda t: t.nn.functional.dropout(m(t, 4), 0.5),
    "dropout2d": lambda t: t.nn.functional.dropout2d(m(t, 1, 2, 3, 3), 0.5),
    "bernoulli_": lambda t: m(t, 3).bernoulli_(0.5),
    "randn_like": lambda t: t.randn_like(m(t, 3)),
    "rand_like_cpu_to_meta": lambda t: t.rand_like(t.ones(3), device="meta"),
}


@pytest.mark.parametrize("name", RANDOM)
def test_random_ops_draw_nothing(name):
    def run(lib):
        lib.manual_seed(0)
        out = info(RANDOM[name](lib))
        return out, lib.randn(2).tolist()
    assert run(ember) == run(torch)


def test_no_memory():
    """A meta tensor holds no elements: a 10^12-element one, and the results of elementwise
    ops and reductions on it, cost no memory."""
    def ops(x):
        return (x * 2 + 1).exp().sum(1), x.t().sum()
    ops(ember.empty(3, 4, device="meta"))      # (the first calls compile the ops' paths)
    tracemalloc.start()
    try:
        x = ember.empty(10 ** 6, 10 ** 6, device="meta")
        y, z = ops(x)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 ** 6
    assert info(y) == info(torch.empty(10 ** 6, 10 ** 6, device="meta").mul(2).add(1).exp()
                           .sum(1))
    assert z.shape == () and z.is_meta


def test_big_model_without_memory():
    """A meta model of 10^10 parameters: made, deep-copied and moved to meta without data."""
    def make():
        layer = ember.nn.Linear(10 ** 5, 10 ** 5, device="meta")
        return copy.deepcopy(layer).to("meta").to(ember.float16)
    make()
    tracemalloc.start()
    try:
        layer = make()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 ** 6
    assert layer.weight.is_meta and layer.weight.dtype is ember.float16


def _autograd(lib):
    w = lib.empty(3, 4, device="meta", requires_grad=True)
    b = lib.zeros(3, device="meta", requires_grad=True)
    x = lib.randn(5, 4, device="meta")
    y = lib.nn.functional.linear(x, w, b).relu()
    loss = lib.nn.functional.cross_entropy(y, lib.zeros(5, dtype=lib.int64, device="meta"))
    loss.backward()
    return info([loss, w.grad, b.grad])


def test_autograd():
    assert _autograd(ember) == _autograd(torch)


def _model(lib):
    return lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.LayerNorm(8),
                             lib.nn.Linear(8, 2))


def _model_backward(lib):
    with lib.device("meta"):
        model = _model(lib)
    out = model(lib.empty(5, 4, device="meta"))
    out.sum().backward()
    return info([out] + [p.grad for p in model.parameters()])


def test_model_forward_backward():
    assert _model_backward(ember) == _model_backward(torch)


def _load(lib, assign, strict=True, keep_vars=False, grads=True):
    lib.manual_seed(0)
    sd = _model(lib).state_dict(keep_vars=keep_vars)
    if not grads:
        sd = {k: v.detach().requires_grad_(False) for k, v in sd.items()}
    with lib.device("meta"):
        model = _model(lib)
    before = list(model.parameters())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = model.load_state_dict(sd, strict=strict, assign=assign)
    params = list(model.parameters())
    return (str(res), [str(w.message) for w in caught], info(params),
            [type(p).__name__ for p in params], [any(p is q for q in before) for p in params],
            [p is sd[k] for k, p in model.named_parameters()])


@pytest.mark.parametrize("case", [dict(assign=True), dict(assign=False),
                                  dict(assign=True, keep_vars=True),
                                  dict(assign=True, grads=False),
                                  dict(assign=True, strict=False)])
def test_load_state_dict(case):
    assert _load(ember, **case) == _load(torch, **case)


def _load_meta_into_cpu(lib, assign):
    model = lib.nn.Linear(2, 2)
    try:
        model.load_state_dict(lib.nn.Linear(2, 2, device="meta").state_dict(), assign=assign)
    except RuntimeError as e:
        return str(e)
    return info(model.weight)


@pytest.mark.parametrize("assign", [True, False])
def test_load_meta_into_cpu(assign):
    assert _load_meta_into_cpu(ember, assign) == _load_meta_into_cpu(torch, assign)


def _to_empty(lib, recurse):
    with lib.device("meta"):
        model = _model(lib)
    w = model[0].weight
    model.to_empty(device="cpu", recurse=recurse)
    return [(p.device.type, tuple(p.shape), p.requires_grad, type(p).__name__)
            for p in model.parameters()], model[0].weight is w


@pytest.mark.parametrize("recurse", [True, False])
def test_to_empty(recurse):
    assert _to_empty(ember, recurse) == _to_empty(torch, recurse)


def _module_to(lib):
    lib.manual_seed(0)
    model = _model(lib)
    w = model[0].weight
    model.to("meta")
    out = [info(list(model.parameters())), model[0].weight is w, w.device.type,
           str(model.state_dict())]
    try:
        model.cpu()
    except NotImplementedError as e:
        out.append(str(e))
    return out


def test_module_to_meta():
    assert _module_to(ember) == _module_to(torch)


def _default_device(lib):
    out = []
    lib.set_default_device("meta")
    try:
        out.append(info([lib.empty(2), lib.tensor([1.0]), lib.nn.Linear(2, 2).weight,
                         lib.zeros_like(lib.ones(2, device="cpu"))]))
        out.append(str(lib.get_default_device()))
    finally:
        lib.set_default_device(None)
    out.append(str(lib.get_default_device()))
    with lib.device("meta"):
        out.append(info(lib.ones(2)))
        with lib.device("cpu"):
            out.append(info(lib.ones(2)))
        out.append(str(lib.get_default_device()))
    out.append(info(lib.ones(2)))
    return out


def test_default_device():
    assert _default_device(ember) == _default_device(torch)


def _cpu_inside_meta_context(lib):
    """CPU tensors and modules named as such keep working under ``with device('meta')``."""
    lib.manual_seed(0)
    model, nn = _model(lib), lib.nn
    opt = lib.optim.Adam(model.parameters(), lr=0.1)
    x, y = lib.randn(5, 4), lib.tensor([0, 1, 0, 1, 0])
    with lib.device("meta"):
        for _ in range(2):
            loss = nn.functional.cross_entropy(model(x), y, label_smoothing=0.1)
            opt.zero_grad()
            loss.backward()
            opt.step()
        rnns = [nn.LSTM(4, 3, device="cpu"), nn.GRU(4, 3, device="cpu")]
        outs = [r(lib.ones(2, 1, 4, device="cpu"))[0] for r in rnns]
        cell = nn.LSTMCell(4, 3, device="cpu")(lib.ones(2, 4, device="cpu"))[0]
    return info([loss, *outs, cell])


def test_cpu_inside_meta_context():
    assert _cpu_inside_meta_context(ember) == _cpu_inside_meta_context(torch)


MODULES = {
    "batch_norm": lambda t: t.nn.BatchNorm1d(3, device="meta").state_dict(),
    "square_mask": lambda t: t.nn.Transformer.generate_square_subsequent_mask(3, device="meta"),
    "embedding": lambda t: t.nn.Embedding(5, 2, device="meta")(m(t, 3, dtype=t.int64)),
    "conv": lambda t: t.nn.Conv2d(3, 4, 3, device="meta")(m(t, 1, 3, 8, 8)),
}


@pytest.mark.parametrize("name", MODULES)
def test_modules(name):
    def run(lib):
        out = MODULES[name](lib)
        return info(list(out.values())) if isinstance(out, dict) else info(out)
    assert run(ember) == run(torch)


@pytest.mark.parametrize("writer", ["ember", "torch"])
def test_save_load(writer):
    """Meta tensors and parameters are saved without storage, as torch saves them, and
    read back as meta tensors by either library."""
    def saved(lib):
        buf = io.BytesIO()
        lib.save({"t": m(lib, 2, 3).t(), "rg": m(lib, 2, requires_grad=True),
                  "p": lib.nn.Linear(2, 3, device="meta").weight}, buf)
        return buf.getvalue()
    data = saved(ember if writer == "ember" else torch)
    out = [info(list(lib.load(io.BytesIO(data)).values())) for lib in (ember, torch)]
    assert out[0] == out[1]


def test_subclassed_arrays_are_no_stand_ins(tmp_path):
    """Only a meta tensor's array is a stand-in: a tensor over a NumPy subclass (a memmap)
    sums in torch's order and runs torch's elementwise kernels and products."""
    import numpy as np
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(5000) * np.exp(rng.standard_normal(5000) * 3)).astype(np.float32)
    mm = np.memmap(tmp_path / "x.bin", dtype=np.float32, mode="w+", shape=x.shape)
    mm[:] = x
    for fn in (lambda t: t.sum(), lambda t: torch.nn.functional.gelu(t, approximate="tanh")
               if isinstance(t, torch.Tensor) else ember.nn.functional.gelu(t, approximate="tanh")):
        got, want = fn(ember.from_numpy(mm)).numpy(), fn(torch.from_numpy(x.copy())).numpy()
        assert got.tobytes() == want.tobytes()
    w = rng.standard_normal((50, 100)).astype(np.float32)
    want = torch.nn.functional.linear(torch.from_numpy(x.reshape(50, 100)), torch.from_numpy(w))
    for make in (ember.from_numpy, ember.as_tensor):
        t = make(mm)
        assert np.shares_memory(t.numpy(), mm)
        got = ember.nn.functional.linear(t.reshape(50, 100), ember.from_numpy(w))
        assert got.numpy().tobytes() == want.numpy().tobytes()      # (MKL's sgemm, as torch's)
