"""Rprop, ASGD, Adafactor, SparseAdam and Muon, swa_utils, and the scheduler namespace, against
torch 2.13: the same parameters and gradients give the same trajectory (bit for bit where the
update is elementwise), the same state dicts, the same errors."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13")

SHAPES = [(), (1,), (0,), (3, 4), (7,), (2, 3, 5)]


def _start(shapes, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


def _grads(shapes, dtype, steps, seed=1):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(steps):
        gs = [rng.standard_normal(s).astype(dtype) for s in shapes]
        if i % 3 == 2:   # some repeated signs, some zeros
            gs = [np.where(np.abs(g) < 0.3, 0, g).astype(dtype) for g in gs]
        out.append(gs)
    return out


def _run(lib, name, kw, starts, grads, noncontig=False):
    ps = [lib.nn.Parameter(lib.tensor(s.copy())) for s in starts]
    opt = getattr(lib.optim, name)(ps, **kw)
    trail = []
    for gs in grads:
        for p, g in zip(ps, gs):
            if noncontig and g.ndim == 2:
                p.grad = lib.tensor(np.ascontiguousarray(g.T)).t()
            else:
                p.grad = lib.tensor(g.copy())
        opt.step()
        trail.append([p.detach().numpy().copy() for p in ps])
    return opt, trail


def _same_state(st, se, exact=True):
    assert list(st["state"]) == list(se["state"])
    for i, s in st["state"].items():
        assert sorted(s) == sorted(se["state"][i])
        for k, v in s.items():
            w = se["state"][i][k]
            if isinstance(v, torch.Tensor):
                assert str(v.dtype)[6:] == str(w.dtype)[6:] and tuple(v.shape) == tuple(w.shape)
                if exact:
                    np.testing.assert_array_equal(w.numpy(), v.numpy(), err_msg=k)
                else:
                    np.testing.assert_allclose(w.numpy(), v.numpy(), rtol=1e-5, atol=1e-7)
            else:
                assert v == w, k
    assert st["param_groups"] == se["param_groups"]


def _compare(name, kw, shapes=SHAPES, dtype=np.float32, steps=12, exact=True, noncontig=False):
    # float64 fused multiply-adds are emulated unfused: within an ulp (docs/differences.md)
    exact = exact and dtype == np.float32
    starts, grads = _start(shapes, dtype), _grads(shapes, dtype, steps)
    ot, tt = _run(torch, name, kw, starts, grads, noncontig)
    oe, te = _run(ember, name, kw, starts, grads, noncontig)
    for step, (a, b) in enumerate(zip(tt, te)):
        for t, e in zip(a, b):
            assert t.dtype == e.dtype and t.shape == e.shape
            if exact:
                np.testing.assert_array_equal(e, t, err_msg=f"step {step}")
            else:
                tol = 1e-13 if dtype == np.float64 else 1e-5
                np.testing.assert_allclose(e, t, rtol=tol, atol=tol / 10, err_msg=f"step {step}")
    _same_state(ot.state_dict(), oe.state_dict(), exact)
    return ot, oe


RPROP = [{}, {"lr": 0.1}, {"lr": 0.05, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2)},
         {"maximize": True}, {"foreach": True}, {"foreach": False, "lr": 0.5}]
ASGD = [{}, {"lr": 0.1, "weight_decay": 0.1}, {"lr": 0.05, "t0": 3, "lambd": 1e-2},
        {"lr": 0.1, "t0": 0, "alpha": 0.5, "maximize": True}, {"foreach": True, "t0": 5}]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kw", RPROP)
def test_rprop_is_bit_identical(kw, dtype):
    _compare("Rprop", kw, dtype=dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kw", ASGD)
def test_asgd_is_bit_identical(kw, dtype):
    _compare("ASGD", kw, dtype=dtype)


@pytest.mark.parametrize("name", ["Rprop", "ASGD"])
def test_noncontiguous_gradients(name):
    _compare(name, {"lr": 0.1}, shapes=[(3, 4), (5, 2)], noncontig=True)


# Adafactor's norms are reductions: those are ember's torch-ordered kernels
ADAFACTOR = [{}, {"lr": 0.1, "weight_decay": 0.1}, {"beta2_decay": -0.5, "eps": (1e-4, 1e-2)},
             {"d": 2.0, "maximize": True}, {"foreach": True, "lr": 0.05},
             {"foreach": False}]
SHAPES_NONEMPTY = [(), (1,), (3, 4), (7,), (2, 3, 5), (40, 33)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kw", ADAFACTOR)
def test_adafactor(kw, dtype):
    _compare("Adafactor", kw, shapes=SHAPES_NONEMPTY, dtype=dtype)
    _compare("Adafactor", kw, shapes=[(5, 6)], dtype=dtype, noncontig=True)


def test_adafactor_empty_parameter_raises_as_torch():
    for lib in (torch, ember):
        p = lib.nn.Parameter(lib.zeros(0))
        p.grad = lib.zeros(0)
        with pytest.raises(ZeroDivisionError):
            lib.optim.Adafactor([p]).step()


MUON = [{}, {"lr": 0.02, "weight_decay": 0.0}, {"nesterov": False, "momentum": 0.9},
        {"adjust_lr_fn": "match_rms_adamw", "ns_steps": 3},
        {"adjust_lr_fn": "original", "ns_coefficients": (3.0, -3.2, 1.2), "eps": 1e-5}]


@pytest.mark.parametrize("kw", MUON)
def test_muon(kw):
    # small matrices agree bit for bit; bfloat16 products on larger ones to the BLAS's rounding
    _compare("Muon", kw, shapes=[(4, 6), (8, 3), (1, 1), (16, 16)], steps=6)
    _compare("Muon", kw, shapes=[(5, 7), (6, 2)], steps=4, noncontig=True)


def _compare_approx(name, kw, shapes, steps, atol):
    starts, grads = _start(shapes, np.float32), _grads(shapes, np.float32, steps)
    ot, tt = _run(torch, name, kw, starts, grads)
    oe, te = _run(ember, name, kw, starts, grads)
    for a, b in zip(tt, te):
        for t, e in zip(a, b):
            np.testing.assert_allclose(e, t, atol=atol, rtol=0)


def test_muon_large_matrix_within_bfloat16_rounding():
    _compare_approx("Muon", {"lr": 0.02}, [(65, 40), (40, 129)], 5, atol=2e-4)


def _errors(fn):
    got = []
    for lib in (torch, ember):
        with pytest.raises(Exception) as info:
            fn(lib)
        got.append((type(info.value), str(info.value)))
    assert got[0] == got[1]


def _param(lib, shape=(2, 3), grad=True):
    p = lib.nn.Parameter(lib.ones(shape))
    if grad:
        p.grad = lib.ones(shape)
    return p


@pytest.mark.parametrize("name,kw", [
    ("Rprop", {"lr": -1}), ("Rprop", {"etas": (1.5, 1.2)}), ("Rprop", {"etas": (0.5, 0.9)}),
    ("ASGD", {"lr": -0.1}), ("ASGD", {"weight_decay": -1}),
    ("Adafactor", {"lr": -1}), ("Adafactor", {"beta2_decay": 0.5}),
    ("Adafactor", {"eps": (-1, 1e-3)}), ("Adafactor", {"eps": (None, -1)}),
    ("Adafactor", {"d": 0.5}), ("Adafactor", {"weight_decay": -1}),
    ("SparseAdam", {"lr": 0}), ("SparseAdam", {"eps": 0}),
    ("SparseAdam", {"betas": (1.0, 0.9)}), ("SparseAdam", {"betas": (0.9, -0.1)}),
    ("Muon", {"lr": -1}), ("Muon", {"momentum": -1}), ("Muon", {"weight_decay": -1}),
    ("Muon", {"adjust_lr_fn": "other"}),
])
def test_invalid_hyperparameters(name, kw):
    _errors(lambda lib: getattr(lib.optim, name)([_param(lib)], **kw))


@pytest.mark.parametrize("name", ["Rprop", "ASGD"])
def test_capturable_on_cpu_raises_at_step(name):
    _errors(lambda lib: getattr(lib.optim, name)([_param(lib)], capturable=True).step())


def test_step_errors():
    _errors(lambda lib: lib.optim.SparseAdam([_param(lib)]).step())
    _errors(lambda lib: lib.optim.Muon([_param(lib, (3,))]))
    _errors(lambda lib: lib.optim.Muon([_param(lib)], ns_steps=100).step())
    _errors(lambda lib: lib.optim.SparseAdam([lib.nn.Parameter(lib.ones(2, dtype=lib.cfloat))]))
    def complex_param(lib):
        p = lib.nn.Parameter(lib.ones(2, dtype=lib.cfloat))
        p.grad = lib.ones(2, dtype=lib.cfloat)
        return p
    _errors(lambda lib: lib.optim.Adafactor([_param(lib, ()), complex_param(lib)]).step())
    _errors(lambda lib: lib.optim.Muon([_param(lib), complex_param(lib)]))
    for name in ("Rprop", "ASGD", "Adafactor", "SparseAdam", "Muon"):
        _errors(lambda lib, name=name: getattr(lib.optim, name)(_param(lib)))


def test_sparse_adam_without_gradients_steps_as_torch():
    for lib in (torch, ember):
        p = _param(lib, grad=False)
        opt = lib.optim.SparseAdam([p], lr=0.1, maximize=True)
        assert opt.step(lambda: 3.0) == 3.0
        assert opt.state_dict() == {"state": {}, "param_groups": [
            {"lr": 0.1, "betas": (0.9, 0.999), "eps": 1e-8, "maximize": True, "params": [0]}]}


@pytest.mark.parametrize("name,kw", [("Rprop", {}), ("ASGD", {"t0": 2}), ("Adafactor", {}),
                                     ("Muon", {})])
def test_state_dict_round_trip(name, kw):
    """A torch state dict loads into ember (and back) and the two carry on identically."""
    starts, grads = _start([(3, 4), (4, 2)], np.float32), _grads([(3, 4), (4, 2)], np.float32, 6)
    ot, tt = _run(torch, name, kw, starts, grads[:3])
    oe, te = _run(ember, name, kw, starts, grads[:3])
    pt = list(ot.param_groups[0]["params"])
    pe = list(oe.param_groups[0]["params"])
    sd = ot.state_dict()
    fresh = getattr(ember.optim, name)(pe, **kw)
    fresh.load_state_dict({"state": {k: {n: ember.tensor(v.numpy()) if isinstance(v, torch.Tensor)
                                         else v for n, v in s.items()}
                                     for k, s in sd["state"].items()},
                           "param_groups": copy.deepcopy(sd["param_groups"])})
    _same_state(sd, fresh.state_dict())
    for g in grads[3:]:
        for lib, opt, ps in ((torch, ot, pt), (ember, fresh, pe)):
            for p, x in zip(ps, g):
                p.grad = lib.tensor(x.copy())
            opt.step()
        for t, e in zip(pt, pe):
            np.testing.assert_array_equal(e.detach().numpy(), t.detach().numpy())
    _same_state(ot.state_dict(), fresh.state_dict())


@pytest.mark.parametrize("name", ["Rprop", "ASGD", "Adafactor", "SparseAdam", "Muon"])
def test_repr_and_defaults(name):
    reps = []
    for lib in (torch, ember):
        opt = getattr(lib.optim, name)([_param(lib)])
        reps.append((repr(opt), sorted(opt.defaults)))
    assert reps[0] == reps[1]


# ----------------------------------------------------------------------------- swa_utils

def _model(lib, values):
    m = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.Linear(4, 2))
    _load(lib, m, values)
    return m


def _load(lib, m, values):
    with lib.no_grad():
        for t, v in zip(list(m.parameters()) + list(m.buffers()), values):
            t.copy_(lib.tensor(v))


def _values(seed):
    rng = np.random.default_rng(seed)
    shapes = [(4, 3), (4,), (4,), (4,), (2, 4), (2,), (4,), (4,)]
    vals = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    return vals + [np.array(seed, dtype=np.int64)]          # num_batches_tracked


AVG = {
    "swa": lambda su: {},
    "ema_multi": lambda su: {"multi_avg_fn": su.get_ema_multi_avg_fn(0.9)},
    "swa_multi": lambda su: {"multi_avg_fn": su.get_swa_multi_avg_fn()},
    "ema": lambda su: {"avg_fn": su.get_ema_avg_fn(0.75)},
    "swa_fn": lambda su: {"avg_fn": su.get_swa_avg_fn()},
}


@pytest.mark.parametrize("use_buffers", [False, True])
@pytest.mark.parametrize("kind", sorted(AVG))
def test_averaged_model(kind, use_buffers):
    def run(lib):
        m = _model(lib, _values(0))
        avg = lib.optim.swa_utils.AveragedModel(m, use_buffers=use_buffers,
                                                **AVG[kind](lib.optim.swa_utils))
        for seed in range(1, 6):
            _load(lib, m, _values(seed))
            avg.update_parameters(m)
        out = {k: v.numpy() for k, v in avg.state_dict().items()}
        out["y"] = avg(lib.ones(2, 3)).detach().numpy()
        return out

    if kind == "swa_multi" and use_buffers:     # the integer batch count: addcdiv refuses it
        _errors(run)
        return
    out = [run(torch), run(ember)]
    assert list(out[0]) == list(out[1])
    for k in out[0]:
        assert out[0][k].dtype == out[1][k].dtype, k
        if k == "y":    # the forward's matrix products: the BLAS's rounding
            np.testing.assert_allclose(out[1][k], out[0][k], rtol=1e-6, atol=1e-6)
        else:
            np.testing.assert_array_equal(out[1][k], out[0][k], err_msg=k)


def test_averaged_model_errors_and_decay():
    for lib in (torch, ember):
        su = lib.optim.swa_utils
        with pytest.raises(AssertionError, match="Only one of avg_fn and multi_avg_fn"):
            su.AveragedModel(lib.nn.Linear(2, 2), avg_fn=su.get_swa_avg_fn(),
                             multi_avg_fn=su.get_swa_multi_avg_fn())
        for bad in (-0.1, 1.5):
            for fn in (su.get_ema_avg_fn, su.get_ema_multi_avg_fn):
                with pytest.raises(ValueError, match=r"Invalid decay value .* in \[0,1\] range"):
                    fn(bad)


def test_averaged_model_integer_tensors():
    out = []
    for lib in (torch, ember):
        su = lib.optim.swa_utils
        avg, cur = [lib.tensor([1.0, 4.0])], [lib.tensor([3.0, 8.0])]
        su.get_swa_multi_avg_fn()(avg, cur, 3)
        ints = [lib.tensor([10, 20])]
        su.get_ema_multi_avg_fn(0.5)(ints, [lib.tensor([20, 40])], None)
        out.append((avg[0].numpy(), ints[0].numpy(), ints[0].dtype is lib.int64))
    for a, b in zip(*out):
        np.testing.assert_array_equal(a, b)


def test_update_bn():
    out = []
    for lib in (torch, ember):
        m = _model(lib, _values(0))
        m.eval()
        loader = [(lib.tensor(v), 0) for v in np.random.default_rng(2).standard_normal(
            (4, 5, 3)).astype(np.float32)]
        lib.optim.swa_utils.update_bn(loader, m)
        lib.optim.swa_utils.update_bn([], lib.nn.Linear(2, 2))     # no batch norm: no-op
        bn = m[1]
        out.append((m.training, bn.momentum, bn.running_mean.numpy(), bn.running_var.numpy(),
                    int(bn.num_batches_tracked)))
    assert out[0][:2] == out[1][:2] and out[0][4] == out[1][4]
    np.testing.assert_allclose(out[1][2], out[0][2], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(out[1][3], out[0][3], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("kw", [{"swa_lr": 0.05}, {"swa_lr": 0.05, "anneal_epochs": 3},
                                {"swa_lr": [0.01, 0.2], "anneal_strategy": "linear",
                                 "anneal_epochs": 4},
                                {"swa_lr": 0.3, "anneal_epochs": 0}])
def test_swalr_sequence(kw):
    seqs = []
    for lib in (torch, ember):
        ps = [lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(3))]
        opt = lib.optim.SGD([{"params": ps[:1]}, {"params": ps[1:], "lr": 0.5}], lr=0.1)
        s = lib.optim.swa_utils.SWALR(opt, **kw)
        seq = [s.get_last_lr()]
        for _ in range(8):
            opt.step()
            s.step()
            seq.append(s.get_last_lr())
        sd = s.state_dict()
        seqs.append((seq, sorted(sd), sd["_anneal_strategy"]))
        s2 = lib.optim.swa_utils.SWALR(opt, swa_lr=1.0)
        s2.load_state_dict(sd)
        assert s2.anneal_func(0.5) == s.anneal_func(0.5)
    assert seqs[0] == seqs[1]


def test_swalr_errors_and_warning():
    for lib in (torch, ember):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1)
        _errors(lambda lib, opt=opt: lib.optim.swa_utils.SWALR(opt, 0.1, anneal_strategy="x"))
        _errors(lambda lib, opt=opt: lib.optim.swa_utils.SWALR(opt, 0.1, anneal_epochs=-1))
        _errors(lambda lib, opt=opt: lib.optim.swa_utils.SWALR(opt, [0.1, 0.2]))
        s = lib.optim.swa_utils.SWALR(opt, 0.05)
        with pytest.warns(UserWarning, match="please use `get_last_lr"):
            s.get_lr()
