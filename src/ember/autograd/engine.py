"""The backward engine: explicit, iterative, small.

1. Walk the graph from the roots over ``next_functions`` and count each node's dependencies.
2. Run ready nodes newest first (largest sequence number; leaf accumulators at once), with a
   gradient buffer per node that is summed into and popped when the node runs.
3. Around each node: the tensors' hooks and ``retain_grad``, the node's pre-hooks, ``apply``,
   its post-hooks; then each produced gradient is summed back to its input's shape and cast
   to its dtype (torch's ``validate_outputs``) before it goes into the next node's buffer.
4. A node's saved tensors are released as soon as it ran, unless ``retain_graph``.

No recursion anywhere: a chain of 10,000 ops backpropagates without ``RecursionError``.
"""

from __future__ import annotations

import _heapq  # heapq's functions, without loading heapq.py
import itertools

from .. import _errors, _meta
from .._device import xp
from . import grad_mode
from .graph import AccumulateGrad, GradientEdge

_state = grad_mode._state
_META_USED = _meta.USED
_MetaArray = _meta.MetaArray
_anomaly_used = grad_mode._anomaly_used
_task_ids = itertools.count()
# (id, has inputs) of the backward call running now: torch's current graph task, whose
# ``exec_info`` is non-empty when only some inputs' gradients are asked for
current_task = [(-1, False)]
# what that call will run: (dependency counts of the reachable nodes, roots, needed or None,
# targets or None, whether it accumulates into ``.grad``)
current_graph = [None]


def will_execute(node) -> bool:
    """Whether the backward call running now will run ``node`` (torch's
    ``_will_engine_execute_node``)."""
    graph = current_graph[0]
    if graph is None:
        raise RuntimeError("_will_engine_execute_node should only be called during the "
                           "backward pass")
    deps, roots, needed, targets, accumulate = graph
    if not accumulate and node.__class__ is AccumulateGrad:
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are "
                           "currently running autograd.grad(). This is currently not "
                           "supported.")
    if needed is not None:
        return node in needed or node in targets
    return node in deps or node in roots


def _root_grads(tensors, grad_tensors):
    from .._tensor import Tensor
    out = []
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        if not t.requires_grad:
            raise RuntimeError(_errors.NO_GRAD_FN.format(i))
        if g is None:
            if t._data.size != 1:
                raise RuntimeError(_errors.IMPLICIT_SCALAR)
            if t._data.dtype.kind == "c":
                raise RuntimeError(f"{_errors.IMPLICIT_REAL} but got {t.dtype}")
            g = Tensor._wrap(xp.ones(t._data.shape, t._data.dtype)
                             if t._data.__class__ is xp.ndarray else _meta.like(t._data))
        else:
            if not isinstance(g, Tensor):
                from .._factories import tensor
                g = tensor(g, dtype=t.dtype)
            if tuple(g.shape) != tuple(t.shape):
                raise RuntimeError(_errors.shape_mismatch(i, g.shape, t.shape))
            if g._data.dtype != t._data.dtype:
                if (g._data.dtype.kind == "c") != (t._data.dtype.kind == "c"):
                    raise RuntimeError(_errors.complex_grad_mismatch(i, g.dtype, t.dtype))
                g = g.to(t.dtype)   # torch's validate_outputs casts a root's gradient too
        out.append(g)
    return out


def _traverse(roots, with_parents=True):
    """Dependency counts of every node reachable from ``roots``, and each node's parents
    (when ``with_parents``)."""
    deps: dict = {}
    parents: dict = {}
    stack = list(roots)
    # (a node is reached once it has a count; the roots are on the stack from the start)
    roots = set(roots)
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            if with_parents:
                parents.setdefault(nxt, []).append(node)
            if nxt in deps:
                deps[nxt] += 1
            else:
                deps[nxt] = 1
                if nxt not in roots:
                    stack.append(nxt)
    return deps, parents


def _needed(targets, parents):
    """Nodes from which some target is reachable: the only ones worth running (a target
    itself only where another target lies beyond it: a captured gradient needs no more)."""
    needed = set()
    stack = list(targets)
    while stack:
        for p in parents.get(stack.pop(), ()):
            if p not in needed:
                needed.add(p)
                stack.append(p)
    return needed


