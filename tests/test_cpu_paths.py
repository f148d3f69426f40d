"""Kernels whose path in torch depends on the CPU: Ember asks the same question torch asks
(its probe beside torch's own answer), and the bits hold on either kind of CPU."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import ember
from ember import _cpu

from .helpers import torch

FP16_ONEDNN = torch.ops.mkldnn._is_mkldnn_fp16_supported()

CONVS = [
    ("conv2d", (4, 16, 28, 28), (32, 16, 3, 3), {"padding": 1}),
    ("conv2d", (4, 1, 28, 28), (8, 1, 5, 5), {}),
    ("conv2d", (2, 8, 16, 16), (16, 8, 3, 3), {"stride": 2, "padding": 1}),
    ("conv2d", (2, 8, 16, 16), (16, 4, 3, 3), {"groups": 2, "padding": 1}),
    ("conv1d", (4, 8, 50), (16, 8, 5), {"padding": 2}),
    ("conv_transpose2d", (2, 8, 10, 10), (8, 4, 3, 3), {"stride": 2}),
]


def test_fp16_probe_is_torchs():
    """oneDNN computes float16 where torch says it does (AVX512-FP16 or AMX-FP16)."""
    assert _cpu.has_fp16_onednn() == FP16_ONEDNN


@pytest.mark.parametrize("cap", ["AVX512_CORE_BF16", "AVX2", "AVX512_CORE_FP16", "ALL"])
def test_fp16_probe_follows_onednns_isa_cap(cap):
    """``ONEDNN_MAX_CPU_ISA`` caps torch's answer (read when oneDNN starts: asked in a
    fresh interpreter) and Ember's alike."""
    code = ("import torch, ember._cpu as c; "
            "print(torch.ops.mkldnn._is_mkldnn_fp16_supported(), c.has_fp16_onednn())")
    src = os.path.dirname(os.path.dirname(ember.__file__))
    env = dict(os.environ, ONEDNN_MAX_CPU_ISA=cap,
               PYTHONPATH=os.pathsep.join(filter(None, (src, os.environ.get("PYTHONPATH")))))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout.split()
    assert out[0] == out[1]


def _run(lib, name, xs, ws, kw, threads):
    lib.set_num_threads(threads)
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in
              (xs, ws, (ws[1] if "transpose" in name else ws[0],))]
    grad_rng = np.random.default_rng(1)
    try:
        x, w, b = (lib.tensor(a).half().requires_grad_() for a in arrays)
        out = getattr(lib.nn.functional, name)(x, w, b, **kw)
        out.backward(lib.tensor(grad_rng.standard_normal(tuple(out.shape))).half())
    finally:
        lib.set_num_threads(1)
    return [t.detach().float().numpy() for t in (out, x.grad, w.grad, b.grad)]


def _bits_equal(a, b):
    return a.view(np.uint32) == b.view(np.uint32)


@pytest.mark.skipif(not FP16_ONEDNN, reason="float16 convolutions take ATen's slow path here")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", CONVS, ids=[f"{c[0]}-{c[1]}" for c in CONVS])
def test_float16_conv_on_onednn_rounds_float32_once(case, threads):
    """torch's oneDNN float16 convolution accumulates in float32 and rounds once: the output
    and bias gradient are torch's bits; the input and weight gradients (oneDNN's own
    accumulation order and roundings) torch's but for a few elements, within float16's
    resolution of the gradient's largest element."""
    got = _run(ember, *case, threads)
    want = _run(torch, *case, threads)
    for g, t in zip(got, want):
        assert g.shape == t.shape
    assert _bits_equal(got[0], want[0]).all()
    assert _bits_equal(got[3], want[3]).all()
    for g, t in zip(got[1:3], want[1:3]):
        same = _bits_equal(g, t)
        assert same.mean() >= 0.99
        assert np.abs(g - t).max() <= 2.0 ** -10 * np.abs(t).max()


