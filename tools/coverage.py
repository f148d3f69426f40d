"""Usage-weighted API coverage: how much of the torch API that real code uses Ember really runs.

    python tools/coverage.py            # print the figures and the missing/disagreeing names
    python tools/coverage.py --write    # also regenerate its section of docs/parity.md
                                        # and record the figure in tests/data/coverage.json

``tests/data/api_usage.json`` counts how often each torch name is used in public PyTorch code.
For every counted name the tool decides whether Ember *has* it (the attribute path resolves;
``Tensor.*`` on a tensor, ``Module.*`` on a module, optimizer, scheduler or DataLoader
instance) and whether a *smoke call* agrees with torch: a small snippet from the tables in
``coverage_smokes.py``, run once with ``torch`` bound to torch and once bound to ember, after
the same seed, whose results are compared recursively (tensors by values, dtype, shape and
``grad_fn`` name; numbers, strings, dtypes and devices by value; classes by name; exceptions
by class). A name is **supported** when it is present and its smoke agrees; present names
without a smoke count as **present only** and are listed as such. The figure is the share
of all uses whose name is supported.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import importlib
import io
import json
import linecache
import math
import os
import pathlib
import re
import signal
import sys
import tempfile
import time
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

import coverage_smokes as S  # noqa: E402

USAGE = ROOT / "tests" / "data" / "api_usage.json"
RECORD = ROOT / "tests" / "data" / "coverage.json"
PARITY = ROOT / "docs" / "parity.md"
BEGIN, END = "<!-- coverage:begin -->", "<!-- coverage:end -->"
NAMESPACES = ("torch", "Tensor", "torch.nn", "torch.nn.functional", "torch.optim",
              "torch.utils.data", "Module/Optimizer")
RTOL, ATOL = 1e-5, 1e-6
TIMEOUT = 3.0             # seconds a smoke call may take

SUPPORTED, PRESENT, DISAGREES, MISSING = "supported", "present only", "disagrees", "missing"


def usage() -> dict:
    """name -> {"ns", "kind", "uses", "files"}."""
    return json.loads(USAGE.read_text())["names"]


# ----------------------------------------------------------------------------- presence

def _has(obj, attr: str):
    """(True, value) if ``obj.attr`` resolves (a property that raises still exists)."""
    try:
        return True, getattr(obj, attr)
    except AttributeError:
        return False, None
    except Exception:   # noqa: BLE001  (e.g. Tensor.mT on a 1-d tensor)
        return True, None


def _instances(lib) -> list:
    m = lib.nn.Linear(2, 2)
    opt = lib.optim.SGD(m.parameters(), lr=0.1)
    return [m, opt, lib.optim.lr_scheduler.StepLR(opt, 1), lib.utils.data.DataLoader([1, 2])]


def resolve(name: str, lib, instances) -> bool:
    """Whether ``lib`` has the counted name (importing submodules as ``import torch.x`` does)."""
    head, *parts = name.split(".")
    if head == "Tensor":
        return _has(lib.ones(2, 2), parts[0])[0]
    if head == "Module":
        return any(_has(i, parts[0])[0] for i in instances)
    obj = lib
    for p in parts:
        ok, val = _has(obj, p)
        if not ok and isinstance(obj, type(lib)):
            try:
                val, ok = importlib.import_module(f"{obj.__name__}.{p}"), True
            except Exception:   # noqa: BLE001
                ok = False
        if not ok:
            return False
        obj = val
    return True


# ----------------------------------------------------------------------------- smoke calls

def _compile(src: str, name: str):
    """Compile a snippet whose last expression is its result; register its source so that
    ``inspect.getsource`` (``jit.script``) finds it."""
    tree = ast.parse(src)
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body[-1]
        tree.body[-1] = ast.copy_location(
            ast.Assign(targets=[ast.Name("_result", ast.Store())], value=last.value), last)
        ast.fix_missing_locations(tree)
    fname = f"<smoke {name}>"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    return compile(tree, fname, "exec")


_COUNTER = iter(range(10 ** 9))     # fresh temporary names across all snippets


def _namespace(lib, tmp: str) -> dict:
    counter = _COUNTER
    ns = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional, "np": np, "io": io,
          "_import": lambda path: importlib.import_module(f"{lib.__name__}.{path}"),
          "math": math, "os": os, "tmp": tmp,
          "tmpfile": lambda: os.path.join(tmp, f"f{next(counter)}"),
          "__name__": "smoke"}
    exec(_compile(S.PRELUDE, "prelude"), ns)
    return ns


class SmokeTimeout(Exception):
    """A snippet ran past :data:`TIMEOUT` seconds."""


def _alarm(signum, frame):
    raise SmokeTimeout


def run_smoke(src: str, name: str, lib, tmp: str):
    """The snippet's normalised result (or the class name of the exception it raised)."""
    code = _compile(src, name)
    ns = _namespace(lib, tmp)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            exec(code, ns)
            out = normalise(ns.get("_result"), lib)
        except BaseException as e:   # noqa: BLE001  (SystemExit from a failing spawn)
            out = ("raises", type(e).__name__)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
            _reset(lib)
    return out


