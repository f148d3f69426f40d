"""The nn.Module API as real code drives it (naming, state dicts, containers, attribute
rules, dtype moves): torch's answers and errors, from a table run in both libraries."""

import collections  # noqa: F401  (used by the table through __import__)

import pytest

import ember

from .helpers import outcome

torch = pytest.importorskip("torch")


def net(L):
    L.manual_seed(0)

    class Net(L.nn.Module):
        def __init__(s):
            super().__init__()
            s.a = L.nn.Linear(2, 3)
            s.b = L.nn.Sequential(L.nn.ReLU(), L.nn.Linear(3, 1))
            s.shared = s.a
            s.register_buffer("buf", L.zeros(2))
            s.register_buffer("nb", L.ones(1), persistent=False)
            s.p = L.nn.Parameter(L.ones(1))

        def forward(s, x):
            return s.b(s.a(x)) + s.p

    return Net()


CASES = {
    "named_modules": lambda L: [n for n, _ in net(L).named_modules()],
    "named_modules_dup": lambda L: [n for n, _ in net(L).named_modules(remove_duplicate=False)],
    "named_parameters": lambda L: [n for n, _ in net(L).named_parameters()],
    "named_buffers": lambda L: [n for n, _ in net(L).named_buffers()],
    "children": lambda L: [type(c).__name__ for c in net(L).children()],
    "state_dict_keys": lambda L: list(net(L).state_dict().keys()),
    "state_dict_prefix": lambda L: list(net(L).state_dict(prefix="m.").keys()),
    "keep_vars": lambda L: type(net(L).state_dict(keep_vars=True)["p"]).__name__,
    "load_nonstrict": lambda L: repr(
        net(L).load_state_dict({"p": L.ones(1), "zz": L.ones(1)}, strict=False)
    ),
    "load_strict_err": lambda L: net(L).load_state_dict({"p": L.ones(1)}),
    "repr": lambda L: repr(net(L)),
    "train_ret": lambda L: type(net(L).train()).__name__,
    "eval_flags": lambda L: [m.training for m in net(L).eval().modules()],
    "zero_grad": lambda L: (
        lambda m: (
            m(L.ones(1, 2)).sum().backward(),
            m.zero_grad(),
            [p.grad for p in m.parameters()],
        )[2]
    )(net(L)),
    "requires_grad_": lambda L: [
        p.requires_grad for p in net(L).requires_grad_(False).parameters()
    ],
    "get_submodule": lambda L: repr(net(L).get_submodule("b.1")),
    "get_submodule_err": lambda L: net(L).get_submodule("b.5"),
    "get_parameter": lambda L: repr(net(L).get_parameter("a.bias").shape),
    "get_parameter_err": lambda L: net(L).get_parameter("a.nope"),
    "get_buffer": lambda L: repr(net(L).get_buffer("buf")),
    "setattr_tensor_over_param": lambda L: setattr(net(L), "p", L.ones(1)),
    "setattr_none_param": lambda L: (
        lambda m: (setattr(m, "p", None), [n for n, _ in m.named_parameters()])[1]
    )(net(L)),
    "delattr": lambda L: (lambda m: (delattr(m, "a"), [n for n, _ in m.named_modules()])[1])(
        net(L)
    ),
    "add_module_dot": lambda L: net(L).add_module("x.y", L.nn.ReLU()),
    "add_module_bad": lambda L: net(L).add_module("z", 3),
    "register_param_bad": lambda L: net(L).register_parameter("q", L.ones(1)),
    "register_buffer_bad": lambda L: net(L).register_buffer("q", 3),
    "register_buffer_exists": lambda L: net(L).register_buffer("p", L.ones(1)),
    "half_dtypes": lambda L: (
        [repr(p.dtype) for p in net(L).half().parameters()]
        + [repr(b.dtype) for b in net(L).half().buffers()]
    ),
    "double": lambda L: repr(net(L).double().buf.dtype),
    "to_dtype": lambda L: repr(net(L).to(L.float64).p.dtype),
    "apply": lambda L: (lambda out: (net(L).apply(lambda m: out.append(type(m).__name__)), out)[1])(
        []
    ),
    "params_norecurse": lambda L: len(list(net(L).parameters(recurse=False))),
    "seq_slice": lambda L: repr(L.nn.Sequential(L.nn.ReLU(), L.nn.Tanh(), L.nn.Sigmoid())[1:]),
    "seq_neg": lambda L: repr(L.nn.Sequential(L.nn.ReLU(), L.nn.Tanh())[-1]),
    "seq_len": lambda L: len(L.nn.Sequential(L.nn.ReLU(), L.nn.Tanh())),
    "seq_append": lambda L: repr(L.nn.Sequential(L.nn.ReLU()).append(L.nn.Tanh())),
    "seq_insert": lambda L: repr(L.nn.Sequential(L.nn.ReLU()).insert(0, L.nn.Tanh())),
    "seq_del": lambda L: (lambda s: (s.__delitem__(0), repr(s))[1])(
        L.nn.Sequential(L.nn.ReLU(), L.nn.Tanh())
    ),
    "seq_add": lambda L: repr(L.nn.Sequential(L.nn.ReLU()) + L.nn.Sequential(L.nn.Tanh())),
    "seq_dict": lambda L: repr(
        L.nn.Sequential(
            __import__("collections").OrderedDict([("r", L.nn.ReLU()), ("t", L.nn.Tanh())])
        )
    ),
    "seq_oob": lambda L: L.nn.Sequential(L.nn.ReLU())[3],
    "mlist_ops": lambda L: repr(
        L.nn.ModuleList([L.nn.ReLU()]).extend([L.nn.Tanh()]).append(L.nn.Sigmoid())[1:]
    ),
    "mlist_insert": lambda L: (lambda ml: (ml.insert(1, L.nn.ELU()), repr(ml))[1])(
        L.nn.ModuleList([L.nn.ReLU(), L.nn.Tanh()])
    ),
    "mlist_iadd": lambda L: (lambda ml: (ml.__iadd__([L.nn.ELU()]), repr(ml))[1])(
        L.nn.ModuleList([L.nn.ReLU()])
    ),
    "mlist_bad": lambda L: L.nn.ModuleList([3]),
    "mdict": lambda L: repr(L.nn.ModuleDict({"b": L.nn.ReLU(), "a": L.nn.Tanh()})),
    "mdict_ops": lambda L: (
        lambda md: (md.update({"c": L.nn.ELU()}), md.pop("b"), list(md.keys()), repr(md))[2:]
    )(L.nn.ModuleDict({"b": L.nn.ReLU(), "a": L.nn.Tanh()})),
    "plist": lambda L: repr(
        L.nn.ParameterList([L.nn.Parameter(L.ones(2)), L.nn.Parameter(L.ones(3, dtype=L.float64))])
    ),
    "pdict": lambda L: repr(
        L.nn.ParameterDict({"w": L.nn.Parameter(L.ones(2)), "b": L.nn.Parameter(L.zeros(1))})
    ),
    "plist_tensor": lambda L: [type(p).__name__ for p in L.nn.ParameterList([L.ones(2)])],
    "dir_has": lambda L: all(n in dir(net(L)) for n in ["a", "b", "p", "buf", "forward"]),
    "getattr_err": lambda L: net(L).nonexistent,
    "module_eq": lambda L: net(L).a is net(L).a,
    "extra_repr_linear": lambda L: L.nn.Linear(2, 3, bias=False).extra_repr(),
    "state_dict_order": lambda L: list(L.nn.BatchNorm1d(3).state_dict().keys()),
    "bn_buffers_repr": lambda L: repr(L.nn.BatchNorm1d(3).state_dict()["num_batches_tracked"]),
    "register_module": lambda L: (
        lambda m: (m.register_module("z", L.nn.ReLU()), [n for n, _ in m.named_children()])[1]
    )(net(L)),
    "modules_count": lambda L: len(list(net(L).modules())),
    "call_kw": lambda L: net(L)(x=L.ones(1, 2)).shape,
    "forward_missing": lambda L: L.nn.Module()(L.ones(1)),
    "to_empty": lambda L: repr(net(L).to_empty(device="cpu").a.weight.shape),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_module_api_as_torch(name):
    got, want = outcome(ember, CASES[name]), outcome(torch, CASES[name])
    assert repr(got).replace("ember", "torch") == repr(want)
