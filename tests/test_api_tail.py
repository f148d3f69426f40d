"""The less used corners of torch's API that real programs reach: custom-op checks
(``torch.library.opcheck``), library loading, decompositions, benchmark fuzzers, graph-break
reports, sparsifiers and the calls that fail on a CPU-only build. Each program runs once with
torch and once with ember and must print the same lines."""

import warnings

import numpy as np
import pytest

import ember
from tests.helpers import torch


def _show(value):
    """Results as text: exceptions by class and message."""
    if isinstance(value, dict):
        return {k: _show(v) for k, v in value.items()}
    if isinstance(value, BaseException):
        return (type(value).__name__, str(value))
    return value


def _both(program) -> str:
    """Run ``program(lib, out)`` for torch and ember; the lines it collects must agree."""
    texts = []
    for lib in (torch, ember):
        out: list = []
        lib.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            program(lib, out)
        texts.append("\n".join(str(_show(o)) for o in out))
    assert texts[0] == texts[1]
    return texts[1]


def _raises(out, fn, *args, **kwargs):
    try:
        out.append(fn(*args, **kwargs))
    except Exception as e:   # noqa: BLE001
        out.append((type(e).__name__, str(e)))


# ----------------------------------------------------------------------------- torch.library

def test_opcheck_reports_each_check_as_torch_does():
    def program(lib, out):
        L = lib.library
        x = lib.randn(3)

        @L.custom_op("tailcheck::twice", mutates_args=())
        def twice(t: lib.Tensor) -> lib.Tensor:
            return t * 2
        out.append(L.opcheck(twice, (x,), raise_exception=False))
        out.append(L.opcheck(twice, (x.clone().requires_grad_(),), raise_exception=False))
        try:
            L.opcheck(twice, (x,))
        except Exception as e:   # noqa: BLE001
            out += [type(e).__name__, str(e), type(e.__cause__).__name__]
        twice.register_fake(lambda t: lib.empty_like(t))
        out.append(L.opcheck(twice, (x,)))
        out.append(L.opcheck(twice, (x.clone().requires_grad_(),), raise_exception=False))
        twice.register_autograd(lambda ctx, g: g * 2)
        out.append(L.opcheck(twice, (x.clone().requires_grad_(),), test_utils="ALL"))
        out.append(L.opcheck(twice, (x,), test_utils="test_schema"))

        @L.custom_op("tailcheck::sneaky", mutates_args=())
        def sneaky(t: lib.Tensor) -> lib.Tensor:
            t.add_(1)
            return t.clone()
        L.register_fake("tailcheck::sneaky")(lambda t: lib.empty_like(t))
        out += [L.opcheck(sneaky, (x,), raise_exception=False), x]     # inputs are copied

        @L.custom_op("tailcheck::inplace", mutates_args=("t",))
        def inplace(t: lib.Tensor) -> None:
            t.add_(1)
        inplace.register_fake(lambda t: None)
        out.append(L.opcheck(inplace, (x,)))

        @L.custom_op("tailcheck::shape", mutates_args=())
        def shape(t: lib.Tensor) -> lib.Tensor:
            return t.sum(0, keepdim=True)
        shape.register_fake(lambda t: lib.empty_like(t))
        out.append(L.opcheck(shape, (x,), raise_exception=False))

        @L.custom_op("tailcheck::dtype", mutates_args=())
        def dtype(t: lib.Tensor) -> lib.Tensor:
            return t.double()
        L.register_fake("tailcheck::dtype", lambda t: lib.empty_like(t))
        out.append(L.opcheck(lib.ops.tailcheck.dtype, (x,), raise_exception=False))

        @L.custom_op("tailcheck::stride", mutates_args=())
        def stride(t: lib.Tensor) -> lib.Tensor:
            return t.clone()
        stride.register_fake(lambda t: lib.empty(t.shape[::-1]).t())
        out.append(L.opcheck(lib.ops.tailcheck.stride.default, (lib.ones(2, 3),),
                             raise_exception=False))
        for bad in ({"rtol": 1.0}, {"test_utils": "test_nothing"}):
            _raises(out, L.opcheck, twice, (x,), **bad)
        _raises(out, L.opcheck, lambda t: t, (x,))

        lb = L.Library("tailcheckdef", "DEF")
        lb.define("f(Tensor x) -> Tensor")
        lb.impl("f", lambda t: t * 2, "CPU")
        out.append(L.opcheck(lib.ops.tailcheckdef.f.default, (x.clone().requires_grad_(),),
                             raise_exception=False))
        out.append(L.opcheck(lib.ops.tailcheckdef.f, (x,), raise_exception=False))
        out.append(L.opcheck(lib.ops.aten.sin.default, (x.clone().requires_grad_(),)))
    _both(program)


