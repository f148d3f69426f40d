"""torch.export: each program runs once with torch and once with ember and must print the same
text (the ExportedProgram, its graph, signature and range constraints, the unlifted module's
code, the decomposed program, errors) and compute the same values.

The ``# File:`` comments of nodes recorded inside the library's own modules name the
library's source file (torch/nn/modules/linear.py:134 against ember/nn/modules/linear.py:62),
so those comments are compared up to the file: the frames of the program itself must match.
"""

from __future__ import annotations

import copy
import io
import os
import re

import pytest

import ember
from tests.helpers import same_printed_text, torch

LIBS = (torch, ember)
_LIB_DIRS = tuple(os.path.dirname(lib.__file__) + os.sep for lib in LIBS)
_FILE = re.compile(r"# File: (\S+):(\d+) in (\w+), code: .*")


def _normalize(text: str) -> str:
    def frame(m):
        if m.group(1).startswith(_LIB_DIRS):
            return f"# File: <library> in {m.group(3)}"
        return m.group(0)
    return _FILE.sub(frame, text)


def _same_text(program):
    """The printed text of ``program`` agrees between torch and ember (library frames
    compared up to the file)."""
    return same_printed_text(program, _normalize)


def _mlp(lib):
    nn = lib.nn

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(4, 8)
            self.fc2 = nn.Linear(8, 3)

        def forward(self, x):
            return self.fc2(lib.nn.functional.relu(self.fc1(x)))
    return MLP()


def _bn(lib):
    nn, F = lib.nn, lib.nn.functional

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 3)
            self.bn = nn.BatchNorm1d(3)

        def forward(self, x):
            return F.relu(self.bn(self.fc(x))) + 1
    return M()


def _cnn(lib):
    nn, F = lib.nn, lib.nn.functional

    class CNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
            self.conv2 = nn.Conv2d(4, 8, 3, stride=2)
            self.pool = nn.MaxPool2d(2)
            self.fc = nn.Linear(8, 10)
            self.drop = nn.Dropout(0.5)

        def forward(self, inp):
            x = self.pool(F.relu(self.conv1(inp)))
            x = F.relu(self.conv2(x))
            x = x.view(x.size(0), -1)
            x = lib.flatten(x, 1)
            x = self.drop(x)
            return F.log_softmax(self.fc(x), dim=1)
    return CNN().eval()


