"""What of ember.distributed needs no second process, against torch: the errors before
``init_process_group``, ``ReduceOp``'s printing, and ``register_post_accumulate_grad_hook``
(the hook DistributedDataParallel starts its reductions from)."""

import pytest

import ember
import ember.distributed as dist

torch = pytest.importorskip("torch")
import torch.distributed as tdist  # noqa: E402


def test_calls_before_init_raise_torchs_error():
    assert dist.is_initialized() is tdist.is_initialized() is False
    for ours, theirs in ((dist.get_rank, tdist.get_rank),
                         (dist.get_world_size, tdist.get_world_size),
                         (lambda: dist.all_reduce(ember.ones(1)),
                          lambda: tdist.all_reduce(torch.ones(1))),
                         (dist.barrier, tdist.barrier)):
        with pytest.raises(ValueError) as a:
            ours()
        with pytest.raises(ValueError) as b:
            theirs()
        assert str(a.value) == str(b.value)


def test_reduce_op_prints_as_torchs():
    for name in ("SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"):
        ours, theirs = getattr(dist.ReduceOp, name), getattr(tdist.ReduceOp, name)
        assert str(ours) == str(theirs)
        assert repr(ours) == repr(theirs)


def test_nccl_is_refused_with_torchs_words():
    with pytest.raises(RuntimeError, match="Distributed package doesn't have NCCL built in"):
        dist.init_process_group("nccl")
    assert not dist.is_initialized()


def _hook_log(mod):
    log = []
    w = mod.ones(3, requires_grad=True)
    b = mod.zeros(1, requires_grad=True)
    w.register_post_accumulate_grad_hook(lambda p: log.append(("w", p.grad.tolist())))
    h = b.register_post_accumulate_grad_hook(lambda p: log.append(("b", p.grad.tolist())))
    x = mod.tensor([1.0, 2.0, 3.0])
    ((w * x).sum() + b).sum().backward()
    ((w * x).sum() * 2 + b).backward()
    h.remove()
    ((w * x).sum() + b).backward()
    mod.autograd.grad((w * x).sum(), [w])          # not accumulating: no hook
    return log


def test_post_accumulate_grad_hooks_as_torchs():
    assert _hook_log(ember) == _hook_log(torch)


def test_post_accumulate_grad_hook_errors_as_torchs():
    for mod in (ember, torch):
        y = mod.ones(2, requires_grad=True) * 2
        with pytest.raises(RuntimeError,
                           match="post accumulate grad hooks cannot be registered on non-leaf"):
            y.register_post_accumulate_grad_hook(print)
        with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that "
                                               "doesn't require gradient"):
            mod.ones(2).register_post_accumulate_grad_hook(print)


@pytest.mark.parametrize("backend", [None, "gloo", "GLOO", "cpu:gloo", "mpi"])
def test_backend_names_are_reported_as_torch_reports_them(backend, tmp_path):
    def names(mod):
        d = mod.distributed
        d.init_process_group(backend, init_method=f"file://{tmp_path}/{mod.__name__}", rank=0,
                             world_size=1)
        try:
            return (type(d.get_backend()), d.get_backend(), d.get_backend(d.new_group([0])),
                    d.get_backend(d.new_group([0], backend="gloo")), d.get_rank(),
                    d.get_world_size(), d.get_default_backend_for_device("cpu"),
                    d.get_default_backend_for_device(mod.device("cuda")),
                    d.Backend.default_device_backend_map["cpu"])
        finally:
            d.destroy_process_group()
    want = (str, "mpi", "mpi", "gloo", 0, 1, "gloo", "nccl", "gloo") if backend == "mpi" \
        else names(torch)      # torch 2.13 has no MPI backend built in
    assert names(ember) == want
    assert dist.is_gloo_available() is dist.is_mpi_available()