# ----------------------------------------------------------------------------- loading libraries

def test_load_library_errors_and_the_loaded_set(tmp_path, monkeypatch):
    import glob
    libm = sorted(glob.glob("/lib/x86_64-linux-gnu/libm.so.6")
                  + glob.glob("/usr/lib/x86_64-linux-gnu/libm.so.6")
                  + glob.glob("/usr/lib64/libm.so.6"))[:1]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notalib.so").write_text("text")

    def program(lib, out):
        for load in (lib.ops.load_library, lib.classes.load_library):
            for path in ("/nonexistent/libcustom.so", "libcustom.so", "notalib.so"):
                try:
                    load(path)
                except OSError as e:
                    out += [str(e).replace(str(tmp_path), "TMP"), type(e.__cause__).__name__]
        _raises(out, lambda: lib.classes.myns.MyStack)
        out.append(lib.classes.loaded_libraries is lib.ops.loaded_libraries)
        for path in libm:
            lib.classes.load_library(path)
            out.append(sorted(lib.ops.loaded_libraries))
    _both(program)


# ----------------------------------------------------------------------------- small names

@pytest.mark.dispatch_on     # defines a Tensor subclass
def test_compiler_settings_subclass_switch_and_aliases():
    def program(lib, out):
        c = lib._inductor.config
        out.append((c.force_fuse_int_mm_with_mul, c.coordinate_descent_tuning,
                    c.coordinate_descent_check_all_directions, c.epilogue_fusion))
        with c.patch(coordinate_descent_tuning=True, epilogue_fusion=False):
            out.append((c.coordinate_descent_tuning, c.epilogue_fusion))
        out.append((type(c.cpp).__name__, c.cpp.threads, c.cpp.simdlen, c.cpp.min_chunk_size))

        class S(lib.Tensor):
            pass
        s = lib.ones(2).as_subclass(S)
        with lib._C.DisableTorchFunctionSubclass():
            out.append(type(s + 1).__name__)
        out += [type(s + 1).__name__, lib._C.DisableTorchFunctionSubclass.__name__]
        G = lib.cuda.amp.grad_scaler.GradScaler
        out += [G is lib.cuda.amp.GradScaler, G().is_enabled(), str(lib.fx.node.Target)]

        class M(lib.jit.ScriptModule):
            def __init__(self):
                super().__init__()
                self.lin = lib.nn.Linear(4, 2)

            @lib.jit.script_method
            def forward(self, a):
                return self.lin(a).relu()
        out.append(M()(lib.ones(1, 4)))
    _both(program)


# ----------------------------------------------------------------------------- torch._decomp

_DECOMPOSED = ["addmm", "gelu", "_softmax", "_log_softmax", "silu", "mish", "relu", "sigmoid",
               "tanh", "rsqrt", "hardtanh", "hardsigmoid", "hardswish", "leaky_relu", "elu",
               "softplus", "mse_loss", "smooth_l1_loss", "embedding", "t", "logsumexp"]


def test_get_decompositions_keys_and_values():
    import importlib

    import numpy as np
    results = []
    for lib in (torch, ember):
        decomp = importlib.import_module(f"{lib.__name__}._decomp")
        aten = lib.ops.aten
        d = decomp.get_decompositions([getattr(aten, n) for n in _DECOMPOSED])
        keys = sorted(str(k) for k in d)
        single = decomp.get_decompositions([aten.addmm.default, aten.gelu.out, aten.tanh.default])
        lib.manual_seed(0)
        x, y, w, b = lib.randn(3, 4), lib.randn(3, 4), lib.randn(4, 5), lib.randn(3, 5)
        h = x.to(lib.bfloat16)
        calls = [("addmm", (b, x, w), {}), ("addmm", (b, x, w), {"beta": 0.5, "alpha": 2}),
                 ("gelu", (x,), {}), ("gelu", (x,), {"approximate": "tanh"}), ("gelu", (h,), {}),
                 ("_softmax", (x, 1, False), {}), ("_log_softmax", (x, 0, False), {}),
                 ("silu", (h,), {}), ("mish", (x,), {}), ("relu", (x,), {}),
                 ("sigmoid", (x,), {}), ("hardtanh", (x, -0.5, 0.5), {}),
                 ("hardsigmoid", (x,), {}), ("hardswish", (x,), {}),
                 ("leaky_relu", (x, 0.2), {}), ("elu", (x,), {}), ("softplus", (x, 2, 1), {}),
                 ("mse_loss", (x, y), {}), ("mse_loss", (x, y, 0), {}),
                 ("smooth_l1_loss", (x, y, 2, 0.5), {}),
                 ("embedding", (w, lib.tensor([[0, 2], [3, 1]])), {}), ("t", (x,), {}),
                 ("logsumexp", (x, 1), {}), ("logsumexp", (x, [0, 1], True), {})]
        values = [d[getattr(aten, n).default](*a, **k) for n, a, k in calls]
        out = lib.empty(0)
        values.append(d[aten.gelu.out](x, out=out) is out)
        values.append(out)
        values = [(str(v.dtype), tuple(v.shape), v.double().numpy()) if isinstance(v, lib.Tensor)
                  else v for v in values]
        results.append((keys, sorted(str(k) for k in single), values))
    (tk, ts, tv), (ek, es, ev) = results
    assert tk == ek and ts == es
    for a, b in zip(tv, ev):
        if isinstance(a, tuple):
            assert a[:2] == b[:2]
            np.testing.assert_array_equal(a[2], b[2])
        else:
            assert a == b


