"""ember.multiprocessing against torch.multiprocessing."""

from __future__ import annotations

import math
import operator

import pytest
import torch.multiprocessing as tmp

import ember
import ember.multiprocessing as emp


def test_it_is_pythons_multiprocessing_with_torchs_additions():
    import multiprocessing
    assert emp.Process is tmp.Process is multiprocessing.Process
    assert emp.get_start_method(allow_none=True) == tmp.get_start_method(allow_none=True)
    assert ember.multiprocessing is emp
    assert emp.get_all_sharing_strategies() == tmp.get_all_sharing_strategies()
    assert emp.get_sharing_strategy() == tmp.get_sharing_strategy()


@pytest.mark.parametrize("nprocs", [1, 3])
def test_start_processes_runs_fn_with_its_index(nprocs):
    assert emp.start_processes(math.sqrt, nprocs=nprocs, start_method="fork") is None
    ctx = emp.start_processes(math.sqrt, nprocs=nprocs, join=False, start_method="fork")
    assert type(ctx).__name__ == "ProcessContext" and len(ctx.pids()) == nprocs
    while not ctx.join():
        pass


def test_a_failing_child_raises_as_torch():
    for mp in (tmp, emp):
        with pytest.raises(mp.ProcessRaisedException, match="ZeroDivisionError") as info:
            mp.start_processes(operator.truediv, args=(0,), nprocs=2, start_method="fork")
        assert "-- Process 0 terminated with the following error:" in str(info.value) \
            or "-- Process 1 terminated with the following error:" in str(info.value)


def test_spawn_uses_a_fresh_interpreter():
    emp.spawn(math.sqrt, nprocs=1)
    with pytest.warns(FutureWarning, match="only supports start_method=spawn"):
        emp.spawn(math.sqrt, nprocs=1, start_method="fork")


def _hogwild_step(lib, model, rank):
    lib.manual_seed(rank)
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        model(lib.ones(1, 2)).sum().backward()
        opt.step()


def test_share_memory_lets_forked_workers_train_one_model():
    """Hogwild: parameters moved to shared memory are updated by forked processes, and the
    parent sees their steps (torch's numbers for the same steps)."""
    import multiprocessing

    def run(lib):
        lib.manual_seed(0)
        model = lib.nn.Linear(2, 1)
        before = model.weight.is_shared()
        model.share_memory()
        ctx = multiprocessing.get_context("fork")
        procs = [ctx.Process(target=_hogwild_step, args=(lib, model, r)) for r in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join()
        return before, model.weight.is_shared(), model.weight.detach().numpy().tolist()

    torch = pytest.importorskip("torch")
    assert run(ember) == run(torch)
