"""Quantization against torch 2.13 (fbgemm engine): quantized tensors (values bit for bit,
printing, errors), observers and qconfigs, eager static quantization, dynamic quantization
and the numeric suite."""

from __future__ import annotations

import copy
import importlib
import warnings

import numpy as np
import pytest

import ember
from tests.helpers import torch

LIBS = (torch, ember)


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _bits(t) -> bytes:
    if t.is_quantized:
        return t.int_repr().numpy().tobytes()
    return t.detach().numpy().tobytes()


def _both(fn):
    """``fn(lib)`` for torch and ember."""
    return [fn(lib) for lib in LIBS]


def _err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return None


def _data(seed, *shape, scale=1.0):
    return (np.random.RandomState(seed).randn(*shape) * scale).astype(np.float32)


# ----------------------------------------------------------------------------- tensors

@pytest.mark.parametrize("dtype,zp", [("qint8", 3), ("quint8", 128), ("qint32", 5),
                                      ("quint8", 0), ("qint8", -7)])
def test_quantize_per_tensor_bits_on_rounding_ties(dtype, zp):
    s = np.float32(0.02)
    base = ((np.random.RandomState(0).randint(-100, 100, 3000) + 0.5) * s).astype(np.float32)
    x = np.concatenate([base, np.nextafter(base, np.inf), np.nextafter(base, -np.inf),
                        _data(1, 999, scale=4)])
    t, e = _both(lambda lib: lib.quantize_per_tensor(lib.from_numpy(x.copy()), float(s), zp,
                                                     getattr(lib, dtype)))
    assert _bits(t) == _bits(e)
    assert _bits(t.dequantize()) == _bits(e.dequantize())
    assert (t.q_scale(), t.q_zero_point()) == (e.q_scale(), e.q_zero_point())
    assert repr(t) == repr(e)


@pytest.mark.parametrize("dtype", ["qint8", "quint8", "qint32"])
def test_quantize_per_channel_bits(dtype):
    x = _data(2, 6, 40, scale=2)
    sc = np.random.RandomState(3).rand(40) * 0.05 + 0.001
    zp = np.random.RandomState(4).randint(0 if dtype == "quint8" else -10, 10, 40)

    def run(lib):
        return lib.quantize_per_channel(lib.from_numpy(x.copy()), lib.from_numpy(sc.copy()),
                                        lib.from_numpy(zp.copy()), 1, getattr(lib, dtype))
    t, e = _both(run)
    assert _bits(t) == _bits(e)
    assert _bits(t.dequantize()) == _bits(e.dequantize())
    assert repr(t) == repr(e)
    assert t.q_per_channel_axis() == e.q_per_channel_axis() == 1
    assert repr(t.q_per_channel_scales()) == repr(e.q_per_channel_scales())
    assert repr(t.q_per_channel_zero_points()) == repr(e.q_per_channel_zero_points())


def test_quantized_tensor_attributes_views_and_printing():
    def run(lib):
        q = lib.quantize_per_tensor(lib.tensor([[0.5, -1.0, 7.0], [2.0, 3.0, -0.25]]), 0.1, 2,
                                    lib.quint8)
        return [repr(q), str(q.dtype), str(q.qscheme()), q.is_quantized, q.element_size(),
                tuple(q.shape), q.stride(), q.dim(), q.numel(), repr(q.int_repr()),
                repr(q.dequantize()), repr(q.t()), repr(q[1]), repr(q.view(3, 2)),
                repr(q.reshape(-1)), repr(q.clone()), repr(q.detach()), repr(q.relu()),
                repr(lib.nn.functional.relu(q)), q[0, 0].item(), lib.equal(q, q.clone()),
                repr(q.flatten()), repr(q.t().contiguous()), repr(q == q),
                lib.tensor([1.0]).is_quantized, repr(lib.dequantize(q))]
    t, e = _both(run)
    assert t == e


def test_quantized_dtypes():
    def run(lib):
        out = []
        for name in ("qint8", "quint8", "qint32", "quint4x2", "quint2x4"):
            d = getattr(lib, name)
            out += [repr(d), d.itemsize, d.is_floating_point, d.is_complex]
        out += [repr(lib.per_tensor_affine), repr(lib.per_channel_symmetric),
                repr(lib.per_channel_affine_float_qparams), type(lib.per_tensor_affine).__name__,
                _err(lambda: lib.promote_types(lib.qint8, lib.float))]
        return out
    t, e = _both(run)
    assert t == e