def _reset(lib) -> None:
    """Undo global state a snippet may have changed."""
    lib.set_default_dtype(lib.float32)
    lib.set_grad_enabled(True)
    if hasattr(lib, "set_default_device"):
        with contextlib.suppress(Exception):
            lib.set_default_device(None)


def _tensor_array(t):
    t = t.detach()
    try:
        return np.array(t.numpy())
    except Exception:   # noqa: BLE001  (bfloat16/float8: no NumPy dtype in torch)
        return np.array(t.double().numpy())


def normalise(v, lib, depth: int = 0):
    """A library-independent, comparable form of a smoke result."""
    if depth > 8:
        return ("deep",)
    if isinstance(v, lib.Tensor):
        gf = type(v.grad_fn).__name__ if v.grad_fn is not None else None
        if getattr(v, "is_sparse", False) is True:
            return ("sparse", str(v.dtype), tuple(v.shape))
        return ("tensor", str(v.dtype), tuple(v.shape), _tensor_array(v), v.requires_grad, gf)
    if isinstance(v, BaseException):
        return ("raises", type(v).__name__)
    if isinstance(v, lib.dtype) or type(v).__name__ in ("device", "layout", "memory_format"):
        return ("str", str(v))
    if isinstance(v, (bool, int, float, complex, str, bytes)) or v is None:
        return v
    if isinstance(v, (np.ndarray, np.generic)):
        return ("ndarray", str(v.dtype), np.shape(v), np.asarray(v))
    if isinstance(v, dict):
        return ("dict", [(normalise(k, lib, depth + 1), normalise(x, lib, depth + 1))
                         for k, x in v.items()])
    if isinstance(v, (list, tuple, set, frozenset)):   # torch.Size and return types: tuples
        items = sorted(v, key=repr) if isinstance(v, (set, frozenset)) else v
        kind = "list" if isinstance(v, list) else "tuple"
        return (kind, [normalise(x, lib, depth + 1) for x in items])
    if isinstance(v, type):
        return ("type", v.__name__)
    return ("object", type(v).__name__)


def _same(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a is b or (type(a) is type(b) and a == b)
    if isinstance(a, (int, float, complex)) and isinstance(b, (int, float, complex)):
        if type(a) is not type(b):
            return False
        return a == b or (a != a and b != b) or bool(np.isclose(a, b, RTOL, ATOL))
    if isinstance(a, tuple) and isinstance(b, tuple) and a and b and a[0] == b[0]:
        if a[0] in ("tensor", "ndarray"):
            return a[1:3] == b[1:3] and a[4:] == b[4:] and _same_array(a[3], b[3])
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a[1:], b[1:]))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _same_array(a, b) -> bool:
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "fc":
        return bool(np.allclose(a, b, RTOL, ATOL, equal_nan=True))
    return bool(np.array_equal(a, b))


# ----------------------------------------------------------------------------- the measurement

def smoke_for(name: str, info: dict) -> tuple[str | None, bool]:
    """(snippet, written for the name) for a name: a per-name entry, else its family's rule
    (a rule's snippet that raises in torch is a bad rule, not a result)."""
    if name in S.SMOKES:
        return S.SMOKES[name], True
    return S.generic(name, info)


