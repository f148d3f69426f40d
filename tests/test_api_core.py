"""dtypes (bfloat16, float8), versions, devices, compile, autocast, legacy types and the
Tensor extras, checked against torch 2.13 (CPU)."""

from __future__ import annotations

import io
import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch

import ember


def _same(e, t):
    assert repr(e) == repr(t)


def test_bfloat16_values_bit_for_bit():
    for L in (torch, ember):
        L.manual_seed(0)
    data = [[1.1, 2.2, 3.3], [4.4, 5.5, 6.6]]
    for f in (lambda L, x: x * 1.00390625, lambda L, x: x + L.tensor([257]),
              lambda L, x: x.sum(), lambda L, x: x.sum(0), lambda L, x: x.mean(),
              lambda L, x: x @ x.t(), lambda L, x: x.exp(), lambda L, x: x.softmax(1),
              lambda L, x: x.var(), lambda L, x: x.cumsum(1), lambda L, x: x > 2,
              lambda L, x: x + L.ones(3, dtype=L.float16), lambda L, x: x.float(),
              lambda L, x: L.randn(20, dtype=L.bfloat16), lambda L, x: L.rand(5, dtype=L.bfloat16),
              lambda L, x: x.sum(dtype=L.float32), lambda L, x: x.type()):
        _same(f(ember, ember.tensor(data).bfloat16()), f(torch, torch.tensor(data).bfloat16()))
    v = 1.0 + 2**-8 + 2**-30      # goes through float32, as torch converts
    _same(ember.tensor([v], dtype=ember.bfloat16), torch.tensor([v], dtype=torch.bfloat16))
    _same(ember.full((1,), v, dtype=ember.bfloat16), torch.full((1,), v, dtype=torch.bfloat16))


def test_bfloat16_autograd():
    out = []
    for L in (torch, ember):
        w = L.tensor([[0.5, -1.25], [2.0, 0.75]], dtype=L.bfloat16, requires_grad=True)
        y = (w @ w).tanh().sum() * 3
        y.backward()
        out.append((repr(y), repr(w.grad)))
    assert out[0] == out[1]


def test_bfloat16_print_vectors_through_repr():
    import json
    from pathlib import Path
    cases = json.loads((Path(__file__).parent / "data" / "print_vectors.json").read_text())
    bf = [c for c in cases["cases"] if c["dtype"] == "bfloat16"]
    assert len(bf) == 2
    for c in bf:
        vals = [float(v) for v in c["data"]]
        t = ember.tensor(vals, dtype=ember.bfloat16).reshape(c["shape"])
        assert repr(t) == c["repr"] and str(t) == c["str"]


def test_float8_and_numpy_interop():
    _same(ember.tensor([1., 2.5, 1e10, -1e10, float("nan")]).to(ember.float8_e4m3fn),
          torch.tensor([1., 2.5, 1e10, -1e10, float("nan")]).to(torch.float8_e4m3fn))
    _same(ember.tensor([1., 1e10]).to(ember.float8_e5m2),
          torch.tensor([1., 1e10]).to(torch.float8_e5m2))
    with pytest.raises(RuntimeError, match="Promotion for Float8 Types is not supported"):
        ember.promote_types(ember.float8_e4m3fn, ember.float32)
    with pytest.raises(NotImplementedError):
        ember.ones(2, dtype=ember.float8_e4m3fn) + 1
    with pytest.raises(TypeError, match="Got unsupported ScalarType BFloat16"):
        ember.ones(2, dtype=ember.bfloat16).numpy()
    _same(ember.finfo(ember.bfloat16), torch.finfo(torch.bfloat16))
    _same(ember.iinfo(ember.int64), torch.iinfo(torch.int64))


def test_bfloat16_checkpoint_torch_reads(tmp_path):
    p = tmp_path / "bf.pt"
    ember.save({"a": ember.tensor([1.1, -3.3]).bfloat16()}, p)
    _same(ember.load(p)["a"], torch.load(p)["a"])
    assert str(torch.load(p)["a"]) == "tensor([ 1.1016, -3.2969], dtype=torch.bfloat16)"


def test_constants_version_memory_formats():
    assert (ember.inf, ember.pi, ember.e) == (torch.inf, torch.pi, torch.e)
    assert ember.__version__ >= "2.0" and ember.__version__ > (2, 9)
    import packaging.version as pv
    assert pv.parse(ember.__version__) == pv.parse("2.13.0")
    assert ember.version.cuda is None and ember.version.ember_version
    for L in (ember, torch):
        x = L.arange(120.).reshape(2, 3, 4, 5)
        y = x.contiguous(memory_format=L.channels_last)
        assert y.stride() == (60, 1, 15, 3) and y.is_contiguous(memory_format=L.channels_last)
        assert not y.is_contiguous() and L.zeros_like(y).stride() == (60, 1, 15, 3)
        assert x.permute(1, 0, 2, 3).clone().stride() == (20, 60, 5, 1)
        assert repr(L.channels_last) == "torch.channels_last"
    with pytest.raises(RuntimeError, match="required rank 4 tensor"):
        ember.zeros(3).contiguous(memory_format=ember.channels_last)


def _answer(L, expr):
    try:
        return ("ok", repr(eval(expr, {"L": L})))
    except BaseException as e:          # noqa: BLE001  (the class is what is compared)
        return (type(e).__name__, str(e))