@pytest.mark.parametrize("case", ["add", "exp", "mul", "float", "to", "numpy", "tolist",
                                  "double_input", "zp_low", "zp_high"])
def test_quantized_tensor_errors(case):
    def run(lib):
        q = lib.quantize_per_tensor(lib.tensor([0.5, -1.0]), 0.1, 3, lib.qint8)
        fn = {"add": lambda: q + q, "exp": lambda: q.exp(), "mul": lambda: q * 2,
              "float": lambda: q.float(), "to": lambda: q.to(lib.float32),
              "numpy": lambda: q.numpy(), "tolist": lambda: q.tolist(),
              "double_input": lambda: lib.quantize_per_tensor(lib.tensor([1.0]).double(), 0.1,
                                                               0, lib.qint8),
              "zp_low": lambda: lib.quantize_per_tensor(lib.tensor([1.0]), 0.1, -1, lib.quint8),
              "zp_high": lambda: lib.quantize_per_tensor(lib.tensor([1.0]), 0.1, 300,
                                                          lib.quint8)}[case]
        return _err(fn)
    t, e = _both(run)
    assert t[0] == e[0]
    if t[0] == "NotImplementedError":       # the dispatcher's message, up to its backend list
        assert e[1].startswith(t[1].split(" is only available")[0])
    else:
        assert t[1] == e[1]


@pytest.mark.parametrize("reduce_range", [False, True])
def test_choose_qparams_per_tensor(reduce_range):
    for seed in range(20):
        x = _data(seed, 50, scale=[1e-6, 0.01, 1, 300][seed % 4]) + (seed % 3 - 1) * seed
        t, e = _both(lambda lib, x=x: lib._choose_qparams_per_tensor(lib.from_numpy(x.copy()),
                                                                     reduce_range))
        assert t == e


# ----------------------------------------------------------------------------- observers

@pytest.mark.parametrize("make", [
    lambda q: q.MinMaxObserver(),
    lambda q: q.MinMaxObserver(dtype=q.torch_qint8, qscheme=q.torch_sym),
    lambda q: q.MinMaxObserver(reduce_range=True),
    lambda q: q.MovingAverageMinMaxObserver(averaging_constant=0.1),
    lambda q: q.PerChannelMinMaxObserver(ch_axis=1),
    lambda q: q.PerChannelMinMaxObserver(dtype=q.torch_qint8, qscheme=q.torch_chsym),
    lambda q: q.MovingAveragePerChannelMinMaxObserver(averaging_constant=0.5),
    lambda q: q.default_observer(),
    lambda q: q.default_weight_observer(),
    lambda q: q.default_per_channel_weight_observer(),
    lambda q: q.default_float_qparams_observer(),
])
def test_observers_qparams_and_repr(make):
    def run(lib):
        q = lib.ao.quantization
        q.torch_qint8, q.torch_sym, q.torch_chsym = (lib.qint8, lib.per_tensor_symmetric,
                                                     lib.per_channel_symmetric)
        obs = make(q)
        out = [repr(obs)]
        for seed in range(3):
            obs(lib.from_numpy(_data(seed, 4, 5, scale=seed + 0.5)))
        scale, zp = obs.calculate_qparams()
        return out + [repr(obs), _bits(scale), _bits(zp), str(scale.dtype), str(zp.dtype)]
    t, e = _both(run)
    assert t == e


def test_qconfigs_print_as_torch():
    def run(lib):
        q = lib.ao.quantization
        texts = [repr(q.default_qconfig), repr(q.default_dynamic_qconfig),
                 repr(q.float_qparams_weight_only_qconfig), repr(q.per_channel_dynamic_qconfig),
                 repr(q.get_default_qconfig("x86")), repr(q.get_default_qconfig("fbgemm")),
                 repr(q.get_default_qconfig("qnnpack")),
                 repr(q.QConfigMapping().set_global(q.default_qconfig))]
        return [s.replace("ember.", "torch.") for s in texts]
    t, e = _both(run)
    assert t == e
    assert torch.quantization.default_qconfig is torch.ao.quantization.default_qconfig
    assert ember.quantization.default_qconfig is ember.ao.quantization.default_qconfig
    assert ember.backends.quantized.engine == torch.backends.quantized.engine


# ----------------------------------------------------------------------------- models

