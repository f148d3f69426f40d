"""Tensor printing, character for character as PyTorch 2.13 prints CPU tensors.

This module owns the print options (``set_printoptions`` / ``get_printoptions`` /
``printoptions``) and :func:`format_tensor`, which turns the elements of a tensor (a NumPy
array) plus its dtype name and autograd flags into the string ``repr(tensor)`` returns.

The rules (spec: ``printing.md``) in short:

* one number format is chosen for the whole tensor from the elements that are *shown* —
  all of them, or only the edge elements when ``numel > threshold``;
* elements are formatted as Python scalars (floats hold the exact double value of the stored
  number) with Python's ``format()``, in integer, fixed or scientific mode, and left-padded to
  a common width;
* vectors wrap to ``linewidth``; higher dimensions nest with blank lines between blocks;
* suffixes (``size=``, ``dtype=``, ``grad_fn=`` / ``requires_grad=True``) follow the body,
  moving to a new line when they would not fit.

Only the shown elements are ever converted to Python objects, so printing a huge tensor costs
about as much as printing its corners.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "format_tensor", "PRINT_OPTS"]


class _PrinterOptions:
    """The mutable print options shared by every tensor repr."""

    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self) -> None:
        self.precision: int = 4
        self.threshold: float = 1000
        self.edgeitems: int = 3
        self.linewidth: int = 80
        self.sci_mode: bool | None = None


PRINT_OPTS = _PrinterOptions()

_PROFILES: dict[str, tuple[int, float, int, int]] = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set the options used when printing tensors, with ``torch.set_printoptions`` semantics.

    Args:
        precision: digits after the decimal point (default 4).
        threshold: element count above which a tensor is summarised (default 1000).
        edgeitems: items kept at each end of a summarised dimension (default 3).
        linewidth: characters per line used for wrapping (default 80).
        profile: ``"default"``, ``"short"`` or ``"full"``; applied first, then the other
            arguments that are not None override it.
        sci_mode: True / False forces / forbids scientific notation; None lets the formatter
            choose. It is always assigned, so a call without it resets it to None.
    """
    if profile is not None:
        preset = _PROFILES.get(profile)
        if preset is not None:
            (PRINT_OPTS.precision, PRINT_OPTS.threshold,
             PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth) = preset
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """Return the current print options as a dict accepted by :func:`set_printoptions`."""
    return {
        "precision": PRINT_OPTS.precision,
        "threshold": PRINT_OPTS.threshold,
        "edgeitems": PRINT_OPTS.edgeitems,
        "linewidth": PRINT_OPTS.linewidth,
        "sci_mode": PRINT_OPTS.sci_mode,
    }


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Context manager: apply ``set_printoptions(**kwargs)``, restore the old options on exit."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# --------------------------------------------------------------------------------------------
# Element formatting
# --------------------------------------------------------------------------------------------

_isfinite = math.isfinite


def _float_texts(vals: list[float], precision: int, sci_opt: bool | None) -> tuple[list[str], int]:
    """Texts (unpadded) of floating values and the common width, per torch's ``_Formatter``."""
    # Non-zero finite values decide the mode and the width (0.0, -0.0 are falsy; nan is not).
    nz = [v for v in vals if v and _isfinite(v)]
    if not nz:
        # Integer mode, not scientific, width 1.
        return [format(v, ".0f") + "." if _isfinite(v) else format(v, ".0f") for v in vals], 1
    int_mode = all(v.is_integer() for v in nz)
    if sci_opt is None:
        mx = max(nz, key=abs)
        mn = min(nz, key=abs)
        mx = abs(mx)
        mn = abs(mn)
        sci = mx / mn > 1000.0 or mx > 1.0e8 or mn < 1.0e-4
    else:
        sci = bool(sci_opt)
    if sci:
        spec = f".{precision}e"
        texts = [format(v, spec) for v in vals]
        width = max(len(format(v, spec)) for v in nz)
    elif int_mode:
        texts = [format(v, ".0f") + "." if _isfinite(v) else format(v, ".0f") for v in vals]
        width = max(len(format(v, ".0f")) for v in nz) + 1
    else:
        spec = f".{precision}f"
        texts = [format(v, spec) for v in vals]
        width = max(len(format(v, spec)) for v in nz)
    return texts, max(width, 1)


def _element_texts(shown: np.ndarray, kind: str, precision: int,
                   sci_opt: bool | None) -> tuple[list[str], int]:
    """Padded element texts of ``shown`` (row-major) and the per-item width for wrapping."""
    if kind == "c":
        re_texts, w_re = _float_texts(shown.real.ravel().tolist(), precision, sci_opt)
        im_texts, w_im = _float_texts(shown.imag.ravel().tolist(), precision, sci_opt)
        out = []
        for r, i in zip(re_texts, im_texts):
            i = (i.rjust(w_im) + "j").lstrip()
            if i[0] != "+" and i[0] != "-":
                i = "+" + i
            out.append(r.rjust(w_re) + i)
        return out, w_re + 2 + w_im + 1
    vals = shown.ravel().tolist()
    if kind == "f":
        texts, width = _float_texts(vals, precision, sci_opt)
    else:
        texts = [str(v) for v in vals]
        width = max(1, max(map(len, texts), default=1))
    return [t.rjust(width) for t in texts], width + 2


