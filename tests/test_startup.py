"""`import ember` loads only the core: the rest of torch's namespace loads on first use.

Each check runs in a fresh interpreter, since what one test imports stays imported for the next.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src"

LAZY = ["backends", "cuda", "distributed", "distributions", "func", "functional", "jit", "linalg",
        "multiprocessing", "profiler", "random", "serialization", "testing"]


def fresh(code: str, *args: str) -> dict:
    """Run ``code`` in a new interpreter with ember on the path; it prints one JSON value."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [env.get("PYTHONPATH")])])
    res = subprocess.run([sys.executable, *args, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_import_leaves_heavy_parts_unloaded():
    got = fresh("import json, sys, ember\n"
                "print(json.dumps(sorted(sys.modules)))")
    loaded = set(got)
    for name in ("mpi4py", "ml_dtypes", "numpy.random", "ember.utils.benchmark",
                 *(f"ember.{m}" for m in LAZY if m not in ("distributed", "func"))):
        assert name not in loaded, name
    assert "mpi4py.MPI" not in loaded


def test_nn_and_optim_load_no_logging_nor_ml_dtypes():
    """``concurrent.futures`` (and the ``logging`` it imports) wait for the first
    two-thread convolution, ``ml_dtypes`` for the first reduced type."""
    got = fresh("import json, sys, ember, ember.nn, ember.optim\n"
                "print(json.dumps([m for m in ('logging', 'concurrent.futures', 'ml_dtypes')"
                " if m in sys.modules]))")
    assert got == []


@pytest.mark.parametrize("name", LAZY)
def test_attribute_access_loads_the_submodule(name):
    got = fresh("import json, sys, types, ember\n"
                f"m = ember.{name}\n"
                f"print(json.dumps([isinstance(m, types.ModuleType), m.__name__, "
                f"'ember.{name}' in sys.modules, '{name}' in dir(ember), "
                f"vars(ember)['{name}'] is m]))")
    assert got == [True, f"ember.{name}", True, True, True]


def test_import_forms_and_attributes():
    got = fresh("import json, ember\n"
                "import ember.distributions\n"
                "from ember import func, vmap, load, save\n"
                "from ember.testing import assert_close\n"
                "x = ember.distributions.Normal(ember.tensor(0.), ember.tensor(1.))\n"
                "print(json.dumps([type(x).__name__, vmap is func.vmap, load.__module__,\n"
                "                  save is ember.serialization.save, callable(assert_close),\n"
                "                  ember.install_torch_alias.__module__,\n"
                "                  ember.utils.benchmark.Timer.__name__]))")
    assert got == ["Normal", True, "ember.serialization", True, True, "ember._torch_alias",
                   "Timer"]


def test_dir_lists_lazy_names_and_unknown_names_fail():
    got = fresh("import json, ember\n"
                "names = dir(ember)\n"
                "try:\n"
                "    ember.no_such_name\n"
                "except AttributeError as e:\n"
                "    err = str(e)\n"
                "missing = [n for n in names if not hasattr(ember, n)]\n"
                "print(json.dumps([names == sorted(names), missing, err,\n"
                "                  'benchmark' in dir(ember.utils)]))")
    assert got[:2] == [True, []]
    assert got[2] == "module 'ember' has no attribute 'no_such_name'"
    assert got[3] is True
    names = fresh("import json, ember; print(json.dumps(dir(ember)))")
    for name in [*LAZY, "vmap", "load", "save", "install_torch_alias", "Tensor", "nn"]:
        assert name in names


def test_launcher_resolves_lazy_torch_modules():
    got = fresh("import torch.distributions, torch.testing\n"
                "import torch.distributed as dist\n"
                "from torch.func import vmap\n"
                "from torch.profiler import profile\n"
                "import json, sys\n"
                "normal = sys.modules['ember.distributions.normal']\n"
                "print(json.dumps([torch.distributions.Normal is normal.Normal,\n"
                "                  torch.distributions.Normal.__module__, dist.__name__,\n"
                "                  vmap.__module__, profile.__name__,\n"
                "                  sys.modules['torch.testing'].__name__]))", "-m", "ember")
    # (classes show torch's module names under the launcher, as print(type(x)) does in torch)
    assert got == [True, "torch.distributions.normal", "ember.distributed", "ember.func._vmap",
                   "profile", "ember.testing"]


def test_reduced_dtypes_load_on_first_use():
    got = fresh("import json, sys, ember\n"
                "before = 'ml_dtypes' in sys.modules\n"
                "t = ember.ones(2, dtype=ember.bfloat16) + 1\n"
                "print(json.dumps([before, 'ml_dtypes' in sys.modules, str(t.dtype),\n"
                "                  t.tolist(), ember.float8_e4m3fn.itemsize,\n"
                "                  ember.tensor([500.0]).to(ember.float8_e4m3fn).tolist()]))")
    assert got == [False, True, "torch.bfloat16", [2.0, 2.0], 1, [448.0]]


def test_foreign_reduced_arrays_are_refused_as_torch_does():
    import torch
    code = ("import json, ml_dtypes, numpy as np, {lib}\n"
            "try:\n"
            "    {lib}.from_numpy(np.zeros(2, ml_dtypes.bfloat16))\n"
            "except TypeError as e:\n"
            "    print(json.dumps(str(e).split('.')[0:2]))")
    assert fresh(code.format(lib="ember")) == fresh(code.format(lib="torch"))
    assert torch.bfloat16.itemsize == 2


def test_lazy_engine_gives_torch_streams():
    code = ("import json, {lib}\n"
            "g = {lib}.Generator()\n"
            "fresh_state = g.get_state().tolist()[:40]\n"
            "a = {lib}.rand(3, generator=g).tolist()\n"
            "{lib}.manual_seed(7)\n"
            "b = {lib}.randn(20).tolist()\n"
            "print(json.dumps([fresh_state, a, b, {lib}.initial_seed()]))")
    assert fresh(code.format(lib="ember")) == fresh(code.format(lib="torch"))


def test_compile_turns_distribution_validation_off_as_torch_does():
    code = ("import json, {lib} as L\n"
            "r = [L.distributions.Distribution._validate_args]\n"
            "L.compile(lambda x: x, disable=True)\n"
            "r.append(L.distributions.Distribution._validate_args)\n"
            "L.compile(lambda x: x)\n"
            "r.append(L.distributions.Distribution._validate_args)\n"
            "L.distributions.Distribution.set_default_validate_args(True)\n"
            "L.nn.Linear(2, 2).compile()\n"
            "r.append(L.distributions.Distribution._validate_args)\n"
            "print(json.dumps(r))")
    assert fresh(code.format(lib="ember")) == fresh(code.format(lib="torch")) == \
        [True, True, False, True]


def test_op_index_is_current():
    """``ember/_ops/_index.py`` lists exactly what each lazily loaded op family defines."""
    tool = pathlib.Path(__file__).resolve().parents[1] / "tools" / "op_index.py"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [env.get("PYTHONPATH")])])
    res = subprocess.run([sys.executable, str(tool), "--check"], env=env, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stderr


def test_lazy_op_families_load_on_first_use():
    got = fresh("import json, sys, ember\n"
                "before = sorted(f for f in ember._ops.LAZY if f'ember._ops.{f}' in sys.modules)\n"
                "x = ember.tensor([[3.0, 1.0], [2.0, 4.0]])\n"
                "values, _ = x.sort(dim=1)\n"
                "loaded = 'ember._ops.sorting' in sys.modules\n"
                "y = x.clone()\n"
                "ember.sin_(y)\n"
                "print(json.dumps([before, loaded, values.tolist(),\n"
                "                  ember.sort is ember._ops.FUNCTIONS['sort'],\n"
                "                  ember.sort is ember._ops.sort, ember.Tensor.sort.__name__,\n"
                "                  y.tolist() == x.sin().tolist(), ember.sin_.__name__,\n"
                "                  x.median(axis=1).values.tolist(),\n"
                "                  ember.logsumexp(x, axis=1, keepdims=True).shape[1],\n"
                "                  callable(ember.cross),\n"
                "                  ember.Tensor.abs is ember.Tensor.absolute,\n"
                "                  'sort' in dir(ember), 'sort' in dir(ember.Tensor)]))")
    # (Tensor.absolute is a copy of abs under its own name, as torch's are two methods)
    assert got == [[], True, [[1.0, 3.0], [2.0, 4.0]], True, True, "sort", True, "sin_",
                   [1.0, 2.0], 1, True, False, True, True]


def test_every_name_of_ember_and_tensor_resolves():
    """Every name ``dir()`` lists resolves, each lazy op to the function its family defines,
    and every op taking ``dim``/``keepdim`` takes NumPy's ``axis``/``keepdims`` too (a
    function's family read from its globals: torch-named copies publish another module)."""
    got = fresh("import json, types, ember\n"
                "from ember._ops import numpy_names\n"
                "bad = [n for n in dir(ember) if not hasattr(ember, n)]\n"
                "T = ember.Tensor\n"
                "bad += ['Tensor.' + n for n in dir(T) if not hasattr(T, n)]\n"
                "ops = ember._ops\n"
                "def same(a, b):  # an alias is a renamed copy: the same code, renamed\n"
                "    where = getattr(getattr(a, '__code__', None), 'co_filename', '')\n"
                "    if a is not b and where.endswith(('masked/_core.py', 'masked\\\\_core.py')):\n"
                "        a = a.__wrapped__  # (ember.masked routes a few to itself)\n"
                "    ca, cb = getattr(a, '__code__', None), getattr(b, '__code__', None)\n"
                "    return a is b or ca is not None and cb is not None and (\n"
                "        ca.replace(co_name=cb.co_name) == cb)\n"
                "bad += [n for n in ops._FAMILY if not same(getattr(ember, n), ops.FUNCTIONS[n])]\n"
                "fns = [*ops.FUNCTIONS.values(), *vars(ember.Tensor).values()]\n"
                "bare = sorted({f.__name__ for f in fns if isinstance(f, types.FunctionType)\n"
                "               and f.__globals__.get('__name__', '').startswith('ember')\n"
                "               and f.__globals__.get('__name__', '').rpartition('.')[2]\n"
                "               in (*ops.LAZY, 'ember')\n"
                "               and numpy_names.with_numpy_names(f) is not f})\n"
                "print(json.dumps([bad, bare]))")
    assert got == [[], []]


def test_op_family_imported_directly_takes_numpy_names():
    """A family another module imports (not through ``ember._ops``) publishes its methods
    with NumPy's names all the same."""
    got = fresh("import json, ember\n"
                "import ember._ops.sorting\n"
                "x = ember.tensor([[3.0, 1.0], [2.0, 4.0]])\n"
                "print(json.dumps([x.median(axis=1, keepdims=True).values.tolist(),\n"
                "                  x.logsumexp(axis=0).shape[0]]))")
    assert got == [[[1.0], [2.0]], 2]


def test_lazy_top_level_names_resolve():
    got = fresh("import json, sys, ember\n"
                "ember.manual_seed(3)\n"
                "print(json.dumps([ember.initial_seed(), ember.default_generator.initial_seed(),\n"
                "                  ember.cuda.is_available(),\n"
                "                  ember.FloatTensor([1.0]).dtype.is_floating_point,\n"
                "                  ember.finfo(ember.float32).eps, ember.get_num_threads() >= 1,\n"
                "                  ember.ops.aten.add(ember.ones(1), 1).tolist(),\n"
                "                  ember.newaxis, ember.typename(ember.ones(1))]))")
    assert got == [3, 3, False, True, 1.1920928955078125e-07, True, [2.0], None,
                   "torch.FloatTensor"]


def test_nn_layers_load_on_first_use():
    got = fresh("import json, sys, ember, ember.nn\n"
                "before = 'ember.nn.modules.conv' in sys.modules\n"
                "conv = ember.nn.Conv2d(1, 2, 3)\n"
                "print(json.dumps([before, 'ember.nn.modules.conv' in sys.modules,\n"
                "                  ember.nn.modules.conv.Conv2d is ember.nn.Conv2d,\n"
                "                  type(conv).__module__, 'Conv2d' in dir(ember.nn),\n"
                "                  'Conv2d' in ember.nn.modules.__all__,\n"
                "                  ember.nn.utils.clip_grad_norm_.__name__]))")
    assert got == [False, True, True, "ember.nn.modules.conv", True, True, "clip_grad_norm_"]


def test_subclass_reaches_a_lazy_method_through_super():
    got = fresh("import json, sys, ember, ember.nn\n"
                "calls = []\n"
                "class Sorted(ember.nn.Parameter):\n"
                "    def sort(self, *args, **kwargs):\n"
                "        calls.append(1)\n"
                "        return super().sort(*args, **kwargs)\n"
                "x = Sorted(ember.tensor([3.0, 1.0, 2.0]))\n"
                "before = 'ember._ops.sorting' in sys.modules\n"
                "print(json.dumps([before, x.sort().values.tolist(), len(calls)]))")
    assert got == [False, [1.0, 2.0, 3.0], 1]