# ----------------------------------------------------------------------------- benchmark fuzzers

def test_fuzzers_draw_torchs_parameters_and_tensors():
    import importlib

    def program(lib, out):
        B = importlib.import_module(f"{lib.__name__}.utils.benchmark")
        binary = importlib.import_module(f"{lib.__name__}.utils.benchmark.op_fuzzers.binary")
        _raises(out, binary.BinaryOpFuzzer, seed=0)     # (torch 2.13 rejects its own table)
        P = B.FuzzedParameter
        f = B.Fuzzer(
            parameters=[P("dim", 1, 3, "uniform", strict=True),
                        [P(f"k{i}", 4, 64, "loguniform") for i in range(3)],
                        [P(f"s{i}", 1, 2, "uniform") for i in range(3)],
                        P("scale", 0.5, 4.5, "uniform")],
            tensors=[B.FuzzedTensor("x", ("k0", "k1", "k2"), steps=("s0", "s1", "s2"),
                                    probability_contiguous=0.5, dim_parameter="dim",
                                    max_elements=10000),
                     B.FuzzedTensor("n", ("k0", 4), dtype=lib.int32)],
            constraints=[lambda params: params["k0"] != 5], seed=7)
        for tensors, props, params in f.take(4):
            out.append(sorted(params.items()))
            for name, t in tensors.items():
                p = props[name]
                out += [name, tuple(t.shape), t.stride(), t.dtype, t.tolist(), p["numel"],
                        [int(o) for o in p["order"]], p["steps"], p["is_contiguous"],
                        p["dtype"]]
        out.append(f.rejection_rate)
        out.append(repr(B.ParameterAlias("k0")))
        _raises(out, B.Fuzzer, [P("a", 1, 2, "uniform")], [B.FuzzedTensor("a", (2,))])
        _raises(out, P, "a", 1, 2, "bogus")
        _raises(out, P, "a", distribution={1: 0.5, 2: 0.5})
        out.append([fl.name for fl in __import__("dataclasses").fields(B.CallgrindStats)])
        counts = B.FunctionCounts((B.FunctionCount(30, "a.c:f"), B.FunctionCount(5, "b.c:g")),
                                  inclusive=False)
        out += [counts.sum(), len(counts), (counts - counts).sum(),
                counts.filter(lambda fn: "a.c" in fn).sum()]
    _both(program)


# ----------------------------------------------------------------------------- profiler ops

def test_record_function_ops_open_and_close_ranges():
    def program(lib, out):
        P = lib.ops.profiler
        out += [P._record_function_enter, P._record_function_enter_new,
                P._record_function_exit, P._record_function_exit._RecordFunction]
        with lib.profiler.profile() as prof:
            h = P._record_function_enter_new("block", None)
            x = lib.ones(3) + 1
            P._record_function_exit._RecordFunction(h)
            h = P._record_function_enter("legacy")
            x = x * 2
            P._record_function_exit(h)
        out.append([(e.name, e.cpu_parent.name if e.cpu_parent else None) for e in prof.events()
                    if e.name in ("block", "legacy", "aten::add", "aten::mul")])
        _raises(out, P._record_function_exit, lib.ones(1))
    _both(program)


# ----------------------------------------------------------------------------- torch._dynamo