def _attention(lib):
    nn, F = lib.nn, lib.nn.functional

    class Attn(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(8, 24)
            self.proj = nn.Linear(8, 8)
            self.ln = nn.LayerNorm(8)

        def forward(self, x):
            B, T, C = x.shape
            q, k, v = self.qkv(self.ln(x)).split(8, dim=2)
            q = q.view(B, T, 2, 4).transpose(1, 2)
            k = k.view(B, T, 2, 4).transpose(1, 2)
            v = v.view(B, T, 2, 4).transpose(1, 2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / 4 ** 0.5)
            att = F.softmax(att, dim=-1)
            y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
            y2 = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return x + self.proj(y) + y2.transpose(1, 2).reshape(B, T, C).mean(-1, keepdim=True)
    return Attn().eval()


def _sdpa_block(lib):
    nn, F = lib.nn, lib.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(8, 24)
            self.proj = nn.Linear(8, 8)
            self.ln = nn.LayerNorm(8)

        def forward(self, x):
            B, T, C = x.shape
            q, k, v = self.qkv(self.ln(x)).split(8, dim=2)
            q, k, v = (t.view(B, T, 2, 4).transpose(1, 2) for t in (q, k, v))
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return x + self.proj(y.transpose(1, 2).reshape(B, T, C))
    return Block().eval()


def _show(ep, lib, out, x):
    print(ep)
    print(ep.graph)
    print(ep.graph_signature)
    print(ep.range_constraints)
    print(list(ep.state_dict))
    m = ep.module()
    print(m)
    with lib.no_grad():
        got = m(x)
    print(got)
    out.append(got.shape)


# the decomposition of scaled_dot_product_attention (the math kernel, ~30 ops) is not written:
# the programs using it skip ``run_decompositions``
@pytest.mark.parametrize("make, shape, dims, decompose", [
    (_mlp, (2, 4), None, True),
    (_bn, (2, 4), None, True),
    (_cnn, (2, 1, 8, 8), {"inp": {0: ("batch", 1, 64)}}, True),
    (_attention, (2, 5, 8), None, False),
    (_sdpa_block, (2, 5, 8), {"x": {0: ("B", None, 8), 1: ("T", None, 16)}}, False),
    (_mlp, (3, 4), ({0: ("batch", 2, 10)},), True),
])
def test_export_prints_as_torch(make, shape, dims, decompose):
    def program(lib, out):
        model = make(lib)
        x = lib.randn(*shape)

        def dim(spec):
            name, lo, hi = spec
            return lib.export.Dim(name, min=lo, max=hi)
        dynamic = None
        if isinstance(dims, dict):
            dynamic = {k: {d: dim(s) for d, s in v.items()} for k, v in dims.items()}
        elif dims is not None:
            dynamic = tuple({d: dim(s) for d, s in v.items()} for v in dims)
        ep = lib.export.export(model, (x,), dynamic_shapes=dynamic)
        _show(ep, lib, out, x)
        if decompose:
            print(ep.run_decompositions())
    _same_text(program)


@pytest.mark.parametrize("make, shape", [(_mlp, (2, 4)), (_bn, (5, 4)), (_cnn, (3, 1, 8, 8)),
                                         (_attention, (2, 5, 8))])
def test_module_computes_the_eager_values(make, shape):
    """ep.module()(x) equals the eager model bit for bit; export leaves the model's state as
    it was, and the module updates the model's own buffers (torch shares them)."""
    ember.manual_seed(0)
    model = make(ember)
    reference = copy.deepcopy(model)
    x = ember.randn(*shape)
    ep = ember.export.export(model, (x,))
    for k, v in model.state_dict().items():
        assert ember.equal(v, reference.state_dict()[k]), k
    got = ep.module()(x)
    assert ember.equal(got, reference(x))
    for k, v in model.state_dict().items():
        assert ember.equal(v, reference.state_dict()[k]), k


def test_dynamic_module_runs_other_sizes():
    def program(lib, out):
        model = _cnn(lib)
        b = lib.export.Dim("batch", min=1, max=64)
        ep = lib.export.export(model, (lib.randn(2, 1, 8, 8),),
                               dynamic_shapes={"inp": {0: b}})
        x = lib.randn(5, 1, 8, 8)
        with lib.no_grad():
            out.append(ep.module()(x))
            out.append(model(x))
    _same_text(program)


def test_dims_and_hints_repr():
    def program(lib, out):
        Dim = lib.export.Dim
        out += [Dim("batch", min=2, max=10), Dim("x"), Dim("y", min=0, max=8),
                Dim("z", min=3), Dim.AUTO, Dim.DYNAMIC, Dim.STATIC, Dim.DYNAMIC(max=4),
                lib.export.dims("a", "b", max=5)]
        ep = lib.export.export(_mlp(lib), (lib.randn(3, 4),),
                               dynamic_shapes={"x": {0: Dim.AUTO}})
        out.append(ep.range_constraints)
        ep = lib.export.export(_mlp(lib), (lib.randn(3, 4),),
                               dynamic_shapes={"x": {0: Dim("bb")}})
        out.append(ep.range_constraints)
        out.append(ep.graph_signature.user_inputs)
        out.append(ep.graph_signature.parameters)
        out.append(ep.graph_signature.user_outputs)
    _same_text(program)


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return None


def test_data_dependent_control_flow_raises_as_torch():
    def program(lib, out):
        class M(lib.nn.Module):
            def forward(self, x):
                if x.sum() > 0:
                    return x + 1
                return x - 1
        name, msg = _error(lambda: lib.export.export(M(), (lib.randn(3, 4),)))
        out.append(name)
        out.append(msg.splitlines()[0])
        out.append(msg[msg.index("The following call"):].replace("\n\n\n", "\n\n"))
    _same_text(program)


def test_constraint_and_input_errors_match_torch():
    def program(lib, out):
        class N(lib.nn.Module):
            def forward(self, x):
                return x * 2
        b = lib.export.Dim("batch", min=2, max=10)
        out.append(_error(lambda: lib.export.export(N(), (lib.randn(1, 4),),
                                                    dynamic_shapes={"x": {0: b}})))
        out.append(_error(lambda: lib.export.export(N(), (lib.randn(3, 4),),
                                                    dynamic_shapes={"y": {0: b}})))
        out.append(_error(lambda: lib.export.export(N(), [lib.randn(3, 4)])))
        ep = lib.export.export(N(), (lib.randn(3, 4),),
                               dynamic_shapes={"x": {0: lib.export.Dim("n", max=100)}})
        out.append(_error(lambda: ep.module()(lib.randn(3, 5))))
        out.append(_error(lambda: ep.module()(lib.randn(300, 4))))
        out.append(_error(lambda: ep(lib.randn(3, 4))))
        out.append(_error(lambda: lib.export.export(
            N(), (lib.randn(3, 4),), dynamic_shapes={"x": {0: lib.export.Dim("n", min=5)}})))
        out.append([n.meta["val"].shape for n in ep.graph.nodes if "val" in n.meta])
    _same_text(program)


def test_getitem_and_shape_ops():
    def program(lib, out):
        class M(lib.nn.Module):
            def forward(self, x):
                return (x[:, 0:1] + x[0] + x[..., None].sum() + x[:, :],
                        x.permute(1, 0).reshape(-1), x.unsqueeze(0).expand(2, 3, 6))
        ep = lib.export.export(M(), (lib.randn(3, 6),))
        print(ep.graph)
        with lib.no_grad():
            out.append(ep.module()(lib.randn(3, 6)))
    _same_text(program)


def test_dynamic_products_of_symbols():
    def program(lib, out):
        class M(lib.nn.Module):
            def forward(self, x):
                B, T, C = x.shape
                return x.view(B * T, C)
        Dim = lib.export.Dim
        ep = lib.export.export(M(), (lib.randn(3, 4, 5),),
                               dynamic_shapes={"x": {0: Dim("B", max=64), 1: Dim("T", max=64)}})
        print(ep)
        out.append(ep.module()(lib.ones(2, 7, 5)).shape)
    _same_text(program)


def test_save_load_round_trip(tmp_path):
    ember.manual_seed(0)
    model = _bn(ember)
    x = ember.randn(4, 4)
    b = ember.export.Dim("batch", min=2, max=32)
    ep = ember.export.export(model, (x,), dynamic_shapes={"x": {0: b}})
    path = tmp_path / "bn.pt2"
    ember.export.save(ep, str(path))
    loaded = ember.export.load(str(path))
    assert str(loaded) == str(ep)
    assert str(loaded.graph) == str(ep.graph)
    assert list(loaded.state_dict) == list(ep.state_dict)
    y = ember.randn(7, 4)
    assert ember.equal(loaded.module()(y), ep.module()(y))
    buf = io.BytesIO()
    ember.export.save(ep, buf)
    buf.seek(0)
    assert str(ember.export.load(buf).graph_signature) == str(ep.graph_signature)


def test_export_names_follow_torch():
    for name in ("export", "Dim", "dims", "ExportedProgram", "ExportGraphSignature", "save",
                 "load"):
        assert hasattr(torch.export, name) and hasattr(ember.export, name), name


def test_setitem_conversions_constants_and_kwargs():
    """``x[i] = number`` lifts the number as a constant input, ``x[i] = tensor`` copies,
    ``.float()``/``.to()`` record the metadata check; keyword inputs and non-persistent
    buffers keep their names."""
    def program(lib, out):
        nn = lib.nn

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.register_buffer("steps", lib.zeros(1), persistent=False)

            def forward(self, x, y=None):
                self.steps.add_(1)
                x = x.clone()
                x[:, 0] = 0.0
                x[1] = lib.ones(4)
                x[y > 0] = 2.0
                out = self.fc(x) * 2.0 + y + self.steps
                return out.float().to(lib.float32).contiguous(), x[1:], x[::2, :-1]
        model = M()
        ep = lib.export.export(model, (lib.randn(3, 4),), {"y": lib.randn(3, 4)})
        print(ep.graph)
        print(ep.graph_signature)
        print(list(ep.state_dict), ep.constants)
        print(ep.module().code)
        with lib.no_grad():
            out.append(ep.module()(lib.ones(3, 4), y=lib.ones(3, 4)))
    _same_text(program)


# (name, function of (lib, F, *inputs), input makers): torch's Python functions record the
# ATen ops they call (F.mse_loss broadcasts first, F.interpolate calls upsample_*.vec,
# F.normalize's norm is linalg_vector_norm, F.elu passes its default alpha)
_FUNCTIONS = [
    ("pad", lambda lib, F, a: F.pad(a, (1, 1)), "x4"),
    ("interpolate", lambda lib, F, a: F.interpolate(a, scale_factor=2, mode="nearest"), "x4"),
    ("bilinear", lambda lib, F, a: F.interpolate(a, size=(6, 6), mode="bilinear",
                                                 align_corners=False), "x4"),
    ("normalize", lambda lib, F, a: F.normalize(a, dim=1), "y"),
    ("avg_pool", lambda lib, F, a: F.avg_pool2d(a, 2), "x4"),
    ("mse", lambda lib, F, a: F.mse_loss(a, a * 2) + F.l1_loss(a, a, reduction="sum"), "y"),
    ("cross_entropy", lambda lib, F, a, t: F.cross_entropy(a, t), "y", "t"),
    ("stack_where", lambda lib, F, a: lib.where(a > 0, lib.stack([a, a * 2]).sum(0),
                                                lib.zeros_like(a)), "y"),
    ("masked_chunk", lambda lib, F, a: a.masked_fill(a < 0, 0.0).chunk(2, dim=1)[0], "y"),
    ("one_hot", lambda lib, F, t: F.one_hot(t, 4), "t"),
    ("pointwise", lambda lib, F, a: lib.tanh(a) + a.sigmoid() + a.exp() + a.abs().sqrt()
     + a.pow(2) + F.silu(a) + F.gelu(a, approximate="tanh") + F.leaky_relu(a, 0.2)
     + F.elu(a) + a.clamp(min=0.0) + a.clamp(-1, 1), "y"),
    ("properties", lambda lib, F, a: (a @ a.T, a.mT, a.detach()), "y"),
    ("reductions", lambda lib, F, a: (a.mean(), a.mean(dim=0), a.sum(-1, keepdim=True),
                                      a.max(), a.argmax(dim=1), a.norm()), "y"),
    ("bmm_arange", lambda lib, F, a, b: (lib.bmm(a[0], a[1].transpose(1, 2)),
                                         b + lib.arange(5)), "x4", "y"),
    ("functional_forms", lambda lib, F, a, t: (
        F.softmax(a, dim=-1, dtype=lib.float64), F.layer_norm(a, (5,)),
        F.dropout(a, 0.5, training=False), F.embedding(t, lib.ones(5, 3)),
        a[:, None, :].expand(-1, 3, -1).reshape(4, 15)), "y", "t"),
]


@pytest.mark.parametrize("name, fn, inputs", [(f[0], f[1], f[2:]) for f in _FUNCTIONS],
                         ids=[f[0] for f in _FUNCTIONS])
def test_functions_record_torchs_aten_ops(name, fn, inputs):
    def program(lib, out):
        makers = {"x4": lambda: lib.randn(2, 3, 4, 4), "y": lambda: lib.randn(4, 5),
                  "t": lambda: lib.tensor([1, 0, 3, 2])}
        args = tuple(makers[k]() for k in inputs)

        class M(lib.nn.Module):
            def forward(self, *a):
                return fn(lib, lib.nn.functional, *a)
        ep = lib.export.export(M(), args)
        print(ep.graph)
        with lib.no_grad():
            out.append(ep.module()(*args))
    _same_text(program)


@pytest.mark.parametrize("case", ["mha", "mha_same_input", "encoder", "encoder_train",
                                  "mha_mask"])
def test_attention_modules_take_torchs_python_path(case):
    """A trace runs nn.MultiheadAttention and nn.TransformerEncoderLayer through
    F.multi_head_attention_forward (torch's native fast paths refuse traced tensors);
    placeholders drop a leading ``self_`` (``p_attn_in_proj_weight``); None and bool
    inputs are inputs too."""
    def program(lib, out):
        nn = lib.nn
        x, y, z = lib.randn(2, 5, 8), lib.randn(2, 5, 8), lib.randn(2, 5, 8)
        mask = lib.triu(lib.ones(2, 2), diagonal=1).bool()
        model, args = {
            "mha": (nn.MultiheadAttention(8, 2, batch_first=True).eval(), (x, y, z)),
            "mha_same_input": (nn.MultiheadAttention(8, 2, batch_first=True).eval(),
                               (x, x, x, None, False)),
            "encoder": (nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0,
                                                   batch_first=True).eval(), (x,)),
            "encoder_train": (nn.TransformerEncoderLayer(8, 2, 16, dropout=0.1,
                                                         batch_first=True, norm_first=True),
                              (x,)),
            "mha_mask": (nn.MultiheadAttention(8, 2).eval(), (x, x, x, None, True, mask)),
        }[case]
        ep = lib.export.export(model, args)
        print(ep.graph)
        print(ep.graph_signature)
        with lib.no_grad():
            out.append(ep.module()(*args))
    _same_text(program)


def test_container_inputs_are_flattened_with_torchs_names():
    def program(lib, out):
        class M(lib.nn.Module):
            def forward(self, x, ys, cfg):
                return x + ys[0] * ys[1] + cfg["Scale"]
        args = (lib.randn(2), [lib.randn(2), lib.randn(2)], {"Scale": lib.randn(2)})
        ep = lib.export.export(M(), args)
        print(ep.graph)
        print(ep.graph_signature)
        print(ep.module().code)
        print(ep.run_decompositions().graph)
        out.append(ep.module()(lib.ones(2), [lib.ones(2), lib.ones(2)], {"Scale": lib.ones(2)}))
    _same_text(program)
