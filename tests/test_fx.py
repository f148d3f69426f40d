"""torch.fx: each program runs once with torch and once with ember and must print the same
text (generated code, graphs, node listings, errors) and compute the same values."""

from __future__ import annotations

import contextlib
import copy
import io
import linecache
import math
import operator
import os
import pathlib
import pickle
import re

import numpy as np
import pytest

import ember
from tests.helpers import torch

LIBS = (torch, ember)


def _clamp01(x):
    return x.clamp(0, 1)


# fx.wrap must be called at a module's top level; both libraries patch this module's global
torch.fx.wrap("_clamp01")
ember.fx.wrap("_clamp01")


# activations held in a dict at module level (transformers' ACT2FN)
_TORCH_ACT = {"gelu": torch.nn.functional.gelu, "silu": torch.nn.functional.silu}
_EMBER_ACT = {"gelu": ember.nn.functional.gelu, "silu": ember.nn.functional.silu}


def _same_text(program):
    """Run ``program(lib, out)`` for both libraries; the printed lines must agree."""
    texts = []
    for lib in LIBS:
        out: list[str] = []
        lib.manual_seed(0)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            program(lib, out)
        texts.append(buf.getvalue() + "\n".join(str(o) for o in out))
    assert texts[0] == texts[1]
    return texts[1]


def _cnn(lib):
    nn, F = lib.nn, lib.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3)
            self.bn = nn.BatchNorm2d(4)
            self.fc = nn.Linear(4, 4)
            self.param = nn.Parameter(lib.ones(4))

        def forward(self, x, y=None):
            x = F.relu(self.bn(self.conv(x)))
            x = lib.flatten(F.adaptive_avg_pool2d(x, 1), 1)
            x = self.fc(x) + self.param
            x = lib.add(x, 1.0) * 2 - x.sum(dim=-1, keepdim=True)
            _ = x.shape[0], x.size(1)
            a = x[:, 0:1] / math.sqrt(2.0)
            w = F.linear(x, self.fc.weight)
            c = lib.cat([x, a, -x], dim=1).relu()
            d = c.view(-1).unsqueeze(0).t() @ lib.ones(1, 2)
            return c, {"w": w, "d": lib.sigmoid(d), "b": x.dtype}
    return Net()


def test_trace_cnn_code_graph_and_nodes():
    def program(lib, out):
        net = _cnn(lib)
        gm = lib.fx.symbolic_trace(net)
        out += [gm.code, gm.graph, gm, type(gm).__name__]
        for n in gm.graph.nodes:
            target = n.target if isinstance(n.target, str) else n._pretty_print_target(n.target)
            out.append((n.op, target, n.args, n.kwargs, n.name, list(n.users),
                        n.all_input_nodes, n.format_node()))
        x = lib.randn(2, 3, 6, 6)
        got, ref = gm(x), net(x)
        out.append(np.array_equal(got[0].detach().numpy(), ref[0].detach().numpy()))
        out.append(sorted(dict(gm.named_parameters())))
        out.append(gm.fc.weight is net.fc.weight)
        try:
            gm.graph.print_tabular()
        except ImportError as e:
            out.append(type(e).__name__)
    _same_text(program)


