"""torch.distributed.rpc and distributed autograd in one process (a world of one worker),
against torch's own: errors before init_rpc, printing, RRefs, rpc to oneself, remote
exceptions and distributed backward."""

import os
import pathlib
import pickle
import socket
import subprocess
import sys
import time

import pytest

import ember

torch = pytest.importorskip("torch")
pytest.importorskip("mpi4py")
for _mod in ("torch", "ember"):
    for _sub in ("rpc", "autograd", "nn"):
        pytest.importorskip(f"{_mod}.distributed.{_sub}")


HERE = pathlib.Path(__file__).resolve().parent


class _Env:
    """``monkeypatch.setenv`` in an interpreter of its own."""

    @staticmethod
    def setenv(name, value):
        os.environ[name] = value


def _fresh(func: str, lib: str) -> str:
    """``repr`` of ``func(lib, env)`` run in a new interpreter: RPC and distributed-autograd
    state (torch's too) outlives ``shutdown`` in a process, and other tests run RPC."""
    code = (f"import sys\nsys.path.insert(0, {str(HERE)!r})\nimport test_rpc_local as T\n"
            f"import {lib} as mod\nprint(repr(T.{func}(mod, T._Env())))\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parent / "src"),
                                         *filter(None, [env.get("PYTHONPATH")])])
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip().splitlines()[-1]


def _errors(mod, _env=None):
    rpc, dist_autograd = mod.distributed.rpc, mod.distributed.autograd
    calls = (lambda: rpc.rpc_sync("w", mod.add, args=(1, 2)),
             lambda: rpc.rpc_async("w", mod.add, args=(1, 2)),
             lambda: rpc.remote("w", mod.add, args=(1, 2)),
             lambda: rpc.get_worker_info(), lambda: rpc.shutdown(),
             lambda: rpc.RRef(1),
             lambda: dist_autograd.context().__enter__(),
             lambda: dist_autograd.get_gradients(0),
             lambda: dist_autograd.backward(0, [mod.ones(())]),
             lambda: mod.distributed.nn.RemoteModule("w/cpu", mod.nn.Linear, args=(2, 2)))
    out = []
    for call in calls:
        try:
            call()
            out.append(None)
        except Exception as e:   # noqa: BLE001
            out.append((type(e).__name__, str(e).split("\n")[0]))   # (torch: C++ frames after)
    return out


def test_calls_before_init_rpc_raise_torchs_errors():
    assert _fresh("_errors", "ember") == _fresh("_errors", "torch")


def test_worker_info_and_options_as_torchs():
    for mod in (ember, torch):
        rpc = mod.distributed.rpc
        info = rpc.WorkerInfo("trainer", 3)
        o = rpc.TensorPipeRpcBackendOptions(num_worker_threads=4, rpc_timeout=20)
        yield_ = (repr(info), str(info), info.name, info.id, o.num_worker_threads,
                  o.rpc_timeout, o.init_method, rpc.TensorPipeRpcBackendOptions().rpc_timeout,
                  rpc.TensorPipeRpcBackendOptions().num_worker_threads)
        if mod is ember:
            ours = yield_
    assert ours == yield_


def boom(x):
    raise KeyError(x)


def _session(mod, monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        monkeypatch.setenv("MASTER_ADDR", "127.0.0.1")
        monkeypatch.setenv("MASTER_PORT", str(s.getsockname()[1]))
    rpc, dist_autograd = mod.distributed.rpc, mod.distributed.autograd
    rpc.init_rpc("solo", rank=0, world_size=1)
    out = []
    try:
        me = rpc.get_worker_info()
        out += [repr(me), me == rpc.get_worker_info("solo"), rpc.get_worker_info(0).name]
        out.append(rpc.rpc_sync("solo", mod.add, args=(mod.ones(2), 1)).tolist())
        out.append(rpc.rpc_async(0, mod.mul, args=(mod.ones(2), 3)).wait().tolist())
        r = rpc.remote("solo", mod.arange, args=(4,))
        out += [r.to_here().tolist(), r.is_owner(), r.owner_name(), r.local_value().tolist()]
        local = rpc.RRef(mod.zeros(1))
        out += [repr(local), local.to_here().tolist()]
        with pytest.raises(RuntimeError) as e:
            pickle.dumps(local)
        out.append(str(e.value))
        with pytest.raises(RuntimeError) as e:        # torch: a KeyError arrives as this
            rpc.rpc_sync("solo", boom, args=("k",))
        out.append(str(e.value).split("Traceback")[0])      # (the frames differ)
        with pytest.raises(KeyError) as e:
            rpc.remote("solo", boom, args=("k",)).to_here()
        out.append(str(e.value).split("Traceback")[0])
        for bad in ("nobody", 5):
            with pytest.raises(RuntimeError) as e:
                rpc.get_worker_info(bad) if isinstance(bad, str) else rpc.rpc_sync(bad, mod.add,
                                                                                   args=(1, 1))
            out.append((type(e.value).__name__, str(e.value).split("\n")[0][:60]))
        for call in (lambda: rpc.rpc_sync("solo", time.sleep, args=(0.6,), timeout=0.2),
                     lambda: rpc.rpc_async("solo", time.sleep, args=(0.6,), timeout=0.2).wait()):
            with pytest.raises(RuntimeError) as e:
                call()
            out.append(str(e.value))
        out.append(rpc.rpc_async("solo", time.sleep, args=(0.3,), timeout=0).wait())
        with dist_autograd.context() as cid:
            a = mod.tensor([1.0, 2.0, 3.0], requires_grad=True)
            y = rpc.rpc_sync("solo", mod.mul, args=(a, a))
            dist_autograd.backward(cid, [(y * 2).sum()])
            g = dist_autograd.get_gradients(cid)
            out += [cid, type(y.grad_fn).__name__, repr(y), g[a].tolist(), a.grad, len(g)]
    finally:
        rpc.shutdown()
    return out


def test_one_worker_session_as_torchs():
    assert _fresh("_session", "ember") == _fresh("_session", "torch")
