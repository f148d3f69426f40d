"""Regression tests for what the third round of real programs found, each against torch 2.13:
``torch.renorm`` (and ``Tensor.renorm``/``renorm_``) was missing, and ``nn.Embedding(max_norm=)``
renormalised rows with NumPy's norm in float32 instead of torch's row norm and double scale,
so a renormalised row's norm printed ``1.0000`` where torch prints ``1.``."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import errors_alike, torch

DTYPES = [np.float32, np.float64, np.float16]
RENORM_CASES = [(2, 0, 1.0), (1, 1, 0.5), (3, 2, 2.0), (2, -1, 0.1), (2.5, 1, 100.0)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("p,dim,maxnorm", RENORM_CASES)
def test_renorm_values_and_gradients_are_torchs(dtype, p, dim, maxnorm):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 4, 3)).astype(dtype)
    g = rng.standard_normal((5, 4, 3)).astype(dtype)
    outs = []
    for lib in (ember, torch):
        a = lib.tensor(x, requires_grad=True)
        r = lib.renorm(a, p, dim, maxnorm)
        r.backward(lib.tensor(g))
        outs.append((r.detach().numpy(), a.grad.numpy(), type(r.grad_fn).__name__))
    (re, ge, ne), (rt, gt, nt) = outs
    np.testing.assert_array_equal(re, rt)
    np.testing.assert_array_equal(ge, gt)
    assert ne == nt == "RenormBackward0"


def test_renorm_method_inplace_and_gradcheck():
    x = np.random.default_rng(1).standard_normal((3, 4))
    a, b = ember.tensor(x), torch.tensor(x)
    a.renorm_(1, 0, 1.0)
    b.renorm_(1, 0, 1.0)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_array_equal(ember.tensor(x).renorm(2, 1, 0.7).numpy(),
                                  torch.tensor(x).renorm(2, 1, 0.7).numpy())
    t = ember.tensor(x, requires_grad=True)
    assert ember.autograd.gradcheck(lambda v: ember.renorm(v, 2, 0, 1.0), (t,))


@pytest.mark.parametrize("args", [((2, 2), 0, 0, 1.0), ((2, 2), 2, 0, -1.0), ((3,), 2, 0, 1.0),
                                  ((2, 2), 2, 2, 1.0)])
def test_renorm_errors_are_torchs(args):
    shape, p, dim, maxnorm = args
    errors_alike(lambda lib: lib.renorm(lib.ones(shape), p, dim, maxnorm))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("norm_type", [1.0, 2.0, 3.0])
def test_embedding_max_norm_renormalises_as_torch(dtype, norm_type):
    rng = np.random.default_rng(2)
    w = (rng.standard_normal((10, 6)) * 2).astype(dtype)
    idx = np.array([[1, 2, 1], [7, 2, 9]])
    outs = []
    for lib in (ember, torch):
        emb = lib.nn.Embedding(10, 6, max_norm=1.0, norm_type=norm_type)
        with lib.no_grad():
            emb.weight.copy_(lib.tensor(w))
        out = emb(lib.tensor(idx))
        outs.append((out.detach().numpy(), emb.weight.detach().numpy(),
                     str(out.norm(p=norm_type, dim=-1))))
    for e, t in zip(*outs):
        if isinstance(e, str):
            assert e == t
        else:
            np.testing.assert_array_equal(e, t)


def test_classes_print_torchs_names_under_the_launcher(tmp_path):
    """``print(type(x))`` in a script run by ``python -m ember`` prints what torch prints."""
    import subprocess
    import sys
    script = tmp_path / "types_script.py"
    script.write_text(
        "import torch\n"
        "x = torch.ones(2)\n"
        "for o in (x, x.shape, torch.float32, torch.device('cpu'), torch.nn.Parameter(x),\n"
        "          torch.nn.Linear(1, 1), torch.optim.SGD([torch.nn.Parameter(x)], lr=1),\n"
        "          torch.finfo(torch.float32), torch.utils.data.TensorDataset(x),\n"
        "          torch.no_grad(), torch.distributions.Normal(0., 1.)):\n"
        "    print(type(o))\n"
        "print(torch.Tensor, torch.nn.Module, torch.Size, torch.dtype)\n")
    src = str(__import__("pathlib").Path(ember.__file__).parents[1])
    env = {**__import__("os").environ, "PYTHONPATH": src}
    run = [subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
           for cmd in ([sys.executable, "-m", "ember", str(script)],
                       [sys.executable, str(script)])]
    assert run[0] == run[1]
    assert "<class 'ember.Tensor'>" == str(ember.Tensor)   # plain ember: its own package


def test_saved_classes_and_dtypes_carry_torchs_names(tmp_path):
    """A whole model, a dtype, a Size and a device saved by Ember name torch's globals, so
    torch itself loads the file (without Ember importable) and the model runs."""
    import pickletools
    import subprocess
    import sys
    import zipfile
    ember.manual_seed(0)
    path = tmp_path / "ck.pt"
    lin = ember.nn.Linear(2, 2)
    ember.save({"dt": ember.float32, "sz": ember.ones(2, 3).shape, "lin": lin,
                "dev": ember.device("cpu")}, path)
    with zipfile.ZipFile(path) as z:
        data = z.read(next(n for n in z.namelist() if n.endswith("data.pkl")))
    names = {arg for op, arg, _ in pickletools.genops(data) if op.name == "GLOBAL"}
    assert not [n for n in names if "ember" in n], names
    assert {"torch float32", "torch Size", "torch device",
            "torch.nn.modules.linear Linear"} <= names
    back = ember.load(path, weights_only=False)
    assert back["dt"] is ember.float32 and back["sz"] == (2, 3)
    np.testing.assert_array_equal(back["lin"](ember.ones(1, 2)).detach().numpy(),
                                  lin(ember.ones(1, 2)).detach().numpy())
    out = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['ember'] = None\n"
         "import torch\n"
         f"d = torch.load({str(path)!r}, weights_only=False)\n"
         "print(d['dt'], tuple(d['sz']), d['dev'], d['lin'](torch.ones(1, 2)).tolist())"],
        capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "torch.float32"
    want = lin(ember.ones(1, 2)).tolist()[0]
    assert [float(v.strip("[],")) for v in out[-2:]] == want


@pytest.mark.parametrize("mode,kw", [
    ("bilinear", {"scale_factor": 2}), ("bicubic", {"scale_factor": 2}),
    ("nearest", {"scale_factor": 2}), ("bilinear", {"size": (3, 5), "antialias": True}),
    ("bilinear", {"size": (70, 80)})])
def test_interpolate_gradient_is_laid_out_as_torchs(mode, kw):
    """The gradient of an interpolation is contiguous for a contiguous grad_output (sums over
    it then add in torch's order: the upsampling program printed another last digit)."""
    x = np.random.default_rng(3).standard_normal((2, 4, 8, 8)).astype(np.float32)
    got = []
    for lib in (ember, torch):
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.interpolate(t, mode=mode, **kw)
        g, = lib.autograd.grad((y * y).sum(), t)
        got.append((g.stride(), g.abs().sum().item()))
    assert got[0] == got[1]
