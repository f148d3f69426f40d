"""Tensor methods and small top-level functions against torch 2.13: the view scatters,
``index_reduce``, ``put``, ``igamma``/``igammac``, ``narrow_copy``, ``dsplit``,
``fill_diagonal_``, ``apply_``/``map_``/``map2_``, ``nonzero_static``, strided factories,
``frombuffer``, predicates, ``typename``, ``return_types`` and the removed functions' errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ember

from .helpers import NC, check, errors_alike, torch

A = np.random.default_rng(0).standard_normal((3, 4))
B = np.random.default_rng(1).standard_normal((3, 4))
POS = np.abs(A) + 0.1
NZ = np.round(A * 2) + np.where(np.round(A * 2) >= 0, 1.0, -1.0)   # no zeros

CASES = [
    (lambda L, a, s: L.diagonal_scatter(a, s), A, A[0, :3].copy()),
    (lambda L, a, s: L.diagonal_scatter(a, s, 1), A, A[0, :3].copy()),
    (lambda L, a, s: a.diagonal_scatter(s, -1, 1, 0), NC(A.T.copy()), A[0, :3].copy()),
    (lambda L, a, s: L.diagonal_scatter(a, s), A, A[0, :2].copy()),
    (lambda L, a, s: L.select_scatter(a, s, 0, -1), A, A[0].copy()),
    (lambda L, a, s: a.select_scatter(s, 1, 2), NC(A), A[:, 0].copy()),
    (lambda L, a, s: L.select_scatter(a, s, 0, 5), A, A[0].copy()),
    (lambda L, a, s: L.slice_scatter(a, s, 1, 0, 4, 2), A, A[:, :2].copy()),
    (lambda L, a, s: L.slice_scatter(a, s, 1, -3, None, 2), NC(A), A[:, :2].copy()),
    (lambda L, a, s: L.slice_scatter(a, s), A, A[:1].copy()),
    (lambda L, a, s: L.slice_scatter(a, s, 1), A, A[:, :2].copy()),
    (lambda L, a, s: L.as_strided_scatter(a, s, (2, 2), (1, 2)), A, A[:2, :2].copy()),
    (lambda L, a, s: L.as_strided_scatter(a, s, (2, 2), (1, 2), 1), NC(A.T.copy()),
     A[:2, :2].copy()),
    (lambda L, a, s: L.as_strided_scatter(a.detach(), s, (2, 2), (1, 2), 1), NC(A.T.copy()),
     A[:2, :2].copy()),
    (lambda L, a, s: L.as_strided_scatter(a[1:], s, (2, 2), (1, 2)), A, A[:2, :2].copy()),
    (lambda L, a, s: L.as_strided_scatter(a, s, (2, 2), (1, 2), 20), A, A[:2, :2].copy()),
    (lambda L, a, s: L.as_strided_scatter(a, s, (2, 2), (1, 2)), A, A[:2, :3].copy()),
    (lambda L, a, s: L.put(a, L.tensor([0, -1, 3]), s), A, A[0, :3].copy()),
    (lambda L, a, s: L.put(a, L.tensor([0, -1, 0]), s, True), A, A[0, :3].copy()),
    (lambda L, a, s: a.put(L.tensor([[0, -1, 0]]), s, accumulate=False), NC(A), A[0, :3].copy()),
    (lambda L, a, s: a.put(L.tensor([0, 12, 0]), s), A, A[0, :3].copy()),
    (lambda L, a, s: a.put(L.tensor([0, 1]), s), A, A[0, :3].copy()),
    (lambda L, a, s: a.put(L.tensor([0, 1, 2], dtype=L.int32), s), A, A[0, :3].copy()),
    (lambda L, a, s: a.put(L.tensor([0, 1, 2]), s.float()), A, A[0, :3].copy()),
    (lambda L, a, s: a.detach().put_(L.tensor([0, 1, 2]), s.detach()), A, A[0, :3].copy()),
    *[(lambda L, a, s, r=r, inc=inc: L.index_reduce(a, 0, L.tensor([0, 2, 0]), s, r,
                                                    include_self=inc), A, NZ)
      for r in ("prod", "mean", "amax", "amin") for inc in (True, False)],
    *[(lambda L, a, s, r=r: a.index_reduce(1, L.tensor([1, 1]), s, r), NC(A), B[:, :2].copy())
      for r in ("prod", "mean", "amax", "amin")],
    (lambda L, a, s: a.detach().index_reduce_(1, L.tensor([3, 1]), s.detach(), "amax",
                                              include_self=False), A, B[:, :2].copy()),
    (lambda L: L.index_reduce(L.arange(6).view(2, 3), 1, L.tensor([0, 0]),
                              L.tensor([[5, 7], [1, 2]]), "mean"),),
    (lambda L, a, s: a.index_reduce(0, L.tensor([0, 1]), s, "sum"), A, A[:2].copy()),
    (lambda L, a, s: a.index_reduce(0, L.tensor([0., 1]), s, "prod"), A, A[:2].copy()),
    (lambda L, a, s: a.index_reduce(0, L.tensor([0, 5]), s, "prod"), A, A[:2].copy()),
    (lambda L, a, s: a.index_reduce(0, L.tensor([0, 1, 2]), s, "prod"), A, A[:2].copy()),
    (lambda L, a, s: a.index_reduce(0, L.tensor([[0, 1]]), s, "prod"), A, A[:2].copy()),
    (lambda L, a, s: a.index_reduce(0, L.tensor([0, 1]), s.float(), "prod"), A, A[:2].copy()),
    (lambda L, a, b: L.igamma(a.detach(), b), POS, POS.T.copy().T + 1),
    (lambda L, a, b: L.igammac(a.detach(), b), POS, NC(POS * 3)),
    (lambda L, a, b: a.detach().igamma(b.float()), POS, POS),
    (lambda L, a, b: L.special.gammainc(a.detach().float(), b.float()), POS, POS * 30),
    (lambda L, a, b: L.special.gammaincc(a.detach(), b), POS * 4, POS * 4 + 1),
    (lambda L, a, b: a.detach().igammac_(b.detach()), POS, POS),
    (lambda L: L.igamma(L.tensor([1, 2]), L.tensor([1, 2])),),
    (lambda L: L.igamma(L.tensor([1., 2]), 2.0),),
    (lambda L: L.igammac(2.0, L.tensor([1., 2])),),
    (lambda L: L.igamma(L.tensor([1., 2], dtype=L.bfloat16),
                        L.tensor([1., 2], dtype=L.bfloat16)).float(),),
    (lambda L: [L.igamma(L.tensor([0., 0, -1, 1, L.inf, L.nan, 2, 2, 0.5]),
                         L.tensor([0., 1, 1, -1, 1, 1, L.inf, 0, 0])),
                L.igammac(L.tensor([0., 0, -1, 1, L.inf, L.nan, 2, 2, 0.5]),
                          L.tensor([0., 1, 1, -1, 1, 1, L.inf, 0, 0]))],),
    (lambda L, a: a.narrow_copy(1, 1, 2), A),
    (lambda L, a: L.narrow_copy(a.detach(), 1, -2, 2), NC(A)),
    (lambda L, a: L.narrow_copy(a, 1, -3, 2), NC(A)),
    (lambda L, a: L.narrow_copy(a, 1, 3, 2), A),
    (lambda L, a: a.unsafe_split_with_sizes([1, 3], 1), A),
    (lambda L, a: L.unsafe_split_with_sizes(a, [1, 1]), A),
    (lambda L: L.arange(12.).view(1, 2, 6).dsplit([1, 4]),),
    (lambda L: L.arange(12.).view(1, 2, 6).dsplit(3),),
    (lambda L: L.dsplit(L.arange(12.).view(1, 2, 6), 4),),
    (lambda L: L.arange(12.).view(2, 6).dsplit(2),),
    (lambda L: L.zeros(7, 3).fill_diagonal_(1, wrap=True),),
    (lambda L: L.zeros(7, 3).fill_diagonal_(1),),
    (lambda L: L.zeros(3, 3, 3).fill_diagonal_(2),),
    (lambda L: L.zeros(2, 3, 4).fill_diagonal_(2),),
    (lambda L: L.zeros(2, 5).fill_diagonal_(2, True),),
    (lambda L: L.nonzero_static(L.tensor([[1, 0], [2, 3]]), size=2, fill_value=7),),
    (lambda L: L.tensor([[1, 0], [2, 3]]).nonzero_static(size=5),),
    (lambda L: L.ones(3).mvlgamma_(1),),
    (lambda L: L.tensor([1 + 2j]).conj_physical_(),),
    (lambda L: L.ones(3).conj_physical_(),),
    (lambda L: L.arange(6.).apply_(lambda v: v * 2),),
    (lambda L: L.arange(6.).view(2, 3).map_(L.ones(3), lambda a, b: a + b),),
    (lambda L: L.arange(6.).view(2, 3).map2_(L.ones(3), L.ones(2, 1) * 2,
                                             lambda a, b, c: a * b + c),),
    (lambda L: L.zeros(3, requires_grad=True).apply_(lambda v: v),),
    (lambda L: L.ones(4).as_strided_((2,), (2,), 1),),
    (lambda L: L.as_strided_(L.arange(4.), (2,), (2,)),),
    (lambda L: L.empty_strided((2, 3), (1, 2)).stride(),),
    (lambda L: L.empty_permuted((2, 3, 4), (0, 2, 1)).stride(),),
    (lambda L: L.frombuffer(bytearray(b"\x01\x00\x02\x00\x03\x00"), dtype=L.int16, count=2,
                            offset=2),),
    (lambda L: L.fill(L.ones(2), 3),),
    (lambda L: [L.is_signed(L.ones(1, dtype=d)) for d in (L.uint8, L.int8, L.float16, L.bool)],),
    (lambda L: [L.typename(L.ones(1, dtype=L.int64)), L.typename(L.nn.Linear(1, 1)),
                L.typename(3)],),
    (lambda L: [L.set_flush_denormal(False), L.is_warn_always_enabled(), L.newaxis],),
    (lambda L: L.eig(L.ones(2, 2)),),
    (lambda L: L.ones(2, 2).eig(),),
    (lambda L: L.symeig(L.ones(2, 2)),),
    (lambda L: L.ones(2, 2).symeig(True),),
    (lambda L: L.lstsq(L.ones(2, 2), L.ones(2, 2)),),
    (lambda L: L.ones(2, 2).lstsq(L.ones(2, 2)),),
    (lambda L: L.solve(L.ones(2, 2), L.ones(2, 2)),),
    (lambda L: L.ones(2, 2).solve(L.ones(2, 2)),),
    (lambda L: [L.ones(2).get_device(), L.get_device(L.ones(1)), L.ones(2).is_same_size(L.ones(2)),
                L.is_same_size(L.ones(2), L.ones(1)), L.is_storage(L.ones(1).untyped_storage()),
                L.is_storage(L.ones(1)), L.is_inference(L.ones(1))],),
    (lambda L: [getattr(L.ones(1), n) for n in ("is_cpu", "is_sparse_csr", "is_mkldnn",
                                                "is_vulkan", "is_xla", "is_ipu", "is_maia",
                                                "is_mtia")],),
    (lambda L: [L.ones(2, 3).dim_order(), L.ones(2, 3).t().dim_order(),
                L.ones(2, 1, 3).dim_order(), L.ones(2, 3).is_shared(), L.ones(2).is_distributed(),
                L.ones(1).is_nonzero()],),
    (lambda L: L.ones(2, 1).dim_order(ambiguity_check=True),),
    (lambda L: L.ones(3).is_nonzero(),),
    (lambda L: L.zeros(2, 3).module_load(L.ones(2, 3)),),
    (lambda L: L.zeros(2, 3).module_load(L.ones(2, 3), assign=True),),
    (lambda L: L.ones(2, 3).resize_as(L.ones(3, 2)),),
    (lambda L: L.ones(2, 3).new_empty_strided((2, 2), (1, 2), dtype=L.float64).stride(),),
    (lambda L: (lambda x: (x.unbind()[1].output_nr, x.output_nr))(
        L.ones(2, 3, requires_grad=True) * 2),),
]


@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
def test_against_torch(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(case[0], *case[1:])


def test_narrow_copy_backward_of_a_negative_start_fails_as_in_torch():
    errors_alike(lambda L: L.narrow_copy(L.ones(3, 4, requires_grad=True), 1, -2, 2).sum()
                 .backward())


def test_igamma_input_has_no_derivative():
    errors_alike(lambda L: L.igamma(L.ones(2, requires_grad=True), L.ones(2)).sum().backward())


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_igamma_values_over_the_regimes(dtype):
    rng = np.random.default_rng(0)
    a = np.concatenate([rng.uniform(0, 5, 400), rng.uniform(0, 300, 400),
                        rng.uniform(1e3, 1e4, 100)]).astype(dtype)
    x = np.concatenate([rng.uniform(0, 8, 400), rng.uniform(0, 400, 400),
                        a[800:] * rng.uniform(0.98, 1.02, 100)]).astype(dtype)
    rtol = 1e-8 if dtype == "float64" else 1e-4        # ATen: Temme's expansion, float loops
    for name in ("igamma", "igammac"):
        t = getattr(torch, name)(torch.from_numpy(a), torch.from_numpy(x)).numpy()
        e = getattr(ember, name)(ember.from_numpy(a), ember.from_numpy(x)).numpy()
        np.testing.assert_allclose(e, t, rtol=rtol, atol=1e-30 if dtype == "float64" else 1e-6)


def test_set_shares_a_tensor_or_a_storage():
    for lib in (torch, ember):
        y = lib.arange(6.)
        x = lib.zeros(2, 3).set_(y)
        assert x.is_set_to(y) and x.tolist() == y.tolist()
        x = lib.zeros(2).set_(y.untyped_storage(), 1, (2, 2))
        assert x.tolist() == [[1., 2.], [3., 4.]]
        y[1] = 9
        assert x[0, 0].item() == 9


def test_int_repr_of_a_dense_tensor_has_no_cpu_kernel():
    for lib in (torch, ember):
        with pytest.raises(NotImplementedError, match="Could not run 'aten::int_repr' with "
                           "arguments from the 'CPU' backend"):
            lib.ones(1).int_repr()


def test_set_default_tensor_type_warns_and_sets_the_dtype():
    try:
        with pytest.warns(UserWarning, match="set_default_tensor_type"):
            ember.set_default_tensor_type(ember.DoubleTensor)
        for lib in (torch, ember):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # (torch warns once per process)
                lib.set_default_tensor_type(lib.DoubleTensor)
                assert lib.ones(1).dtype is lib.float64
                lib.set_default_tensor_type("torch.FloatTensor")
                assert lib.ones(1).dtype is lib.float32
    finally:
        torch.set_default_dtype(torch.float32)
        ember.set_default_dtype(ember.float32)


def test_warn_always_flag():
    for lib in (torch, ember):
        lib.set_warn_always(True)
        assert lib.is_warn_always_enabled()
        lib.set_warn_always(False)
        assert not lib.is_warn_always_enabled()


def test_return_types_namespace():
    for name in ("max", "min", "sort", "topk", "aminmax", "slogdet"):
        cls = getattr(ember.return_types, name)
        assert repr(cls).replace("ember", "torch") == repr(getattr(torch.return_types, name))
    assert isinstance(ember.ones(2, 2).max(0), ember.return_types.max)