def test_replace_add_with_mul_and_edit_graph():
    def program(lib, out):
        class M(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = lib.nn.Linear(4, 4)

            def forward(self, x):
                y = lib.add(x, x)
                return lib.relu(lib.add(self.lin(y), 1)) + y.mean()

        m = M()
        gm = lib.fx.symbolic_trace(m)
        x = lib.randn(3, 4)
        out.append(lib.equal(gm(x), m(x)))
        for node in gm.graph.nodes:
            if node.op == "call_function" and node.target == lib.add:
                node.target = lib.mul
        gm.recompile()
        y = lib.mul(x, x)
        ref = lib.relu(lib.mul(m.lin(y), 1)) + y.mean()
        out += [gm.code, lib.equal(gm(x), ref)]
        for node in gm.graph.nodes:
            if node.op == "call_module":
                with gm.graph.inserting_after(node):
                    new = gm.graph.call_function(lib.neg, (node,))
                    node.replace_all_uses_with(new)
                    new.args = (node,)
        gm.graph.lint()
        gm.recompile()
        out += [gm.code, gm.graph]
        with gm.graph.inserting_before(gm.graph.output_node()):
            gm.graph.call_function(lib.sin, (next(iter(gm.graph.nodes)),))
        out.append(gm.graph.eliminate_dead_code())
        gm.recompile()
        out.append(gm.graph)
        try:
            gm.graph.erase_node(next(iter(gm.graph.nodes)))
        except RuntimeError as e:
            out.append(e)
    _same_text(program)


def test_graph_by_hand_proxy_and_maps():
    def program(lib, out):
        fx = lib.fx
        g = fx.Graph()
        a = g.placeholder("a")
        b = g.placeholder("b", default_value=2)
        c = g.call_function(operator.add, (a, b))
        d = g.call_method("relu", (c,))
        e = g.call_function(lib.cat, ([c, d],), {"dim": 0})
        g.output((e, {"c": c}))
        hm = fx.GraphModule(lib.nn.Module(), g)
        res = hm(lib.tensor([-1.0, 1.0]))
        out += [g, hm.code, res[0], res[1]["c"], type(hm).__name__, hm]
        out += [[n.name for n in c.users], c.all_input_nodes, c.prev, c.next, d.format_node()]
        out.append(fx.node.map_arg((a, [b, {"k": c}]), lambda n: n.name))
        out.append(fx.node.map_aggregate((1, [2, 3]), lambda v: v * 10))
        d.replace_input_with(c, a)
        out.append(d.format_node())
        g2 = fx.Graph()
        p = fx.Proxy(g2.placeholder("x"))
        q = (p * 2 + 1).relu()[0]
        g2.output(q.node)
        out += [g2, repr(p), repr(q)]
        tracer = fx.proxy.GraphAppendingTracer(g2)
        r = fx.Proxy(next(iter(g2.nodes)), tracer)
        out.append((abs(r) - 1).node.format_node())
        hm2 = fx.GraphModule({"w": lib.ones(2)}, _get_attr_graph(lib))
        out += [hm2.code, hm2(lib.ones(2)), dict(hm2.named_buffers())]
        out += [hm2.add_submodule("a.b", lib.nn.ReLU()), hm2.add_submodule("w.x", lib.nn.ReLU()),
                hm2.delete_submodule("a.c"), hm2.delete_submodule("w"), hm2]
        out.append(hm2.delete_submodule("a.b"))
        out.append([n.name for n in reversed(g.nodes)])
        e.prepend(d)        # move d after e's position: before e
        c.append(e)         # and e right after c
        out += [[n.name for n in g.nodes], len(g.nodes)]
        try:
            g.lint()
        except RuntimeError as err:
            out.append(str(err).splitlines()[0])
    _same_text(program)


def _get_attr_graph(lib):
    g = lib.fx.Graph()
    x = g.placeholder("x")
    g.output(g.call_function(operator.mul, (x, g.get_attr("w"))))
    return g


def test_function_trace_errors_and_concrete_args():
    def program(lib, out):
        fx = lib.fx

        def f(x, y):
            return lib.sigmoid(x) * y.sum() + math.sqrt(2) - lib.exp(y)[0]
        gf = fx.symbolic_trace(f)
        out += [gf.code, gf, gf(lib.ones(2), lib.ones(2))]

        def iterate(x):
            for _ in x:
                pass

        def length(x):
            return len(x)

        def branch(x):
            return x if x.sum() > 0 else -x
        for fn in (iterate, length, branch):
            try:
                fx.symbolic_trace(fn)
            except Exception as err:   # noqa: BLE001
                out.append((type(err).__name__, str(err)))

        def unpack(x):
            a, b = x
            return a * b

        def flag(x, flag):
            return x * 2 if flag else x

        def mask(x, mask=None):
            return x * 2 if mask is None else x * mask

        def star(x, *args, **kwargs):
            return x + args[0]
        out.append(fx.symbolic_trace(unpack).code)
        gflag = fx.symbolic_trace(flag, concrete_args={"flag": True})
        out += [gflag.code, gflag(lib.ones(2), True)]
        try:
            gflag(lib.ones(2), False)
        except AssertionError as err:
            out.append(err)
        out.append(fx.symbolic_trace(mask, concrete_args={"mask": None}).code)
        out.append(fx.symbolic_trace(mask, concrete_args={"mask": fx.PH}).code)
        gstar = fx.symbolic_trace(star)
        out += [gstar.code, gstar(lib.ones(2), lib.ones(2))]
    _same_text(program)


def test_recorded_call_forms():
    """The targets and arguments torch records for its functions (builtins as written,
    Python functions with the arguments handed to torch_function)."""
    def program(lib, out):
        F = lib.nn.functional

        def f(x, w, idx):
            return [
                F.max_pool2d(x, 2), F.avg_pool2d(x, 2), F.dropout(x, 0.1),
                F.batch_norm(x, None, None, training=True), F.softmax(x, dim=1),
                F.log_softmax(x, 1), F.linear(x, w), F.gelu(x), F.silu(x), F.leaky_relu(x, 0.2),
                F.layer_norm(x, (4,)), F.interpolate(x, scale_factor=2), F.pad(x, (1, 1)),
                F.normalize(x, dim=1), F.cross_entropy(x.flatten(1), idx), F.mse_loss(x, x),
                F.embedding(idx, w), F.one_hot(idx, 3), F.hardtanh(x), F.elu(x), F.tanh(x),
                F.sigmoid(x), F.adaptive_max_pool2d(x, 1), F.scaled_dot_product_attention(x, x, x),
                lib.split(x, 1), lib.chunk(x, 2), lib.einsum("ij,jk->ik", w, w),
                lib.special.erf(x), lib.linalg.norm(x), lib.fft.fft(x), lib.where(x > 0, x, 0.0),
                lib.norm(x), lib.max(x, 1), lib.clamp(x, min=0),
                lib.meshgrid(idx, idx, indexing="ij"),
                lib.tensordot(w, w, dims=1), lib.cdist(w, w), lib.std_mean(x, 1), F.glu(x),
                F.softplus(x), F.group_norm(x, 2), F.unfold(x, 2), F.cosine_similarity(x, x),
                F.kl_div(x, x, reduction="batchmean"), lib.conv2d(x, w.view(4, 1, 1, 1)),
            ]
        out.append(lib.fx.symbolic_trace(f).code)
    _same_text(program)


def _fuse_conv_bn_eval(lib, conv, bn):
    fused = copy.deepcopy(conv)
    b = conv.bias if conv.bias is not None else lib.zeros_like(bn.running_mean)
    inv = lib.rsqrt(bn.running_var + bn.eps)
    with lib.no_grad():
        fused.weight = lib.nn.Parameter(conv.weight * (bn.weight * inv).reshape(-1, 1, 1, 1))
        fused.bias = lib.nn.Parameter((b - bn.running_mean) * inv * bn.weight + bn.bias)
    return fused


def _blocks(lib):
    nn, F = lib.nn, lib.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, padding=1, bias=False)
            self.bn = nn.BatchNorm2d(8)

        def forward(self, x):
            return F.relu(self.bn(self.conv(x)))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.b1 = Block()
            self.seq = nn.Sequential(nn.Conv2d(8, 4, 1), nn.BatchNorm2d(4), nn.ReLU())
            self.head = nn.Linear(4, 3)

        def forward(self, x):
            x = _clamp01(self.seq(self.b1(x)))
            x = lib.mean(x, dim=(2, 3))
            return F.softmax(self.head(x), dim=-1), F.dropout(x, 0.5, training=False)
    return Block, Net().eval()


