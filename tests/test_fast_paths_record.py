"""The written-out recording and backward functions, and addmm's linear-layer case, give what
torch gives and what the general paths give: values to the bit, graphs, saved values.

Each op's ``record`` (its edges, its input metadata and one save function per set of inputs
that require grad) and ``direct`` (its raw formulas read from the node) are generated from
its entry; they are compared here on the inputs that select each save function, on saved
values torch exposes (``_saved_*``), and on the gradients they lead to.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import ember
from ember._ops import linalg as L
from ember._ops import registry as R


def _bits(t):
    a = t.detach().numpy() if isinstance(t, torch.Tensor) else t._data
    return a.dtype.str, a.shape, np.ascontiguousarray(a).tobytes()


def _pair(shape, dtype, seed, requires_grad):
    a = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return (ember.tensor(a, requires_grad=requires_grad),
            torch.tensor(a, requires_grad=requires_grad))


def _saved(node, names):
    out = {}
    for n in names:
        try:
            v = getattr(node, n)
        except AttributeError:
            out[n] = "missing"
            continue
        out[n] = _bits(v) if isinstance(v, (ember.Tensor, torch.Tensor)) else v
    return out


_ADDMM_SAVED = ("_saved_mat1", "_saved_mat2", "_saved_mat1_sym_sizes",
                "_saved_mat1_sym_strides", "_saved_mat2_sym_sizes", "_saved_mat2_sym_strides",
                "_saved_alpha", "_saved_beta")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("grads", [(True, True, True), (False, True, False),
                                   (True, False, False), (False, False, True)])
@pytest.mark.parametrize("bias_shape", [(5,), (4, 5)])
def test_linear_layer_addmm_matches_torch_and_the_general_path(dtype, grads, bias_shape,
                                                               monkeypatch):
    """Each subset of inputs that require grad selects its own save function: the result,
    the graph, the gradients and the values it saves are torch's (ember saves only what the
    formulas of those inputs read), and all of it the general path's."""
    runs = []
    for common in (True, False):
        if not common:
            monkeypatch.setattr(L, "_addmm_common", lambda *a: None)
        (b, tb), (x, tx), (w, tw) = (_pair(s, dtype, k, g) for k, (s, g) in
                                     enumerate(zip((bias_shape, (4, 3), (5, 3)), grads)))
        outs = []
        for lib, bias, inp, weight in ((ember, b, x, w), (torch, tb, tx, tw)):
            y = lib.nn.functional.linear(inp, weight, bias) if len(bias_shape) == 1 else \
                lib.addmm(bias, inp, weight.t())
            node = y.grad_fn
            edges = None if node is None else [
                None if f is None else f.name() for f, _ in node.next_functions]
            gs = ()
            saved = None
            if y.requires_grad:
                saved = _saved(node, _ADDMM_SAVED)
                y.backward(lib.ones_like(y) * 0.5)
                gs = tuple(None if t.grad is None else _bits(t.grad)
                           for t in (bias, inp, weight))
            outs.append((_bits(y), None if node is None else node.name(), edges, gs, saved))
        assert outs[0][:4] == outs[1][:4]
        if outs[0][4] is not None:      # what ember saves (a subset of torch's) is torch's
            assert {k: v for k, v in outs[0][4].items() if v != "missing"} == \
                {k: v for k, v in outs[1][4].items() if outs[0][4][k] != "missing"}
        runs.append(outs[0])
    assert runs[0] == runs[1]


def test_linear_layer_addmm_keeps_the_general_cases():
    """Cases outside the common one (another dtype, a mismatched bias, beta and alpha as
    tensors, out=) take the general path, with torch's results and errors."""
    x = ember.ones(2, 3)
    w = ember.ones(4, 3)
    with pytest.raises(RuntimeError, match="expected|must have the same dtype"):
        ember.addmm(ember.ones(4, dtype=ember.float64), x, w.t())
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        ember.addmm(ember.ones(4), x, w)
    half = ember.addmm(ember.ones(4).half(), x.half(), w.t().half())
    assert half.dtype is ember.float16
    out = ember.empty(2, 4)
    ember.addmm(ember.ones(4), x, w.t(), out=out)
    assert out.tolist() == torch.addmm(torch.ones(4), torch.ones(2, 3),
                                       torch.ones(4, 3).t()).tolist()


