"""Regression tests for what the eighth batch of real programs found, each against torch 2.13:
``affine_grid`` makes the grids of 3-D affine maps (5-D sizes, ``(N, 3, 4)`` thetas) with their
gradient, and its messages print ``size`` as given (a ``torch.Size`` stays one); the eager-mode
quantization entry points (``prepare``, ``convert``, ``quantize``, ``quantize_dynamic``) warn
torch's ``DeprecationWarning`` at their caller; the quantized modules live in torch's submodules
(``torch.ao.nn.quantized.dynamic.modules.linear`` …), and a whole quantized model pickles by them
and unpickles (the packed LSTM cell parameters restore their state); a disabled
``autograd.profiler.profile`` enters as ``None``; ``grid_sample`` samples volumes (5-D inputs and
grids, trilinear or nearest, each padding) as ATen's scalar kernel, gradients included;
``affine_grid``'s node saves no tensor (theta is not needed), so a second backward runs;
``scaled_dot_product_attention`` takes ``attn_mask`` with ``is_causal=True`` where torch's CPU flash
kernel runs (both masks apply) and refuses it, as torch's math backend, elsewhere."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest

import ember

from .helpers import arr, caught_warnings, check, errors_alike, torch


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("size", [(2, 1, 3, 4, 5), (1, 2, 1, 2, 3), (2, 3, 4, 1, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_affine_grid_of_3d_affine_maps(size, align_corners, dtype):
    check(lambda lib, th: lib.nn.functional.affine_grid(th, size, align_corners=align_corners),
          arr((size[0], 3, 4), dtype))
    check(lambda lib, th: lib.affine_grid_generator(th, list(size), align_corners),
          arr((size[0], 3, 4), dtype))


@pytest.mark.parametrize("theta, size", [
    ((2, 1, 3), "shape"),           # a torch.Size prints as one
    ((2, 2, 3), (2, 1, 3, 4, 4)),
    ((2, 3, 4), [2, 1, 4, 4]),
    ((2, 3, 3), (2, 1, 4, 4, 4)),
    ((2, 3, 4), (2, 1, 4)),
    ((2, 3, 4), (2, 1, 0, 4, 4)),
])
def test_affine_grid_messages_print_the_size_as_given(theta, size):
    def f(lib):
        s = lib.Size([2, 1, 6, 6]) if size == "shape" else size
        return lib.nn.functional.affine_grid(lib.zeros(theta), s, align_corners=False)
    errors_alike(f)


@pytest.mark.parametrize("size", [(2, 1, 4), (2, 1, 4, 4, 4), (2, 1, 4, 4)])
def test_affine_grid_generator_checks(size):
    theta = (3, len(size) - 2, len(size) - 1) if len(size) > 3 else (2, 2, 3)
    errors_alike(lambda lib: lib.affine_grid_generator(lib.zeros(theta), size, False))


def _qmodel(lib):
    torch.manual_seed(0)
    lib.manual_seed(0)
    nn = lib.nn
    return nn.Sequential(nn.Linear(4, 3), nn.LSTM(3, 2))


def test_quantize_dynamic_warns_torchs_deprecation_at_the_caller():
    def f(lib):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            lib.ao.quantization.quantize_dynamic(_qmodel(lib), {lib.nn.Linear}, dtype=lib.qint8)
        return [(x.category.__name__, str(x.message), x.filename) for x in w
                if x.category is DeprecationWarning]
    t, e = f(torch), f(ember)
    # quantize_dynamic's own, at its caller, then convert's, inside quantize_dynamic
    assert [w[:2] for w in t] == [w[:2] for w in e] and len(t) == 2
    assert t[0][2] == e[0][2] == __file__


def test_quantize_warns_once_for_itself_and_once_for_prepare_and_convert():
    def f(lib):
        m = lib.nn.Sequential(lib.ao.quantization.QuantStub(), lib.nn.Linear(2, 2),
                              lib.ao.quantization.DeQuantStub())
        m.qconfig = lib.ao.quantization.default_qconfig
        m.eval()
        lib.ao.quantization.quantize(m, lambda mod, x: mod(x), [lib.ones(3, 2)])
    t = [w for w in caught_warnings(f, torch) if w[0] == "DeprecationWarning"]
    e = [w for w in caught_warnings(f, ember) if w[0] == "DeprecationWarning"]
    assert t == e and len(t) == 3


@pytest.mark.parametrize("path, names", [
    ("ao.nn.quantized", ["Linear", "Conv2d", "Embedding", "FloatFunctional", "QFunctional",
                         "Quantize", "DeQuantize"]),
    ("ao.nn.quantized.dynamic", ["Linear", "LSTM", "GRU"]),
])
def test_quantized_modules_live_in_torchs_submodules(path, names):
    import importlib
    for name in names:
        tm = getattr(importlib.import_module(f"torch.{path}"), name).__module__
        em = getattr(importlib.import_module(f"ember.{path}"), name).__module__
        assert em == "ember" + tm[len("torch"):]
        assert getattr(importlib.import_module(em), name) is getattr(
            importlib.import_module(f"ember.{path}"), name)


def test_a_whole_dynamically_quantized_model_round_trips_through_pickle():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q = ember.ao.quantization.quantize_dynamic(_qmodel(ember), {ember.nn.Linear,
                                                                    ember.nn.LSTM})
        buf = io.BytesIO()
        ember.save(q, buf)
        buf.seek(0)
        back = ember.load(buf, weights_only=False)
        x = ember.randn(5, 4)
        assert ember.equal(back[0](x), q[0](x))
        assert type(back[1]).__module__.endswith("dynamic.modules.rnn")
        seq = ember.randn(4, 1, 3)
        assert all(ember.equal(a, b) for a, b in zip(back[1](seq)[1], q[1](seq)[1]))


def test_a_disabled_autograd_profiler_enters_as_none():
    def f(lib):
        with lib.autograd.profiler.profile(enabled=False) as prof:
            lib.ones(2).add(1)
        return prof
    assert f(torch) is None and f(ember) is None
    for lib in (torch, ember):
        with lib.autograd.profiler.profile() as prof:
            lib.ones(2).add(1)
        assert type(prof).__name__ == "profile"


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_grid_sample_of_volumes(mode, padding_mode, align_corners, dtype):
    # grid points inside, on and outside the volume (reflected several times), repeated so
    # that several points share voxels (the gradient's sums are ordered)
    grid = arr((2, 3, 2, 4, 3), dtype, seed=1, low=-2.6, high=2.6)
    grid[0, 0, 0, :2] = grid[0, 0, 0, 2:]
    grid[1, 0, 0, 0] = [1.0, -1.0, 0.0]
    check(lambda lib, x, g: lib.nn.functional.grid_sample(x, g, mode=mode,
                                                          padding_mode=padding_mode,
                                                          align_corners=align_corners),
          arr((2, 3, 3, 4, 5), dtype), grid, rtol=0, atol=0, grad_rtol=0, grad_atol=0)


@pytest.mark.parametrize("input_shape, grid_shape, mode", [
    ((1, 1, 2, 2, 2), (1, 2, 2, 2, 3), "bicubic"),
    ((1, 1, 2, 2, 2), (1, 2, 2, 3), "bilinear"),
    ((1, 1, 2, 2), (1, 2, 2, 2, 2), "bilinear"),
    ((1, 1, 2), (1, 2, 1), "bilinear"),
    ((1, 1, 0, 2, 2), (1, 2, 2, 2, 3), "bilinear"),
])
def test_grid_sample_of_volumes_checks(input_shape, grid_shape, mode):
    errors_alike(lambda lib: lib.nn.functional.grid_sample(
        lib.zeros(input_shape), lib.zeros(grid_shape), mode=mode, align_corners=False))


@pytest.mark.parametrize("size", [(2, 1, 3, 4), (2, 1, 2, 3, 4)])
def test_affine_grid_saves_no_tensor_so_a_second_backward_runs(size):
    def f(lib):
        k = len(size) - 2
        theta = lib.eye(k, k + 1).repeat(2, 1, 1).requires_grad_()
        grid = lib.nn.functional.affine_grid(theta, size, align_corners=False)
        (grid * 2).sum().backward()          # (MulBackward0 saves no tensor of its own here)
        grid.sum().backward()
        return theta.grad, sorted(a for a in dir(grid.grad_fn) if a.startswith("_saved_"))
    t, e = f(torch), f(ember)
    assert t[1] == e[1]
    assert (t[0].numpy() == e[0].numpy()).all()


@pytest.mark.parametrize("mask_kind", ["bool", "float", "bool4d", "row"])
@pytest.mark.parametrize("lengths", [(5, 7), (7, 5), (6, 6)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sdpa_takes_a_mask_with_is_causal_on_the_flash_path(mask_kind, lengths, dtype):
    L, S = lengths
    rng = np.random.default_rng(3)
    shape = {"bool": (L, S), "float": (L, S), "bool4d": (2, 1, L, S), "row": (1, S)}[mask_kind]
    m = rng.standard_normal(shape).astype(dtype)
    m = m > -0.5 if mask_kind != "float" else m

    def f(lib, q, k, v):
        mask = lib.from_numpy(m.copy())
        return lib.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask,
                                                              is_causal=True)
    check(f, arr((2, 3, L, 8), dtype, seed=1), arr((2, 3, S, 8), dtype, seed=2),
          arr((2, 3, S, 8), dtype, seed=3), rtol=0, atol=0, grad_rtol=0, grad_atol=0)


@pytest.mark.parametrize("kwargs, q_shape", [
    ({"dropout_p": 0.3}, (2, 3, 5, 8)),          # the math backend: no mask with is_causal
    ({}, (3, 5, 8)),
])
def test_sdpa_refuses_a_mask_with_is_causal_off_the_flash_path(kwargs, q_shape):
    def f(lib):
        q = lib.ones(q_shape)
        mask = lib.ones(5, 5, dtype=lib.bool)
        return lib.nn.functional.scaled_dot_product_attention(q, q, q, attn_mask=mask,
                                                              is_causal=True, **kwargs)
    errors_alike(f)
