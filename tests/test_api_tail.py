"""The less used corners of torch's API that real programs reach: custom-op checks
(``torch.library.opcheck``), library loading, decompositions, benchmark fuzzers, graph-break
reports, sparsifiers and the calls that fail on a CPU-only build. Each program runs once with
torch and once with ember and must print the same lines."""

import warnings

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