def test_explain_reports_one_graph_per_traceable_function(capsys):
    def program(lib, out):
        x = lib.randn(3)

        def noisy(a):
            print("side effect")
            return a + 1
        fns = [lambda a: a, lambda a: a.relu(),
               lambda a: lib.relu(a) + lib.nn.functional.gelu(a) * 2,
               lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.ReLU()), noisy]
        for f in fns:
            e = lib._dynamo.explain(f)(x)
            text = str(e)
            out += [type(e).__name__, e.graph_count, e.graph_break_count, e.op_count,
                    [[t.__name__ for t in ops] for ops in e.ops_per_graph], e.break_reasons,
                    len(e.graphs), text[:text.index("Ops per Graph")], e.out_guards is None]
        e = lib._dynamo.explain(lambda a: a * 2, x)         # the deprecated form
        out.append((e.graph_count, e.op_count))
    _both(program)
    assert capsys.readouterr().out.count("side effect") == 2    # once per library


def test_dynamo_utils_same():
    import importlib

    def program(lib, out):
        same = importlib.import_module(f"{lib.__name__}._dynamo.utils").same
        x = lib.randn(3)
        quiet = {"log_error": lambda *a: out.append(a[0] % a[1:])}
        out += [same(x, x + 1e-6), same(x, x + 1, **quiet),
                same([x, {"a": x}], [x, {"a": x.clone()}]), same(x, x.double(), **quiet),
                same(x, x.double(), exact_dtype=False), same(1.0, 1.00001), same(3, 3),
                same(None, None), same(x, x + 1e-3, fp64_ref=x.double(), **quiet),
                same(lib.ones(2000), lib.ones(2000) + 1e-3,
                     fp64_ref=lib.ones(2000, dtype=lib.float64), **quiet),
                same(x, x * 1.01, cos_similarity=True),
                same(lib.tensor([True, False]), lib.tensor([True, True]), **quiet),
                same(np.float32(1.5), np.float32(1.5)), same(np.ones(2), np.ones(2)),
                same((x, 2), [x, 2]), same({1, 2}, {2, 1}),
                same(x, x.clone().fill_(float("nan")), equal_nan=True, **quiet)]
        for ref, res in ((x, "a"), ([x], x), ({"a": x}, {"b": x})):
            try:
                same(ref, res)
            except Exception as e:   # noqa: BLE001
                out.append((type(e).__name__, str(e).replace("ember", "torch")))
    _both(program)


# ----------------------------------------------------------------------------- ao.pruning

def test_weight_norm_sparsifier_masks_blocks_as_torch():
    import importlib

    def program(lib, out):
        P = importlib.import_module(f"{lib.__name__}.ao.pruning")
        m = lib.nn.Sequential(lib.nn.Linear(8, 6), lib.nn.ReLU(), lib.nn.Linear(6, 4))
        sp = P.WeightNormSparsifier(sparsity_level=0.5, sparse_block_shape=(1, 4),
                                    zeros_per_block=4)
        sp.prepare(m, config=[{"tensor_fqn": "0.weight"},
                              {"tensor_fqn": "2.weight", "sparsity_level": 0.75}])
        sp.step()
        out += [m, m[0].weight, m[2].weight, m[0].parametrizations.weight[0].mask,
                sorted(sp.groups[0]), sp.state_dict()["groups"][1]["tensor_fqn"]]
        x = lib.randn(2, 8)
        out.append(m(x))
        m(x).sum().backward()
        out.append(m[0].parametrizations.weight.original.grad)
        sp.squash_mask()
        out += [m, m[0].weight]
        lin = lib.nn.Linear(4, 6)
        sp2 = P.WeightNormSparsifier(sparsity_level=0.3, sparse_block_shape=(2, 2),
                                     zeros_per_block=3, norm=2)
        sp2.prepare(lib.nn.Sequential(lin), config=[{"tensor_fqn": "0.weight"}])
        sp2.step()
        out += [lin.weight, repr(sp2)]
        _raises(out, P.WeightNormSparsifier, sparse_block_shape=(1, 2), zeros_per_block=3)
        _raises(out, P.WeightNormSparsifier, norm="L2")
    _both(program)


# ----------------------------------------------------------------------------- CUDA-only paths

