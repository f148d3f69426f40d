"""Fixes found by the fourteenth batch of real-style programs (``tests/programs``), each
checked against torch: CPU autocast's float32 list for the composite losses
(``cross_entropy``, ``l1_loss``, ``kl_div``, the margin and embedding losses: their bfloat16
inputs cast to float32 first); a leaf marked dirty by a custom Function (torch's own
wording); ``torch.return_types`` as structseqs (built from one sequence, read-only fields,
``n_fields``, no namedtuple API); einsum's sublist form; ``nll_loss`` refusing non-floating
input as its kernels do; warnings with torch's text, origin suffix and once-per-process
behaviour (non-leaf ``.grad``, sparse factories, ``new_tensor`` of a tensor, stft/istft
without a window, ``padding='same'`` with an even kernel, nested tensors); ``torch.save``'s
archive laid out byte for byte as ``PyTorchStreamWriter`` writes it; Python custom operators
(``torch.library.custom_op``) with ``torch.ops.<ns>.<name>``."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch


def _same(a, b):
    """Equal bits and dtypes (compared through float32 for the reduced types)."""
    assert str(a.dtype) == str(b.dtype)
    a, b = np.asarray(a.detach().float().numpy()), np.asarray(b.detach().float().numpy())
    assert a.shape == b.shape
    assert a.tobytes() == b.tobytes()


_LOSSES = {
    "cross_entropy": lambda F, a, b, y, s: F.cross_entropy(a, y),
    "cross_entropy_smoothing": lambda F, a, b, y, s: F.cross_entropy(a, y, label_smoothing=0.1),
    "cross_entropy_probs": lambda F, a, b, y, s: F.cross_entropy(a, F.softmax(b.float(), 1)),
    "l1_loss": lambda F, a, b, y, s: F.l1_loss(a, b),
    "kl_div": lambda F, a, b, y, s: F.kl_div(F.log_softmax(a, 1), F.softmax(b, 1),
                                            reduction="batchmean"),
    "cosine_embedding_loss": lambda F, a, b, y, s: F.cosine_embedding_loss(a, b, s),
    "margin_ranking_loss": lambda F, a, b, y, s: F.margin_ranking_loss(a[:, 0], b[:, 0], s),
    "hinge_embedding_loss": lambda F, a, b, y, s: F.hinge_embedding_loss(a, b.sign()),
    "poisson_nll_loss": lambda F, a, b, y, s: F.poisson_nll_loss(a, b.abs()),
    "triplet_margin_loss": lambda F, a, b, y, s: F.triplet_margin_loss(a, b, a.flip(0)),
    "soft_margin_loss": lambda F, a, b, y, s: F.soft_margin_loss(a, b.sign()),
    "multi_margin_loss": lambda F, a, b, y, s: F.multi_margin_loss(a, y),
}


@pytest.mark.parametrize("name", sorted(_LOSSES))
def test_autocast_float32_list_losses(name):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((6, 5)).astype(np.float32)
    b = rng.standard_normal((6, 5)).astype(np.float32)
    y = rng.integers(0, 5, 6)
    s = np.where(rng.standard_normal(6) > 0, 1.0, -1.0).astype(np.float32)
    got = []
    for L in (torch, ember):
        args = (L.tensor(a).bfloat16(), L.tensor(b).bfloat16(), L.tensor(y),
                L.tensor(s).bfloat16())
        with L.autocast("cpu", dtype=L.bfloat16):
            got.append(_LOSSES[name](L.nn.functional, *args))
    _same(*got)


def test_autocast_cross_entropy_backward_of_a_bf16_linear():
    got = []
    for L in (torch, ember):
        L.manual_seed(5)
        lin = L.nn.Linear(8, 4)
        x, y = L.randn(8, 8), L.randint(0, 4, (8,))
        with L.autocast("cpu", dtype=L.bfloat16):
            loss = L.nn.functional.cross_entropy(lin(x), y)
        (loss * 1024).backward()
        got.append((loss, lin.weight.grad))
    _same(got[0][0], got[1][0])
    _same(got[0][1], got[1][1])


def test_mark_dirty_on_a_leaf_and_on_a_view_of_one():
    msgs = []
    for L in (torch, ember):
        class Double(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.mul_(2)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, g):
                return g * 2

        leaf = L.ones(4, requires_grad=True)
        got = []
        for t in (leaf, leaf[:2]):
            with pytest.raises(RuntimeError) as e:
                Double.apply(t)
            got.append(str(e.value))
        msgs.append(got)
    assert msgs[0] == msgs[1]


def _structseq_facts(L):
    L.manual_seed(0)
    r = L.max(L.randn(2, 2), 1)
    cls = type(r)
    facts = [cls.__name__, cls.__module__, [c.__name__ for c in cls.__mro__], r.n_fields,
             r.n_sequence_fields, r.n_unnamed_fields, cls.__match_args__,
             hasattr(r, "_fields"), hasattr(r, "_asdict"), hasattr(r, "_make"),
             [d for d in dir(r) if not d.startswith("__")], repr(L.return_types.max([1, 2]))]
    for args in [((1,),), ((1, 2, 3),), (1,)]:
        try:
            L.return_types.max(*args)
        except TypeError as e:
            facts.append(str(e))
    try:
        r.values = 3
    except AttributeError as e:
        facts.append(str(e))
    leaves, spec = L.utils._pytree.tree_flatten(r)
    facts.append(repr(L.utils._pytree.tree_unflatten(leaves, spec)))
    return facts


def test_return_types_are_structseqs():
    assert _structseq_facts(torch) == _structseq_facts(ember)


def _outcome(fn):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return tuple(out.shape), out.detach().numpy().tobytes()


_SUBLISTS = [
    lambda L, a, b: L.einsum(a, [0, 1], b, [1, 2], [0, 2]),
    lambda L, a, b: L.einsum(a, [0, 1], b, [1, 2]),
    lambda L, a, b: L.einsum(a, [Ellipsis, 1], b, [1, 30]),
    lambda L, a, b: L.einsum(a, [Ellipsis, 1], [1, Ellipsis]),
    lambda L, a, b: L.einsum(a, [0, 0]) if a.shape[0] == a.shape[1] else L.einsum(a, [1, 0]),
    lambda L, a, b: L.einsum(a),
    lambda L, a, b: L.einsum(a, [60, 1]),
]


@pytest.mark.parametrize("k", range(len(_SUBLISTS)))
def test_einsum_sublist_form(k):
    rng = np.random.default_rng(k)
    a, b = rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal((4, 5))
    got = [_outcome(lambda L=L: _SUBLISTS[k](L, L.tensor(a), L.tensor(b, dtype=L.float32)))
           for L in (torch, ember)]
    assert got[0] == got[1]


@pytest.mark.parametrize("shape,dtype", [((2, 3), "long"), ((3,), "int32"), ((2, 3, 2, 2), "long"),
                                         ((2, 3, 4), "long"), ((2, 3), "cfloat"),
                                         ((2, 3), "bool")])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_nll_loss_rejects_non_floating_input_as_its_kernel(shape, dtype, reduction):
    def run(L):
        x = L.ones(shape, dtype=getattr(L, dtype))
        t = L.zeros((shape[0], *shape[2:]) if len(shape) > 1 else (), dtype=L.long)
        return _outcome(lambda: L.nn.functional.nll_loss(x, t, reduction=reduction))
    assert run(torch) == run(ember)


def test_non_leaf_grad_warning_names_its_origin():
    import warnings
    got = []
    for L in (torch, ember):
        y = L.ones(2, requires_grad=True) * 2
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            y.grad  # noqa: B018
        got.append([str(m.message) for m in w])
    assert got[0] == got[1]


_SPARSE_SCRIPT = """
import torch
torch.sparse_csr_tensor(torch.tensor([0, 1, 2]), torch.tensor([1, 0]), torch.tensor([1.5, 2.0]),
                        (2, 2))