def test_recorded_multi_output_and_in_place_ops_match_torch():
    """A multi-output op, an in-place op (saving the original self) and a view keep torch's
    node names, output numbers and saved values."""
    (x, tx) = _pair((3, 4), "float32", 0, True)
    got = []
    for t in (x, tx):
        v, i = (t * 1.5).max(1)
        y = (t * 2.0)
        y.mul_(t)
        z = t.t()
        node = y.grad_fn
        got.append((v.grad_fn.name(), i.grad_fn, node.name(), _bits(node._saved_self),
                    _bits(node._saved_other), z.grad_fn.name(), v.grad_fn._saved_dim))
        (v.sum() + y.sum() + z.sum()).backward()
        got[-1] += (_bits(t.grad),)
    assert got[0] == got[1]


def test_record_saves_nothing_when_no_formula_reads_anything():
    """An op whose formulas read only the gradient keeps no saved values (``_saved`` None),
    and a node made for a view of a leaf under no_grad keeps its edge to nothing."""
    a = ember.ones(3, requires_grad=True)
    y = a + 1.0
    assert y.grad_fn._saved is None and y.grad_fn._args is None
    with ember.no_grad():
        v = a[:2]
    w = v * 2.0
    with torch.no_grad():
        tv = torch.ones(3, requires_grad=True)[:2]
    tw = tv * 2.0
    assert w.grad_fn.name() == tw.grad_fn.name() == "MulBackward0"
    assert [f for f, _ in w.grad_fn.next_functions] == [f for f, _ in tw.grad_fn.next_functions]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_direct_backward_declines_what_the_general_path_takes(dtype):
    """The direct backward returns None (the general path runs) for a gradient of another
    class or dtype, and for saved tensors with hooks; its gradients are otherwise the
    environment path's (``create_graph`` runs the ember formulas)."""
    x = ember.tensor(np.linspace(-2, 2, 12, dtype=dtype).reshape(3, 4), requires_grad=True)
    y = (x * x).tanh()
    node = y.grad_fn
    op = node._op
    assert op.direct(node, None) is None
    assert op.direct(node, ember.ones(3, 4, dtype=ember.int64)) is None
    out = op.direct(node, ember.ones(3, 4, dtype=getattr(ember, dtype)))
    (g,) = ember.autograd.grad(y, x, ember.ones_like(y), retain_graph=True)
    (g2,) = ember.autograd.grad(y, x, ember.ones_like(y), create_graph=True)
    assert _bits(g) == _bits(g2) and out is not None
    with ember.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        h = x.tanh()
    assert h.grad_fn._op.direct(h.grad_fn, ember.ones(3, 4, dtype=getattr(ember, dtype))) \
        is None


def test_sgd_group_settings_read_once_match_torch():
    """SGD takes each gradient as it is only without maximize and weight decay: every
    combination of them, momentum, dampening and nesterov gives torch's bits."""
    settings = [dict(momentum=0.9), dict(momentum=0.9, maximize=True),
                dict(momentum=0.9, weight_decay=0.1), dict(momentum=0.9, nesterov=True),
                dict(momentum=0.5, dampening=0.3), dict()]
    for kw in settings:
        res = []
        for lib in (ember, torch):
            lib.manual_seed(0)
            p = lib.tensor(np.linspace(-1, 1, 37, dtype=np.float32), requires_grad=True)
            q = lib.tensor(np.linspace(2, 3, 5, dtype=np.float64), requires_grad=True)
            opt = lib.optim.SGD([p, q], lr=0.1, **kw)
            for k in range(3):
                opt.zero_grad()
                ((p * p).sum() * (k + 1) + (q * q * q).sum()).backward()
                opt.step()
            res.append((_bits(p), _bits(q), p._version))
        assert res[0] == res[1], kw


