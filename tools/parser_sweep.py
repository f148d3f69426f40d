"""torch's argument-parser errors: export its signatures, and sweep Ember against them.

    PYTHONPATH=src python tools/parser_sweep.py --export     # regenerate _ops/_signatures.py
    PYTHONPATH=src python tools/parser_sweep.py [-v] [NAME_PREFIX]

``--export`` writes ``src/ember/_ops/_signatures.py``: for every public ``torch`` function and
``torch.Tensor`` method implemented in C (those torch's ``PythonArgParser`` parses) that Ember
has too, the signatures torch's parser prints in its errors, in its order. A function with
several signatures prints them itself (called with 30 arguments, it fits none); the one
signature of the others is read from torch's own signature strings in ``libtorch_python.so``
(rewritten as the parser prints them), the one whose error for those 30 arguments is torch's.

The sweep calls each such function and method, in both libraries, with no arguments and with
one argument of a wrong type (a str, a ``Size``, a list of floats, None) in each position and
for each keyword of its signatures, and compares the errors' classes and messages; it prints
the number of differences (``-v``: each one).
"""

from __future__ import annotations

import os
import pathlib
import pprint
import re
import subprocess
import sys

import torch

import ember

OUT = pathlib.Path(__file__).resolve().parents[1] / "src" / "ember" / "_ops" / "_signatures.py"
sys.path.insert(0, str(OUT.parents[1].parent))
from ember import _errors  # noqa: E402

# torch's C++ parameter types as its parser prints them (python_arg_parser.cpp, type_name)
_TYPES = {"Tensor": "Tensor", "Scalar": "Number", "int64_t": "int", "SymInt": "SymInt",
          "double": "float", "bool": "bool", "IntArrayRef": "tuple of ints",
          "SymIntArrayRef": "tuple of ints", "ArrayRef<double>": "tuple of floats",
          "TensorList": "tuple of Tensors", "c10::List<::std::optional<Tensor>>":
          "tuple of Tensors", "ScalarType": "torch.dtype", "Layout": "torch.layout",
          "Device": "torch.device", "MemoryFormat": "torch.memory_format",
          "Generator": "torch.Generator", "std::string": "str", "c10::string_view": "str",
          "std::string_view": "str", "Dimname": "name", "DimnameList": "tuple of names",
          "ScalarList": "tuple of Scalars", "Storage": "torch.Storage", "PyObject*": "object",
          "QScheme": "torch.qscheme", "Stream": "Stream", "DeviceIndex": "int",
          "c10::complex<double>": "complex", "DispatchKeySet": "DispatchKeySet"}
_RAW = re.compile(r"^([a-z_][a-zA-Z0-9_]*)\((.*)\)(\|deprecated|\|hidden)?$")
_MANY = 30


def _printed(raw_params: str) -> str:
    """One of torch's signature strings' parameters as its parser prints the signature, a
    ``?`` kept after the type of a parameter that takes None without a default of None and
    the size of an int list of one (``tuple of ints[2]``)."""
    parts = []
    for part in raw_params.split(", ") if raw_params else []:
        if part == "*":
            parts.append("*")
            continue
        decl, eq, default = part.partition("=")
        kind, name = decl.rsplit(" ", 1)
        nullable = "?" if kind.endswith("?") and default != "None" else ""
        size = re.search(r"\[(\d+)\]$", kind.rstrip("?"))
        kind = re.sub(r"\[\d*\]$", "", kind.rstrip("?"))
        kind = _TYPES.get(kind, kind)
        # (an int list of a size takes a lone int too)
        kind += (f"[{size.group(1)}]" if size and kind == "tuple of ints" else "") + nullable
        parts.append(f"{kind} {name}" + (f" = {default}" if eq else ""))
    return "(" + ", ".join(parts) + ")"


