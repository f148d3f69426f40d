"""``__torch_function__``: Tensor subclasses, tensor-likes and modes, against torch.

Dispatch, once on, stays on in its process, so each check runs in interpreters of its own: the
scripts in ``tests/data/torch_function/`` run under torch and under ``python -m ember`` and
must print the same text (the functions handed over with their arguments, the results' types,
subclasses' printing, errors).
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("torch")

HERE = pathlib.Path(__file__).resolve().parent
SRC = HERE.parent / "src"
SCRIPTS = sorted((HERE / "data" / "torch_function").glob("*.py"))


def _run(args: list[str], code: str | None = None) -> str:
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [env.get("PYTHONPATH")])])
    cmd = [sys.executable, *args] if code is None else [sys.executable, *args, "-c", code]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return res.stdout


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_script_prints_what_torch_prints(script):
    want = _run([str(script)])
    got = _run(["-m", "ember", str(script)])
    assert got == want


def test_plain_programs_leave_dispatch_off():
    """Models, parameters and Ember's own subclasses (sparse, nested, masked) switch nothing
    on: the fast paths stay in place."""
    got = json.loads(_run([], "import json, ember\n"
                              "m = ember.nn.Sequential(ember.nn.Linear(3, 2), ember.nn.ReLU())\n"
                              "m(ember.ones(4, 3)).sum().backward()\n"
                              "import ember.masked, ember.nested, ember.sparse\n"
                              "ember.ones(2).to_sparse()\n"
                              "from ember.overrides import _S\n"
                              "from ember._ops import registry\n"
                              "print(json.dumps([_S.active, registry.run is"
                              " registry.PLAIN_RUNNERS[0]]))").splitlines()[-1])
    assert got == [False, True]


def test_dispatch_on_computes_what_it_computed_off():
    """The general paths the dispatching runners take give the fast paths' bits, graph and
    gradients: a training step before and after a subclass is defined."""
    code = ("import json, ember\n"
            "def step():\n"
            "    ember.manual_seed(0)\n"
            "    nn, F = ember.nn, ember.nn.functional\n"
            "    m = nn.Sequential(nn.Linear(8, 8), nn.SiLU(), nn.TransformerEncoderLayer(\n"
            "        8, 2, 16, dropout=0.0, activation='gelu', batch_first=True),\n"
            "        nn.Softplus(), nn.ELU(), nn.LogSigmoid(), nn.Mish(), nn.Linear(8, 3))\n"
            "    opt = ember.optim.Adam(m.parameters(), lr=0.01)\n"
            "    x, y = ember.randn(11, 4, 8), ember.randint(0, 3, (11, 4))\n"
            "    out = []\n"
            "    for _ in range(3):\n"
            "        opt.zero_grad()\n"
            "        loss = F.cross_entropy(m(x).transpose(1, 2), y)\n"
            "        out.append([type(loss.grad_fn).__name__, loss.item()])\n"
            "        loss.backward()\n"
            "        opt.step()\n"
            "    out.append([p.grad.tolist() for p in m.parameters()])\n"
            "    return out\n"
            "before = step()\n"
            "class Sub(ember.Tensor):\n"
            "    pass\n"
            "from ember.overrides import _S\n"
            "print(json.dumps([_S.active, before == step()]))")
    assert json.loads(_run([], code).splitlines()[-1]) == [True, True]


def test_tensor_like_without_switch():
    """A class that is not a Tensor reaches its ``__torch_function__`` through an op's error
    path, leaving dispatch off."""
    code = ("import json, ember\n"
            "class S:\n"
            "    @classmethod\n"
            "    def __torch_function__(cls, func, types, args=(), kwargs=None):\n"
            "        return [func.__name__, len(args), sorted(kwargs or {})]\n"
            "from ember.overrides import _S\n"
            "print(json.dumps([ember.add(S(), 1, alpha=2), ember.mean(S()), _S.active]))")
    assert json.loads(_run([], code).splitlines()[-1]) == [["add", 2, ["alpha"]],
                                                           ["mean", 1, []], False]


def test_embers_own_subclasses_keep_dispatch_off():
    """Every Tensor subclass Ember defines (with every module of the package loaded) turns
    ``__torch_function__`` off or waits for its first instance (``CausalBias``), so loading a
    module never switches dispatch on for the rest of the process."""
    code = ("import json, ember, importlib, pkgutil\n"
            "for m in pkgutil.walk_packages(ember.__path__, 'ember.'):\n"
            "    if not m.name.endswith('__main__'):\n"
            "        try:\n"
            "            importlib.import_module(m.name)\n"
            "        except ImportError:\n"
            "            pass\n"
            "from ember._tensor import _disabled_torch_function_impl as off\n"
            "def subs(c):\n"
            "    for s in c.__subclasses__():\n"
            "        yield s\n"
            "        yield from subs(s)\n"
            "bad = sorted(f'{s.__module__}.{s.__qualname__}' for s in subs(ember.Tensor)\n"
            "             if s.__module__.startswith('ember')\n"
            "             and s.__torch_function__ is not off\n"
            "             and not s.__dict__.get('_dispatch_from_first_instance'))\n"
            "from ember.overrides import _S\n"
            "print(json.dumps([bad, _S.active]))")
    assert json.loads(_run([], code).splitlines()[-1]) == [[], False]
