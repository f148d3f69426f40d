"""nn.Module machinery against torch: repr of nested models, state_dict keys/shapes/order,
load_state_dict (strict errors, _IncompatibleKeys), registration, containers, hooks,
train/eval, dtype conversion, Parameter, and nn.utils."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402

import ember  # noqa: E402
import ember.nn as enn  # noqa: E402

from ._parity import close, copy_params, to_ember  # noqa: E402


def build(nn):
    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, padding=1, bias=False)
            self.bn = nn.BatchNorm2d(8)
            self.act = nn.ReLU(inplace=True)

        def forward(self, x):
            return self.act(self.bn(self.conv(x)))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(Block(), nn.MaxPool2d(2), nn.Dropout2d(0.25))
            self.heads = nn.ModuleDict({"cls": nn.Linear(8 * 4 * 4, 10),
                                        "aux": nn.Sequential(nn.Flatten(), nn.Identity())})
            self.layers = nn.ModuleList([nn.Linear(10, 10) for _ in range(3)] + [nn.GELU()])
            self.scale = nn.Parameter(torch_or_ember(nn).ones(1))
            self.register_buffer("steps", torch_or_ember(nn).zeros(2))
            self.register_buffer("scratch", torch_or_ember(nn).zeros(1), persistent=False)

        def forward(self, x):
            h = self.features(x).flatten(1)
            h = self.heads["cls"](h)
            for layer in self.layers:
                h = layer(h)
            return h * self.scale
    return Net()


def torch_or_ember(nn):
    return torch if nn is tnn else ember


def test_nested_repr_equals_torch():
    t, e = build(tnn), build(enn)
    assert repr(e) == repr(t)
    assert "(0-2): 3 x Linear(in_features=10, out_features=10, bias=True)" in repr(e)


def test_state_dict_keys_shapes_order():
    t, e = build(tnn), build(enn)
    ts, es = t.state_dict(), e.state_dict()
    assert isinstance(es, OrderedDict)
    assert list(es) == list(ts)
    assert [tuple(v.shape) for v in es.values()] == [tuple(v.shape) for v in ts.values()]
    assert [n for n, _ in e.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert [n for n, _ in e.named_buffers()] == [n for n, _ in t.named_buffers()]
    assert [n for n, _ in e.named_modules()] == [n for n, _ in t.named_modules()]
    assert [n for n, _ in e.named_children()] == [n for n, _ in t.named_children()]
    assert es["features.0.bn.num_batches_tracked"].dtype is ember.int64
    assert not es["scale"].requires_grad


def test_full_model_forward_backward_matches_torch():
    t, e = build(tnn), build(enn)
    copy_params(t, e)
    x = torch.randn(2, 3, 8, 8)
    t.train()
    e.train()
    t.features[2].p = e.features[2].p = 0.0     # dropout off for the comparison
    tout, eout = t(x), e(to_ember(x))
    close(eout, tout, "output", atol=1e-5)
    tout.sum().backward()
    eout.sum().backward()
    for (n, tp), (_, ep) in zip(t.named_parameters(), e.named_parameters()):
        close(ep.grad, tp.grad, n, rtol=1e-4, atol=1e-5)
    for (n, tb), (_, eb) in zip(t.named_buffers(), e.named_buffers()):
        close(eb, tb, n, atol=1e-5)


def test_load_state_dict_errors_and_keys():
    t, e = tnn.Linear(3, 2), enn.Linear(3, 2)
    sd = {k: to_ember(v) for k, v in t.state_dict().items()}
    res = e.load_state_dict(sd)
    assert repr(res) == "<All keys matched successfully>"
    assert np.array_equal(e.weight.detach().numpy(), t.weight.detach().numpy())
    bad_t = dict(t.state_dict())
    bad_t.pop("bias")
    bad_t["extra"] = torch.zeros(1)
    bad_t["weight"] = torch.zeros(4, 3)
    bad_e = {k: to_ember(v) for k, v in bad_t.items()}
    with pytest.raises(RuntimeError) as te:
        tnn.Linear(3, 2).load_state_dict(bad_t)
    with pytest.raises(RuntimeError) as ee:
        e.load_state_dict(bad_e)
    assert str(ee.value) == str(te.value)
    res_t = tnn.Linear(3, 2).load_state_dict({"weight": torch.zeros(2, 3), "x": 1}, strict=False)
    res_e = e.load_state_dict({"weight": ember.zeros(2, 3), "x": 1}, strict=False)
    assert res_e.missing_keys == res_t.missing_keys == ["bias"]
    assert res_e.unexpected_keys == res_t.unexpected_keys == ["x"]
    assert repr(res_e) == repr(res_t)


def test_registration_and_attributes():
    m = enn.Module()
    m.w = enn.Parameter(ember.ones(2))
    m.sub = enn.Linear(2, 2)
    m.register_buffer("buf", ember.zeros(3))
    m.plain = 3
    assert list(m._parameters) == ["w"] and list(m._modules) == ["sub"]
    assert list(m._buffers) == ["buf"] and m.plain == 3
    with pytest.raises(TypeError, match="cannot assign 'int' as parameter 'w'"):
        m.w = 3
    m.w = None
    assert m.w is None and "w" in m._parameters
    m.add_module("other", enn.ReLU())
    assert m.get_submodule("sub") is m.sub
    with pytest.raises(AttributeError, match="has no attribute `nope`"):
        m.get_submodule("nope")
    del m.sub
    assert "sub" not in m._modules
    with pytest.raises(AttributeError):
        _ = m.missing
    with pytest.raises(KeyError, match="attribute 'plain' already exists"):
        m.register_buffer("plain", ember.zeros(1))
    assert m.get_parameter is not None


def test_parameter():
    p = enn.Parameter(ember.tensor([1.0, 2.0]))
    tp = tnn.Parameter(torch.tensor([1.0, 2.0]))
    assert repr(p) == repr(tp)
    assert p.requires_grad and p.is_leaf and isinstance(p, ember.Tensor)
    assert type(p * 2) is ember.Tensor
    q = enn.Parameter(ember.zeros(2), requires_grad=False)
    assert not q.requires_grad
    import copy
    c = copy.deepcopy(p)
    assert isinstance(c, enn.Parameter) and c is not p
    assert np.array_equal(c.detach().numpy(), p.detach().numpy())


def test_sequential_and_modulelist_ops():
    s = enn.Sequential(enn.Linear(2, 3), enn.ReLU(), enn.Linear(3, 1))
    assert len(s) == 3 and isinstance(s[1], enn.ReLU) and isinstance(s[-1], enn.Linear)
    sub = s[1:]
    assert isinstance(sub, enn.Sequential) and list(sub._modules) == ["1", "2"]
    s.append(enn.Sigmoid())
    assert len(s) == 4 and [type(m).__name__ for m in s][-1] == "Sigmoid"
    del s[0]
    assert list(s._modules) == ["0", "1", "2"]
    od = enn.Sequential(OrderedDict([("a", enn.ReLU()), ("b", enn.Tanh())]))
    assert repr(od) == repr(tnn.Sequential(OrderedDict([("a", tnn.ReLU()), ("b", tnn.Tanh())])))
    ml = enn.ModuleList([enn.ReLU()])
    ml.append(enn.Tanh())
    ml.extend([enn.Sigmoid()])
    ml.insert(0, enn.Identity())
    assert [type(m).__name__ for m in ml] == ["Identity", "ReLU", "Tanh", "Sigmoid"]
    assert len(ml[1:3]) == 2
    md = enn.ModuleDict({"x": enn.ReLU()})
    md["y"] = enn.Tanh()
    assert list(md.keys()) == ["x", "y"] and "y" in md and len(md) == 2


def test_parameter_containers_repr():
    tl = tnn.ParameterList([tnn.Parameter(torch.zeros(2, 3)), tnn.Parameter(torch.ones(4))])
    el = enn.ParameterList([enn.Parameter(ember.zeros(2, 3)), enn.Parameter(ember.ones(4))])
    assert repr(el) == repr(tl)
    assert [n for n, _ in el.named_parameters()] == ["0", "1"]
    td = tnn.ParameterDict({"a": tnn.Parameter(torch.zeros(2))})
    ed = enn.ParameterDict({"a": enn.Parameter(ember.zeros(2))})
    assert repr(ed) == repr(td)
    el.append(ember.zeros(1))
    assert isinstance(el[2], enn.Parameter)


def test_train_eval_requires_grad_zero_grad_apply():
    m = build(enn)
    m.eval()
    assert all(not x.training for x in m.modules())
    m.train()
    assert all(x.training for x in m.modules())
    m.requires_grad_(False)
    assert all(not p.requires_grad for p in m.parameters())
    m.requires_grad_(True)
    lin = enn.Linear(2, 2)
    lin(ember.ones(1, 2)).sum().backward()
    lin.zero_grad(set_to_none=False)
    assert np.all(lin.weight.grad.numpy() == 0)
    lin.zero_grad()
    assert lin.weight.grad is None
    seen = []
    m.apply(lambda mod: seen.append(type(mod).__name__))
    assert seen[-1] == "Net" and seen[0] == "Conv2d"


def test_dtype_conversion_keeps_parameter_objects():
    m = enn.Linear(2, 2)
    w = m.weight
    m.double()
    assert m.weight is w and w.dtype is ember.float64 and isinstance(w, enn.Parameter)
    m.float()
    assert w.dtype is ember.float32
    bn = enn.BatchNorm1d(2).half()
    assert bn.running_mean.dtype is ember.float16
    assert bn.num_batches_tracked.dtype is ember.int64


def test_hooks():
    m = enn.Linear(3, 2)
    calls = []
    h1 = m.register_forward_pre_hook(lambda mod, args: calls.append("pre"))
    h2 = m.register_forward_hook(lambda mod, args, out: out * 2)
    x = ember.ones(1, 3)
    out = m(x)
    assert calls == ["pre"]
    ref = ember.nn.functional.linear(x, m.weight, m.bias) * 2
    assert np.allclose(out.detach().numpy(), ref.detach().numpy())
    h1.remove()
    h2.remove()
    m(x)
    assert calls == ["pre"]

    grads = {}

    def bhook(mod, grad_input, grad_output):
        grads["in"] = grad_input
        grads["out"] = grad_output

    m.register_full_backward_hook(bhook)
    x = ember.ones(1, 3, requires_grad=True)
    m(x).sum().backward()
    assert np.allclose(grads["out"][0].numpy(), 1.0)
    assert np.allclose(grads["in"][0].numpy(), x.grad.numpy())


def test_backward_hook_matches_torch():
    t, e = tnn.Linear(3, 2), enn.Linear(3, 2)
    copy_params(t, e)
    got = {}
    t.register_full_backward_hook(lambda m, gi, go: got.update(t=(gi, go)))
    e.register_full_backward_hook(lambda m, gi, go: got.update(e=(gi, go)))
    x = torch.randn(4, 3, requires_grad=True)
    t(x).pow(2).sum().backward()
    e(to_ember(x, True)).pow(2).sum().backward()
    close(got["e"][0][0], got["t"][0][0], "grad_input")
    close(got["e"][1][0], got["t"][1][0], "grad_output")


def test_utils():
    t, e = tnn.Linear(4, 3), enn.Linear(4, 3)
    copy_params(t, e)
    x = torch.randn(5, 4)
    (t(x) ** 2).sum().backward()
    (e(to_ember(x)) ** 2).sum().backward()
    tn = tnn.utils.clip_grad_norm_(t.parameters(), 0.5)
    en = enn.utils.clip_grad_norm_(e.parameters(), 0.5)
    close(en, tn, "total norm")
    for tp, ep in zip(t.parameters(), e.parameters()):
        close(ep.grad, tp.grad, "clipped grad")
    tnn.utils.clip_grad_value_(t.parameters(), 0.05)
    enn.utils.clip_grad_value_(e.parameters(), 0.05)
    for tp, ep in zip(t.parameters(), e.parameters()):
        close(ep.grad, tp.grad, "value-clipped grad")
    tn = tnn.utils.clip_grad_norm_(t.parameters(), 1.0, norm_type=float("inf"))
    en = enn.utils.clip_grad_norm_(e.parameters(), 1.0, norm_type=float("inf"))
    close(en, tn, "inf norm")
    v = enn.utils.parameters_to_vector(e.parameters())
    close(v, tnn.utils.parameters_to_vector(t.parameters()), "vector")
    enn.utils.vector_to_parameters(v * 0 + 1, e.parameters())
    assert np.all(e.weight.detach().numpy() == 1) and np.all(e.bias.detach().numpy() == 1)


def test_init_functions():
    w = ember.empty(3, 4)
    assert enn.init.calculate_gain("relu") == tnn.init.calculate_gain("relu")
    assert enn.init.calculate_gain("leaky_relu", 0.2) == tnn.init.calculate_gain("leaky_relu",
                                                                                 0.2)
    assert enn.init.calculate_gain("tanh") == 5.0 / 3
    enn.init.constant_(w, 0.3)
    assert np.all(w.numpy() == np.float32(0.3))
    enn.init.eye_(w)
    assert np.array_equal(w.numpy(), np.eye(3, 4, dtype=np.float32))
    enn.init.zeros_(w)
    enn.init.ones_(w)
    assert np.all(w.numpy() == 1)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        enn.init.xavier_uniform_(ember.empty(3))
    q = enn.init.orthogonal_(ember.empty(4, 6))
    assert np.allclose(q.numpy() @ q.numpy().T, np.eye(4), atol=1e-5)
    tn = enn.init.trunc_normal_(ember.empty(1000), std=0.5, a=-1, b=1)
    assert tn.numpy().min() >= -1 and tn.numpy().max() <= 1