def test_fuse_conv_bn_interpreter_transformer_and_leaves():
    def program(lib, out):
        nn, F, fx = lib.nn, lib.nn.functional, lib.fx
        Block, net = _blocks(lib)
        x = lib.randn(2, 3, 6, 6)
        gm = fx.symbolic_trace(net)
        out += [gm.code, gm.graph]
        modules = dict(gm.named_modules())
        for node in list(gm.graph.nodes):
            if node.op == "call_module" and isinstance(modules[node.target], nn.BatchNorm2d):
                prev = node.args[0]
                if prev.op == "call_module" and isinstance(modules[prev.target], nn.Conv2d):
                    fused = _fuse_conv_bn_eval(lib, modules[prev.target], modules[node.target])
                    parent, _, name = prev.target.rpartition(".")
                    setattr(modules[parent] if parent else gm, name, fused)
                    node.replace_all_uses_with(prev)
                    gm.graph.erase_node(node)
        gm.graph.lint()
        gm.delete_all_unused_submodules()
        gm.recompile()
        with lib.no_grad():
            ref, got = net(x), gm(x)
        out += [gm, sorted(dict(gm.named_modules()))]
        out.append([float((a - b).abs().max()) < 1e-5 for a, b in zip(ref, got)])

        class FlopCounter(fx.Interpreter):
            def __init__(self, mod):
                super().__init__(mod)
                self.flops = {}

            def call_module(self, target, args, kwargs):
                result = super().call_module(target, args, kwargs)
                m = self.fetch_attr(target)
                if isinstance(m, nn.Conv2d):
                    self.flops[target] = 2 * result.numel() * (m.weight.numel() // m.out_channels)
                elif isinstance(m, nn.Linear):
                    self.flops[target] = 2 * result.numel() * m.in_features
                return result
        counter = FlopCounter(gm)
        with lib.no_grad():
            res = counter.run(x)
        out += [counter.flops, res[0].shape, lib.equal(res[0], got[0])]

        class Swap(fx.Transformer):
            def call_function(self, target, args, kwargs):
                if target is F.relu:
                    return super().call_function(lib.sigmoid, args[:1], {})
                return super().call_function(target, args, kwargs)
        tm = Swap(gm).transform()
        out += [tm.code, type(tm).__name__]

        class LeafTracer(fx.Tracer):
            def is_leaf_module(self, m, qualname):
                return isinstance(m, Block) or super().is_leaf_module(m, qualname)
        g = LeafTracer().trace(net)
        out += [g, fx.GraphModule(net, g).code]
        gm2 = copy.deepcopy(gm)
        out += [gm2.code == gm.code, type(gm2).__name__, str(gm2.graph) == str(gm.graph)]
    _same_text(program)


def test_shape_prop():
    def program(lib, out):
        nn, F = lib.nn, lib.nn.functional
        from_shape_prop = __import__(f"{lib.__name__}.fx.passes.shape_prop",
                                     fromlist=["ShapeProp"])

        class C(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(1, 2, 3, padding=1)
                self.pool = nn.MaxPool2d(2)

            def forward(self, x):
                return self.pool(F.relu(self.conv(x))).flatten(1), x.transpose(2, 3)
        gc = lib.fx.symbolic_trace(C())
        out.append(gc.print_readable(print_output=False))
        from_shape_prop.ShapeProp(gc).propagate(lib.randn(2, 1, 8, 8))
        out.append(gc.print_readable(print_output=False))
        out.append(gc.graph.python_code("self", verbose=True).src)
        for n in gc.graph.nodes:
            tm = n.meta.get("tensor_meta")
            out.append((n.name, n.op, n.meta.get("type").__name__))
            for t in (tm if isinstance(tm, tuple) and not hasattr(tm, "shape") else [tm]):
                if t is not None:
                    out.append((t.shape, t.dtype, t.stride, t.requires_grad, t.memory_format,
                                t.is_quantized, t.qparams))
    _same_text(program)


def test_buffers_constants_state_dict_and_meta():
    def program(lib, out):
        nn, fx = lib.nn, lib.fx

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.l = nn.Linear(3, 3)
                self.register_buffer("scale", lib.tensor(2.0))
                self.c = lib.arange(3.0)

            def forward(self, x, *, k=1):
                z = x.new_zeros(x.size(0), 3)
                y = x.view(x.size(0), -1) * self.scale + self.c
                return self.l(y) + z + k, lib.ones_like(x), x.new_ones(2).sum()
        gm = fx.symbolic_trace(M())
        out += [gm.code, gm.graph, sorted(gm.state_dict()), gm.training, gm.eval().training]
        x = lib.randn(2, 3)
        out.append(gm(x, k=2)[0].shape)
        gm3 = fx.symbolic_trace(M())
        gm3.load_state_dict(gm.state_dict())
        out.append(lib.equal(gm3(x)[0], gm(x)[0]))
        for n in gm.graph.nodes:
            stack = n.meta.get("nn_module_stack")
            out.append((n.name, n.type, sorted(n.meta),
                        None if stack is None else [(k, v[0], v[1].__name__)
                                                    for k, v in stack.items()]))
    _same_text(program)


def test_save_load_and_pickle():
    def program(lib, out):
        import pickle
        m = lib.nn.Sequential(lib.nn.Linear(3, 3), lib.nn.ReLU())

        def f(x):
            return lib.nn.functional.linear(x, lib.ones(2, 3)).relu() + 1
        for root in (m, f):
            gm = lib.fx.symbolic_trace(root)
            buf = io.BytesIO()
            lib.save(gm, buf)
            buf.seek(0)
            gm2 = lib.load(buf, weights_only=False)
            x = lib.randn(2, 3)
            out += [type(gm2).__name__, gm2.code == gm.code, str(gm2.graph) == str(gm.graph),
                    lib.equal(gm2(x), gm(x)), pickle.loads(pickle.dumps(gm))]
    _same_text(program)


def test_trace_through_graph_modules():
    def program(lib, out):
        F = lib.nn.functional
        inner = lib.fx.symbolic_trace(lib.nn.Sequential(lib.nn.Linear(3, 3), lib.nn.ReLU()))
        ginner = lib.fx.symbolic_trace(lambda x: _clamp01(F.gelu(lib.relu(x))) * 2)

        class Outer(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = inner
                self.g = ginner

            def forward(self, x):
                return self.g(self.inner(x)) + 1
        gm = lib.fx.symbolic_trace(Outer())
        out += [ginner.code, gm.code, gm(lib.ones(1, 3)).shape]
    _same_text(program)


def test_functions_held_in_attributes_and_dicts():
    def program(lib, out):
        nn, F = lib.nn, lib.nn.functional
        acts = _TORCH_ACT if lib is torch else _EMBER_ACT

        class MLP(nn.Module):
            def __init__(self, act):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.act = F.tanh if act == "tanh" else acts[act]

            def forward(self, x):
                held = _TORCH_ACT if lib is torch else _EMBER_ACT
                return self.act(self.fc(x)) + held["silu"](x)
        for a in ("gelu", "tanh"):
            out.append(lib.fx.symbolic_trace(MLP(a)).code)
        out.append(acts["gelu"] is F.gelu)
    _same_text(program)


def test_annotations_in_generated_code():
    def program(lib, out):
        from typing import List, Optional  # noqa: UP035

        class M(lib.nn.Module):
            def forward(self, x, n=2, ys=None, zs=None):
                return x * n
        # real objects, not the strings this module's future import would make of them
        M.forward.__annotations__ = {"x": lib.Tensor, "n": int,
                                     "ys": Optional[List[lib.Tensor]],  # noqa: UP006, UP045
                                     "zs": list[lib.Tensor] | None, "return": lib.Tensor}
        gm = lib.fx.symbolic_trace(M())
        out += [gm.code, gm.graph, gm(lib.ones(2))]
        out += [n.format_node() for n in gm.graph.nodes]
    _same_text(program)


def test_interpreter_errors_name_the_node():
    def program(lib, out):
        fx = lib.fx
        gm = fx.symbolic_trace(lambda x, w: lib.mm(x, w) + 1)
        try:
            fx.Interpreter(gm).run(lib.ones(2, 3), lib.ones(2, 3))
        except RuntimeError as e:
            out.append(repr(str(e)))
        g = fx.Graph()
        g.output(g.call_function(lib.relu, (g.placeholder("a"),)))
        try:
            fx.Interpreter(fx.GraphModule(lib.nn.Module(), g)).run()
        except RuntimeError as e:
            out.append(repr(str(e)))
    _same_text(program)


def test_dead_code_keeps_side_effects_and_random_calls():
    def program(lib, out):
        fx, F = lib.fx, lib.nn.functional
        g = fx.Graph()
        x = g.placeholder("x")
        for f, a in [(lib.rand, (2,)), (lib.relu_, (x,)), (lib.add, (x, 1)),
                     (operator.setitem, (x, 0, 1.0)), (lib._assert, (x, "m")),
                     (lib.randn_like, (x,)), (F.dropout, (x,)), (lib.manual_seed, (0,)),
                     (F.relu, (x,)), (operator.iadd, (x, 1)), (lib.bernoulli, (x,)),
                     (lib.empty, (2,)), (print, (x,))]:
            g.call_function(f, a)
        g.call_method("add_", (x, 1))
        g.output(x)
        out.append([n.name for n in g.nodes if n.op.startswith("call") and n.is_impure()])
        gm = fx.GraphModule(lib.nn.Module(), g)
        out += [gm.graph.eliminate_dead_code(), gm.graph, gm.graph.eliminate_dead_code()]
    _same_text(program)


def test_constant_tensor_operator_proxy():
    """``tensor <op> proxy`` records the tensor method torch's operator stands for."""
    def program(lib, out):
        c = lib.ones(2)
        ops = ("add", "sub", "mul", "floordiv", "truediv", "mod", "pow", "matmul")
        gm = lib.fx.symbolic_trace(lambda x: [getattr(operator, o)(c, x) for o in ops])
        out += [gm.code, gm.graph, gm(lib.tensor([2.0, 3.0]))]
    _same_text(program)


def test_patches_are_undone_and_eager_path_untouched():
    F = ember.nn.functional
    before = (ember.relu, F.relu, ember.nn.Module.__call__, ember.nn.Module.__getattr__,
              math.sqrt, globals()["_clamp01"])
    gm = ember.fx.symbolic_trace(lambda x: F.relu(ember.relu(x)) + math.sqrt(_clamp01(x)))
    after = (ember.relu, F.relu, ember.nn.Module.__call__, ember.nn.Module.__getattr__,
             math.sqrt, globals()["_clamp01"])
    assert all(a is b for a, b in zip(before, after))
    assert not ember.fx._symbolic_trace.is_fx_tracing()
    assert "math_sqrt(" in gm.code


def test_experimental_fuse_and_remove_dropout():
    def program(lib, out):
        nn = lib.nn
        opt = __import__(f"{lib.__name__}.fx.experimental.optimization", fromlist=["fuse"])
        m = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(),
                          nn.Linear(64, 5), nn.BatchNorm1d(5), nn.Dropout(0.5))
        for _ in range(2):
            m(lib.randn(4, 3, 6, 6))
        m.eval()
        f = opt.fuse(m)
        x = lib.randn(2, 3, 6, 6)
        with lib.no_grad():
            out += [f, f(x), (f(x) - m(x)).abs().max().item() < 1e-5]
        out += [opt.remove_dropout(m).code, f.get_submodule("0").weight.sum().item()]
    _same_text(program)


def test_concrete_args_containers_flattened_as_pytrees():
    def program(lib, out):
        fx = lib.fx

        def f(x, d):
            return x + d["a"] * d["b"][0] + d["b"][1]
        gm = fx.symbolic_trace(f, concrete_args={"d": {"a": fx.PH, "b": (fx.PH, fx.PH)}})
        one = lib.ones(2)
        out += [gm.code, gm.graph, gm, gm._in_spec, gm._out_spec,
                gm(one, {"a": one, "b": (one * 3, 2.0)}),
                fx.Interpreter(gm).run(one, {"b": (one, one), "a": one}),
                gm.graph.process_inputs(1, {"a": 2, "b": [3, None]}),
                copy.deepcopy(gm).code, copy.deepcopy(gm._in_spec),
                # torch re-traces the unpickled code, Ember keeps it: compare values only
                pickle.loads(pickle.dumps(gm))(one, {"a": one, "b": (one, 2.0)})]

        class M(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = lib.nn.Linear(2, 2)

            def forward(self, x, d):
                return {"o": self.lin(x) + d[0] - d[1]["k"], "p": [d[0], x]}
        gm = fx.symbolic_trace(M(), concrete_args={"d": [fx.PH, {"k": fx.PH}]})
        out += [gm.code, gm.graph, gm._in_spec, gm._out_spec,
                gm(one, [one, {"k": one * 2}])["p"]]

        def h(x, o):
            return x * 2
        # the specialized values are asserted on
        gm = fx.symbolic_trace(h, concrete_args={"o": (None, 1.5, True)})
        out += [gm.code, gm.graph, gm(one, (None, 1.5, True))]
        for bad in ((None, 2.5, True), (None, 1.5)):
            try:
                gm(one, bad)
            except (AssertionError, IndexError) as e:
                out.append(f"{type(e).__name__}: {e}")
        gm = fx.symbolic_trace(lambda x, y: (x, y), concrete_args={"y": {"a": fx.PH}})
        out += [gm.code, gm(one, {"a": 3})]

        class Tagged(fx._symbolic_trace.PHBase):
            tag = "t"

        class V(lib.nn.Module):
            def forward(self, *args, **kwargs):
                return args[0] + args[1]
        gm = fx.symbolic_trace(V(), concrete_args=(Tagged(), fx.PH))
        out += [gm.code, gm(one, one), [getattr(n, "tag", None) for n in gm.graph.nodes]]
        gm = fx.symbolic_trace(lambda x: x[0] * x[1], concrete_args={"x": [Tagged(), fx.PH]})
        out += [gm.code, [getattr(n, "tag", None) for n in gm.graph.nodes]]
    _same_text(program)


@pytest.mark.parametrize("lib", LIBS, ids=["torch", "ember"])
def test_wrap_outside_module_level(lib):
    with pytest.raises(NotImplementedError, match="wrap must be called at the top level"):
        lib.fx.wrap("len")


def _show(gm, out):
    out += [gm.code, gm.graph]


def test_replace_pattern_tutorial():
    def program(lib, out):
        class M(lib.nn.Module):
            def forward(self, x, w1, w2):
                m1 = lib.cat([w1, w2]).sum()
                m2 = lib.cat([w1, w2]).sum()
                return x + lib.max(m1) + lib.max(m2)

        gm = lib.fx.symbolic_trace(M())
        matches = lib.fx.replace_pattern(gm, lambda w1, w2: lib.cat([w1, w2]),
                                         lambda w1, w2: lib.stack([w1, w2]))
        _show(gm, out)
        w = lib.arange(2.0)
        out += [matches, type(matches[0]).__name__, gm(lib.ones(2), w, w)]
    _same_text(program)


def _add_relu_net(lib):
    class N(lib.nn.Module):
        def forward(self, x, y, z):
            a = lib.add(x, y).relu()
            b = lib.add(a, z).relu()
            c = lib.add(b, 2).relu()
            return c + a.neg()
    return N()


def test_replace_pattern_with_filters_chained_matches():
    # each match reads what the previous replacement put in place of its input
    def program(lib, out):
        rewriter = lib.fx.subgraph_rewriter
        gm = lib.fx.symbolic_trace(_add_relu_net(lib))
        ms = rewriter.replace_pattern_with_filters(
            gm, lambda x, y: lib.add(x, y).relu(), lambda x, y: lib.sigmoid(lib.mul(x, y)))
        _show(gm, out)
        for m in ms:
            out += [type(m).__name__, m.anchor, m.replacements,
                    sorted((str(k), str(v)) for k, v in m.nodes_map.items())]

        def only_placeholders(match, original_graph, pattern_graph):
            return all(n.op == "placeholder" for n in match.placeholder_nodes)
        gm = lib.fx.symbolic_trace(_add_relu_net(lib))
        ms = rewriter.replace_pattern_with_filters(
            gm, lambda x, y: lib.add(x, y).relu(), lambda x, y: lib.sigmoid(lib.mul(x, y)),
            [only_placeholders])
        _show(gm, out)
        out.append([str(m.anchor) for m in ms])
    _same_text(program)


def test_replace_pattern_literals_and_containment():
    def program(lib, out):
        rewriter = lib.fx.subgraph_rewriter

        def pattern(x):
            return lib.add(x, 2)
        gm = lib.fx.symbolic_trace(_add_relu_net(lib))
        out.append(len(lib.fx.replace_pattern(gm, pattern, lambda x: lib.sub(x, 2))))
        _show(gm, out)
        gm = lib.fx.symbolic_trace(_add_relu_net(lib))
        out.append(len(rewriter.replace_pattern_with_filters(
            gm, pattern, lambda x: lib.sub(x, 3), ignore_literals=True)))
        _show(gm, out)

        def f(x):
            a = x.relu()
            return a.neg(), a
        # the relu is used outside the pattern: no match
        gm = lib.fx.symbolic_trace(f)
        out += [lib.fx.replace_pattern(gm, lambda x: x.relu().neg(), lambda x: x.abs()),
                gm.code]
    _same_text(program)


def test_replace_pattern_several_outputs():
    def program(lib, out):
        def pattern(x):
            a = x.relu()
            return a.neg(), a.exp()

        def replacement(x):
            a = x.sigmoid()
            return a + 1, a * 2

        def f(x):
            a = x.relu()
            return a.neg() + a.exp(), x.relu().neg() - 1
        gm = lib.fx.symbolic_trace(f)
        out.append(len(lib.fx.replace_pattern(gm, pattern, replacement)))
        _show(gm, out)
        out.append(gm(lib.arange(-2.0, 2.0)))
    _same_text(program)


def test_replace_pattern_modules_copied_from_replacement():
    def program(lib, out):
        nn = lib.nn

        class Lin(nn.Module):
            def __init__(self, act=None):
                super().__init__()
                self.lin = nn.Linear(3, 3)
                if act is not None:
                    self.act = act

            def forward(self, x):
                x = self.lin(x)
                return self.act(x) if hasattr(self, "act") else x.relu()
        gm = lib.fx.symbolic_trace(Lin())
        out.append(len(lib.fx.replace_pattern(gm, lib.fx.symbolic_trace(Lin()),
                                              Lin(nn.GELU()))))
        out += [gm, sorted(n for n, _ in gm.named_modules())]

        class Scaled(nn.Module):
            def __init__(self, n, op):
                super().__init__()
                self.register_buffer("scale", lib.ones(n))
                self.op = op

            def forward(self, x):
                return self.op(x, self.scale).relu()
        # a get_attr matches any tensor attribute, whatever its values
        gm = lib.fx.symbolic_trace(Scaled(3, operator.mul))
        out.append(len(lib.fx.replace_pattern(gm, lib.fx.symbolic_trace(Scaled(5, operator.mul)),
                                              Scaled(3, operator.add))))
        out += [gm.code, gm.graph, [n for n, _ in gm.named_buffers()]]
    _same_text(program)


def test_subgraph_matcher_multiple_anchors_and_errors():
    def program(lib, out):
        matcher_utils = __import__(f"{lib.__name__}.fx.passes.utils.matcher_utils",
                                   fromlist=["SubgraphMatcher"])

        def pattern(x, y):
            s = x + y
            return s.relu(), s.sigmoid()

        def f(a, b, c):
            s = a + b
            t = (s.relu() * s.sigmoid()) + c
            u = t + c
            return u.relu() - u.sigmoid()
        pg = lib.fx.symbolic_trace(pattern).graph
        g = lib.fx.symbolic_trace(f).graph
        for kw in ({}, {"match_placeholder": True}, {"remove_overlapping_matches": False}):
            ms = matcher_utils.SubgraphMatcher(pg, **kw).match(g)
            out.append([(m.anchors, m.placeholder_nodes, m.returning_nodes,
                         sorted((str(k), str(v)) for k, v in m.nodes_map.items()))
                        for m in ms])
        dead = lib.fx.Graph()
        dead.placeholder("x")
        dead.output(None)
        for pattern_graph in (lib.fx.Graph(), dead, pg):
            try:
                matcher_utils.SubgraphMatcher(pattern_graph)
                out.append("ok")
            except (ValueError, AssertionError) as e:
                out.append(f"{type(e).__name__}: {e}")
        try:
            lib.fx.subgraph_rewriter.replace_pattern_with_filters(
                lib.fx.symbolic_trace(f), pattern)
        except AssertionError as e:
            out.append(str(e))
    _same_text(program)


def _user_frames(stack_trace):
    """The frames of a node's stack trace in this file, as (line, function, code)."""
    if stack_trace is None:
        return None
    lines = stack_trace.strip().split("\n")
    return [(line.split(", line ")[1].split(",")[0], line.rsplit(" in ", 1)[1],
             lines[i + 1].strip())
            for i, line in enumerate(lines)
            if line.strip().startswith(f'File "{__file__}"')]


def test_record_stack_traces():
    # torch's text also holds its own frames (proxy.py, module.py): compare the user's
    def program(lib, out):
        F = lib.nn.functional

        class Sub(lib.nn.Module):
            def forward(self, x):
                return x.relu()

        class M(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = lib.nn.Linear(2, 2)
                self.sub = Sub()

            def forward(self, x):
                y = self.lin(x)
                z = lib.sigmoid(y) + F.gelu(y)
                return self.sub(z) * 2
        for record in (False, True):
            tracer = lib.fx.Tracer()
            tracer.record_stack_traces = record
            graph = tracer.trace(M())
            out.append([(n.name, _user_frames(n.stack_trace)) for n in graph.nodes])
        tracer = lib.fx.Tracer()
        tracer.record_stack_traces = True
        out.append([n.stack_trace for n in tracer.trace(lambda x: x + 1).nodes])
    _same_text(program)


def test_print_readable_stack_trace_summaries():
    def program(lib, out):
        gm = lib.fx.symbolic_trace(lambda x: (x.relu() + 1).sum() * 2)
        relu, add, total, mul = list(gm.graph.nodes)[1:5]
        relu.stack_trace = 'File "model.py", line 3, in forward\n    y = x.relu()'
        add.stack_trace = ('File "model.py", line 9, in forward\n    y = self.block(x)\n'
                           '  File "block.py", line 4, in forward\n    return y + 1')
        total.stack_trace = add.stack_trace
        mul.stack_trace = "no frame here"
        out.append(gm.print_readable(print_output=False))
    _same_text(program)


def test_generated_code_error_message_on_stderr():
    def program(lib, out):
        class M(lib.nn.Module):
            def forward(self, x):
                y = x.relu()
                return lib.matmul(y, x)
        gm = lib.fx.symbolic_trace(M())
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            try:
                gm(lib.ones(2, 3))
            except RuntimeError as e:
                out += [str(e), e.__traceback__ is not None]
        text = err.getvalue()
        # the traceback's first frames are each library's own; from the generated frame on,
        # the text agrees (the key counts the GraphModules compiled so far)
        tail = text[text.index('  File "<eval_with_key>'):]
        out.append(re.sub(r"<eval_with_key>\.\d+", "<eval_with_key>.N",
                          tail[:tail.index("\n", tail.index("    matmul"))]))
        out.append(text[text.index("\nCall using"):])
        gm(lib.ones(3, 3))
        out.append(gm.code.splitlines()[4] in linecache.getlines(
            gm.forward.__code__.co_filename)[4])
    _same_text(program)


_GRAPH_AROUND_DISPATCH = """
import {lib} as torch

def graph():
    g = torch.fx.Graph()
    a = g.placeholder("a")
    r = g.call_method("relu", (a,))
    g.output(g.call_function(torch.cat, ([a, r],), {{"dim": 1}}))
    return str(g) + g.python_code("self").src

print(graph())
class Logged(torch.Tensor):          # a subclass that dispatches through __torch_function__
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs or {{}})
print(graph())
print(torch.fx.symbolic_trace(lambda t: torch.cat([t, t.relu()], 1)).code)
"""


def test_graph_names_functions_after_a_dispatching_subclass_appears():
    """A graph names ``torch.cat`` as torch does also after a ``__torch_function__`` subclass
    has switched dispatch on (which replaces the namespaces' functions) in a process that
    had printed a graph before."""
    import os
    import pathlib
    import subprocess
    import sys
    src = str(pathlib.Path(__file__).resolve().parents[1] / "src")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [src, os.environ.get(
        "PYTHONPATH")])))
    outs = [subprocess.run([sys.executable, "-c", _GRAPH_AROUND_DISPATCH.format(lib=lib)],
                           capture_output=True, text=True, timeout=300, check=True,
                           env=env).stdout
            for lib in ("torch", "ember")]
    assert "target=torch.cat]" in outs[0]
    assert outs[1] == outs[0]


def test_targets_follow_functions_rebound_by_masked():
    """``ember.masked`` routes ``ember.add`` & co. through wrappers of its own; a trace made
    after that import records the wrapper (``node.target == torch.add`` holds), also when
    fx read the namespaces before it (a fresh interpreter, so the order is this one)."""
    import subprocess
    import sys
    code = (
        "import ember as torch\n"
        "f = lambda x: torch.add(x, x)\n"
        "torch.fx.symbolic_trace(f)\n"
        "import ember.masked\n"
        "gm = torch.fx.symbolic_trace(f)\n"
        "node = [n for n in gm.graph.nodes if n.op == 'call_function'][0]\n"
        "print(node.target is torch.add, 'torch.add(' in gm.code)\n")
    src = pathlib.Path(__file__).resolve().parent.parent / "src"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(src)), check=True)
    assert out.stdout.split() == ["True", "True"]
