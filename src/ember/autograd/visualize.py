"""Seeing the backward graph: ``to_dot``, ``render`` and ``explain``.

``to_dot(t)`` gives Graphviz DOT text of the graph behind ``t``: one box per ``grad_fn`` node
(its name and the shapes of the tensors it saved), one ellipse per leaf (its name, shape,
and whether it requires and retains grad), edges in the direction gradients flow. ``explain``
prints the same graph as text: which tensors are leaves and will receive ``.grad``, which
nodes hold saved tensors (and how many bytes) and which were already freed by a backward.
Both are exported from :mod:`ember.autograd.graph`.

Leaves are named as the user names them: a Module passed as ``params`` names its parameters
by their qualified names (``fc1.weight``, as ``named_parameters`` gives them); other leaves
take the name of the caller's variable that holds them, where there is one.
"""

from __future__ import annotations

import sys

from .graph import AccumulateGrad, SavedTensor


def _walk(root):
    """Every node reachable from ``root`` (a grad_fn), in discovery order, iteratively."""
    seen, order, stack = {id(root)}, [root], [root]
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is not None and id(nxt) not in seen:
                seen.add(id(nxt))
                order.append(nxt)
                stack.append(nxt)
    return order


def _saved(node) -> list:
    """(name, shape, nbytes) of each tensor a node still holds for backward."""
    out = []
    saved = getattr(node, "_saved", None)
    if isinstance(saved, dict):
        items = saved.items()
    elif isinstance(saved, (list, tuple)):
        items = ((f"saved_{i}", s) for i, s in enumerate(saved))
    else:
        items = ()
    for name, st in items:
        if isinstance(st, SavedTensor):
            data = st.data if st.tensor is None else st.tensor._data
            shape = tuple(data.shape) if data is not None else ()
            out.append((name, shape, st.nbytes))
    return out


def _names(params, frame) -> dict:
    """``id(tensor) -> name``: from ``params`` (a Module, a dict or ``(name, tensor)`` pairs)
    first, then from the variables of ``frame`` (its locals before its globals)."""
    from .._tensor import Tensor
    names = {}
    if frame is not None:
        for scope in (frame.f_globals, frame.f_locals):
            for k, v in scope.items():
                if isinstance(v, Tensor) and not k.startswith("_"):
                    names[id(v)] = k
    if params is not None:
        if hasattr(params, "named_parameters"):
            params = params.named_parameters()
        items = params.items() if isinstance(params, dict) else params
        names.update((id(t), name) for name, t in items)
    return names


def _caller(depth: int = 2):
    """The frame of the user's code that called a public function here."""
    try:
        return sys._getframe(depth)
    except ValueError:      # pragma: no cover - called from the outermost frame
        return None


def _leaf_label(var, names: dict) -> str:
    name = names.get(id(var), "")
    flags = ["requires_grad" if var.requires_grad else "no grad"]
    if var.grad is not None:
        flags.append("has .grad")
    head = f"{name}\\n" if name else ""
    return f"{head}{tuple(var.shape)} {var.dtype.name}\\n{', '.join(flags)}"


def to_dot(tensor, params=None, *, _frame=None) -> str:
    """Graphviz DOT text of the backward graph of ``tensor``.

    ``params``: a Module (its parameters' qualified names), a dict or ``(name, tensor)``
    pairs naming the leaves, like torchviz's ``params=``; other leaves are named by the
    caller's variables.

    >>> import ember
    >>> x = ember.ones(2, requires_grad=True)
    >>> print(to_dot((x * 2).sum()).splitlines()[0])
    digraph backward {
    """
    names = _names(params, _frame or _caller())
    lines = ["digraph backward {", '  node [fontname="monospace", fontsize=10];',
             '  rankdir="BT";']
    out_id = f"t{id(tensor)}"
    lines.append(f'  {out_id} [label="output\\n{tuple(tensor.shape)}", shape=octagon, '
                 'style=filled, fillcolor=lightblue];')
    root = tensor.grad_fn
    if root is None:
        label = _leaf_label(tensor, names)
        lines.append(f'  {out_id} [label="{label}", shape=ellipse];')
        lines.append("}")
        return "\n".join(lines)
    for node in _walk(root):
        nid = f"n{id(node)}"
        if isinstance(node, AccumulateGrad):
            var = node.variable
            color = "lightgreen" if var.retains_grad or var.is_leaf else "white"
            lines.append(f'  {nid} [label="{_leaf_label(var, names)}", shape=ellipse, '
                         f'style=filled, fillcolor={color}];')
        else:
            saved = _saved(node)
            extra = "".join(f"\\n{n}: {s}" for n, s, _ in saved)
            freed = "\\n(saved tensors freed)" if getattr(node, "_released", False) else ""
            lines.append(f'  {nid} [label="{node.name()}{extra}{freed}", shape=box];')
        for nxt, _ in node.next_functions:
            if nxt is not None:
                lines.append(f"  n{id(nxt)} -> {nid};")
    lines.append(f"  n{id(root)} -> {out_id};")
    lines.append("}")
    return "\n".join(lines)


