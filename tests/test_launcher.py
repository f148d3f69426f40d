"""``python -m ember``: scripts, ``-m`` modules and ``-c`` code run with ``torch`` aliased to Ember.

Each case runs the same program under plain ``python`` and under ``python -m ember`` in
subprocesses and compares what the program sees (``sys.argv``, ``sys.path[0]``, ``__main__``'s
globals) and what a failure prints (the traceback, byte for byte, and the exit status). The
programs that compare them do not import torch, so both runs must agree exactly.
"""

from __future__ import annotations

import ast
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "src"

PROBE = '''\
"""probe docstring"""
import sys
main = sys.modules["__main__"]
spec = globals()["__spec__"]
print("argv", sys.argv)
print("path0", sys.path[0])
print("keys", list(globals()))
print("name", __name__, "package", repr(globals().get("__package__")))
print("file", globals().get("__file__"), "cached", globals().get("__cached__"))
print("loader", type(__loader__).__name__ if not isinstance(__loader__, type) else __loader__)
print("spec", None if spec is None else (spec.name, spec.origin, spec.parent))
print("doc", __doc__, "main", vars(main) is globals())
'''

FAILING = '''\
def inner(x):
    return {"a": 1}[x]


def outer():
    try:
        inner("b")
    except KeyError as e:
        raise ValueError("outer failed") from e


outer()
'''


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [env.get("PYTHONPATH")])])
    return env


def run(args, cwd, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, env=_env(), input=stdin,
                          capture_output=True, text=True, timeout=120)


def both(args, cwd, stdin: str | None = None):
    plain = run(args, cwd, stdin)
    ember = run(["-m", "ember", *args], cwd, stdin)
    return plain, ember


def assert_same(plain, ember):
    assert (ember.returncode, ember.stdout, ember.stderr) == \
        (plain.returncode, plain.stdout, plain.stderr)


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "probe.py").write_text(PROBE)
    (tmp_path / "sub" / "fail.py").write_text(FAILING)
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "probe.py").write_text(PROBE)
    (pkg / "fail.py").write_text(FAILING)
    (pkg / "__main__.py").write_text(PROBE)
    return tmp_path


# ---------------------------------------------------------------- what the program sees

def test_script_sees_what_a_plain_run_sees(tree):
    plain, ember = both(["sub/probe.py", "a", "-b", "--c=1"], tree)
    assert plain.returncode == 0, plain.stderr
    assert_same(plain, ember)


def test_symlinked_script_puts_the_real_directory_on_the_path(tree):
    (tree / "link.py").symlink_to(tree / "sub" / "probe.py")
    assert_same(*both(["link.py"], tree))


def test_module_run_sees_what_python_m_sees(tree):
    plain, ember = both(["-m", "pkg.probe", "x", "y"], tree)
    assert plain.returncode == 0, plain.stderr
    assert_same(plain, ember)


def test_package_and_directory_runs_use_their_main(tree):
    assert_same(*both(["-m", "pkg", "1"], tree))
    assert_same(*both(["pkg", "2"], tree))


def test_c_code_and_stdin_see_what_python_sees(tree):
    code = PROBE.replace('"""probe docstring"""\n', "")
    assert_same(*both(["-c", code, "arg1"], tree))
    assert_same(*both(["-", "arg2"], tree, stdin=PROBE))


# ---------------------------------------------------------------- failures look like a plain run

@pytest.mark.parametrize("args", [["sub/fail.py"], ["-m", "pkg.fail"],
                                  ["-c", "import sys\nsys.argv[5]"]])
def test_tracebacks_and_exit_status_are_a_plain_runs(tree, args):
    plain, ember = both(args, tree)
    assert plain.returncode == 1 and "Traceback" in plain.stderr
    assert_same(plain, ember)


def test_stdin_traceback(tree):
    assert_same(*both(["-"], tree, stdin=FAILING))


def test_syntax_error_and_sys_exit(tree):
    (tree / "bad.py").write_text("x = (1,\n")
    (tree / "exits.py").write_text("import sys\nprint('bye')\nsys.exit(3)\n")
    assert_same(*both(["bad.py"], tree))
    plain, ember = both(["exits.py"], tree)
    assert plain.returncode == 3
    assert_same(plain, ember)


def test_missing_script_and_module(tree):
    assert_same(*both(["nothere.py"], tree))
    assert_same(*both(["-m", "nothere"], tree))


def test_keyboard_interrupt_exits_130(tree):
    r = run(["-m", "ember", "-c", "raise KeyboardInterrupt"], tree)
    assert r.returncode == 130
    assert r.stderr.endswith("KeyboardInterrupt\n") and "__main__.py" not in r.stderr


def test_usage(tree):
    r = run(["-m", "ember", "-h"], tree)
    assert r.returncode == 0 and r.stdout.startswith("usage: python -m ember SCRIPT")
    for args in ([], ["-q", "x.py"], ["-c"]):
        r = run(["-m", "ember", *args], tree)
        assert r.returncode == 2 and "usage:" in r.stderr, args