def _raw_signatures() -> dict:
    """torch's signature strings by name (deprecated ones kept, hidden ones not)."""
    lib = pathlib.Path(torch.__file__).parent / "lib" / "libtorch_python.so"
    text = subprocess.run(["strings", "-n", "4", str(lib)], capture_output=True, text=True,
                          check=True).stdout
    out: dict = {}
    for line in text.splitlines():
        m = _RAW.match(line)
        if m and m.group(3) != "|hidden":
            try:
                sig = ("!" if m.group(3) else "") + _printed(m.group(2))
            except ValueError:      # (not a signature)
                continue
            if sig not in out.setdefault(m.group(1), []):
                out[m.group(1)].append(sig)
    return out


def _error(fn, *args, **kwargs):
    """``(error class name, message)`` of the call ``fn(*args, **kwargs)`` written out as a
    user writes it (its keywords in the bytecode, where Ember reads them); None where it
    returns."""
    scope = {"f": fn, **{f"a{i}": a for i, a in enumerate(args)},
             **{f"k_{k}": v for k, v in kwargs.items()}}
    call = ", ".join([*(f"a{i}" for i in range(len(args))), *(f"{k}=k_{k}" for k in kwargs)])
    try:
        eval(f"f({call})", scope)
    except Exception as e:      # noqa: BLE001
        return type(e).__name__, str(e)
    return None


def _listed(message: str) -> tuple | None:
    """The signatures torch's error lists (None where it lists none)."""
    if "but expected one of:" in message:
        return tuple(line[3:] for line in message.split("\n") if line.startswith(" * "))
    if "), but expected (" in message:
        return (message[message.index("), but expected (") + len("), but expected "):],)
    return None


def _with_deprecated(options: tuple, raw: list) -> tuple:
    """``options`` and the deprecated signatures of the same form (a function's or a
    method's, told by a ``Tensor input`` parameter, which a method's lack), marked ``!``:
    torch's parser tries them last and never prints them."""
    def has_input(option):
        return re.search(r"[(, ]Tensor input[,)]", option) is not None
    function = all(has_input(o) for o in options)
    return options + tuple(o for o in raw if o.startswith("!") and has_input(o) == function)


NAMESPACES = ("linalg", "special", "fft")


def _function(lib, name: str):
    """The public function of ``lib`` that torch's parser names ``name``: ``linalg_det`` is
    ``torch.linalg.det``."""
    space, _, attr = name.partition("_")
    if space in NAMESPACES and not hasattr(lib, name):
        return getattr(getattr(lib, space), attr)
    return getattr(lib, name)


def _names() -> tuple[list, list]:
    """The C-implemented functions (those of torch's namespaces by their parser names:
    ``linalg_det``) and Tensor methods both libraries have."""
    fns = sorted(n for n in dir(torch._C._VariableFunctions) if not n.startswith("_")
                 and hasattr(torch, n) and hasattr(ember, n)
                 and getattr(torch, n) is getattr(torch._C._VariableFunctions, n))
    fns += sorted(f"{space}_{n}" for space in NAMESPACES
                  for n in dir(getattr(torch, space)) if not n.startswith("_")
                  and getattr(getattr(torch, space), n) is getattr(
                      getattr(torch._C, f"_{space}"), f"{space}_{n}", None)
                  and hasattr(getattr(ember, space), n))
    methods = sorted(n for n in dir(torch._C.TensorBase) if not n.startswith("_")
                     and callable(getattr(torch._C.TensorBase, n))
                     and type(getattr(torch._C.TensorBase, n)).__name__ == "method_descriptor"
                     and getattr(torch.Tensor, n) is getattr(torch._C.TensorBase, n)
                     and callable(getattr(ember.Tensor, n, None)))
    return fns, methods


