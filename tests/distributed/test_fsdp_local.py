"""What of FSDP and distributed.checkpoint a 1-rank group shows, against torch in this
process: the switch to NO_SHARD, parameter names and shapes, the state-dict kinds' keys,
the configuration checks and their messages, and checkpoints saved and loaded by one
process (nested containers, partial loads, missing keys)."""

import contextlib
import importlib
import warnings

import numpy as np
import pytest

pytest.importorskip("mpi4py")

from tests.helpers import ember, torch  # noqa: E402


@contextlib.contextmanager
def group(lib, tmp_path):
    lib.distributed.init_process_group("gloo", init_method=f"file://{tmp_path}/{lib.__name__}",
                                       rank=0, world_size=1)
    try:
        yield
    finally:
        lib.distributed.destroy_process_group()


def both(tmp_path, fn):
    out = []
    for lib in (torch, ember):
        fsdp = importlib.import_module(lib.__name__ + ".distributed.fsdp")
        with group(lib, tmp_path), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out.append((fn(lib, fsdp), sorted({str(w.message) for w in caught
                                               if "FSDP" in str(w.message)
                                               or "NO_SHARD" in str(w.message)})))
    return out


def _net(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(),
                             lib.nn.Sequential(lib.nn.Linear(4, 2)))


def _plain(v):
    if isinstance(v, (torch.Tensor, ember.Tensor)):
        return (tuple(v.shape), str(v.dtype), v.detach().numpy().round(6).tolist())
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(_plain(x) for x in v)
    return v


@pytest.mark.parametrize("orig", [False, True])
def test_one_rank_fsdp_is_no_shard_as_torchs(tmp_path, orig):
    def run(lib, fsdp):
        m = fsdp.FullyShardedDataParallel(
            _net(lib), device_id=lib.device("cpu"), use_orig_params=orig,
            auto_wrap_policy=fsdp.wrap.ModuleWrapPolicy({lib.nn.Linear}))
        out = m(lib.ones(2, 3))
        out.sum().backward()
        kinds = {}
        for kind in fsdp.StateDictType:
            with fsdp.FullyShardedDataParallel.state_dict_type(m, kind):
                sd = m.state_dict()
            kinds[str(kind)] = [(k, type(v).__name__) for k, v in sd.items()]
        return (repr(m), m.sharding_strategy, _plain(out),
                [(n, tuple(p.shape), _plain(p.grad)) for n, p in m.named_parameters()],
                _plain(m.state_dict()), kinds,
                str(fsdp.FullyShardedDataParallel.get_state_dict_type(m)).replace(
                    "torch.", "").split("(")[0])
    (t, tw), (e, ew) = both(tmp_path, run)
    assert str(t[1]) == str(e[1]) == "ShardingStrategy.NO_SHARD"
    assert t[0] == e[0] and t[2:] == e[2:]
    assert tw == ew


def test_state_dict_type_checks_as_torchs(tmp_path):
    def run(lib, fsdp):
        m = fsdp.FullyShardedDataParallel(_net(lib), device_id=lib.device("cpu"))
        errors = []
        for call in (lambda: fsdp.FullyShardedDataParallel.set_state_dict_type(
                         m, fsdp.StateDictType.FULL_STATE_DICT, fsdp.LocalStateDictConfig()),
                     lambda: fsdp.FullyShardedDataParallel(lib.nn.Linear(2, 2)),
                     lambda: fsdp.FullyShardedDataParallel(lib.nn.Linear(2, 2), device_id=0)):
            try:
                call()
            except Exception as ex:  # noqa: BLE001 - compared below
                errors.append((type(ex).__name__, str(ex).replace("torch.", "ember.")))
        prev = fsdp.FullyShardedDataParallel.set_state_dict_type(
            m, fsdp.StateDictType.SHARDED_STATE_DICT)
        return errors, str(prev.state_dict_type), repr(prev.state_dict_config)
    (t, _), (e, _) = both(tmp_path, run)
    assert t == e


def test_checkpoint_round_trip_as_torchs(tmp_path):
    outs = []
    for lib in (torch, ember):
        dcp = importlib.import_module(lib.__name__ + ".distributed.checkpoint")
        d = tmp_path / lib.__name__
        lib.manual_seed(0)
        state = {"model": {"w": lib.randn(3, 2), "b": lib.arange(4)}, "step": 7,
                 "hist": [lib.ones(2), lib.zeros(1)], "name": "run"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            md = dcp.save(state, checkpoint_id=d, no_dist=True)
            target = {"model": {"w": lib.zeros(3, 2), "b": lib.zeros(4, dtype=lib.int64)},
                      "step": 0, "hist": [lib.zeros(2), lib.ones(1)], "name": ""}
            dcp.load(target, checkpoint_id=d, no_dist=True)
            partial = {"model": {"w": lib.zeros(3, 2)}, "extra": lib.ones(1)}
            dcp.load(partial, checkpoint_id=d, no_dist=True,
                     planner=dcp.DefaultLoadPlanner(allow_partial_load=True))
            with pytest.raises(RuntimeError) as no_id:
                dcp.save(state, no_dist=True)
            try:
                dcp.load({"nope": lib.ones(1)}, checkpoint_id=d, no_dist=True)
                err = None
            except BaseException as ex:  # noqa: BLE001 - torch's CheckpointException is one
                err = type(ex).__name__, "Missing key in checkpoint state_dict: nope." in str(ex)
        files = sorted(p.name for p in d.iterdir())
        outs.append((_plain(target), _plain(partial), sorted(md.state_dict_metadata), files,
                     err, str(no_id.value),
                     {k: type(v).__name__ for k, v in md.state_dict_metadata.items()}))
    t, e = outs
    assert t == e
    assert t[0]["step"] == 7 and t[0]["name"] == "run"
    assert np.array_equal(t[0]["model"]["w"][2], t[1]["model"]["w"][2])
