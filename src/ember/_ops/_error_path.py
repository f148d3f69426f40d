"""An error path for a hand-written public function, at no cost to its calls: its code
object rewritten (CPython 3.11's bytecode) so that whatever its body raises is first
handed to a hook, which may give another exception to raise in its place (CPython's
exceptions cost nothing until one is raised: the calls that succeed run the same
instructions as before).

The body's instructions are kept as they are; a handler is appended, reached through
entries of the exception table that cover every instruction no ``try`` of the function
covers itself:

    PUSH_EXC_INFO; PUSH_NULL; LOAD_CONST hook; COPY 3; PRECALL 1; CALL 1
    COPY 1; POP_JUMP_FORWARD_IF_NONE reraise; LOAD_CONST None; RAISE_VARARGS 2
    reraise: POP_TOP; RERAISE 0
    cleanup: COPY 3; POP_EXCEPT; RERAISE 1      (what the handler raises: the state restored)
"""

from __future__ import annotations

import dis
import sys

_OP = dis.opmap
_CACHES = dis._inline_cache_entries
_SUPPORTED = sys.version_info[:2] == (3, 11)
_NOT_PLAIN = 0x20 | 0x80 | 0x100 | 0x200    # generator, coroutine, iterable coroutine, async gen
_DONE: dict = {}        # the code rewritten for a hook: (code, hook) -> new code


def _instr(name: str, arg: int = 0) -> bytes:
    return bytes((_OP[name], arg)) + b"\0\0" * _CACHES[_OP[name]]


def _varint(value: int, start: bool = False) -> bytes:
    """An exception-table number: 6-bit chunks, most significant first, each but the last
    marked 64; the first of an entry marked 128."""
    chunks = [value & 63]
    value >>= 6
    while value:
        chunks.append(value & 63)
        value >>= 6
    out = bytearray(c | 64 for c in reversed(chunks))
    out[-1] &= 63
    if start:
        out[0] |= 128
    return bytes(out)


def _entry(start: int, end: int, target: int, depth: int, lasti: bool) -> bytes:
    """One exception-table entry (byte offsets)."""
    return (_varint(start // 2, True) + _varint((end - start) // 2) + _varint(target // 2)
            + _varint(depth << 1 | lasti))


def _gaps(code, start: int) -> list:
    """The byte ranges from ``start`` to the end of ``code`` that none of its exception
    table's entries cover."""
    out, at = [], start
    for e in sorted(dis._parse_exception_table(code), key=lambda e: e.start):
        if e.start > at:
            out.append((at, e.start))
        at = max(at, e.end)
    if at < len(code.co_code):
        out.append((at, len(code.co_code)))
    return out


def _line_entries(first_line: int, last_line: int, units: int) -> bytes:
    """Location-table entries placing ``units`` code units on line ``first_line`` (the
    ``def``), the table's running line ``last_line`` before them."""
    out = bytearray()
    delta = first_line - last_line
    while units:
        n = min(units, 8)
        zig = delta << 1 if delta >= 0 else (-delta) << 1 | 1
        varint = bytearray()
        while zig >= 64:
            varint.append(zig & 63 | 64)
            zig >>= 6
        varint.append(zig)
        out += bytes((0x80 | 13 << 3 | (n - 1),)) + varint     # (a line, no columns)
        units, delta = units - n, 0
    return bytes(out)


def with_error_path(fn, hook) -> bool:
    """Give the function ``fn`` (in place) an error path: what its body raises is passed to
    ``hook(exc)``, whose result (an exception), if not None, is raised instead (``from
    None``). False where it cannot (a generator, another Python than 3.11, a function of
    very many constants)."""
    code = fn.__code__
    if not _SUPPORTED or code.co_flags & _NOT_PLAIN or len(code.co_consts) > 253:
        return False        # (253: the handler's constants need no EXTENDED_ARG)
    if any(c is hook for c in code.co_consts):     # (given one already, or copied from one)
        return True
    new = _DONE.get((code, hook))
    if new is None:
        new = _DONE[code, hook] = _rewritten(code, hook)
    fn.__code__ = new
    return True


def _rewritten(code, hook):
    raw = code.co_code
    start = next(i for i in range(0, len(raw), 2) if raw[i] == _OP["RESUME"]) + 2   # (the
    # prefix before it: instructions without caches)
    consts = code.co_consts + (hook, None)
    k_hook, k_none = len(consts) - 2, len(consts) - 1
    handler = len(raw)
    head = (_instr("PUSH_EXC_INFO") + _instr("PUSH_NULL") + _instr("LOAD_CONST", k_hook)
            + _instr("COPY", 3) + _instr("PRECALL", 1) + _instr("CALL", 1) + _instr("COPY", 1))
    raise_new = _instr("LOAD_CONST", k_none) + _instr("RAISE_VARARGS", 2)
    reraise = _instr("POP_TOP") + _instr("RERAISE", 0)
    body = head + _instr("POP_JUMP_FORWARD_IF_NONE", len(raise_new) // 2) + raise_new + reraise
    cleanup = handler + len(body)
    added = body + _instr("COPY", 3) + _instr("POP_EXCEPT") + _instr("RERAISE", 1)
    entries = [(e.start, e.end, e.target, e.depth, e.lasti)
               for e in dis._parse_exception_table(code)]
    entries += [(a, b, handler, 0, False) for a, b in _gaps(code, start)]
    entries.append((handler + 2, cleanup, cleanup, 1, True))
    table = b"".join(_entry(*e) for e in sorted(entries))      # (by start: CPython's lookup)
    lines = [line for _, _, line in code.co_lines() if line is not None]
    linetable = code.co_linetable + _line_entries(
        code.co_firstlineno, lines[-1] if lines else code.co_firstlineno, len(added) // 2)
    return code.replace(co_code=raw + added, co_consts=consts, co_exceptiontable=table,
                        co_linetable=linetable, co_stacksize=max(code.co_stacksize, 5))