@contextlib.contextmanager
def _quiet_fd2():
    """Silence what native code writes to the process's stderr (torch's profiler does)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def measure() -> dict:
    """Classify every counted name; returns the rows and the figures."""
    import torch

    import ember
    validate = [(L, L.distributions.Distribution._validate_args) for L in (torch, ember)]
    try:
        with _quiet_fd2(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _measure()
    finally:
        # the compile smoke turns off distribution argument checks process-wide, in both
        for L, v in validate:
            L.distributions.Distribution.set_default_validate_args(v)


def _measure() -> dict:
    import torch

    import ember
    names = usage()
    inst_t, inst_e = _instances(torch), _instances(ember)
    rows, times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name, info in names.items():
            # resolve in torch first: it imports the submodules the snippets reach
            resolve(name, torch, inst_t)
            has = resolve(name, ember, inst_e)
            src, by_hand = smoke_for(name, info)
            t0 = time.perf_counter()
            if os.environ.get("COVERAGE_TRACE"):
                print(name, file=sys.__stderr__, flush=True)
            status, note = (MISSING, "") if not has else (PRESENT, "no smoke call")
            if src is not None:
                want = run_smoke(src, name, torch, tmp)
                if _raised(want) and not by_hand:
                    note = f"generic smoke raises {want[1]} in torch"
                    src = None
                elif has:
                    got = run_smoke(src, name, ember, tmp)
                    status, note = (SUPPORTED, "") if _same(want, got) else \
                        (DISAGREES, _diff(want, got))
            times.append((time.perf_counter() - t0, name))
            rows.append({"name": name, "ns": info["ns"], "uses": info["uses"],
                         "status": status, "note": note, "smoke": src is not None})
    return {"rows": rows, "times": times, **figures(rows)}


def _raised(r) -> bool:
    return isinstance(r, tuple) and len(r) == 2 and r[0] == "raises"


def _diff(want, got, path: str = "") -> str:
    """Where two smoke results first differ, and how."""
    def short(r):
        if _raised(r):
            return f"raises {r[1]}"
        if isinstance(r, tuple) and r and r[0] in ("tensor", "ndarray"):
            text = f"{r[0]} {r[1]} {list(r[2])}"
            return text + (f" grad_fn={r[5]}" if r[0] == "tensor" else "")
        return re.sub(r"\s+", " ", repr(r))[:60]
    if isinstance(want, tuple) and isinstance(got, tuple) and want and got \
            and want[0] == got[0] and want[0] in ("list", "tuple", "dict") \
            and len(want[1]) == len(got[1]):
        for k, (a, b) in enumerate(zip(want[1], got[1])):
            if not _same(a, b):
                return _diff(a, b, f"{path}[{k}]")
    if isinstance(want, tuple) and isinstance(got, tuple) and want[:1] == got[:1] == ("tensor",) \
            and want[1:3] == got[1:3] and want[4:] == got[4:]:
        a, b = want[3], got[3]
        return (f"{path or 'result'}: values differ "
                f"(torch {np.ravel(a)[:3]}, ember {np.ravel(b)[:3]})")
    return f"{path or 'result'}: torch {short(want)}; ember {short(got)}"


def figures(rows) -> dict:
    total = collections.Counter()
    good = collections.Counter()
    present = collections.Counter()
    for r in rows:
        for key in ("all", r["ns"]):
            total[key] += r["uses"]
            good[key] += r["uses"] if r["status"] == SUPPORTED else 0
            present[key] += r["uses"] if r["status"] != MISSING else 0
    pct = {k: 100.0 * good[k] / total[k] for k in total}
    has = {k: 100.0 * present[k] / total[k] for k in total}
    return {"weighted": pct["all"], "per_ns": pct, "present": has, "uses": dict(total)}


# ----------------------------------------------------------------------------- the report

def section(result: dict) -> str:
    rows = result["rows"]
    counts = collections.Counter(r["status"] for r in rows)
    lines = [BEGIN, "## Usage-weighted API coverage", "",
             "Generated by `python tools/coverage.py --write` from `tests/data/api_usage.json` "
             "(how often each torch name is used in 819 files of public PyTorch code). "
             "**supported** = Ember has the name and a smoke call gives torch's result "
             "(values, dtype, shape, error class); **present** = the name exists, smoke or not.",
             "", f"**{result['weighted']:.1f} %** of all uses are supported "
             f"({result['present']['all']:.1f} % present); {counts[SUPPORTED]} names supported, "
             f"{counts[PRESENT]} present without a smoke call, {counts[DISAGREES]} disagree, "
             f"{counts[MISSING]} missing.", "",
             "| namespace | uses | supported | present |", "|---|---|---|---|"]
    for ns in NAMESPACES:
        lines.append(f"| `{ns}` | {result['uses'][ns]} | {result['per_ns'][ns]:.1f} % | "
                     f"{result['present'][ns]:.1f} % |")
    lines += ["", "Names missing, disagreeing with torch, or present without a smoke call, "
              "by uses:", "", "| name | uses | status | note |", "|---|---|---|---|"]
    for r in sorted((r for r in rows if r["status"] != SUPPORTED),
                    key=lambda r: (-r["uses"], r["name"])):
        note = r["note"].replace("|", "\\|")
        lines.append(f"| `{r['name']}` | {r['uses']} | {r['status']} | {note} |")
    lines += ["", END]
    return "\n".join(lines)


def splice(text: str, block: str) -> str:
    """``text`` with its coverage block replaced by ``block`` (appended if it has none)."""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        return head + block + rest.split(END, 1)[1]
    return text.rstrip("\n") + "\n\n" + block + "\n"


def main(argv) -> int:
    result = measure()
    print(f"weighted coverage: {result['weighted']:.2f} % supported, "
          f"{result['present']['all']:.2f} % present")
    for ns in NAMESPACES:
        print(f"  {ns:22s} {result['per_ns'][ns]:6.2f} %  (present {result['present'][ns]:.2f} %,"
              f" {result['uses'][ns]} uses)")
    print("\nnot supported, by uses:")
    if "--times" in argv:
        for t, n in sorted(result["times"], reverse=True)[:15]:
            print(f"  {t:6.3f} s  {n}")
    for r in sorted((r for r in result["rows"] if r["status"] != SUPPORTED),
                    key=lambda r: (-r["uses"], r["name"])):
        print(f"  {r['uses']:5d}  {r['name']:50s} {r['status']:12s} {r['note']}")
    if "--write" in argv:
        PARITY.write_text(splice(PARITY.read_text(), section(result)))
        RECORD.write_text(json.dumps({"weighted": round(result["weighted"], 2),
                                      "floor": math.floor(result["weighted"] * 10) / 10},
                                     indent=1) + "\n")
        print(f"\nwrote {PARITY} and {RECORD}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
