"""Fixes found by the ninth batch of real-style programs (``tests/programs``), each checked
against torch: ``torch.utils._pytree`` exists (it was missing; ``torch.func`` had a private
flattener of its own, now the one home): TreeSpec and its printing, the node types torch
registers (named tuples as one type, ``OrderedDict``, ``defaultdict``, ``deque``,
``torch.Size``, the ``torch.return_types`` structseqs), ``tree_map`` over several trees with
torch's mismatch errors, ``tree_map_only``, key paths and ``keystr``, and
``register_pytree_node``."""

from __future__ import annotations

import collections
import dataclasses

import pytest

import ember

from .helpers import errors_alike, torch

Pair = collections.namedtuple("Pair", ["left", "right"])


def _tree(L):
    return {
        "t": L.ones(2),
        "meta": {"ids": [3, 7], "flags": (True, None)},
        "pair": Pair(L.arange(3), 2.5),
        "od": collections.OrderedDict([("z", 1), ("a", L.tensor(2.0))]),
        "dd": collections.defaultdict(list, {"k": 4}),
        "dq": collections.deque([5, 6], maxlen=4),
        "size": L.Size([2, 3]),
        "max": L.tensor([[1.0, 3.0], [4.0, 2.0]]).max(1),
    }


def _pytree(L):
    import importlib
    return importlib.import_module(f"{L.__name__}.utils._pytree")


def _show(x):
    return repr(x.tolist()) if hasattr(x, "tolist") and not isinstance(x, tuple) else repr(x)


def test_flatten_spec_and_printing_match_torch():
    got = []
    for L in (torch, ember):
        p = _pytree(L)
        leaves, spec = p.tree_flatten(_tree(L))
        got.append(([_show(x) for x in leaves], repr(spec).replace(L.__name__, "LIB"),
                    spec.num_leaves, spec.num_nodes, spec.num_children, spec.is_leaf(),
                    p.treespec_pprint(spec), str(p.tree_structure(L.ones(1)))))
    assert got[0] == got[1]


def test_unflatten_rebuilds_every_node_type_as_torch_does():
    got = []
    for L in (torch, ember):
        p = _pytree(L)
        tree = _tree(L)
        leaves, spec = p.tree_flatten(tree)
        back = p.tree_unflatten(leaves, spec)
        got.append((type(back["pair"]) is Pair, type(back["od"]).__name__,
                    back["dd"].default_factory, back["dq"].maxlen, type(back["size"]).__name__,
                    type(back["max"]) is type(tree["max"]), p.tree_structure(back) == spec,
                    spec == p.tree_structure(tree), hash(spec) == hash(p.tree_structure(tree))))
    assert got[0] == got[1]


def test_key_paths_match_torch():
    got = []
    for L in (torch, ember):
        p = _pytree(L)
        paths = p.tree_leaves_with_path(_tree(L))
        got.append([(p.keystr(k), repr(k)) for k, _ in paths])
    assert got[0] == got[1]


def test_tree_map_variants_match_torch():
    got = []
    for L in (torch, ember):
        p = _pytree(L)
        trees = [{"a": (1, 2.0), "b": [L.tensor(3.0)]}, {"b": [L.tensor(1.0)], "a": (10, 20)}]
        summed = p.tree_map(lambda x, y: x + y, *trees)
        only = p.tree_map_only(int, lambda v: -v, trees[0])
        pair = p.tree_map(lambda x, y: (x, y), [1, 2], [[3, 4], {"q": 5}])  # prefix subtrees
        with_path = p.tree_map_with_path(lambda k, v, p=p: p.keystr(k), trees[0])
        got.append((repr(summed), repr(only), repr(pair), repr(with_path),
                    p.tree_all(lambda v: v is not None, trees[0]),
                    p.tree_any_only(float, lambda v: v > 1, trees[0])))
    assert got[0] == got[1]


@pytest.mark.parametrize("case", range(5))
def test_structure_mismatch_errors_match_torch(case):
    def fn(L):
        p = _pytree(L)
        if case == 0:
            p.tree_map(lambda a, b: a, [1, 2], [1, 2, 3])
        elif case == 1:
            p.tree_map(lambda a, b: a, {"a": 1}, {"b": 1})
        elif case == 2:
            p.tree_map(lambda a, b: a, (1, 2), [1, 2])
        elif case == 3:
            p.tree_unflatten([1, 2], p.tree_structure((1, 2, 3)))
        else:
            p.tree_map(lambda a, b: a, Pair(1, 2), collections.namedtuple("Other", "x y")(1, 2))
    errors_alike(fn)