def test_sleef_exp_and_log_steps_are_their_references():
    """The vector steps of Sleef's expf and logf (NumPy passes with the widening folded into
    the products and sums) give the step-by-step references' bits, on a band of consecutive
    floats and on scattered ones, specials included."""
    from ember._ops import _sleef
    start = np.float32(-3.0).view(np.int32)
    band = np.arange(start, start + (1 << 17), dtype=np.int32).view(np.float32)
    rng = np.random.default_rng(5)
    wide = (rng.standard_normal(1 << 15) * 40).astype(np.float32)
    for x in (band[:1 << 15], band[1 << 15:], wide):
        assert np.array_equal(_sleef._expf_chunk(x).view(np.int32),
                              _sleef._expf_ref(x).view(np.int32))
    pos = np.abs(wide) + np.float32(1e-3)
    pos[:4] = (0.0, np.inf, 1e-40, np.float32(0.75 * 2.0 ** 127))
    for x in (pos, np.abs(band[:1 << 15])):
        got, want = _sleef._logf_chunk(x), _sleef._logf_ref(x)
        assert np.array_equal(got.view(np.int32), want.view(np.int32))


def _node_state(node):
    """What a recorded node holds: its edges, input metadata, saved and kept values."""
    def saved(v):
        if isinstance(v, R.SavedTensor):
            return ("saved", id(v.tensor), None if v.data is None else v.data.tobytes(),
                    v.version, v.is_output, v.requires_grad, v.output_nr)
        return ("value", getattr(v, "value", v))
    return (type(node).__name__, [(id(f), nr) for f, nr in node.next_functions],
            node._input_meta, node._nout,
            None if node._saved is None else {k: saved(v) for k, v in node._saved.items()},
            node._args)


@pytest.mark.parametrize("case", ["addmm", "mul", "mul_number", "tanh", "sub"])
@pytest.mark.parametrize("needs", [(True, True), (True, False), (False, True)])
def test_written_out_record_and_backward_match_the_plan_readers(case, needs):
    """An op's first calls read its save plan (``_record_plain``, ``_apply_raw_plain``); later
    ones run its written-out functions (``_recorder``, ``_direct_applier``): both make the
    same node and the same gradients, for each set of inputs that require grad."""
    x = _pair((4, 3), "float32", 0, needs[0])[0]
    y = _pair((4, 3), "float32", 1, needs[1])[0]
    w = _pair((5, 3), "float32", 2, True)[0]
    b = _pair((5,), "float32", 3, needs[1])[0]
    from ember._ops import pointwise, unary
    ops = {"addmm": (L._addmm, (b, x, w.t(), 1, 1)),
           "mul": (pointwise.mul, (x, y)), "mul_number": (pointwise.mul, (x, 2.5)),
           "tanh": (unary.tanh, (x,)), "sub": (pointwise.sub, (x, y, 2))}
    op, args = ops[case]
    if not any(isinstance(a, ember.Tensor) and a.requires_grad
               for a in (args[i] for i in op.diff_idx)):
        pytest.skip("nothing requires grad")
    with ember.no_grad():
        res = op.kernel(*[a._data if isinstance(a, ember.Tensor) else a for a in args])
    results = tuple(ember.Tensor._wrap(r) for r in (res if isinstance(res, tuple) else (res,)))
    plain = R._record_plain(op, args, results)
    written = R._recorder(op)(args, results)
    assert _node_state(plain) == _node_state(written)
    if op.raw is None:          # (no raw formulas: backward takes the environment)
        return
    grad = ember.ones_like(results[0]) * 0.75
    got = [R._apply_raw_plain(node, op, grad) for node in (plain, written)]
    got.append(R._direct_applier(op)(plain, grad))
    bits = [None if g is None else [None if t is None else _bits(t) for t in g] for g in got]
    assert bits[0] == bits[1] == bits[2]