def test_semi_structured_sparsity_refuses_cpu_tensors():
    def program(lib, out):
        S = lib.sparse
        for a in (lib.randn(64, 64), lib.randn(64, 64).half(), lib.randn(3, 4)):
            _raises(out, S.to_sparse_semi_structured, a)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _raises(out, S.to_sparse_semi_structured, lib.randn(64, 64), transposed=True)
            _raises(out, S.SparseSemiStructuredTensor, lib.Size([4, 4]), None, None, None,
                    None, None)
        out.append([(w.category.__name__, str(w.message)) for w in caught])
        out += [S.SparseSemiStructuredTensor._FORCE_CUTLASS,
                issubclass(S.SparseSemiStructuredTensorCUTLASS, S.SparseSemiStructuredTensor),
                issubclass(S.SparseSemiStructuredTensor, lib.Tensor)]
        S.SparseSemiStructuredTensor._FORCE_CUTLASS = True
        try:
            _raises(out, S.to_sparse_semi_structured, lib.randn(64, 64))
        finally:
            S.SparseSemiStructuredTensor._FORCE_CUTLASS = False
        _raises(out, S.SparseSemiStructuredTensor.from_dense, lib.randn(64, 64))
    _both(program)


def test_load_inline_without_ninja_raises_torchs_error(monkeypatch):
    monkeypatch.setenv("PATH", "")

    def program(lib, out):
        import importlib
        ce = importlib.import_module(f"{lib.__name__}.utils.cpp_extension")
        out.append(ce.is_ninja_available())
        _raises(out, ce.load_inline, name="tail_ext",
                cpp_sources="at::Tensor twice(at::Tensor x) { return x * 2; }",
                functions=["twice"])
        _raises(out, ce.load, name="tail_ext", sources=["missing.cpp"])
    _both(program)


def test_load_inline_cannot_build_against_a_cpp_api():
    """Where torch compiles the extension, Ember (no C++ API) raises its build error."""
    from ember.utils import cpp_extension
    if not cpp_extension.is_ninja_available():
        return
    try:
        cpp_extension.load_inline("tail_ext", "at::Tensor f(at::Tensor x) { return x; }",
                                  functions=["f"])
    except RuntimeError as e:
        assert str(e).startswith("Error building extension 'tail_ext': Ember has no C++ API")
    else:
        raise AssertionError("load_inline built an extension")


def test_optimize_for_mobile_raises_torchs_errors_on_a_cpu_build():
    import importlib

    def program(lib, out):
        mo = importlib.import_module(f"{lib.__name__}.utils.mobile_optimizer")
        m = lib.nn.Sequential(lib.nn.Conv2d(2, 3, 1), lib.nn.ReLU()).eval()
        s = lib.jit.script(m)
        _raises(out, mo.optimize_for_mobile, m)
        out[-1] = (out[-1][0], out[-1][1].replace("ember", "torch"))
        _raises(out, mo.optimize_for_mobile, s)
        _raises(out, mo.optimize_for_mobile, s, {mo.MobileOptimizerType.CONV_BN_FUSION})
        _raises(out, mo.optimize_for_mobile, s, preserved_methods=["absent"])
        _raises(out, mo.optimize_for_mobile, s, backend="gpu")
        kinds = mo.MobileOptimizerType
        out += [list(kinds.__members__), repr(kinds.REMOVE_DROPOUT), int(kinds.FUSE_ADD_RELU),
                list(mo.LintCode), mo.generate_mobile_module_lints(s)]
    _both(program)


# ----------------------------------------------------------------------------- checkpointing

def test_init_optim_state_steps_once_with_zero_gradients():
    import importlib

    def program(lib, out):
        S = importlib.import_module(f"{lib.__name__}.distributed.checkpoint.state_dict")
        m = lib.nn.Linear(3, 2)
        for opt in (lib.optim.Adam(m.parameters(), lr=0.1),
                    lib.optim.SGD(m.parameters(), lr=0.1, momentum=0.9),
                    lib.optim.AdamW(m.parameters(), lr=lib.tensor(0.01))):
            before = [p.clone() for p in m.parameters()]
            S._init_optim_state(opt)
            S._init_optim_state(opt)
            out += [type(opt).__name__, opt.state_dict(), [p.grad for p in m.parameters()],
                    [lib.equal(a, b) for a, b in zip(before, m.parameters())],
                    opt.param_groups[0]["lr"]]
        opt = lib.optim.Adam(m.parameters())
        m(lib.ones(1, 3)).sum().backward()
        S._init_optim_state(opt)                       # gradients present: left alone
        out.append(opt.state)
        m2 = lib.nn.Linear(2, 2)
        out.append(S.get_optimizer_state_dict(m2, lib.optim.Adam(m2.parameters())))
    _both(program)