def _check_hook_result(grad, result, hook) -> None:
    """torch's check of a tensor hook's replacement gradient: a tensor of the same type
    (dtype and layout) and size."""
    from .._tensor import Tensor
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    name = getattr(hook, "__name__", None)
    name = name if isinstance(name, str) else "<unknown>"
    if result.dtype != grad.dtype or result.layout != grad.layout:
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {grad.type()} got "
                           f"{result.type()})")
    if result.shape != grad.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")


def _run_tensor_hooks(node, grads):
    if node._tensor_pre_hooks:
        for nr, hooks in node._tensor_pre_hooks.items():
            g = grads[nr]
            if g is None:
                continue
            for hook in list(hooks.values()):
                r = hook(g)
                if r is not None:
                    _check_hook_result(g, r, hook)
                    g = r
            grads[nr] = g
    if node._retain_grad:
        for nr, ref in node._retain_grad.items():
            t = ref()
            g = grads[nr]
            if t is None or g is None:
                continue
            if t._grad is None:
                t._grad = g.detach().clone() if not _state.enabled else g.clone()
            else:
                t._grad = t._grad + g


def _on_meta(grads, out):
    """A node's gradients ``out`` as meta tensors where the gradients it was given are (a
    backward formula may have computed on the CPU what it was given)."""
    if not any(g is not None and g._data.__class__ is _MetaArray for g in grads):
        return out
    return [g if g is None or g._data.__class__ is _MetaArray else _as_meta(g) for g in out]


def _as_meta(g):
    g = g.detach()
    g._data = _meta.like(g._data)
    return g


def _validate(node, i, g, meta):
    """Sum ``g`` back to the input's shape and cast it to the input's dtype."""
    shape, dt = meta
    if g._data.shape != shape:
        if not _expandable(shape, g._data.shape):
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index "
                               f"{i} - got {list(g.shape)} but expected shape compatible with "
                               f"{list(shape)}")
        g = _sum_to_shape(g, shape)
    if g._data.dtype != dt.np:
        if g._data.dtype.char in "FD" and dt.np.kind != "c":
            if node.name() in _KEEPS_COMPLEX:
                raise RuntimeError(_COMPLEX_GRAD)
            g = g.real      # torch: a real input's gradient is the real part
        g = g.to(dt)
    return g


# nodes whose formulas pass a complex gradient on to a real input (a reduction with a complex
# ``dtype=``): torch's engine refuses it rather than taking the real part
_KEEPS_COMPLEX = frozenset(("SumBackward0", "SumBackward1", "ProdBackward0", "ProdBackward1",
                            "MeanBackward0", "MeanBackward1", "WhereBackward0"))
_COMPLEX_GRAD = ("Expected isFloatingType(grad.scalar_type()) || (input_is_complex == "
                 "grad_is_complex) to be true, but got false.  (Could this error message be "
                 "improved?  If so, please report an enhancement request to PyTorch.)")


def _sum_to_shape(grad, shape):
    """``ember._ops.util.sum_to_shape`` (the ops import this module: bound on first use)."""
    global _sum_to_shape
    from .._ops.util import sum_to_shape
    _sum_to_shape = sum_to_shape
    return sum_to_shape(grad, shape)


def _expandable(shape, to) -> bool:
    if len(shape) > len(to):
        return False
    return all(a == b or a == 1 for a, b in zip(shape[::-1], to[::-1]))


