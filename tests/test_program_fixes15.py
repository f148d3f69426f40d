"""Fixes found by the fifteenth batch of real-style programs (``tests/programs``), each
checked against torch: ``torch.autograd.graph.increment_version``."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch


@pytest.mark.parametrize("as_list", [False, True])
def test_increment_version_bumps_and_trips_saved_tensor_checks(as_list):
    out = []
    for L in (torch, ember):
        a = L.ones(3, requires_grad=True)
        v = a.clone()
        y = v * v
        before = v._version
        L.autograd.graph.increment_version([v] if as_list else v)
        with pytest.raises(RuntimeError) as err:
            y.sum().backward()
        out.append((before, v._version, str(err.value).split(";")[0]))
    assert out[0] == out[1]


def test_increment_version_leaves_inference_tensors_alone():
    for L in (torch, ember):
        with L.inference_mode():
            t = L.ones(2)
        L.autograd.graph.increment_version(t)      # no version counter: nothing to bump
        assert t.is_inference()


def _functions(L):
    class Old(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class New(L.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Gen(New):
        generate_vmap_rule = True

    class Both(Gen):
        @staticmethod
        def vmap(info, in_dims, x):
            return x * 2, in_dims[0]

    return Old, New, Gen, Both


@pytest.mark.parametrize("which", range(4))
@pytest.mark.parametrize("transform", ["vmap", "grad"])
def test_custom_function_under_func_transforms(which, transform):
    got = []
    for L in (torch, ember):
        F = _functions(L)[which]
        x = L.ones(2, 3)
        fn = (L.func.vmap(F.apply) if transform == "vmap"
              else L.func.grad(lambda t, F=F: F.apply(t).sum()))
        try:
            got.append(fn(x).tolist())
        except RuntimeError as e:
            got.append(str(e).replace(F.__qualname__, F.__name__))
    assert got[0] == got[1]
    assert ember.autograd.Function.generate_vmap_rule is False


def _view_functions(L):
    class ViewOut(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view(-1)

        @staticmethod
        def backward(ctx, g):
            return g.view(2, 2)

    class Same(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    class TwoViews(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[0], x[1]

        @staticmethod
        def backward(ctx, g0, g1):
            return L.stack([g0, g1])

    return ViewOut, Same, TwoViews


@pytest.mark.parametrize("which", range(3))
@pytest.mark.parametrize("mode", ["clone", "leaf", "no_grad"])
def test_inplace_on_a_custom_functions_view_output(which, mode):
    got = []
    for L in (torch, ember):
        F = _view_functions(L)[which]
        base = L.ones(2, 2, requires_grad=True)
        inp = base.clone() if mode == "clone" else base
        if mode == "no_grad":
            with L.no_grad():
                out = F.apply(inp)
        else:
            out = F.apply(inp)
        v = out[0] if isinstance(out, tuple) else out
        try:
            v.mul_(2)
            got.append((v._is_view(), "ok"))
        except RuntimeError as e:
            got.append((v._is_view(), str(e)))
    assert got[0] == got[1]


def test_float_of_a_tensor_requiring_grad_warns_with_torchs_suffix():
    import subprocess
    import sys
    code = ("import warnings, {0}\nwarnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    float({0}.tensor(2.0, requires_grad=True))\nprint(w[0].message)")
    out = [subprocess.run([sys.executable, "-c", code.format(lib)], capture_output=True,
                          text=True).stdout for lib in ("torch", "ember")]
    assert out[0] == out[1] and "Triggered internally" in out[0]


@pytest.mark.parametrize("named", [False, True])
def test_stack_dataset_getitems_and_its_dataloader_batches(named):
    got = []
    for L in (torch, ember):
        data = L.utils.data
        x, y = L.arange(12.0).reshape(6, 2), L.arange(6)
        ds = (data.StackDataset(x=x, y=data.TensorDataset(y)) if named
              else data.StackDataset(data.TensorDataset(x), y))
        items = ds.__getitems__([4, 1])
        batches = [str(b) for b in data.DataLoader(ds, batch_size=4)]
        got.append((str(items), batches))
    assert got[0] == got[1]


def test_collate_importable_from_the_private_module():
    from torch.utils.data._utils.collate import default_collate as tc
    from torch.utils.data._utils.collate import default_convert as tv

    from ember.utils.data._utils.collate import default_collate as ec
    from ember.utils.data._utils.collate import default_convert as ev
    assert ec is ember.utils.data.default_collate and ev is ember.utils.data.default_convert
    batch = [{"a": np.array([1, 2]), "b": 1.5}, {"a": np.array([3, 4]), "b": 2.5}]
    assert str(ec(batch)) == str(tc(batch))
    assert str(ev({"n": np.arange(3)})) == str(tv({"n": np.arange(3)}))