def test_float16_conv_rounds_once_where_onednn_computes_float16(monkeypatch):
    """The float16 path follows the probe: with it set, the result is the float32
    convolution rounded once (the bias added before the rounding); without, the type's."""
    rng = np.random.default_rng(2)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in
               ((2, 8, 12, 12), (8, 8, 3, 3), (8,)))
    ref = ember.nn.functional.conv2d(*(ember.tensor(a).half().float() for a in (x, w, b)))
    ref = ref.half().float().numpy()
    for flag in (True, False):
        monkeypatch.setattr(_cpu, "has_fp16_onednn", lambda flag=flag: flag)
        out = ember.nn.functional.conv2d(*(ember.tensor(a).half() for a in (x, w, b)))
        assert out.dtype is ember.float16
        assert _bits_equal(out.float().numpy(), ref).all() == flag
        ember.backends.mkldnn.enabled = False                # ATen's slow path, as torch
        try:
            out = ember.nn.functional.conv2d(*(ember.tensor(a).half() for a in (x, w, b)))
        finally:
            ember.backends.mkldnn.enabled = True
        assert not _bits_equal(out.float().numpy(), ref).all()


def test_float16_conv_with_mkldnn_off_is_not_onednns():
    """With ``backends.mkldnn.enabled`` off torch's float16 convolution leaves oneDNN on any
    CPU; so does Ember's."""
    rng = np.random.default_rng(8)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in
              ((4, 16, 28, 28), (32, 16, 3, 3), (32,))]
    outs = []
    for lib in (torch, ember):
        args = [lib.tensor(a).half() for a in arrays]
        on = lib.nn.functional.conv2d(*args, padding=1)
        lib.backends.mkldnn.enabled = False
        try:
            off = lib.nn.functional.conv2d(*args, padding=1)
        finally:
            lib.backends.mkldnn.enabled = True
        outs.append(_bits_equal(on.float().numpy(), off.float().numpy()).all())
    assert outs[0] == outs[1]


def _grads(lib, fn, arrays, dtype):
    xs = [lib.tensor(a).to(getattr(lib, dtype)).requires_grad_() for a in arrays]
    out = fn(lib, *xs)
    out.backward(lib.tensor(np.random.default_rng(5).standard_normal(tuple(out.shape)))
                 .to(out.dtype))
    return [None if t is None else t.detach().numpy() if t.dtype.is_floating_point
            and t.element_size() >= 4 else t.detach().float().numpy()
            for t in [out] + [x.grad for x in xs]]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_scaled_gradient_reads_the_number_in_float(dtype):
    """``x * 0.35355339``'s gradient is ``grad * 0.35355339`` with the number read in float
    (as the forward), not rounded to float16 first: attention's query scaling."""
    x = np.random.default_rng(3).standard_normal(4000).astype(np.float32)
    for fn in (lambda lib, t: t * 0.35355339, lambda lib, t: 0.35355339 * t,
               lambda lib, t: t.mul(1.1)):
        got, want = _grads(ember, fn, [x], dtype), _grads(torch, fn, [x], dtype)
        for g, t in zip(got, want):
            assert _bits_equal(g, t).all()


@pytest.mark.skipif(not FP16_ONEDNN, reason="float16 products take ATen's own dot kernels here "
                    "(docs/differences.md)")
def test_float16_multihead_attention_grads_are_torchs():
    """A float16 MultiheadAttention (its query scaled by a number) gives torch's output and
    input gradients bit for bit."""
    def run(lib, x, y):
        lib.manual_seed(0)
        m = lib.nn.MultiheadAttention(32, 4, batch_first=True).half()
        return m(x, y, y)[0]
    rng = np.random.default_rng(4)
    xs = [rng.standard_normal((2, 10, 32)).astype(np.float32) for _ in range(2)]
    got, want = _grads(ember, run, xs, "float16"), _grads(torch, run, xs, "float16")
    for g, t in zip(got, want):
        assert _bits_equal(g, t).all()


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("name", ["reciprocal", "rdiv", "addcmul", "addcdiv", "sin", "cos",
                                  "sinh", "cosh", "rsqrt", "expm1", "hypot", "lerp", "dist",
                                  "norm", "vector_norm", "normalize", "cosine_similarity",
                                  "bce", "bce_with_logits", "log10", "exp2", "logit",
                                  "digamma", "lgamma"])