def execute(tensors, grad_tensors, retain_graph, create_graph, inputs=None,
            accumulate=True, allow_unused=False, cut=None):
    """Run backward from ``tensors``; return the gradients of ``inputs`` when not accumulating
    (``cut``: nodes this pass does not run, see :func:`run`)."""
    grads0 = _root_grads(tensors, grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    buffers: dict = {}
    roots = []
    for t, g in zip(tensors, grads0):
        node, nr = t._edge()
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * node.num_outputs
            roots.append(node)
        buf[nr] = g if buf[nr] is None else buf[nr] + g
    edges = None
    if inputs is not None:
        edges = []
        for t in inputs:
            if type(t) is GradientEdge:
                edges.append((t.node, t.output_nr))
                continue
            if not t.requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            edges.append(t._edge())
    return run(buffers, roots, retain_graph, create_graph, edges, accumulate, allow_unused,
               cut)


def run(buffers, roots, retain_graph, create_graph, edges=None, accumulate=True,
        allow_unused=False, cut=None):
    """Run backward from ``roots`` (nodes) whose incoming gradients are ``buffers[node]`` (a
    list per node, one entry per output); with ``edges`` ((node, output_nr) pairs), return
    the gradients arriving there instead of running beyond them (``autograd.grad``'s
    capture; ``ember.distributed.autograd`` starts here from a node a message fed). ``cut``
    (with ``edges``): nodes not to run, a forward-AD read's custom Functions whose jvp gave
    their outputs' tangents (an argument of this pass alone: a backward run inside it, from
    a hook or a Function's backward, cuts nothing)."""
    deps, parents = _traverse(roots, edges is not None)

    captures = {}            # (node, nr) -> index in edges
    targets = None
    if edges is not None:
        targets = set()
        for k, edge in enumerate(edges):
            captures.setdefault(edge, []).append(k)
            targets.add(edge[0])
        needed = _needed(targets, parents)
        if cut:
            needed -= cut
        if accumulate:      # backward(inputs=) runs a non-leaf input's node too (torch's
            needed |= targets   # exec_info marks it needed), grad() only captures there
    else:
        needed = None
    captured = [None] * (len(edges) if edges is not None else 0)

    counter = itertools.count()
    heap = [(-n._seq, next(counter), n) for n in roots if n not in deps]
    _heapq.heapify(heap)
    heappop, heappush = _heapq.heappop, _heapq.heappush
    # the common case (every node runs, nothing captured) takes the inline path below for
    # nodes without hooks; the others go through _run_node
    plain = not captures and needed is None and _run_node is _RUN_NODE   # (not profiling)
    prev = (_state.enabled, _state.inference)
    _state.enabled, _state.inference = bool(create_graph), False
    prev_task = current_task[0]
    current_task[0] = (next(_task_ids), edges is not None)
    prev_graph = current_graph[0]
    current_graph[0] = (deps, roots, needed, targets, accumulate)
    node = None              # the next node when it is the only one ready (a chain): it
    # skips the heap, which would pop it next anyway
    try:
        while node is not None or heap:
            if node is None:
                node = heappop(heap)[2]
            grads = buffers.pop(node, None)
            if grads is not None:
                # (hooks and retained grads live in a node's __dict__: none there, none set)
                if not plain or (node.__dict__ and (
                        node._tensor_pre_hooks or node._retain_grad or node._pre_hooks
                        or node._hooks)) or (_anomaly_used[0] and _state.anomaly):
                    _run_node(node, grads, captures, captured, needed, targets, accumulate,
                              create_graph, retain_graph, buffers)
                elif node.__class__ is AccumulateGrad:
                    if node.variable._hooks:
                        _run_node(node, grads, captures, captured, needed, targets, accumulate,
                                  create_graph, retain_graph, buffers)
                    elif accumulate and grads[0] is not None:
                        node.accumulate(grads[0], create_graph)
                else:
                    out = node.apply(grads)
                    if _META_USED[0]:
                        out = _on_meta(grads, out)
                    if not retain_graph:
                        node._release()
                    # _distribute, inline
                    metas = node._input_meta
                    i = -1
                    for (nxt, nr), g in zip(node.next_functions, out):
                        i += 1
                        if nxt is None or g is None:
                            continue
                        if metas is not None:
                            meta = metas[i]
                            if meta is not None and (g._data.shape != meta[0]
                                                     or g._data.dtype != meta[1].np):
                                g = _validate(node, i, g, meta)
                        buf = buffers.get(nxt)
                        if buf is None:
                            buf = buffers[nxt] = [None] * nxt.num_outputs
                        buf[nr] = g if buf[nr] is None else buf[nr] + g \
                            if not buf[nr].is_sparse else _sparse_sum(buf[nr], g)
                    out = g = None  # the gradients' only holders are the buffers (AccumulateGrad
                    # takes a gradient nothing else holds without a copy)
            single = None
            for nxt, _ in node.next_functions:
                if nxt is None:
                    continue
                left = deps[nxt] - 1
                deps[nxt] = left
                if left == 0:
                    if single is None and not heap:
                        single = nxt
                        continue
                    if single is not None:
                        heappush(heap, (-single._seq, next(counter), single))
                        single = None
                    heappush(heap, (-nxt._seq, next(counter), nxt))
            node = single
    finally:
        _state.enabled, _state.inference = prev
        current_task[0] = prev_task
        current_graph[0] = prev_graph
    if edges is not None:
        if not accumulate:
            for k, g in enumerate(captured):
                if g is None and not allow_unused:
                    raise RuntimeError(_errors.UNUSED_INPUT.format(k))
        return captured
    return None


def _run_node(node, grads, captures, captured, needed, targets, accumulate, create_graph,
              retain_graph, buffers):
    is_leaf = type(node) is AccumulateGrad
    if is_leaf:
        hooks = node.variable._hooks
        if hooks and grads[0] is not None:
            g = grads[0]
            for hook in list(hooks.values()):
                r = hook(g)
                if r is not None:
                    _check_hook_result(g, r, hook)
                    g = r
            grads[0] = g
    elif node._tensor_pre_hooks or node._retain_grad:
        _run_tensor_hooks(node, grads)
    if captures:
        for nr in range(len(grads)):
            ks = captures.get((node, nr))
            if ks is not None and grads[nr] is not None:
                g = grads[nr]
                for k in ks:
                    captured[k] = g if captured[k] is None else captured[k] + g
    if is_leaf:
        if accumulate and grads[0] is not None and (targets is None or node in targets):
            node.accumulate(grads[0], create_graph)
        return
    if needed is not None and node not in needed:
        return
    if node._pre_hooks:
        for hook in list(node._pre_hooks.values()):
            r = hook(tuple(grads))
            if r is not None:
                grads = list(r)
    out = node.apply(grads)
    if _META_USED[0]:
        out = _on_meta(grads, out)
    if node._hooks:
        metas = node._input_meta
        if metas is not None:      # torch validates (sums to shape, casts) before post hooks
            out = [g if g is None or m is None or (g._data.shape == m[0]
                                                   and g._data.dtype == m[1].np)
                   else _validate(node, i, g, m) for i, (g, m) in enumerate(zip(out, metas))]
        for hook in list(node._hooks.values()):
            r = hook(tuple(out), tuple(grads))
            if r is not None:
                out = list(r)
    if not retain_graph:
        node._release()
    if _state.anomaly and _state.anomaly_check_nan:
        _check_nan(node, out)
    _distribute(node, out, buffers)


_RUN_NODE = _run_node     # the profiler rebinds ``_run_node`` to a recording one


def _distribute(node, out, buffers):
    """Put each gradient a node produced, validated, into the buffer of the node it feeds."""
    metas = node._input_meta
    for i, ((nxt, nr), g) in enumerate(zip(node.next_functions, out)):
        if nxt is None or g is None:
            continue
        if metas is not None:
            meta = metas[i]
            if meta is not None and (g._data.shape != meta[0] or g._data.dtype != meta[1].np):
                g = _validate(node, i, g, meta)
        buf = buffers.get(nxt)
        if buf is None:
            buf = buffers[nxt] = [None] * nxt.num_outputs
        buf[nr] = g if buf[nr] is None else buf[nr] + g if not buf[nr].is_sparse \
            else _sparse_sum(buf[nr], g)


def _sparse_sum(old, g):
    """torch's InputBuffer sum where the held gradient is sparse: ``g + old`` outside grad
    mode (``old + g`` inside it)."""
    return old + g if _state.enabled else g + old


def _check_nan(node, out):
    """Anomaly mode: torch's error when a node returned NaN in one of its outputs."""
    for i, g in enumerate(out):
        if g is not None and g._data.dtype.kind in "fc" and xp.isnan(g._data).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th "
                               "output.")


del annotations  # keep dir() to torch's names