def test_register_pytree_node_matches_torch():
    got = []
    for L in (torch, ember):
        p = _pytree(L)

        @dataclasses.dataclass
        class State:
            step: int
            w: object

        p.register_pytree_node(State, lambda s: ([s.w], s.step),
                               lambda ch, step: State(step, ch[0]))
        leaves, spec = p.tree_flatten([State(3, L.tensor([1.0, 2.0]))])
        doubled = p.tree_map(lambda t: t * 2, State(1, L.tensor(4.0)))
        try:
            p.register_pytree_node(State, lambda s: ([], None), lambda c, x: None)
        except ValueError as e:
            again = str(e).split(" is already")[1]
        try:
            p.tree_leaves_with_path(State(1, 2))
        except ValueError as e:
            nokeys = str(e).split("type: ")[1].split(". ")[1]
        got.append((len(leaves), repr(spec).split("State")[1], doubled.w.item(), again, nokeys))
    assert got[0] == got[1]


def test_func_transforms_still_flatten_namedtuples_and_dicts():
    for L in (torch, ember):
        out = L.func.vmap(lambda d: Pair(d["x"] * 2, d["x"].sum()))({"x": L.ones(3, 2)})
        assert type(out) is Pair and out.left.shape == (3, 2) and out.right.tolist() == [2.0] * 3
    errors_alike(lambda L: L.func.vmap(lambda a, b: a, in_dims=(0,))(L.ones(2), L.ones(2)))


@pytest.mark.parametrize("seed", range(4))
def test_conv_with_parameter_weights_takes_the_slow_path_gradient(seed):
    """float64 convolutions run ATen's slow path; their input and weight gradients are its
    formulas when the weight is an ``nn.Parameter`` too (a module's), not only a plain
    tensor: Grad-CAM saliency maps differed in the last bits."""
    import numpy as np

    rs = np.random.RandomState(seed)
    data = [rs.randn(1, 4, 4, 4), rs.randn(6, 4, 3, 3), rs.randn(6), rs.randn(1, 6, 4, 4)]
    grads = []
    for L in (torch, ember):
        x, w, b, g = (L.tensor(a) for a in data)
        conv = L.nn.Conv2d(4, 6, 3, padding=1).double()
        with L.no_grad():
            conv.weight.copy_(w)
            conv.bias.copy_(b)
        x.requires_grad_(True)
        conv(x).backward(g)
        grads.append([t.numpy() for t in (x.grad, conv.weight.grad, conv.bias.grad)])
    for a, e in zip(*grads):
        np.testing.assert_array_equal(e, a)


@pytest.mark.parametrize("call", ["method_std", "function_var", "var_mean", "std_dim"])
def test_degrees_of_freedom_warning_points_at_the_callers_line(call):
    """torch's ``TORCH_WARN`` from C++ is attributed to the Python line that called the op;
    Ember's pointed into its own reduction module."""
    import warnings

    seen = []
    for L in (torch, ember):
        x = L.ones(1)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            if call == "method_std":
                x.std(); line = __import__("inspect").currentframe().f_lineno  # noqa: E702
            elif call == "function_var":
                L.var(x); line = __import__("inspect").currentframe().f_lineno  # noqa: E702
            elif call == "var_mean":
                L.var_mean(x); line = __import__("inspect").currentframe().f_lineno  # noqa: E702
            else:
                L.ones(3, 1).std(1); line = __import__("inspect").currentframe().f_lineno  # noqa: E702
        msgs = [m for m in w if "degrees of freedom" in str(m.message)]
        assert msgs, L.__name__
        seen.append([(m.filename, m.lineno == line, str(m.message).split(" (Triggered")[0])
                     for m in msgs])
    assert seen[0] == seen[1]
    assert seen[1][0][0] == __file__