def test_composed_reduced_gradients_round_each_op(name, dtype):
    """Backward formulas torch composes of ops in the reduced type (reciprocal's
    ``-grad * (result * result)``, addcmul's ``grad * (tensor2 * value)``, sin's
    ``grad * self.cos()`` …) round after each op in bfloat16 as in float16: torch's bits."""
    fn = {"reciprocal": lambda lib, x, y, z: x.reciprocal(),
          "rdiv": lambda lib, x, y, z: 3.7 / x,
          "addcmul": lambda lib, x, y, z: lib.addcmul(x, y, z, value=0.3),
          "addcdiv": lambda lib, x, y, z: lib.addcdiv(x, y, z, value=0.3),
          "sin": lambda lib, x, y, z: x.sin(), "cos": lambda lib, x, y, z: x.cos(),
          "sinh": lambda lib, x, y, z: x.sinh(), "cosh": lambda lib, x, y, z: x.cosh(),
          "rsqrt": lambda lib, x, y, z: x.abs().rsqrt(),
          "expm1": lambda lib, x, y, z: x.expm1(),
          "hypot": lambda lib, x, y, z: lib.hypot(x, y),
          "lerp": lambda lib, x, y, z: lib.lerp(x, y, z.sigmoid()),
          "dist": lambda lib, x, y, z: lib.dist(x, y, 3).reshape(1),
          "norm": lambda lib, x, y, z: x.norm().reshape(1),
          "vector_norm": lambda lib, x, y, z: lib.linalg.vector_norm(x.reshape(40, 50), 3, 1),
          "normalize": lambda lib, x, y, z: lib.nn.functional.normalize(x.reshape(40, 50)),
          "cosine_similarity": lambda lib, x, y, z: lib.nn.functional.cosine_similarity(
              x.reshape(40, 50), y.reshape(40, 50)),
          "bce": lambda lib, x, y, z: lib.nn.functional.binary_cross_entropy(
              x.sigmoid(), y.sigmoid()).reshape(1),
          "bce_with_logits": lambda lib, x, y, z: lib.nn.functional
          .binary_cross_entropy_with_logits(x, y.sigmoid()).reshape(1),
          "log10": lambda lib, x, y, z: x.abs().log10(),
          "exp2": lambda lib, x, y, z: x.exp2(),
          "logit": lambda lib, x, y, z: x.sigmoid().logit(),
          "digamma": lambda lib, x, y, z: (x.abs() + 0.5).digamma(),
          "lgamma": lambda lib, x, y, z: (x.abs() + 0.5).lgamma()}[name]
    rng = np.random.default_rng(6)
    xs = [rng.standard_normal(2000).astype(np.float32) for _ in range(3)]
    got, want = _grads(ember, fn, xs, dtype), _grads(torch, fn, xs, dtype)
    for g, t in zip(got, want):
        assert (g is None) == (t is None)
        assert t is None or _bits_equal(g, t).all()



@pytest.mark.parametrize("fused", [False, True])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_both_float64_fma_paths_take_reduced_operands(fused, dtype, monkeypatch):
    """float64 ``fma`` runs NumPy's vecdot loop where this CPU's NumPy build fuses it (the
    Xeon's AVX-512 loop does, Zen 4's does not) and an error-free emulation elsewhere. Both
    take the float32 operands of reduced-type kernels (lerp's gradient) and give torch's
    bits, whichever path this CPU takes in the other tests."""
    from ember._ops import _exact
    if fused and not _exact._fused_works():
        pytest.skip("NumPy's vecdot loop does not fuse on this CPU")
    monkeypatch.setattr(_exact, "_FUSED", [fused])
    test_composed_reduced_gradients_round_each_op("lerp", dtype)

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p", [0.3, 0.5, 1.5, 2.5, 3.0])
def test_cdist_general_p_backward_is_torchs(p, dtype):
    """cdist's gradient for a p other than 0, 1, 2 and inf is ``Dist``'s vector backward
    (Sleef's pow, as pdist's), equal and zero differences included: torch's bits."""
    rng = np.random.default_rng(7)
    a = rng.standard_normal((3, 7, 13))
    b = rng.standard_normal((3, 5, 13))
    b[0, 0] = a[0, 0]
    b[1, 1, 2] = a[1, 2, 2]
    got = _grads(ember, lambda lib, x, y: lib.cdist(x, y, p=p), [a, b], dtype)
    want = _grads(torch, lambda lib, x, y: lib.cdist(x, y, p=p), [a, b], dtype)
    for g, t in zip(got, want):
        assert g.dtype == t.dtype and np.array_equal(g.view(np.uint8), t.view(np.uint8))


