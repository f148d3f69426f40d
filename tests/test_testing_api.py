"""ember.testing against torch.testing: assert_close's verdicts and messages, make_tensor."""

from __future__ import annotations

import math

import pytest

from tests.helpers import caught_warnings, ember, errors_alike, torch

NAN = math.nan

# (actual, expected, kwargs) as functions of the library, each raising or passing alike
CASES = {
    "close": lambda L: ([1., 2., 3.], [1., 2., 3.00001], {}),
    "one_mismatch": lambda L: ([1., 2., 3.], [1., 2.5, 3.], {}),
    "rel_bound": lambda L: ([1., 2., 3.], [1., 2., 3.0001], {}),
    "ints_equal": lambda L: ([1, 2, 3], [1, 2, 4], {}),
    "bools": lambda L: ([True, False], [True, True], {}),
    "nan_2d": lambda L: ([[1., NAN], [0., 1.]], [[1., NAN], [0., 2.]], {}),
    "nan_equal": lambda L: ([1., NAN], [1., NAN], {"equal_nan": True}),
    "inf": lambda L: ([math.inf, 1.], [math.inf, 1.], {}),
    "inf_sign": lambda L: ([math.inf, 1.], [-math.inf, 1.], {}),
    "zero_expected": lambda L: ([0., 1.], [1e-9, 1.], {}),
    "only_rtol": lambda L: ([1., 2.], [1., 2.1], {"rtol": 0.1}),
    "given_tols": lambda L: ([1., 2.], [1., 2.1], {"rtol": 0.1, "atol": 0}),
    "exact_tols": lambda L: ([1., 2.], [1., 2.1], {"rtol": 0, "atol": 0}),
    "msg": lambda L: ([1., 2.], [1., 2.1], {"msg": "custom"}),
    "msg_fn": lambda L: ([1., 2.], [1., 2.1], {"msg": lambda m: "X" + m}),
    "shape": lambda L: ([1., 2.], [1., 2., 3.], {}),
    "scalar_tensor": lambda L: (1., 1.1, {}),
}


def _tensors(L, case):
    a, e, kw = CASES[case](L)
    return L.tensor(a), L.tensor(e), kw


def _outcome(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("case", sorted(CASES))
def test_tensor_cases(case):
    def run(L):
        a, e, kw = _tensors(L, case)
        return _outcome(lambda: L.testing.assert_close(a, e, **kw))
    assert run(ember) == run(torch)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int32"])
def test_default_tolerance_by_dtype(dtype):
    # just inside and just outside each dtype's default tolerance
    for delta in (1e-8, 2e-7, 2e-6, 2e-5, 2e-3, 1.0):
        def run(L, delta=delta):
            a = L.tensor([1., 2., 100.]).to(getattr(L, dtype))
            e = (L.tensor([1., 2., 100.]) + delta).to(getattr(L, dtype))
            return _outcome(lambda: L.testing.assert_close(a, e))
        assert run(ember) == run(torch), delta


@pytest.mark.parametrize("actual,expected,kw", [
    (1.0, 1.1, {}), (1, 1.0, {}), (1, 2, {}), (1.0, 1.0 + 1e-8, {}), (NAN, NAN, {}),
    (NAN, NAN, {"equal_nan": True}), (True, False, {}), (None, None, {}), (1 + 2j, 1 + 2j, {}),
    ("a", "a", {}), ([1, 2], [1, 2, 3], {}), ({"a": 1}, {"b": 1}, {}),
    ({"a": 1, "b": 2}, {"a": 1, "b": 3}, {}), ((1.0, [2.0, 3.0]), (1.0, [2.0, 3.5]), {}),
])
def test_python_values_and_containers(actual, expected, kw):
    res = [_outcome(lambda L=L: L.testing.assert_close(actual, expected, **kw))
           for L in (torch, ember)]
    assert res[0] == res[1]


def test_containers_of_tensors_and_attributes():
    def cases(L):
        t = L.tensor([[1., 2.], [3., 4.]])
        return [
            ([L.tensor(1.), L.tensor(2.)], [L.tensor(1.), L.tensor(3.)], {}),
            ({"w": t, "n": 2}, {"w": t.clone(), "n": 3}, {}),
            (t, t.double(), {}),
            (t, t.double(), {"check_dtype": False}),
            (t.t(), t.t().contiguous(), {"check_stride": True}),
            (t.t(), t.t().contiguous(), {}),
            (None, L.tensor(1.), {}),
            (L.tensor([1, 2]), L.tensor([1., 2.]), {"check_dtype": False}),
        ]
    for (ta, te, tk), (ea, ee, ek) in zip(cases(torch), cases(ember)):
        assert (_outcome(ember.testing.assert_close, ea, ee, **ek)
                == _outcome(torch.testing.assert_close, ta, te, **tk))


def test_message_text():
    with pytest.raises(AssertionError) as info:
        ember.testing.assert_close(ember.tensor([1., 2., 3.]), ember.tensor([1., 2.5, 3.]))
    assert str(info.value) == (
        "Tensor-likes are not close!\n\nMismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)")


def test_numpy_and_mixed_inputs():
    import numpy as np
    ember.testing.assert_close(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    errors_alike(lambda L: L.testing.assert_close(L.tensor([1., 2.]), [1., 2.]))  # type mismatch
    with pytest.raises(ValueError, match="Both 'rtol' and 'atol'"):
        ember.testing.assert_close(1.0, 1.0, atol=1)


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_assert_allclose_deprecated():
    def run(L):
        return (_outcome(lambda: L.testing.assert_allclose(L.tensor([1., 2.]), [1., 2.0001])),
                _outcome(lambda: L.testing.assert_allclose(L.tensor([1., 2.]), [1., 2.1])))
    assert run(ember) == run(torch)
    warned = [caught_warnings(lambda L: L.testing.assert_allclose(L.tensor([1.]), [1.]), L)
              for L in (torch, ember)]
    assert warned[0] == warned[1] and warned[0][0][0] == "FutureWarning"


@pytest.mark.parametrize("dtype,kw", [
    ("float32", {}), ("float64", {"low": -1, "high": 1}), ("int64", {"low": -3, "high": 4}),
    ("int8", {}), ("uint8", {}), ("bool", {}), ("complex64", {}), ("float16", {}),
    ("float32", {"noncontiguous": True, "exclude_zero": True, "requires_grad": True}),
    ("float32", {"low": -1e39, "high": 1e39}),
])
def test_make_tensor_same_stream(dtype, kw):
    outs = []
    for L in (torch, ember):
        L.manual_seed(3)
        x = L.testing.make_tensor((2, 3), dtype=getattr(L, dtype), device="cpu", **kw)
        outs.append((x.detach().numpy().tolist(), str(x.dtype), x.is_contiguous(),
                     x.requires_grad, L.rand(1).item()))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("kw", [
    {"dtype": "int64", "requires_grad": True}, {"dtype": "float32", "low": 3, "high": 1},
    {"dtype": "float32", "low": NAN}, {"dtype": "int8", "low": 200, "high": 300},
])
def test_make_tensor_errors(kw):
    kw = dict(kw)
    name = kw.pop("dtype")
    errors_alike(lambda L: L.testing.make_tensor(3, dtype=getattr(L, name), device="cpu", **kw))
