"""torch's small namespaces, against torch: layouts, futures, ``__future__``'s conversion
switches, ``utils._triton``, ``serialization.safe_globals``, ``Tensor.dequantize``."""

import fractions
import io
import pickle

import pytest

import ember

torch = pytest.importorskip("torch")


def test_layouts_print_and_compare_as_torchs():
    names = ["strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc",
             "jagged"]
    for n in names:
        assert repr(getattr(ember, n)) == repr(getattr(torch, n)) == str(getattr(ember, n))
        assert isinstance(getattr(ember, n), ember.layout)
    assert ember.ones(2).layout is ember.strided != ember.sparse_coo
    assert pickle.loads(pickle.dumps(ember.strided)) is ember.strided


def _futures(lib):
    F = lib.futures
    f = F.Future()
    g = f.then(lambda fut: fut.wait() * 10)
    seen = []
    f.add_done_callback(lambda fut: seen.append(fut.value()))
    before = f.done()
    f.set_result(3)
    try:
        f.set_result(4)
    except RuntimeError as e:
        twice = str(e)
    bad = F.Future()
    bad.set_exception(ValueError("boom"))
    try:
        bad.wait()
    except ValueError as e:
        raised = str(e)
    both = F.collect_all([f, g]).wait()
    return (before, f.done(), f.wait(), g.wait(), seen, twice, raised,
            [x.wait() for x in both], F.wait_all([f, g]), F.wait_all([]))


def test_futures_as_torchs():
    assert _futures(ember) == _futures(torch)
    bad = ember.futures.Future()
    bad.set_exception(ValueError("boom"))
    with pytest.raises(ValueError, match="boom"):
        bad.then(lambda fut: fut.wait()).wait()


def _conversions(lib):
    F = lib.__future__
    out = [F.get_overwrite_module_params_on_conversion(),
           F.get_swap_module_params_on_conversion()]
    m = lib.nn.Linear(2, 2)
    w = m.weight
    m.double()
    out.append(m.weight is w)
    F.set_overwrite_module_params_on_conversion(True)
    try:
        m.float()
        out += [m.weight is w, str(m.weight.dtype), type(m.weight).__name__, m.weight.requires_grad,
                F.get_overwrite_module_params_on_conversion()]
    finally:
        F.set_overwrite_module_params_on_conversion(False)
    F.set_swap_module_params_on_conversion(True)
    out.append(F.get_swap_module_params_on_conversion())
    F.set_swap_module_params_on_conversion(False)
    return out


def test_module_conversion_switches_as_torchs():
    assert _conversions(ember) == _conversions(torch)


def test_has_triton_as_a_cpu_torch():
    import torch.utils._triton as tt

    import ember.utils._triton as et
    assert et.has_triton() is tt.has_triton() is False
    assert et.has_triton_package() is False


def _safe_load(lib):
    buf = io.BytesIO()
    lib.save({"f": fractions.Fraction(1, 3), "t": lib.ones(2)}, buf)
    out = []
    for allow in (None, [fractions.Fraction], [(fractions.Fraction, "fractions.Fraction")]):
        buf.seek(0)
        try:
            if allow is None:
                lib.load(buf)
            else:
                with lib.serialization.safe_globals(allow):
                    got = lib.load(buf)
                out.append((got["f"], got["t"].tolist(), lib.serialization.get_safe_globals()))
        except pickle.UnpicklingError as e:
            out.append(str(e).replace("\x1b[1m", "").replace("\x1b[0m", "")[-400:])
    lib.serialization.add_safe_globals([fractions.Fraction])
    buf.seek(0)
    out.append(lib.load(buf)["f"])
    lib.serialization.clear_safe_globals()
    return out


def test_safe_globals_as_torchs():
    before = torch.serialization.get_safe_globals()
    try:
        want = _safe_load(torch)
    finally:
        torch.serialization.clear_safe_globals()
        torch.serialization.add_safe_globals(before)
    got = _safe_load(ember)
    assert got[0] == want[0] and got[3] == want[3]
    assert got[1][:2] == want[1][:2] and got[2][:2] == want[2][:2]
    assert ember.serialization.get_safe_globals() == []


def test_dequantize_as_torchs():
    for dt in ("float32", "float64", "float16", "int64", "bool"):
        t, e = torch.ones(2, dtype=getattr(torch, dt)), ember.ones(2, dtype=getattr(ember, dt))
        assert (e.dequantize() is e) == (t.dequantize() is t)
        assert str(e.dequantize().dtype) == str(t.dequantize().dtype)


def test_safe_globals_lists_its_entries_inside_the_block_only():
    with ember.serialization.safe_globals([fractions.Fraction]):
        assert ember.serialization.get_safe_globals() == [fractions.Fraction]
    assert ember.serialization.get_safe_globals() == []


def _swapped(lib):
    a, b = lib.ones(2, requires_grad=True), lib.zeros(3)
    p = lib.nn.Parameter(lib.full((1,), 5.0))
    lib.utils.swap_tensors(a, b)
    lib.utils.swap_tensors(p, b)
    (b * 2).sum().backward()
    return (a.tolist(), a.requires_grad, type(p).__name__, p.tolist(), type(b).__name__,
            b.tolist(), b.grad.tolist())


def test_swap_tensors_as_torchs():
    assert _swapped(ember) == _swapped(torch)


def test_load_url_downloads_once_into_model_dir(tmp_path):
    src = tmp_path / "w-1234.pt"
    ember.save({"a": ember.arange(3)}, src)
    hub = tmp_path / "hub"
    for _ in range(2):
        got = ember.utils.model_zoo.load_url(f"file://{src}", model_dir=str(hub))
        assert got["a"].tolist() == [0, 1, 2]
    assert [f.name for f in hub.iterdir()] == ["w-1234.pt"]
    with pytest.raises(RuntimeError, match="invalid hash value"):
        ember.hub.load_state_dict_from_url(f"file://{src}", model_dir=str(tmp_path / "h2"),
                                           check_hash=True)


def test_cuda_tools_fail_as_a_cpu_torchs():
    for name in ("memory._record_memory_history", "memory._snapshot", "nccl.version"):
        errs = []
        for lib in (torch, ember):
            fn = lib.cuda
            for part in name.split("."):
                fn = getattr(fn, part)
            with pytest.raises(AttributeError) as e:
                fn()
            errs.append(str(e.value))
        assert errs[0] == errs[1]
    assert ember.backends.quantized.engine == torch.backends.quantized.engine
    assert ember.backends.quantized.supported_engines == \
        torch.backends.quantized.supported_engines


def test_amp_foreach_unscale_as_torchs():
    def run(lib):
        g = [lib.tensor([2.0, 4.0]), lib.tensor([1.0, float("inf")])]
        f = lib.zeros(1)
        lib._amp_foreach_non_finite_check_and_unscale_(g[:1], f, lib.tensor(0.5))
        first = f.item()
        lib._amp_foreach_non_finite_check_and_unscale_(g, f, lib.tensor(0.25))
        return first, f.item(), [t.tolist() for t in g]
    assert run(ember) == run(torch)