def _mlp(lib, seed=0, sizes=(16, 32, 8)):
    lib.manual_seed(seed)
    layers = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [lib.nn.Linear(a, b), lib.nn.ReLU()]
    return lib.nn.Sequential(*layers[:-1])


@pytest.mark.parametrize("shape", [(5, 16), (3, 4, 16), (1, 16), (40, 16)])
@pytest.mark.parametrize("spec", ["set", "dict", "none", "per_channel"])
def test_quantize_dynamic_linear_bits(shape, spec):
    def run(lib):
        m = _mlp(lib, seed=shape[0])
        q = lib.ao.quantization
        qspec = {"set": {lib.nn.Linear}, "none": None,
                 "dict": {lib.nn.Linear: q.default_dynamic_qconfig},
                 "per_channel": {lib.nn.Linear: q.per_channel_dynamic_qconfig}}[spec]
        qm = lib.quantization.quantize_dynamic(m, qspec, dtype=lib.qint8)
        x = lib.from_numpy(_data(sum(shape), *shape, scale=3))
        y = qm(x)
        return [repr(qm), _bits(y), repr(y), repr(qm[0].weight()), repr(qm[2].bias()),
                list(qm.state_dict()), repr(m)]
    t, e = _both(run)
    assert t == e


def test_quantize_dynamic_keeps_the_float_model_and_names_modules():
    def run(lib):
        m = _mlp(lib, seed=3, sizes=(8, 8, 8, 4))
        qconfig = lib.ao.quantization.default_dynamic_qconfig
        qm = lib.quantization.quantize_dynamic(m, {"0": qconfig})
        x = lib.from_numpy(_data(9, 2, 8))
        return [repr(qm), _bits(qm(x)), _bits(m(x)), hasattr(m[0], "qconfig")]
    t, e = _both(run)
    assert t == e