# --------------------------------------------------------------------------------------------
# Layout
# --------------------------------------------------------------------------------------------


def _layout(texts: list[str], shape: tuple[int, ...], cut: tuple[bool, ...], edge: int,
            item_len: int, linewidth: int, indent: int = 7) -> str:
    """Nest the row-major ``texts`` of the shown array into torch's bracketed body."""
    ndim = len(shape)
    strides = [1] * ndim
    for d in range(ndim - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]

    def vector(offset: int, indent: int) -> str:
        items = texts[offset:offset + shape[-1]]
        if cut[-1]:
            items = items[:edge] + [" ..."] + items[edge:]
        per_line = max(1, (linewidth - indent) // item_len)
        if len(items) <= per_line:
            return "[" + ", ".join(items) + "]"
        sep = ",\n" + " " * (indent + 1)
        return "[" + sep.join(", ".join(items[i:i + per_line])
                              for i in range(0, len(items), per_line)) + "]"

    def block(d: int, offset: int, indent: int) -> str:
        if d == ndim - 1:
            return vector(offset, indent)
        stride = strides[d]
        children = [block(d + 1, offset + i * stride, indent + 1) for i in range(shape[d])]
        if cut[d]:
            children.insert(edge, "...")
        return "[" + ("," + "\n" * (ndim - d - 1) + " " * (indent + 1)).join(children) + "]"

    return block(0, 0, indent)


def _kind(values: np.ndarray, dtype_name: str) -> str:
    if dtype_name.startswith("complex") or values.dtype.kind == "c":
        return "c"
    if dtype_name.startswith(("float", "bfloat")) or values.dtype.kind == "f":
        return "f"
    return "i"


def _body(values: np.ndarray, kind: str, indent: int = 7) -> str:
    """The bracketed body of a non-empty tensor (the part after ``tensor(``), its rows
    indented by ``indent`` columns."""
    opts = PRINT_OPTS
    precision, edge, sci_opt = opts.precision, opts.edgeitems, opts.sci_mode
    shape = values.shape
    if not shape:
        texts, _ = _element_texts(values, kind, precision, sci_opt)
        return texts[0]
    summarize = values.size > opts.threshold
    if summarize and not edge:
        return "[...]"
    cut = tuple(summarize and n > 2 * edge for n in shape)
    shown = values
    if any(cut):
        for d, c in enumerate(cut):
            if c:
                n = shape[d]
                idx = np.r_[0:edge, n - edge:n]
                shown = shown.take(idx, axis=d)
    texts, item_len = _element_texts(shown, kind, precision, sci_opt)
    return _layout(texts, shown.shape, cut, edge, item_len, opts.linewidth, indent)


def _add_suffixes(text: str, suffixes: list[str], linewidth: int,
                  force_newline: bool = False, indent: int = 7) -> str:
    """Append ``suffixes`` after ``text`` the way torch places them, then close the paren
    (``force_newline``: the first suffix on a line of its own, as for a sparse tensor)."""
    if not suffixes:
        return text + ")"
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        n = len(suffix)
        if force_newline or last_line_len + n + 2 > linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + n
            force_newline = False
        else:
            parts.append(", " + suffix)
            last_line_len += n + 2
    parts.append(")")
    return "".join(parts)


def format_tensor(
    values: np.ndarray,
    dtype_name: str,
    *,
    default_dtype_name: str = "float32",
    grad_fn_name: str | None = None,
    requires_grad: bool = False,
    is_parameter: bool = False,
    prefix: str = "tensor(",
    parameter_class: bool = True,
    meta: bool = False,
) -> str:
    """Return the string torch prints for a dense CPU or meta tensor (``repr`` and ``str``).

    Args:
        values: the elements, shaped like the tensor (float16/32/64, int8/16/32/64, uint8,
            bool or complex64/128). For ``bfloat16`` pass a float32 array of the bf16 values.
        dtype_name: the torch dtype name without ``torch.`` (``"float32"``, ``"int64"`` …).
        default_dtype_name: the current default dtype (``"float32"`` or ``"float64"``); it
            decides which ``dtype=`` suffix is left out.
        grad_fn_name: class name of the tensor's grad_fn (``"MulBackward0"``), if any.
        requires_grad: whether the tensor requires grad (shown only without a grad_fn).
        is_parameter: print as an ``nn.Parameter`` (``"Parameter containing:\\n" + ...``).
        prefix: what opens the text (a Tensor subclass prints its class name: ``"M("``).
        parameter_class: with ``is_parameter``, whether the tensor is of class ``Parameter``
            (or a subclass of it), which alone says ``Parameter containing:``; another
            Tensor subclass's instance made a parameter prints as ``Parameter(M(...))``.
        meta: a meta tensor's (no elements: ``...``, its device and size).

    Returns:
        ``"tensor(...)"`` with its suffixes, prefixed for parameters.
    """
    shape = values.shape
    suffixes: list[str] = []
    if meta:
        body = "..."
        suffixes.append("device='meta'")
        suffixes.append("size=" + str(tuple(int(n) for n in shape)))
        if dtype_name != default_dtype_name:
            suffixes.append("dtype=torch." + dtype_name)
    elif values.size == 0:
        body = "[]"
        if len(shape) != 1:
            suffixes.append("size=" + str(tuple(int(n) for n in shape)))
        if dtype_name != default_dtype_name:
            suffixes.append("dtype=torch." + dtype_name)
    else:
        values = np.asarray(values)
        body = _body(values, _kind(values, dtype_name), len(prefix))
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(int(n) for n in shape)))
        default_complex = "complex128" if default_dtype_name == "float64" else "complex64"
        if dtype_name not in (default_dtype_name, default_complex, "int64", "bool"):
            suffixes.append("dtype=torch." + dtype_name)
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    out = _add_suffixes(prefix + body, suffixes, PRINT_OPTS.linewidth, indent=len(prefix))
    if is_parameter:
        if prefix != "tensor(":     # (a subclass's instance)
            out = f"Parameter({out})"
        if parameter_class:
            return "Parameter containing:\n" + out
    return out