def export() -> None:
    raw = _raw_signatures()
    fns, methods = _names()
    tables: dict = {"FUNCTIONS": {}, "METHODS": {}}
    for table, names, call in (("FUNCTIONS", fns, lambda n: _function(torch, n)),
                               ("METHODS", methods, lambda n: getattr(torch.ones(3), n))):
        for n in names:
            err = _error(call(n), *[object()] * _MANY)
            if err is None or err[0] != "TypeError":
                continue
            if err[1].endswith(f".{n}() takes no arguments ({_MANY} given)"):
                tables[table][n] = ()       # (a method of no arguments: not parsed)
                continue
            options = _listed(err[1])
            if options is None:     # one signature: the candidate that errs as torch does
                fits = [o for o in raw.get(n, ()) if not o.startswith("!")
                        and str(_errors.parser_error(n, (o,), (object(),) * _MANY, {}))
                        == err[1]]
                if len(fits) != 1:
                    continue
                options = tuple(fits)
            else:       # (the nullable types marked)
                marked = {_errors._shown((o,))[0]: o for o in raw.get(n, ()) if o[0] != "!"}
                options = tuple(marked.get(o, o) for o in options)
            tables[table][n] = _with_deprecated(options, raw.get(n, []))
    text = (
        "# ruff: noqa: E501\n"
        '"""The signatures torch\'s argument parser prints in its errors, by name, in its order\n'
        "(generated by ``tools/parser_sweep.py --export``; do not edit).\n"
        '"""\n\n'
        f"FUNCTIONS = {pprint.pformat(tables['FUNCTIONS'], width=100)}\n\n"
        f"METHODS = {pprint.pformat(tables['METHODS'], width=100)}\n")
    OUT.write_text(text)
    print(f"{len(tables['FUNCTIONS'])} functions, {len(tables['METHODS'])} methods")


def _wrong(lib) -> dict:
    """The wrong values the sweep gives, by key."""
    return {"str": "abc", "Size": lib.Size([2]), "floats": [1.5, 2.5], "None": None}


def cases(name: str, method: bool, options) -> list:
    """The sweep's calls of one function or method (of signatures ``options``): ``(args,
    kwargs)`` of keys that :func:`run_case` makes in each library, ``"T"`` a tensor and the
    others a wrong value (:func:`_wrong`): no arguments; a wrong one in each of the first
    four positions (tensors before it); a wrong one for each keyword."""
    out = [((), {})]
    npos = max((sum(1 for p in _errors._signature(o) if not p[4]) for o in options), default=1)
    keywords = sorted({p[1] for o in options for p in _errors._signature(o)})
    for w in ("str", "Size", "floats", "None"):
        for i in range(min(npos, 4)):
            out.append((("T",) * i + (w,), {}))
        for k in keywords:
            if k in ("input", "self", "out"):
                continue
            out.append((() if method else ("T",), {k: w}))
    return out


def run_case(lib, name: str, method: bool, args, kwargs) -> tuple:
    """``(error class name, message)`` of one of :func:`cases`'s calls in ``lib`` (``("ok",
    "")`` where it returns)."""
    wrong = _wrong(lib)

    def value(v):
        return lib.ones(3) if v == "T" else wrong[v]
    args = tuple(value(a) for a in args)
    kwargs = {k: value(v) for k, v in kwargs.items()}
    fn = getattr(lib.ones(3), name) if method else _function(lib, name)
    err = _error(fn, *args, **kwargs)
    return err if err is not None else ("ok", "")


def sweep(prefix: str = "", verbose: bool = False) -> int:
    from ember._ops import _signatures
    diffs = total = 0
    for method, table in ((False, _signatures.FUNCTIONS), (True, _signatures.METHODS)):
        for name, options in table.items():
            if not name.startswith(prefix):
                continue
            for args, kwargs in cases(name, method, options):
                total += 1
                t = run_case(torch, name, method, args, kwargs)
                e = run_case(ember, name, method, args, kwargs)
                if t != e:
                    diffs += 1
                    if verbose:
                        call = ", ".join([*args, *(f"{k}={v}" for k, v in kwargs.items())])
                        print(f"{'Tensor.' if method else 'torch.'}{name}({call})\n"
                              f"  torch: {t[0]}: {t[1][:300]!r}\n  ember: {e[0]}: {e[1][:300]!r}")
    print(f"{diffs} differences in {total} calls")
    return diffs


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    argv = sys.argv[1:]
    if "--export" in argv:
        export()
    else:
        verbose = "-v" in argv
        rest = [a for a in argv if a != "-v"]
        sweep(rest[0] if rest else "", verbose)