@pytest.mark.parametrize("dtypes", [("float32", "float64", "float32"),
                                    ("float32", "float64", "float64"),
                                    ("float64", "float32", "float64"),
                                    ("int64", "float32", "float32")])
@pytest.mark.parametrize("sizes", [(1, 4), (0, 4), (1, 0)])
def test_bmm_out_of_mixed_dtypes(dtypes, sizes):
    """bmm's out= beside operands of two dtypes: the result has mat2's dtype (an out= of
    another: that error first), an empty product fills the out= with zeros before the
    operands' dtypes are compared, else torch's mismatch error."""
    n, k = sizes

    def run(lib):
        a = lib.ones(n, 4, k, dtype=getattr(lib, dtypes[0]))
        b = lib.ones(n, k, 4, dtype=getattr(lib, dtypes[1]))
        out = lib.empty(3, dtype=getattr(lib, dtypes[2]))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                lib.bmm(a, b, out=out)
            except RuntimeError as e:
                return str(e), len(caught)
        return out.dtype.is_floating_point, tuple(out.shape), out.sum().item(), len(caught)
    assert run(ember) == run(torch)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("beta", [1.0, 0.3, 0.0])
def test_reduced_smooth_l1_gradient_is_torchs(dtype, reduction, beta):
    """smooth_l1_loss's gradient of float16/bfloat16 operands is ATen's reduced-type kernel:
    float arithmetic on the float difference (a float ``beta``), rounded once; the vector
    and one-by-one forms differ, both torch's. The target's is the kernel with the roles
    swapped (the zero of an equal pair keeps torch's sign)."""
    rng = np.random.default_rng(9)
    xs = [rng.standard_normal(2003).astype(np.float32) for _ in range(2)]
    xs[1][::7] = xs[0][::7]

    def fn(lib, x, y):
        return lib.nn.functional.smooth_l1_loss(x, y, reduction=reduction, beta=beta)
    got, want = _grads(ember, fn, xs, dtype), _grads(torch, fn, xs, dtype)
    for g, t in zip(got[1:], want[1:]):
        assert _bits_equal(g, t).all()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_huber_target_gradient_swaps_the_roles(dtype):
    """huber_loss's target gradient is ``huber_loss_backward(grad, target, self)``: an equal
    pair's zero has torch's sign."""
    rng = np.random.default_rng(10)
    xs = [rng.standard_normal(2003).astype(np.float32) for _ in range(2)]
    xs[1][::7] = xs[0][::7]

    def fn(lib, x, y):
        return lib.nn.functional.huber_loss(x, y, delta=0.5, reduction="none")
    got, want = _grads(ember, fn, xs, dtype), _grads(torch, fn, xs, dtype)
    for g, t in zip(got, want):
        assert np.array_equal(g.view(np.uint8), t.view(np.uint8))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("shape", [(3, 4), (1, 4), (3, 0), (0, 4), (30, 4)])
def test_reduced_distances_raise_as_torch(dtype, shape):
    """cdist's direct kernel and pdist are built for float32/float64 only: float16/bfloat16
    raise torch's dispatch error where a kernel runs; cdist's matrix-product path runs."""
    def run(lib):
        x = lib.ones(*shape, dtype=getattr(lib, dtype))
        results = []
        for fn in (lambda: lib.cdist(x[None], x[None]),
                   lambda: lib.cdist(x[None], x[None], p=1.5),
                   lambda: lib.cdist(x[None], x[None],
                                     compute_mode="use_mm_for_euclid_dist"),
                   lambda: lib.nn.functional.pdist(x)):
            try:
                out = fn()
                results.append((str(out.dtype), tuple(out.shape)))
            except NotImplementedError as e:
                results.append(str(e))
        return results
    assert run(ember) == run(torch)