@pytest.mark.parametrize("expr", [
    "L.backends.mps.is_available()", "L.backends.mps.is_built()",
    "L.accelerator.current_accelerator()", "L.accelerator.is_available()",
    "L.accelerator.device_count()", "L.accelerator.set_device_index(0)",
    "L.backends.cudnn.deterministic", "L.backends.cudnn.benchmark", "L.backends.cudnn.enabled",
    "L.backends.cudnn.is_available()", "L.backends.cudnn.version()",
    "L.backends.cuda.matmul.allow_tf32", "L.cuda.max_memory_allocated()",
    "L.cuda.memory_allocated()", "L.cuda.memory_reserved()", "L.cuda.reset_peak_memory_stats()",
    "L.cuda.empty_cache()", "L.cuda.set_device(0)", "L.cuda.set_device('cpu')",
    "L.cuda.current_device()", "L.cuda.get_device_name(0)", "L.cuda.get_device_capability()",
    "L.cuda.is_bf16_supported()", "L.cuda.Event()", "L.cuda.Stream()", "L.cuda.current_stream()",
    "L.cuda.memory_summary()", "L.get_default_device()", "L.get_num_threads() > 0",
    "L.set_num_threads(0)", "L.get_float32_matmul_precision()", "L.FloatTensor(2, 3).shape",
    "L.LongTensor([1.5, 2.7])", "isinstance(L.zeros(2), L.FloatTensor)",
    "isinstance(L.zeros(2).double(), L.FloatTensor)", "L.FloatTensor(L.tensor([1, 2]))",
    "L.tensor([1, 2]).type(L.FloatTensor)", "L.tensor([1.5]).type('torch.LongTensor')",
    "L.tensor([1.5]).type('LongTensor')", "L.tensor([1.5]).type()", "L.FloatTensor(-1)",
    "L.tensor([1.]).new(2, 3).shape", "L.tensor([1, 2]).new([1.5])", "L.BFloat16Tensor([1.1])",
    "L.cuda.FloatTensor([1.])", "L.arange(6.).resize_(2, 2)", "L.ones(2).resize(3)",
    "L.zeros(1, 3, 1).squeeze_().shape", "L.arange(6.).ravel()", "L.arange(6.).is_pinned()",
    "L.arange(6.).pin_memory()", "L.arange(6.).untyped_storage().nbytes()",
    "L.ones(2, requires_grad=True).resize_(3)", "L.compile(5)",
    "L.compile(L.nn.Linear(2, 2), mode='bogus')",
])
def test_cpu_build_answers(expr):
    validate = torch.distributions.Distribution._validate_args   # importing torch's
    try:                                                         # compiler turns it off
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert _answer(ember, expr) == _answer(torch, expr)
    finally:
        torch.distributions.Distribution.set_default_validate_args(validate)


def test_compile_and_jit_run_eagerly():
    m = ember.nn.Linear(2, 2)
    c = ember.compile(m, backend="eager")
    x = ember.ones(1, 2)
    assert ember.equal(c(x), m(x)) and c._orig_mod is m and c.weight is m.weight
    assert list(c.state_dict()) == ["_orig_mod.weight", "_orig_mod.bias"]

    @ember.compile(mode="max-autotune")
    def f(t):
        return t + 1
    assert f(ember.ones(1)).item() == 2.0
    s, t = ember.jit.script(m), ember.jit.trace(m, x)
    assert s.weight is m.weight and t.weight is m.weight and ember.equal(s(x), m(x))
    assert m.compile() is None
    ember._dynamo.reset()
    ember._logging.set_logs(dynamo=20, graph_breaks=True)
    with pytest.raises(TypeError):
        ember._logging.set_logs(nope=True)


def test_autocast_and_grad_scaler_match_torch():
    script = "tests/data/autocast_program.py"
    outs = []
    for lib in ("torch", "ember"):
        r = subprocess.run([sys.executable, script, lib], capture_output=True, text=True,
                           check=True)
        outs.append(r.stdout)
    assert outs[0] == outs[1]


def test_cuda_autocast_warns_and_is_off():
    with pytest.warns(UserWarning, match="CUDA is not available or torch_xla is imported"):
        with ember.autocast("cuda"):
            assert (ember.ones(2, 2) @ ember.ones(2, 2)).dtype is ember.float32
    with pytest.warns(UserWarning, match="CUDA is not available.  Disabling."):
        s = ember.amp.GradScaler()
    assert not s.is_enabled() and s.get_scale() == 1.0 and s.state_dict() == {}


def test_no_numpy_runtime_warnings():
    inf, nan = float("inf"), float("nan")
    e = ember.tensor([])
    cases = [lambda: ember.tensor([inf]) * 0, lambda: e.mean(), lambda: ember.zeros(0, 3).mean(0),
             lambda: ember.tensor([nan, 1.]).nansum(), lambda: ember.tensor([nan]).nanmean(),
             lambda: ember.tensor([1., 0.]) / 0, lambda: ember.tensor([0.]).log(),
             lambda: ember.tensor([-1.]).sqrt(), lambda: ember.tensor([1000.]).exp(),
             lambda: ember.tensor([inf]) - inf, lambda: ember.var_mean(e),
             lambda: ember.tensor([nan]).long(), lambda: ember.tensor([-inf, -inf]).logsumexp(0),
             lambda: ember.nn.functional.layer_norm(ember.zeros(2, 0), (0,)),
             lambda: ember.tensor([inf], dtype=ember.bfloat16) * 0,
             lambda: ember.tensor([0.], requires_grad=True).log().sum().backward()]
    for f in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            warnings.simplefilter("ignore", UserWarning)
            f()


def test_version_string_is_a_str():
    v = ember.__version__
    assert isinstance(v, str) and v.split(".")[0] == "2" and f"{v}" == "2.13.0"
    assert io.StringIO(v).read() == "2.13.0" and np.str_(v) == "2.13.0"
