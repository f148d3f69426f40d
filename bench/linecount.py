"""Print the core's size in code lines (no blanks, comments or docstrings).

The core is ``_tensor.py`` and ``autograd/`` (the op tables live in ``_ops/``).
"""

from __future__ import annotations

import ast
import io
import pathlib
import tokenize

ROOT = pathlib.Path(__file__).resolve().parents[1] / "src" / "ember"
CORE = [ROOT / "_tensor.py", *sorted((ROOT / "autograd").glob("*.py"))]


def code_lines(path: pathlib.Path) -> int:
    src = path.read_text()
    doc_lines = set()
    for node in ast.walk(ast.parse(src)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                isinstance(getattr(body[0], "value", None), ast.Constant) and \
                isinstance(body[0].value.value, str):
            doc_lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                        tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        if tok.start[0] not in doc_lines:
            lines.add(tok.start[0])
    return len(lines)


if __name__ == "__main__":
    print(sum(code_lines(p) for p in CORE))