torch.sparse_coo_tensor(torch.tensor([[0], [1]]), torch.tensor([1.0]), (2, 2))
d = torch.tensor([[0.0, 1.5], [2.0, 0.0]])
def f():
    return d.to_sparse_csr()
f()
"""


def test_sparse_factory_warnings_once_and_at_the_users_line(tmp_path):
    got = [err for _, err in _run_both(tmp_path, _SPARSE_SCRIPT)]
    assert got[0] == got[1]
    assert got[0].count("UserWarning") == 2


def _saved(L, obj_fn):
    import io
    buf = io.BytesIO()
    L.save(obj_fn(L), buf)
    return buf.getvalue()


@pytest.mark.parametrize("k", range(3))
def test_save_writes_torchs_archive_layout(k):
    import io
    import zipfile

    def obj(L):
        L.manual_seed(0)
        m = L.nn.Linear(3, 2)
        return [L.ones(2), m.state_dict(), {"epoch": 3, "state": m.state_dict(),
                                            "x": L.arange(5).double()}][k]
    got = [_saved(L, obj) for L in (torch, ember)]
    assert len(got[0]) == len(got[1])
    masks = []
    for data in got:
        z = zipfile.ZipFile(io.BytesIO(data))
        sid = z.getinfo("archive/.data/serialization_id")
        # every byte but the random serialization id and its checksums
        masks.append([(i.filename, i.file_size, i.header_offset, i.flag_bits, i.extra)
                      for i in z.infolist()] + [sid.CRC is not None])
    assert masks[0] == masks[1]
    back = torch.load(io.BytesIO(got[1]), weights_only=True)
    again = ember.load(io.BytesIO(got[1]), weights_only=True)
    assert type(back).__name__ == type(again).__name__


def test_new_tensor_of_a_tensor_warns_as_new_tensor_at_the_callers_line():
    import warnings
    got = []
    for L in (torch, ember):
        a = L.arange(3.0)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = a.new_tensor(L.ones(2, dtype=L.long))
            L.tensor(a)
        got.append([(str(m.message), m.filename == __file__) for m in w] + [str(out.dtype)])
    assert got[0] == got[1]


def _run_both(tmp_path, source: str) -> list:
    """``source`` run as a program under torch and under ``python -m ember``: (stdout,
    stderr) of each (for the warnings torch gives once per process)."""
    import os
    import subprocess
    import sys
    script = tmp_path / "prog.py"
    script.write_text(source)
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    env = dict(os.environ, PYTHONPATH=src)
    runs = [subprocess.run([sys.executable, *launcher, str(script)], env=env,
                           capture_output=True, text=True, check=True)
            for launcher in ([], ["-m", "ember"])]
    return [(r.stdout, r.stderr) for r in runs]


def test_stft_istft_window_warnings_carry_torchs_origin(tmp_path):
    got = _run_both(tmp_path, "import torch, warnings\n"
                              "with warnings.catch_warnings(record=True) as w:\n"
                              "    warnings.simplefilter('always')\n"
                              "    s = torch.stft(torch.randn(64), 16, return_complex=True)\n"
                              "    torch.istft(s, 16)\n"
                              "print([str(m.message) for m in w])\n")
    assert got[0][0] == got[1][0]


def test_conv_same_padding_with_an_even_kernel_warns_once_at_the_users_line(tmp_path):
    got = _run_both(tmp_path, "import torch\n"
                              "import torch.nn.functional as F\n"
                              "x = torch.ones(1, 1, 7)\n"
                              "print(F.conv1d(x, torch.ones(1, 1, 4), padding='same'))\n"
                              "F.conv1d(x, torch.ones(1, 1, 4), padding='same')\n"
                              "F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 2, 3), "
                              "padding='same')\n")
    assert got[0] == got[1]
    assert got[0][1].count("UserWarning") == 1


def test_nested_tensor_prototype_warning_once(tmp_path):
    got = _run_both(tmp_path, "import torch, warnings\n"
                              "with warnings.catch_warnings(record=True) as w:\n"
                              "    warnings.simplefilter('always')\n"
                              "    a, b = torch.ones(2, 3), torch.ones(4, 3)\n"
                              "    torch.nested.nested_tensor([a, b])\n"
                              "    torch.nested.as_nested_tensor([a, b])\n"
                              "    layer = torch.nn.TransformerEncoderLayer(8, 2, 16, "
                              "batch_first=True)\n"
                              "print([str(m.message) for m in w])\n")
    assert got[0][0] == got[1][0]
    assert got[0][0].count("prototype stage") == 1


def _custom_op_run(L, ns):
    import numpy as np
    types = {"x": L.Tensor, "return": L.Tensor}   # (this module's annotations are strings)

    def numpy_sin(x):
        return L.from_numpy(np.sin(x.numpy(force=True)))
    numpy_sin.__annotations__ = types
    op = L.library.custom_op(f"{ns}::numpy_sin", mutates_args=())(numpy_sin)
    op.register_fake(lambda x: L.empty_like(x))

    def setup(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def backward(ctx, grad):
        return grad * ctx.saved_tensors[0].cos()

    def plain(x):
        return x * 3
    plain.__annotations__ = types
    bare = L.library.custom_op(f"{ns}::plain", mutates_args=())(plain)
    L.library.register_autograd(f"{ns}::numpy_sin", backward, setup_context=setup)
    x = L.linspace(-1, 1, 5, requires_grad=True)
    y = op(x)
    y.sum().backward()
    facts = [repr(op), type(op).__name__, type(y.grad_fn).__name__, y.detach().numpy().tobytes(),
             x.grad.numpy().tobytes(), str(getattr(L.ops, ns).numpy_sin),
             str(getattr(L.ops, ns).numpy_sin.default),
             getattr(L.ops, ns).plain(L.ones(2)).tolist()]
    r = bare(L.ones(2, requires_grad=True))
    facts.append(r.requires_grad)
    try:
        r.sum().backward()
    except RuntimeError as e:
        facts.append(str(e).replace(ns, "NS"))
    return [f.replace(ns, "NS") if isinstance(f, str) else f for f in facts]


def test_python_custom_op_autograd_and_ops_namespace():
    assert _custom_op_run(torch, "fix14torch") == _custom_op_run(ember, "fix14ember")