class _Static:
    """A model with QuantStub / DeQuantStub around two linear layers."""

    @staticmethod
    def make(lib, seed=0):
        lib.manual_seed(seed)
        q = lib.ao.quantization

        class M(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.quant = q.QuantStub()
                self.fc1 = lib.nn.Linear(12, 20)
                self.relu = lib.nn.ReLU()
                self.fc2 = lib.nn.Linear(20, 6)
                self.dequant = q.DeQuantStub()

            def forward(self, x):
                return self.dequant(self.fc2(self.relu(self.fc1(self.quant(x)))))
        return M().eval()


@pytest.mark.parametrize("qconfig", ["default_qconfig", "default_per_channel_qconfig"])
def test_static_quantization_prepare_convert_bits(qconfig):
    def run(lib):
        m = _Static.make(lib, seed=1)
        m.qconfig = getattr(lib.ao.quantization, qconfig)
        p = lib.ao.quantization.prepare(m)
        out = [repr(p).replace("ember.", "torch.")]
        for seed in range(4):
            p(lib.from_numpy(_data(seed, 7, 12, scale=2)))
        out.append(repr(p))
        c = lib.ao.quantization.convert(p)
        y = c(lib.from_numpy(_data(11, 9, 12, scale=2.5)))
        sd = c.state_dict()
        out += [repr(c), _bits(y), repr(y), list(sd), repr(sd["fc1.scale"]),
                repr(sd["fc1._packed_params._packed_params"][0]), repr(m)]
        return out
    t, e = _both(run)
    assert t == e


def test_quantize_with_default_eval_fn():
    def run(lib):
        m = _Static.make(lib, seed=2)
        m.qconfig = lib.quantization.default_qconfig
        calib = [(lib.from_numpy(_data(s, 5, 12)), None) for s in range(3)]
        qm = lib.quantization.quantize(m, lib.quantization.default_eval_fn, [calib])
        y = qm(lib.from_numpy(_data(20, 4, 12)))
        return [repr(qm), _bits(y)]
    t, e = _both(run)
    assert t == e


def test_quantized_linear_requantization_bits():
    """The integer kernel on wide layers (remainder columns, large accumulators)."""
    def run(lib):
        m = _Static.make(lib, seed=5)
        m.fc1 = lib.nn.Linear(12, 37)
        m.fc2 = lib.nn.Linear(37, 70)
        m.qconfig = lib.ao.quantization.default_per_channel_qconfig
        p = lib.ao.quantization.prepare(m)
        p(lib.from_numpy(_data(1, 30, 12, scale=4)))
        c = lib.ao.quantization.convert(p)
        return _bits(c(lib.from_numpy(_data(2, 13, 12, scale=5))))
    t, e = _both(run)
    assert t == e


# ----------------------------------------------------------------------------- numeric suite

def _compute_error(lib, x, y):
    return (20 * lib.log10(lib.norm(x) / lib.norm(x - y))).item()


def test_numeric_suite_static_model():
    def run(lib):
        ns = importlib.import_module(lib.__name__ + ".quantization._numeric_suite")
        float_model = _Static.make(lib, seed=4)
        float_model.qconfig = lib.quantization.default_qconfig
        data = [(lib.from_numpy(_data(s, 6, 12)), None) for s in range(2)]
        qmodel = lib.quantization.quantize(float_model, lib.quantization.default_eval_fn,
                                           [data])
        out = []
        wt = ns.compare_weights(float_model.state_dict(), qmodel.state_dict())
        for key in wt:
            out += [key, repr(wt[key]["float"]), repr(wt[key]["quantized"]),
                    _compute_error(lib, wt[key]["float"], wt[key]["quantized"].dequantize())]
        x = lib.from_numpy(_data(7, 5, 12))
        act = ns.compare_model_outputs(copy.deepcopy(float_model), copy.deepcopy(qmodel), x)
        for key in act:
            f, q = act[key]["float"][0], act[key]["quantized"][0]
            out += [key, repr(f), repr(q), _bits(f), _bits(q)]
        stub = ns.compare_model_stub(copy.deepcopy(float_model), copy.deepcopy(qmodel),
                                     {lib.nn.Linear}, x)
        for key in stub:
            out += [key, repr(stub[key]["float"][0]), repr(stub[key]["quantized"][0])]
        q2 = copy.deepcopy(qmodel)
        f2 = copy.deepcopy(float_model)
        ns.prepare_model_outputs(f2, q2)
        f2(x)
        q2(x)
        out += [sorted(ns.get_logger_dict(q2)), sorted(ns.get_matching_activations(f2, q2)),
                repr(q2).replace("ember.", "torch.")]
        logger = ns.ShadowLogger()
        out += [sorted(logger.stats), isinstance(logger, ns.Logger), repr(logger)]
        return out
    t, e = _both(run)
    assert t == e


def test_numeric_suite_dynamic_model():
    def run(lib):
        ns = importlib.import_module(lib.__name__ + ".quantization._numeric_suite")
        float_model = _mlp(lib, seed=6, sizes=(10, 12, 4)).eval()
        qmodel = lib.quantization.quantize_dynamic(float_model, {lib.nn.Linear},
                                                   dtype=lib.qint8)
        out = []
        wt = ns.compare_weights(float_model.state_dict(), qmodel.state_dict())
        for key in wt:
            out += [key, _compute_error(lib, wt[key]["float"], wt[key]["quantized"].dequantize())]
        x = lib.from_numpy(_data(8, 3, 10))
        act = ns.compare_model_outputs(float_model, qmodel, x)
        for key in act:
            out += [key, _bits(act[key]["float"][0]), _bits(act[key]["quantized"][0])]
        return out
    t, e = _both(run)
    assert t == e


@pytest.mark.parametrize("kwargs", [{}, {"reduce_range": True}, {"bins": 256},
                                    {"dtype": "qint8", "qscheme": "per_tensor_symmetric"}])
def test_histogram_observer_bits(kwargs):
    def run(lib):
        kw = {k: getattr(lib, v) if isinstance(v, str) else v for k, v in kwargs.items()}
        obs = lib.ao.quantization.HistogramObserver(**kw)
        out = []
        # growing, shrinking and shifted ranges: reset, equal-range and upscaled merges
        for seed, scale, shift in [(0, 1.0, 0.0), (1, 0.5, 0.1), (2, 3.0, -1.0), (3, 1.0, 2.0)]:
            obs(lib.from_numpy(_data(seed, 300, scale=scale) + np.float32(shift)))
            out += [_bits(obs.histogram), _bits(obs.min_val), _bits(obs.max_val)]
        scale, zp = obs.calculate_qparams()
        return out + [_bits(scale), _bits(zp), repr(obs)]
    t, e = _both(run)
    assert t == e


def test_static_quantization_with_x86_default_qconfig():
    def run(lib):
        m = _Static.make(lib, seed=8)
        m.qconfig = lib.quantization.get_default_qconfig("x86")
        p = lib.ao.quantization.prepare(m)
        for seed in range(3):
            p(lib.from_numpy(_data(seed, 16, 12, scale=1.5)))
        c = lib.ao.quantization.convert(p)
        y = c(lib.from_numpy(_data(9, 6, 12, scale=2)))
        return [repr(c), _bits(y)]
    t, e = _both(run)
    assert t == e


@pytest.mark.parametrize("kwargs,shape", [({}, (5, 3, 6)), ({"num_layers": 2}, (4, 2, 6)),
                                          ({"bidirectional": True}, (3, 2, 6)),
                                          ({"batch_first": True, "num_layers": 2}, (2, 5, 6))])
@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_quantize_dynamic_lstm_bits(kwargs, shape, kind):
    def run(lib):
        lib.manual_seed(3)
        m = lib.nn.Sequential(getattr(lib.nn, kind)(6, 8, **kwargs))
        qm = lib.quantization.quantize_dynamic(m)
        x = lib.from_numpy(_data(5, *shape, scale=2))
        out, state = qm[0](x)
        states = state if kind == "LSTM" else (state,)
        w = qm[0].get_weight()
        return [repr(qm), _bits(out), [_bits(s) for s in states], repr(out),
                sorted(qm.state_dict()), {k: repr(v) for k, v in w.items()},
                sorted(qm[0].get_bias()), repr(lib.randn(2))]
    t, e = _both(run)
    assert t == e


def test_dynamic_lstm_input_errors():
    def run(lib):
        lib.manual_seed(0)
        qm = lib.quantization.quantize_dynamic(lib.nn.Sequential(lib.nn.LSTM(6, 8)))
        return [_err(lambda: qm(lib.randn(4, 6))), _err(lambda: qm(lib.randn(4, 2, 5)))]
    t, e = _both(run)
    assert t == e


def test_numeric_suite_dynamic_lstm_model():
    """The numeric suite tutorial's second part: an LSTM language model quantized
    dynamically, its weights and outputs compared."""
    def run(lib):
        ns = importlib.import_module(lib.__name__ + ".quantization._numeric_suite")
        lib.manual_seed(7)

        class LSTMModel(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = lib.nn.Embedding(20, 8)
                self.rnn = lib.nn.LSTM(8, 10, 2)
                self.decoder = lib.nn.Linear(10, 20)

            def forward(self, ids, hidden):
                out, hidden = self.rnn(self.encoder(ids), hidden)
                return self.decoder(out), hidden
        float_model = LSTMModel().eval()
        qmodel = lib.quantization.quantize_dynamic(float_model, {lib.nn.LSTM, lib.nn.Linear},
                                                   dtype=lib.qint8)
        out = [repr(qmodel)]
        wt = ns.compare_weights(float_model.state_dict(), qmodel.state_dict())
        for key in wt:
            f, q = wt[key]["float"], wt[key]["quantized"].dequantize()
            out += [key, _compute_error(lib, f, q)]
        ids = lib.randint(0, 20, (5, 2))
        hidden = (lib.zeros(2, 2, 10), lib.zeros(2, 2, 10))
        act = ns.compare_model_outputs(float_model, qmodel, ids, hidden)
        for key in act:
            f, q = act[key]["float"][0], act[key]["quantized"][0]
            f, q = (f[0], q[0]) if isinstance(f, tuple) else (f, q)
            out += [key, _bits(f), _bits(q)]
        return out
    t, e = _both(run)
    assert t == e


def test_quantized_state_dict_saves_and_loads_across_libraries(tmp_path):
    def save(lib, path):
        lib.manual_seed(0)
        m = lib.nn.Sequential(lib.nn.Linear(6, 5), lib.nn.ReLU(), lib.nn.Linear(5, 3))
        q = lib.quantization.quantize_dynamic(m, {lib.nn.Linear}, dtype=lib.qint8)
        pc = lib.quantize_per_channel(lib.from_numpy(_data(1, 3, 4)),
                                      lib.tensor([0.1, 0.2, 0.3], dtype=lib.float64),
                                      lib.tensor([0, 1, 2]), 0, lib.quint8)
        lib.save({"sd": q.state_dict(), "pc": pc}, path)

    def load(lib, path):
        d = lib.load(path)
        lib.manual_seed(1)
        m = lib.nn.Sequential(lib.nn.Linear(6, 5), lib.nn.ReLU(), lib.nn.Linear(5, 3))
        q = lib.quantization.quantize_dynamic(m, {lib.nn.Linear}, dtype=lib.qint8)
        keys = repr(q.load_state_dict(d["sd"]))
        return [list(d["sd"]), repr(d["sd"]["0._packed_params._packed_params"][0]),
                repr(d["pc"]), keys, _bits(q(lib.ones(2, 6)))]
    results = []
    for writer in LIBS:
        path = tmp_path / f"{writer.__name__}.pt"
        save(writer, path)
        results += [load(reader, path) for reader in LIBS]
    assert all(r == results[0] for r in results)


# ----------------------------------------------------------------------------- convolutions

def _cnn(lib):
    lib.manual_seed(0)
    nn = lib.nn
    q = lib.ao.quantization

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.quant = q.QuantStub()
            self.conv = nn.Conv2d(3, 8, 3, padding=1, bias=False)
            self.bn = nn.BatchNorm2d(8)
            self.relu = nn.ReLU()
            self.conv2 = nn.Conv2d(8, 6, 3, stride=2, groups=2, dilation=2)
            self.relu2 = nn.ReLU()
            self.conv3 = nn.Conv2d(6, 5, 1)
            self.fc = nn.Linear(5, 4)
            self.relu3 = nn.ReLU()
            self.dequant = q.DeQuantStub()

        def forward(self, x):
            x = self.conv3(self.relu2(self.conv2(self.relu(self.bn(self.conv(self.quant(x)))))))
            return self.dequant(self.relu3(self.fc(x.permute(0, 2, 3, 1))))
    m = M().eval()
    m.bn.running_mean.uniform_(-1, 1)
    m.bn.running_var.uniform_(0.5, 2)
    return m


@pytest.mark.parametrize("qconfig", ["default_qconfig", "default_per_channel_qconfig", "x86"])
def test_fuse_modules_and_static_quantized_convolutions(qconfig):
    def run(lib):
        q = lib.ao.quantization
        m = _cnn(lib)
        f = q.fuse_modules(m, [["conv", "bn", "relu"], ["conv2", "relu2"], ["fc", "relu3"]])
        x = lib.from_numpy(_data(3, 2, 3, 11, 11, scale=2))
        out = [repr(f), _bits(f(x)), _bits(m(x))]
        f.qconfig = q.get_default_qconfig("x86") if qconfig == "x86" else getattr(q, qconfig)
        p = q.prepare(f)
        for seed in range(2):
            p(lib.from_numpy(_data(seed, 2, 3, 11, 11, scale=2)))
        c = q.convert(p)
        y = c(x)
        conv3 = c.conv3(c.conv2(c.conv(c.quant(x))))
        return out + [repr(p), repr(c), _bits(y), _bits(conv3), repr(conv3),
                      list(c.state_dict()), repr(c.conv.weight())]
    t, e = _both(run)
    assert t == e


def test_fuse_modules_errors():
    def run(lib):
        m = _cnn(lib)
        return [_err(lambda: lib.ao.quantization.fuse_modules(m, ["conv", "conv2"])),
                _err(lambda: lib.ao.quantization.fuse_modules(m.train(), ["conv", "bn"]))]
    t, e = _both(run)
    assert t[0] == (e[0][0], e[0][1].replace("ember.", "torch."))
    assert t[1] == e[1]


@pytest.mark.parametrize("seed", range(6))
def test_quantized_pooling_cat_flatten_bits(seed):
    rs = np.random.RandomState(seed)
    h, w = rs.randint(3, 12, 2)
    zp, s = int(rs.randint(0, 256)), float(rs.rand() * 0.2 + 0.001)
    x = _data(seed, 2, 3, h, w, scale=3)
    oh, ow = int(rs.randint(1, h + 1)), int(rs.randint(1, w + 1))
    k = int(rs.randint(1, min(h, w) + 1))
    st, pad = int(rs.randint(1, 3)), int(rs.randint(0, k // 2 + 1))

    def run(lib):
        F = lib.nn.functional
        q = lib.quantize_per_tensor(lib.from_numpy(x.copy()), s, zp, lib.quint8)
        other = lib.quantize_per_tensor(lib.from_numpy(x[:1].copy() * 0.7), s * 1.3,
                                        min(zp + 5, 255), lib.quint8)
        outs = [F.adaptive_avg_pool2d(q, (oh, ow)), F.adaptive_avg_pool2d(q, 1),
                F.avg_pool2d(q, k), F.avg_pool2d(q, k, st, pad),
                F.avg_pool2d(q, k, st, pad, count_include_pad=False),
                F.max_pool2d(q, k), F.max_pool2d(q, k, st, pad),
                lib.nn.AdaptiveAvgPool2d((1, 1))(q), lib.nn.MaxPool2d(2)(q),
                lib.cat([q, other]), lib.cat([other, q], 0), lib.flatten(q, 1)]
        return [(_bits(o), repr(o)) for o in outs]
    t, e = _both(run)
    assert t == e


def test_float_functional_residual_block_bits():
    """A residual block with FloatFunctional add_relu / mul / cat, quantized statically;
    a large add splits between threads as torch's loop does."""
    def run(lib):
        nn = lib.nn
        q = lib.ao.quantization
        lib.manual_seed(0)

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.quant = q.QuantStub()
                self.conv1 = nn.Conv2d(4, 4, 3, padding=1)
                self.relu = nn.ReLU()
                self.conv2 = nn.Conv2d(4, 4, 3, padding=1)
                self.skip = nn.quantized.FloatFunctional()
                self.mulf = nn.quantized.FloatFunctional()
                self.catf = nn.quantized.FloatFunctional()
                self.pool = nn.AdaptiveAvgPool2d(1)
                self.fc = nn.Linear(8, 3)
                self.dequant = q.DeQuantStub()

            def forward(self, x):
                x = self.quant(x)
                y = self.conv2(self.relu(self.conv1(x)))
                z = self.skip.add_relu(x, y)
                c = self.catf.cat([z, self.mulf.mul(z, y)], 1)
                return self.dequant(self.fc(lib.flatten(self.pool(c), 1)))
        m = Block().eval()
        m.qconfig = q.get_default_qconfig("x86")
        p = q.prepare(q.fuse_modules(m, [["conv1", "relu"]]))
        for seed in range(2):
            p(lib.from_numpy(_data(seed, 3, 4, 12, 12)))
        c = q.convert(p)
        y = c(lib.from_numpy(_data(5, 2, 4, 12, 12)))
        a = c.quant(lib.from_numpy(_data(6, 4, 4, 64, 64)))
        b = c.quant(lib.from_numpy(_data(7, 4, 4, 64, 64)))
        return [repr(m), repr(p.skip), repr(c), _bits(y), _bits(c.skip.add(a, b)),
                _bits(c.skip.add_relu(a, b)), list(c.state_dict())]
    t, e = _both(run)
    assert t == e


def test_quantized_embedding_float_qparams_bits():
    def run(lib):
        q = lib.ao.quantization
        lib.manual_seed(0)
        m = lib.nn.Sequential(lib.nn.Embedding(11, 7, padding_idx=1), lib.nn.Linear(7, 3))
        m[0].qconfig = q.float_qparams_weight_only_qconfig
        qm = q.convert(q.prepare(m))
        idx = lib.randint(0, 11, (3, 4))
        spec = {lib.nn.Embedding: q.float_qparams_weight_only_qconfig}
        qd = lib.quantization.quantize_dynamic(m, spec)
        qd8 = lib.quantization.quantize_dynamic(m, dtype=lib.quint8)
        big = lib.quantization.quantize_dynamic(lib.nn.Sequential(lib.nn.Embedding(300, 40)),
                                                {lib.nn.Embedding}, dtype=lib.quint8)
        return [repr(qm), list(qm.state_dict()), repr(qm[0].weight()), _bits(qm[0](idx)),
                _bits(qm(idx)), repr(qd), _bits(qd(idx)), repr(qd8), _bits(qd8(idx)),
                _bits(big(lib.arange(300)))]
    t, e = _both(run)
    assert t == e


@pytest.mark.parametrize("name", ["q_scale", "q_zero_point", "int_repr", "qscheme",
                                  "q_per_channel_scales", "q_per_channel_zero_points",
                                  "q_per_channel_axis"])
def test_quantized_only_methods_on_a_plain_tensor(name):
    t, e = _both(lambda lib: _err(lambda: getattr(lib.ones(2), name)()))
    assert t[0] == e[0] == "NotImplementedError"
    assert e[1].startswith(t[1].split(" is only available")[0])
