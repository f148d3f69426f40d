"""Regenerate ``src/ember/_ops/_index.py``: the names each op family loaded on first use defines.

``import ember`` loads the common op families only; the others (``ember._ops.LAZY``) load when
one of their names is first read, which needs the list of those names. This script imports
each of them and records what it adds to ``ember`` and to ``Tensor``::

    PYTHONPATH=src python tools/op_index.py [--check]

``--check`` writes nothing and fails when the file is out of date (an op added to a lazy
family, say), as ``tests/test_startup.py`` does.
"""

from __future__ import annotations

import importlib
import importlib.abc
import pathlib
import sys

OUT = pathlib.Path(__file__).resolve().parents[1] / "src" / "ember" / "_ops" / "_index.py"


class _Attribution(importlib.abc.MetaPathFinder):
    """Credits each name added to ``FUNCTIONS`` or ``Tensor`` to the innermost op family
    module running when it appears."""

    def __init__(self, snapshot, families):
        self.snapshot, self.families, self.stack = snapshot, families, []
        self.found = {f: (set(), set()) for f in families}

    def find_spec(self, name, path, target=None):
        family = name.rpartition(".")[2]
        if not name.startswith("ember._ops.") or family not in self.families:
            return None
        for finder in sys.meta_path:
            spec = None if finder is self else finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        run = spec.loader.exec_module

        def exec_module(module):
            outer = self.stack[-1] if self.stack else None
            if outer is not None:
                self._credit(outer)
            self.stack.append(family)
            try:
                run(module)
            finally:
                self._credit(self.stack.pop())

        spec.loader.exec_module = exec_module
        return spec

    def _credit(self, family):
        functions, methods = self.snapshot()
        new_f, new_m = functions - self.seen_f, methods - self.seen_m
        self.found[family][0].update(new_f)
        self.found[family][1].update(new_m)
        self.seen_f |= new_f
        self.seen_m |= new_m


def main() -> int:
    import ember
    from ember import _lazy
    from ember._ops import LAZY, registry

    def snapshot():
        methods = {n for n, v in vars(ember.Tensor).items()
                   if not isinstance(v, _lazy._LazyMethod)}
        return set(registry.FUNCTIONS), methods

    tracker = _Attribution(snapshot, LAZY)
    tracker.seen_f, tracker.seen_m = snapshot()
    core_values = dict(registry.FUNCTIONS)
    sys.meta_path.insert(0, tracker)
    for family in LAZY:
        importlib.import_module(f"ember._ops.{family}")
    sys.meta_path.remove(tracker)
    changed = [n for n, f in core_values.items() if registry.FUNCTIONS.get(n) is not f]
    if changed:
        print(f"lazy families redefine core names: {changed}", file=sys.stderr)
        return 1

    def table(kind):
        rows = []
        for family in LAZY:
            names = sorted(tracker.found[family][kind])
            if not names:
                rows.append(f"    {family!r}: (),")
                continue
            lines, line = [], ""
            for n in names:
                item = f"{n!r}, "
                if len(line) + len(item) > 86:
                    lines.append(line.rstrip())
                    line = ""
                line += item
            lines.append(line.rstrip())
            body = "\n        ".join(lines)
            rows.append(f"    {family!r}: (\n        {body}\n    ),")
        return "\n".join(rows)

    text = (
        '"""The names each op family loaded on first use defines (``ember.<name>`` and\n'
        '``Tensor.<name>``), by family: written by ``tools/op_index.py``, checked by\n'
        '``tests/test_startup.py``."""\n\n'
        f"FUNCTIONS = {{\n{table(0)}\n}}\n\nMETHODS = {{\n{table(1)}\n}}\n")
    if "--check" in sys.argv[1:]:
        if OUT.read_text() != text:
            print(f"{OUT} is out of date: run python tools/op_index.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
