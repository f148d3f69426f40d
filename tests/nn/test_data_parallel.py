"""``nn.DataParallel`` and ``nn.parallel`` against a CPU-only torch 2.13: the wrapper, its
repr and state dict, and the functional pieces' answers and errors."""

from __future__ import annotations

from collections import namedtuple

import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402
import torch.nn.parallel as tpar  # noqa: E402
from torch.nn.parallel.scatter_gather import scatter_kwargs as t_scatter_kwargs  # noqa: E402

import ember  # noqa: E402
import ember.nn as enn  # noqa: E402
import ember.nn.parallel as epar  # noqa: E402
from ember.nn.parallel.scatter_gather import scatter_kwargs as e_scatter_kwargs  # noqa: E402

from ._parity import check_module  # noqa: E402


def test_data_parallel_wraps_module():
    tm = tnn.DataParallel(tnn.Sequential(tnn.Linear(3, 4), tnn.ReLU()), device_ids=[0, 1])
    em = enn.DataParallel(enn.Sequential(enn.Linear(3, 4), enn.ReLU()), device_ids=[0, 1])
    assert repr(em) == repr(tm)
    assert list(em.state_dict()) == list(tm.state_dict()) == ["module.0.weight", "module.0.bias"]
    assert em.device_ids == tm.device_ids == []
    assert hasattr(em, "dim") == hasattr(tm, "dim")
    assert isinstance(em.module, enn.Sequential)
    check_module(tm, em, torch.randn(2, 3))
    # a checkpoint of the wrapper loads into the bare module after stripping the prefix
    sd = {k[len("module."):]: v for k, v in em.state_dict().items()}
    enn.Sequential(enn.Linear(3, 4), enn.ReLU()).load_state_dict(sd)
    assert enn.parallel.DataParallel is enn.DataParallel


def _outcome(fn):
    try:
        return "ok", repr(fn())
    except Exception as e:  # noqa: BLE001  (comparing torch's and ember's errors)
        return type(e).__name__, str(e)


P = namedtuple("P", "a b")

CASES = [
    lambda lib, par, nn: par.data_parallel(nn.Linear(2, 3), lib.ones(1, 2)),
    lambda lib, par, nn: par.scatter(lib.ones(3, 2), [0, 1]),
    lambda lib, par, nn: par.scatter([1, "a", None], [0, 1]),
    lambda lib, par, nn: par.scatter({"a": 1, "b": (2, 3)}, [0, 1]),
    lambda lib, par, nn: par.scatter(P(1, 2), [0, 1]),
    lambda lib, par, nn: par.scatter((), [0, 1]),
    lambda lib, par, nn: par.gather([lib.ones(2), lib.ones(2)], 0),
    lambda lib, par, nn: par.gather([None, None], 0),
    lambda lib, par, nn: par.gather([{"a": None}, {"a": None}], 0),
    lambda lib, par, nn: par.gather([{"a": None}, {}], 0),
    lambda lib, par, nn: par.gather([(None, None)], 0),
    lambda lib, par, nn: par.replicate(nn.Linear(2, 2), [0]),
    lambda lib, par, nn: par.replicate(nn.Linear(2, 2), [0], detach=True),
    lambda lib, par, nn: par.replicate(nn.BatchNorm1d(2, affine=False), [0]),
    lambda lib, par, nn: par.replicate(nn.Linear(2, 2), ["cpu"]),
    lambda lib, par, nn: par.replicate(nn.Linear(2, 2), []),
    lambda lib, par, nn: par.replicate(nn.Sequential(nn.ReLU(), nn.Tanh()), [0, 1]),
    lambda lib, par, nn: par.parallel_apply([nn.ReLU()], [lib.ones(1)]),
    lambda lib, par, nn: par.parallel_apply([nn.ReLU()], [lib.ones(1)], None, ["cpu"]),
    lambda lib, par, nn: par.parallel_apply([nn.ReLU()], [lib.ones(1), lib.ones(1)]),
    lambda lib, par, nn: par.parallel_apply([nn.ReLU()], [lib.ones(1)], [{}, {}]),
    lambda lib, par, nn: par.parallel_apply([nn.ReLU()], [lib.ones(1)], None, [0, 1]),
    lambda lib, par, nn: par.parallel_apply([], []),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_parallel_functions_as_cpu_torch(case):
    fn = CASES[case]
    assert _outcome(lambda: fn(ember, epar, enn)) == _outcome(lambda: fn(torch, tpar, tnn))


def test_scatter_kwargs():
    for args, kw in (((1,), {"a": 2}), ((), {"a": 2}), ((1, 2), None), ((), None)):
        assert e_scatter_kwargs(args, kw, [0, 1]) == t_scatter_kwargs(args, kw, [0, 1])


def test_replicas_share_structure():
    net = enn.Sequential(enn.ReLU(), enn.Sequential(enn.Tanh()))
    r = epar.replicate(net, [0, 1])
    assert len(r) == 2 and r[0] is not net and r[0][1] is not net[1]
    assert r[0]._is_replica and repr(r[1]) == repr(net)
    assert epar.replicate(enn.LazyLinear(2), []) == []
    with pytest.raises(AssertionError, match="Broadcast function not implemented"):
        epar.replicate(enn.LazyLinear(2), [0])
    with pytest.raises(RuntimeError, match="Modules with uninitialized parameters"):
        enn.LazyLinear(2)._replicate_for_data_parallel()
