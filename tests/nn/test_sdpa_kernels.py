"""F.scaled_dot_product_attention picks torch's CPU kernels: the flash op where it applies
(one ``ScaledDotProductFlashAttentionForCpuBackward0`` node), the math composition elsewhere,
and ``nn.attention.sdpa_kernel`` limits the choice; values, gradients and errors as torch's."""

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

rng = np.random.default_rng(0)


def R(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def _run(lib, arrs, kw, mask):
    lib.manual_seed(0)
    ins = [lib.from_numpy(a.copy()).requires_grad_() for a in arrs]
    if mask is not None:
        kw = dict(kw, attn_mask=lib.from_numpy(mask.copy()))
    out = lib.nn.functional.scaled_dot_product_attention(*ins, **kw)
    weight = np.linspace(-1, 1, out.numel()).reshape(out.shape).astype(arrs[0].dtype)
    (out * lib.from_numpy(weight)).sum().backward()
    return type(out.grad_fn).__name__, [out.detach().numpy()] + [i.grad.numpy() for i in ins]


_dead = rng.random((3, 5)) > 0.3
_dead[1] = False
CASES = {
    "plain": ((R(1, 2, 3, 4), R(1, 2, 3, 4), R(1, 2, 3, 4)), {}, None),
    "causal": ((R(2, 2, 3, 4), R(2, 2, 5, 4), R(2, 2, 5, 4)), {"is_causal": True}, None),
    "causal_long_query": ((R(1, 2, 5, 4), R(1, 2, 3, 4), R(1, 2, 3, 4)), {"is_causal": True},
                          None),
    "gqa": ((R(2, 4, 3, 8), R(2, 2, 5, 8), R(2, 2, 5, 8)), {"enable_gqa": True}, None),
    "gqa_causal": ((R(2, 4, 3, 8), R(2, 2, 5, 8), R(2, 2, 5, 8)),
                   {"enable_gqa": True, "is_causal": True}, None),
    "bool_mask": ((R(2, 2, 3, 4), R(2, 2, 5, 4), R(2, 2, 5, 4)), {}, rng.random((3, 5)) > 0.3),
    "row_masked_everywhere": ((R(2, 2, 3, 4), R(2, 2, 5, 4), R(2, 2, 5, 4)), {}, _dead),
    "float_mask_4d": ((R(2, 2, 3, 4), R(2, 2, 5, 4), R(2, 2, 5, 4)), {}, R(2, 1, 3, 5)),
    "float_mask_broadcast": ((R(2, 2, 3, 4), R(2, 2, 5, 4), R(2, 2, 5, 4)), {}, R(1, 1, 1, 5)),
    "float64_scale": ((R(1, 2, 3, 4, dtype=np.float64), R(1, 2, 3, 4, dtype=np.float64),
                       R(1, 2, 3, 4, dtype=np.float64)), {"scale": -0.3}, None),
    # math: another value head size, 3-d and 2-d inputs, a 3-d mask
    "value_size_differs": ((R(2, 2, 3, 4), R(2, 2, 5, 4), R(2, 2, 5, 6)), {}, None),
    "three_d": ((R(2, 3, 4), R(2, 5, 4), R(2, 5, 4)), {}, None),
    "two_d": ((R(3, 4), R(5, 4), R(5, 4)), {}, None),
    "mask_3d": ((R(2, 2, 3, 4), R(2, 2, 5, 4), R(2, 2, 5, 4)), {}, R(2, 3, 5)),
}


@pytest.mark.parametrize("case", CASES)
def test_kernel_node_values_and_gradients_as_torchs(case):
    arrs, kw, mask = CASES[case]
    (name_t, got_t), (name_e, got_e) = _run(torch, arrs, kw, mask), _run(ember, arrs, kw, mask)
    assert name_e == name_t
    tol = 1e-5 if arrs[0].dtype == np.float32 else 1e-12
    for a, b in zip(got_t, got_e):
        np.testing.assert_allclose(b, a, rtol=tol, atol=tol)


def test_flash_gradient_is_the_numerical_one():
    q, k, v = (ember.from_numpy(R(1, 2, 3, 4, dtype=np.float64)) for _ in range(3))
    m = ember.from_numpy(R(3, 3, dtype=np.float64))
    fn = ember.nn.functional.scaled_dot_product_attention
    assert fn(q, k, v, attn_mask=m).grad_fn is None
    assert ember.autograd.gradcheck(lambda a, b, c: fn(a, b, c, attn_mask=m),
                                    (q.requires_grad_(), k.requires_grad_(), v.requires_grad_()))


def _choices(lib):
    F, A = lib.nn.functional, lib.nn.attention
    q = lib.ones(1, 2, 3, 4, requires_grad=True)
    out = []
    for backends, kw in (([A.SDPBackend.MATH], {}), ([A.SDPBackend.FLASH_ATTENTION], {}),
                         ([A.SDPBackend.FLASH_ATTENTION], {"dropout_p": 0.5}),
                         (A.SDPBackend.EFFICIENT_ATTENTION, {}), ([], {}), ("MATH", {})):
        try:
            with A.sdpa_kernel(backends):
                out.append((lib.backends.cuda.math_sdp_enabled(),
                            F.scaled_dot_product_attention(q, q, q, **kw).grad_fn.name()))
        except (RuntimeError, AssertionError) as e:
            out.append((type(e).__name__, str(e)))
    out.append(F.scaled_dot_product_attention(q, q, q).grad_fn.name())
    out.append((str(A.SDPBackend.MATH), repr(A.SDPBackend.ERROR),
                {k: v.value for k, v in A.SDPBackend.__members__.items()}))
    return out


def test_sdpa_kernel_chooses_as_torch():
    with pytest.warns(UserWarning):      # torch explains why flash refused dropout
        want = _choices(torch)
    assert _choices(ember) == want


@pytest.mark.parametrize("dtypes", [("float32", "float64", "float32"),
                                    ("float32", "float32", "float32", "int64"),
                                    ("float32", "float32", "float32", "float64")])
def test_dtype_errors_as_torchs(dtypes):
    def call(lib):
        t = [lib.ones(1, 1, 2, 2, dtype=getattr(lib, d)) for d in dtypes]
        mask = t[3] if len(t) > 3 else None
        with pytest.raises(RuntimeError) as e:
            lib.nn.functional.scaled_dot_product_attention(*t[:3], attn_mask=mask)
        return str(e.value)
    assert call(ember) == call(torch)