def render(tensor, path: str, params=None, format: str | None = None) -> str:
    """Write the graph to ``path`` (SVG or PNG, from the suffix) with Graphviz's ``dot``,
    leaves named as in :func:`to_dot`.

    Uses the ``graphviz`` package where installed (``pip install 'ember[viz]'``), else the
    ``dot`` program directly; both need Graphviz itself (``apt-get install graphviz``).
    Without it, raises a RuntimeError saying so, and ``to_dot`` still gives the text.
    """
    import shutil
    import subprocess

    fmt = format or (path.rsplit(".", 1)[-1] if "." in path else "svg")
    text = to_dot(tensor, params, _frame=_caller())
    if shutil.which("dot") is None:
        raise RuntimeError("render() needs Graphviz's `dot` program: install it with "
                           "`apt-get install graphviz` (or `brew install graphviz`), or use "
                           "to_dot() and paste the text into any Graphviz viewer")
    try:
        import graphviz
    except ImportError:
        subprocess.run(["dot", f"-T{fmt}", "-o", path], input=text.encode(), check=True)
        return path
    with open(path, "wb") as f:
        f.write(graphviz.Source(text).pipe(format=fmt))
    return path


def summary(tensor) -> dict:
    """The numbers ``explain`` prints: nodes, leaves and bytes of saved tensors."""
    if tensor.grad_fn is None:
        return {"nodes": 0, "leaves": 0, "saved_tensors": 0, "saved_bytes": 0,
                "freed_nodes": 0}
    nodes = _walk(tensor.grad_fn)
    ops = [n for n in nodes if not isinstance(n, AccumulateGrad)]
    saved = [s for n in ops for s in _saved(n)]
    return {"nodes": len(ops), "leaves": len(nodes) - len(ops), "saved_tensors": len(saved),
            "saved_bytes": sum(b for _, _, b in saved),
            "freed_nodes": sum(1 for n in ops if getattr(n, "_released", False))}


def explain(tensor, params=None, file=None) -> dict:
    """Print each node of the backward graph of ``tensor`` and what it holds; return totals.

    Shows which tensors are leaves (and will receive ``.grad`` after backward), which nodes
    keep saved tensors and how many bytes, and which were freed by an earlier backward.
    Under ``no_grad`` there is no graph and every number is zero. ``params`` names the
    leaves as in :func:`to_dot` (a Module: its parameters' qualified names); other leaves
    are named by the caller's variables.
    """
    names = _names(params, _caller())

    def p(*args):
        print(*args, file=file)

    totals = summary(tensor)
    if tensor.grad_fn is None:
        p(f"{tuple(tensor.shape)} tensor with no grad_fn: "
          + ("a leaf that will receive .grad" if tensor.requires_grad
             else "not part of any graph (requires_grad=False)"))
        return totals
    for node in _walk(tensor.grad_fn):
        if isinstance(node, AccumulateGrad):
            var = node.variable
            name = names.get(id(var), "")
            p(f"  leaf {name + ' ' if name else ''}{tuple(var.shape)}: requires_grad=True, "
              "receives .grad after backward")
            continue
        saved = _saved(node)
        inputs = ", ".join(n.name() if n is not None else "-" for n, _ in node.next_functions)
        if getattr(node, "_released", False):
            state = "saved tensors freed by backward"
        elif saved:
            state = "holds " + ", ".join(f"{n} {s} ({b} B)" for n, s, b in saved)
        else:
            state = "holds no tensors"
        if getattr(node, "_retain_grad", None):
            state += "; its output retains .grad (retain_grad)"
        p(f"{node.name()} <- [{inputs}]: {state}")
    p(f"{totals['nodes']} nodes, {totals['leaves']} leaves, {totals['saved_tensors']} saved "
      f"tensors, {totals['saved_bytes']} bytes held for backward")
    return totals


del annotations  # keep dir() to torch's names
