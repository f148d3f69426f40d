"""``fully_shard``'s checks and their messages on a 1-rank group, against torch in this
process: applying it twice, containers without forward, scalar parameters, a tied parameter
in two groups, a forward through a submodule before the root, and the mesh's dimensions."""

import copy
import importlib

import pytest

pytest.importorskip("mpi4py")

from tests.helpers import ember, torch  # noqa: E402

pytestmark = pytest.mark.dispatch_on     # fully_shard makes DTensors


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except Exception as e:   # noqa: BLE001  (the error class and message are the result)
        # (a class's module path names the package: ember.nn… here, torch.nn… in torch)
        return (type(e).__name__, str(e).replace("'ember.", "'torch."))


def _twice(lib, fs):
    m = lib.nn.Linear(2, 2)
    fs.fully_shard(m)
    fs.fully_shard(m)


def _submodule_first(lib, fs):
    m = lib.nn.Sequential(lib.nn.Linear(2, 2))
    fs.fully_shard(m[0])
    fs.fully_shard(m)
    m[0](lib.ones(1, 2))
    m(lib.ones(1, 2))


def _shared(lib, fs):
    a, b = lib.nn.Linear(2, 2), lib.nn.Linear(2, 2)
    b.weight = a.weight
    m = lib.nn.Sequential(a, b)
    fs.fully_shard(m[0])
    fs.fully_shard(m)
    m(lib.ones(1, 2))


def _scalar(lib, fs):
    m = lib.nn.Linear(2, 2)
    m.s = lib.nn.Parameter(lib.tensor(1.0))
    fs.fully_shard(m)


def _grouped(lib, fs):
    a, b = lib.nn.Linear(2, 2), lib.nn.Linear(2, 3)
    out = fs.fully_shard([a, b])
    return ([type(x).__name__ for x in out], type(fs.fully_shard.state(a)).__name__,
            fs.fully_shard.state(a) is fs.fully_shard.state(b),
            [(n, str(p.placements)) for n, p in b.named_parameters()])


CASES = {
    "twice": _twice,
    "module_list": lambda lib, fs: fs.fully_shard(lib.nn.ModuleList([lib.nn.Linear(2, 2)])),
    "not_a_module": lambda lib, fs: fs.fully_shard(3),
    "reshard_flag": lambda lib, fs: fs.fully_shard(lib.nn.Linear(2, 2))
    .set_reshard_after_forward(1),
    "mesh_3d": lambda lib, fs: fs.fully_shard(lib.nn.Linear(2, 2), mesh=importlib.import_module(
        lib.__name__ + ".distributed.device_mesh").init_device_mesh("cpu", (1, 1, 1))),
    "deepcopy": lambda lib, fs: copy.deepcopy(fs.fully_shard(lib.nn.Linear(2, 2))),
    "submodule_first": _submodule_first,
    "shared": _shared,
    "scalar": _scalar,
    "prefetch_plain_module": lambda lib, fs: fs.fully_shard(lib.nn.Linear(2, 2))
    .set_modules_to_forward_prefetch([lib.nn.Linear(1, 1)]),
    "grouped": _grouped,
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_fully_shard_checks_as_torchs(tmp_path, case):
    out = []
    for lib in (torch, ember):
        fs = importlib.import_module(lib.__name__ + ".distributed.fsdp")
        lib.distributed.init_process_group(
            "gloo", init_method=f"file://{tmp_path}/{lib.__name__}", rank=0, world_size=1)
        try:
            lib.manual_seed(0)
            out.append(_outcome(CASES[case], lib, fs))
        finally:
            lib.distributed.destroy_process_group()
    assert out[1] == out[0]
