"""``python -m ember``: run an unmodified PyTorch program on Ember.

Usage::

    python -m ember SCRIPT [ARGS...]     a script file, or a directory / zip with __main__.py
    python -m ember -m MODULE [ARGS...]  a module run as a script
    python -m ember -c CODE [ARGS...]    a string of code
    python -m ember - [ARGS...]          the program read from standard input

``import torch`` and every ``torch.X`` in the program resolve to Ember
(:func:`ember.install_torch_alias`). ``sys.argv``, ``sys.path[0]`` and the ``__main__`` module are
set as ``python SCRIPT`` / ``python -m MODULE`` / ``python -c CODE`` set them, and an uncaught
exception prints the traceback a plain run prints (the launcher's own frames left out) and exits
with status 1 (130 for ``KeyboardInterrupt``).
"""

from __future__ import annotations

import builtins
import importlib.machinery
import io
import os
import pkgutil
import runpy
import sys
import types

from . import _torch_alias

USAGE = """\
usage: python -m ember SCRIPT [ARGS...]
       python -m ember -m MODULE [ARGS...]
       python -m ember -c CODE [ARGS...]
       python -m ember - [ARGS...]
Runs a PyTorch program with `import torch` resolved to Ember."""

_OWN_FILES = {os.path.normcase(os.path.abspath(f)) for f in (__file__, _torch_alias.__file__)}


def _parse(args: list[str]) -> tuple[str, str, list[str]]:
    """(mode, target, argv) from the command line, as Python's own option parser reads it."""
    if not args:
        _usage_error("missing SCRIPT, -m MODULE or -c CODE")
    first = args[0]
    if first in ("-h", "--help"):
        print(USAGE)
        sys.exit(0)
    for flag in ("-c", "-m"):
        if first.startswith(flag):
            target = first[2:] or (args[1] if len(args) > 1 else None)
            if target is None:
                _usage_error(f"Argument expected for the {flag} option")
            rest = args[1:] if first[2:] else args[2:]
            return flag[1], target, [flag, *rest]
    if first == "--":           # the end of the options: what follows is the script
        if len(args) < 2:
            _usage_error("missing SCRIPT")
        args, first = args[1:], args[1]
        return ("stdin" if first == "-" else "file"), first, args
    if first == "-":
        return "stdin", "-", args
    if first.startswith("-"):
        _usage_error(f"Unknown option: {first}")
    return "file", first, args


def _usage_error(message: str):
    print(f"{message}\n{USAGE}", file=sys.stderr)
    sys.exit(2)


def _fresh_main(**attrs) -> dict:
    """A new ``__main__`` module, laid out as the interpreter's own, installed in sys.modules."""
    main = types.ModuleType("__main__")
    main.__dict__.update(__package__=None, __loader__=importlib.machinery.BuiltinImporter,
                         __spec__=None, __annotations__={}, __builtins__=builtins, **attrs)
    sys.modules["__main__"] = main
    return main.__dict__


def _run_source(source, filename: str, run_globals: dict) -> None:
    code = compile(source, filename, "exec", dont_inherit=True)
    exec(code, run_globals)


def _run_file(path: str) -> None:
    if pkgutil.get_importer(path) is not None:      # a directory or zip: its __main__.py
        sys.path[0] = os.path.abspath(path)
        _fresh_main()
        runpy._run_module_as_main("__main__", alter_argv=False)
        return
    filename = os.path.abspath(path)
    try:
        with io.open_code(filename) as f:
            source = f.read()
    except OSError as exc:
        print(f"{sys.executable}: can't open file {filename!r}: [Errno {exc.errno}] "
              f"{exc.strerror}", file=sys.stderr)
        sys.exit(2)
    sys.path[0] = os.path.dirname(os.path.realpath(filename))
    run_globals = _fresh_main(__file__=filename, __cached__=None)
    run_globals["__loader__"] = importlib.machinery.SourceFileLoader("__main__", filename)
    _run_source(source, filename, run_globals)


def _run(mode: str, target: str) -> None:
    if mode == "file":
        _run_file(target)
    elif mode == "m":
        _fresh_main()
        runpy._run_module_as_main(target, alter_argv=True)
    elif mode == "c":
        sys.path[0] = ""
        _run_source(target + "\n", "<string>", _fresh_main())
    else:
        sys.path[0] = ""
        _run_source(sys.stdin.read(), "<stdin>", _fresh_main(__file__="<stdin>", __cached__=None))


def _without_own_frames(exc: BaseException, seen: set) -> None:
    """Drop the launcher's and the alias finder's frames from ``exc`` and what it chains to."""
    if exc is None or id(exc) in seen:
        return
    seen.add(id(exc))
    kept = []
    tb = exc.__traceback__
    while tb is not None:
        if os.path.normcase(tb.tb_frame.f_code.co_filename) not in _OWN_FILES:
            kept.append(tb)
        tb = tb.tb_next
    for a, b in zip(kept, kept[1:] + [None]):
        a.tb_next = b
    exc.__traceback__ = kept[0] if kept else None
    _without_own_frames(exc.__cause__, seen)
    _without_own_frames(exc.__context__, seen)


def main(argv: list[str] | None = None) -> int:
    """Run the program named on the command line (``argv`` defaults to ``sys.argv[1:]``)."""
    mode, target, program_argv = _parse(sys.argv[1:] if argv is None else list(argv))
    sys.argv[:] = program_argv
    _torch_alias.install_torch_alias()
    try:
        _run(mode, target)
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001  (printed as the interpreter prints it)
        _without_own_frames(exc, set())
        sys.excepthook(type(exc), exc, exc.__traceback__)
        return 130 if isinstance(exc, KeyboardInterrupt) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