# ---------------------------------------------------------------- torch is ember

ALIASED = '''\
import sys
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim.lr_scheduler
from torch.utils.data import DataLoader, TensorDataset
from torch import optim
import torch._tensor_str
import ember

assert sys.modules["torch"] is torch is ember
assert nn is ember.nn and F is ember.nn.functional and optim is ember.optim
assert torch.optim.lr_scheduler is ember.optim.lr_scheduler
assert torch._tensor_str is ember._printing is sys.modules["torch._tensor_str"]
assert DataLoader is ember.utils.data.DataLoader
assert ember.nn.__spec__.name == "ember.nn" and ember._printing.__spec__.name == "ember._printing"
x = torch.randn(4, 3)
assert isinstance(x, ember.Tensor) and isinstance(nn.Linear(3, 2).weight, torch.Tensor)
print(torch.nn.Linear(3, 2)(x).shape)
assert not [m for m in sys.modules.values()
            if "site-packages/torch" in (getattr(m, "__file__", None) or "")]
'''


def test_torch_resolves_to_the_ember_package_itself(tree):
    r = run(["-m", "ember", "-c", ALIASED], tree)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "torch.Size([4, 2])\n"


def test_missing_torch_module_names_itself(tree):
    (tree / "onnx.py").write_text("import torch\nimport torch.onnx\n")
    r = run(["-m", "ember", "onnx.py"], tree)
    assert r.returncode == 1
    assert r.stderr == (f'Traceback (most recent call last):\n  File "{tree / "onnx.py"}", '
                        "line 2, in <module>\n    import torch.onnx\nModuleNotFoundError: No "
                        "module named 'torch.onnx' (ember does not provide it)\n")
    code = textwrap.dedent("""\
        try:
            from torch.nn.qat import Linear
        except ImportError as e:
            print(type(e).__name__, e.name)
        import torch.not_a_module_name
        """)
    r = run(["-m", "ember", "-c", code], tree)
    assert r.stdout == "ModuleNotFoundError torch.nn.qat\n"
    assert r.stderr.endswith("No module named 'torch.not_a_module_name' "
                             "(ember does not provide it)\n")


def test_module_valued_attribute_of_a_plain_module(tree):
    code = textwrap.dedent("""\
        import types, ember
        m = types.ModuleType("ember.linalg.extra")
        ember.linalg.extra = m
        import torch.linalg.extra as e
        from torch.linalg import extra
        print(e is m, extra is m)
        """)
    r = run(["-m", "ember", "-c", code], tree)
    assert (r.returncode, r.stdout) == (0, "True True\n"), r.stderr


def test_install_from_python_and_remove(tree):
    code = textwrap.dedent("""\
        import sys, ember
        ember.install_torch_alias()
        ember.install_torch_alias()
        import torch.nn.functional
        print(torch is ember, sum(f is not None and type(f).__name__ == "TorchAliasFinder"
                                  for f in sys.meta_path))
        ember.remove_torch_alias()
        print([n for n in sys.modules if n == "torch" or n.startswith("torch.")])
        """)
    r = run(["-c", code], tree)
    assert (r.returncode, r.stdout) == (0, "True 1\n[]\n"), r.stderr


def test_install_refuses_when_real_torch_is_loaded(tree):
    r = run(["-c", "import torch, ember\nember.install_torch_alias()"], tree)
    assert r.returncode == 1
    assert "RuntimeError: cannot alias 'torch' to ember: 'torch' is already imported" in r.stderr


# ---------------------------------------------------------------- one copy of the package

def _self_imports(path: pathlib.Path, root: pathlib.Path = SRC) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None))
              in ("import_module", "__import__")):
            names = [node.args[0].value]
        found += [f"{path.relative_to(root)}:{node.lineno}: {n}" for n in names
                  if n == "ember" or n.startswith("ember.")]
    return found


def test_no_module_imports_ember_by_name():
    # The examples are user programs (``import ember as torch`` is what they demonstrate).
    files = [p for p in (SRC / "ember").rglob("*.py") if "examples" not in p.parts]
    assert len(files) > 30
    assert [hit for p in files for hit in _self_imports(p)] == []


def test_self_import_check_can_fail(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from . import nn\ndef f():\n    import ember.nn\n    from ember import x\n"
                     "    __import__('ember')\n    import embers\n")
    assert len(_self_imports(probe, tmp_path)) == 3


def test_linear_under_the_alias(tree):
    code = ("import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"
            "print(nn.Linear(3, 2)(torch.randn(4, 3)))\n")
    ember = run(["-m", "ember", "-c", code], tree)
    plain = run(["-c", code], tree)
    assert ember.returncode == 0, ember.stderr
    assert ember.stdout == plain.stdout
