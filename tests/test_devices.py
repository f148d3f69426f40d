"""Asking for a device other than the CPU raises what a CPU build of torch raises, from every
entry point that takes a ``device``: factories, ``*_like``, ``new_*``, copies (``torch.tensor``,
``Tensor.to``, ``Module.to``) and the ``device=`` argument of every layer's constructor."""

import warnings

import pytest
import torch

import ember

DEVICES = ["cuda", "cuda:1", "xpu", "ipu", "ipu:1", "mps", "mps:0", "hip", "ve:0", "xla", "xla:2",
           "lazy", "vulkan", "mkldnn", "opengl", "hpu", "mtia", "privateuseone"]

CALLS = {
    "empty": lambda t, d: t.empty(2, device=d),
    "zeros": lambda t, d: t.zeros(2, 3, device=d),
    "randn": lambda t, d: t.randn(2, device=d),
    "arange": lambda t, d: t.arange(3, device=d),
    "eye": lambda t, d: t.eye(2, device=d),
    "tensor": lambda t, d: t.tensor([1.0], device=d),
    "as_tensor": lambda t, d: t.as_tensor([1.0], device=d),
    "to": lambda t, d: t.ones(2).to(d),
    "to_kw": lambda t, d: t.ones(2).to(device=d),
    "zeros_like": lambda t, d: t.zeros_like(t.ones(2), device=d),
    "rand_like": lambda t, d: t.rand_like(t.ones(2), device=d),
    "randint_like": lambda t, d: t.randint_like(t.ones(2), 5, device=d),
    "new_ones": lambda t, d: t.ones(2).new_ones(2, device=d),
    "new_empty": lambda t, d: t.ones(2).new_empty(2, device=d),
    "new_empty_size": lambda t, d: t.ones(2).new_empty(size=(2,), device=d),
    "new_zeros_negative": lambda t, d: t.ones(2).new_zeros(-1, device=d),
    "new_ones_negative": lambda t, d: t.ones(2).new_ones((2, -1), device=d),
    "new_tensor": lambda t, d: t.ones(2).new_tensor([1.0], device=d),
    "new_full": lambda t, d: t.ones(2).new_full((2,), 1.0, device=d),
    "module_to": lambda t, d: t.nn.Linear(2, 2).to(d),
}

LAYERS = {
    "Linear": lambda nn, d: nn.Linear(2, 3, device=d),
    "Bilinear": lambda nn, d: nn.Bilinear(2, 2, 2, device=d),
    "Conv2d": lambda nn, d: nn.Conv2d(2, 3, 3, device=d),
    "ConvTranspose1d": lambda nn, d: nn.ConvTranspose1d(2, 3, 3, device=d),
    "BatchNorm2d": lambda nn, d: nn.BatchNorm2d(3, device=d),
    "InstanceNorm1d": lambda nn, d: nn.InstanceNorm1d(3, affine=True, device=d),
    "LayerNorm": lambda nn, d: nn.LayerNorm(3, device=d),
    "GroupNorm": lambda nn, d: nn.GroupNorm(1, 3, device=d),
    "RMSNorm": lambda nn, d: nn.RMSNorm(3, device=d),
    "Embedding": lambda nn, d: nn.Embedding(3, 4, device=d),
    "EmbeddingBag": lambda nn, d: nn.EmbeddingBag(3, 4, device=d),
    "PReLU": lambda nn, d: nn.PReLU(device=d),
    "LSTM": lambda nn, d: nn.LSTM(2, 3, device=d),
    "GRUCell": lambda nn, d: nn.GRUCell(2, 3, device=d),
    "MultiheadAttention": lambda nn, d: nn.MultiheadAttention(4, 2, kdim=3, vdim=3, device=d),
    "TransformerEncoderLayer": lambda nn, d: nn.TransformerEncoderLayer(4, 2, 8, device=d),
    "LazyLinear": lambda nn, d: nn.LazyLinear(3, device=d),
    "LazyBatchNorm1d": lambda nn, d: nn.LazyBatchNorm1d(device=d),
    "AdaptiveLogSoftmaxWithLoss":
        lambda nn, d: nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2], device=d),
}


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn()
        except Exception as e:      # noqa: BLE001 - the class and message are what we compare
            return type(e).__name__, str(e)
    return "ok", ""


def _same(mine, theirs):
    """Equal class and message; torch's NotImplementedError goes on to list its backends and
    the files its kernels were registered in: Ember's message is its first paragraph."""
    if mine[0] == theirs[0] == "NotImplementedError":
        return theirs[1].startswith(mine[1]) and mine[1].endswith("possible resolutions.")
    return mine == theirs


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("call", list(CALLS))
def test_device_errors_match_torch(call, device):
    mine = _outcome(lambda: CALLS[call](ember, device))
    theirs = _outcome(lambda: CALLS[call](torch, device))
    assert theirs[0] != "ok"
    assert _same(mine, theirs), (mine, theirs[0], theirs[1][:300])


@pytest.mark.parametrize("device", ["cuda", "xpu", "mps", "mtia"])
@pytest.mark.parametrize("layer", list(LAYERS))
def test_layer_device_argument(layer, device):
    mine = _outcome(lambda: LAYERS[layer](ember.nn, device))
    theirs = _outcome(lambda: LAYERS[layer](torch.nn, device))
    assert theirs[0] != "ok"
    assert _same(mine, theirs), (mine, theirs[0], theirs[1][:300])


@pytest.mark.parametrize("layer", list(LAYERS))
def test_layer_on_the_cpu(layer):
    for dev in ("cpu", ember.device("cpu")):
        m = LAYERS[layer](ember.nn, dev)
        assert all(p.device == ember.device("cpu") for p in m.parameters())


def test_devices_parse_as_torch():
    for name in ["ipu", "hip", "ve", "fpga", "maia", "xla", "lazy", "vulkan", "hpu", "mtia",
                 "privateuseone", "mkldnn", "opengl", "opencl", "ideep"]:
        assert repr(ember.device(name)) == repr(torch.device(name))
        assert str(ember.device(name + ":1")) == str(torch.device(name + ":1"))