def _seeded(L, cls, *args, seed=0, **kwargs):
    L.manual_seed(seed)
    return cls(L)(*args, **kwargs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("masks", ["none", "attn", "padding", "both", "float_causal"])
@pytest.mark.parametrize("weights", ["none", "average", "per_head"])
def test_multihead_attention_inference_fast_path_is_torchs(dtype, masks, weights):
    """An eval-mode, batch-first self-attention without grad runs torch's native kernel
    (``_native_multi_head_attention``: bias added after the projection, ``q`` scaled, bmm,
    ATen's masked softmax): Ember's slow path differed in the last bits."""
    import numpy as np

    outs = []
    for L in (torch, ember):
        L.manual_seed(0)
        m = L.nn.MultiheadAttention(16, 4, batch_first=True, dtype=getattr(L, dtype)).eval()
        x = L.randn(3, 5, 16, dtype=getattr(L, dtype))
        am = L.ones(5, 5, dtype=L.bool).triu(1)
        kp = L.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
        kw = {"need_weights": weights != "none", "average_attn_weights": weights == "average"}
        if masks in ("attn", "both"):
            kw["attn_mask"] = am
        if masks in ("padding", "both"):
            kw["key_padding_mask"] = kp
        if masks == "float_causal":
            kw["attn_mask"] = L.nn.Transformer.generate_square_subsequent_mask(
                5, dtype=getattr(L, dtype))
        with L.no_grad():
            out, w = m(x, x, x, **kw)
        outs.append((out.numpy(), None if w is None else w.numpy()))
    np.testing.assert_array_equal(outs[1][0], outs[0][0])
    if outs[0][1] is None:
        assert outs[1][1] is None
    else:
        np.testing.assert_array_equal(outs[1][1], outs[0][1])


@pytest.mark.parametrize("activation", ["relu", "gelu"])
@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("padding", [False, True])
def test_transformer_encoder_layer_inference_fast_path_is_torchs(activation, norm_first, causal,
                                                                 padding):
    import numpy as np

    outs = []
    for L in (torch, ember):
        L.manual_seed(1)
        layer = L.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1, activation=activation,
                                             norm_first=norm_first, batch_first=True)
        enc = L.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False).eval()
        x = L.randn(2, 6, 16)
        mask = L.nn.Transformer.generate_square_subsequent_mask(6) if causal else None
        kp = L.tensor([[False] * 6, [False] * 4 + [True] * 2]) if padding else None
        with L.no_grad():
            outs.append(enc(x, mask=mask, src_key_padding_mask=kp).numpy())
        outs.append(enc(x, mask=mask, src_key_padding_mask=kp).detach().numpy())  # slow path
    np.testing.assert_array_equal(outs[2], outs[0])
    np.testing.assert_array_equal(outs[3], outs[1])


def test_mha_fast_path_switch_and_masked_softmax_match_torch():
    import numpy as np

    from ember.nn._native_attention import masked_softmax

    rs = np.random.RandomState(3)
    x = rs.randn(2, 3, 4, 4).astype(np.float32)
    for mask, mask_type in [(rs.rand(4, 4) > 0.6, 0), (rs.rand(2, 4) > 0.5, 1),
                            (rs.rand(2, 3, 4, 4) > 0.5, 2)]:
        mask[0] = True                                               # a wholly masked row
        want = torch._masked_softmax(torch.tensor(x), torch.tensor(mask), 3, mask_type).numpy()
        m = mask[:, None, None, :] if mask_type == 1 else mask
        np.testing.assert_array_equal(masked_softmax(x, m), want)
    outs = []
    for L in (torch, ember):
        assert L.backends.mha.get_fastpath_enabled()
        L.backends.mha.set_fastpath_enabled(False)
        try:
            L.manual_seed(0)
            m = L.nn.MultiheadAttention(8, 2, batch_first=True).eval()
            x = L.randn(2, 3, 8)
            with L.no_grad():
                outs.append(m(x, x, x)[0].numpy())
        finally:
            L.backends.mha.set_fastpath_enabled(True)
    np.testing.assert_array_equal(outs[1], outs[0])


def test_float_mask_beside_double_attention_is_added_as_double():
    """``scaled_dot_product_attention`` takes a float32 mask beside float64 inputs (torch
    allows "bool or float"; Ember raised), and its gradients are the flash kernel's."""
    import numpy as np

    rs = np.random.RandomState(0)
    q0, m0 = rs.randn(2, 2, 5, 8), rs.randn(5, 5).astype(np.float32)
    res = []
    for L in (torch, ember):
        q = L.tensor(q0, requires_grad=True)
        out = L.nn.functional.scaled_dot_product_attention(q, q, q, attn_mask=L.tensor(m0))
        out.sum().backward()
        res.append((out.detach().numpy(), q.grad.numpy()))
    for a, e in zip(*res):
        np.testing.assert_array_equal(e, a)
    errors_alike(lambda L: L.nn.functional.scaled_dot_product_attention(
        L.ones(1, 1, 2, 4), L.ones(1, 1, 2, 4), L.ones(1, 1, 2, 4),
        attn_mask=L.zeros(2, 2, dtype=L.float64)))