def format_compressed(crow: np.ndarray, col: np.ndarray, values: np.ndarray, dtype_name: str,
                      size: tuple, *, default_dtype_name: str = "float32",
                      grad_fn_name: str | None = None, requires_grad: bool = False) -> str:
    """Return the string torch prints for a sparse CSR matrix: ``crow_indices=``,
    ``col_indices=`` and ``values=`` on lines of their own, then the suffixes placed as for a
    strided tensor."""
    text = ("tensor(crow_indices=tensor(" + _nested(crow, "int64", 27) + "),\n       "
            + "col_indices=tensor(" + _nested(col, "int64", 26) + "),\n       "
            + "values=tensor(" + _nested(values, dtype_name, 21) + ")")
    suffixes = _sparse_suffixes(size, col.shape[0], dtype_name, default_dtype_name,
                                "sparse_csr", grad_fn_name, requires_grad)
    return _add_suffixes(text, suffixes, PRINT_OPTS.linewidth)


def _nested(values: np.ndarray, dtype_name: str, indent: int) -> str:
    """A component tensor's body inside a sparse tensor's print (``size=`` where empty)."""
    if values.size == 0:
        return "[], size=" + str(tuple(int(n) for n in values.shape))
    return _body(values, _kind(values, dtype_name), indent)


def _sparse_suffixes(size, nnz: int, dtype_name: str, default_dtype_name: str, layout: str,
                     grad_fn_name, requires_grad: bool) -> list[str]:
    """The suffixes of a sparse tensor's print: ``size=``, ``nnz=``, ``dtype=`` (where not a
    default one), ``layout=``, then ``grad_fn=`` or ``requires_grad=``."""
    suffixes = ["size=" + str(tuple(int(n) for n in size)), f"nnz={nnz}"]
    default_complex = "complex128" if default_dtype_name == "float64" else "complex64"
    if dtype_name not in (default_dtype_name, default_complex, "int64", "bool"):
        suffixes.append("dtype=torch." + dtype_name)
    suffixes.append("layout=torch." + layout)
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return suffixes


def format_sparse(indices: np.ndarray, values: np.ndarray, dtype_name: str, size: tuple,
                  *, default_dtype_name: str = "float32", grad_fn_name: str | None = None,
                  requires_grad: bool = False) -> str:
    """Return the string torch prints for a sparse COO tensor: ``tensor(indices=tensor(...),``
    then ``values=tensor(...)`` and the ``size=``, ``nnz=``, ``dtype=``, ``layout=`` suffixes,
    the first of them on a line of its own."""
    text = ("tensor(indices=tensor(" + _nested(indices, "int64", 22) + "),\n       "
            + "values=tensor(" + _nested(values, dtype_name, 21) + ")")
    suffixes = _sparse_suffixes(size, indices.shape[1], dtype_name, default_dtype_name,
                                "sparse_coo", grad_fn_name, requires_grad)
    return _add_suffixes(text, suffixes, PRINT_OPTS.linewidth, force_newline=True)
