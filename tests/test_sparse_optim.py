"""Sparse gradients against torch: ``Embedding(sparse=True)``'s weight gradient (indices,
values, coalesced flag, printing), its accumulation over backward calls and within one graph,
``zero_grad``, the optimizers' sparse paths bit for bit (SGD with momentum / Nesterov,
Adagrad, SparseAdam, LBFGS) and torch's errors for the optimizers and clipping functions that
refuse sparse gradients."""

from __future__ import annotations

import numpy as np
import pytest

from .test_sparse import both, same_dispatch_error, same_error

X = [[1, 2, 1], [4, 1, 0]]

pytestmark = pytest.mark.filterwarnings("ignore:Sparse invariant checks")


def _weight(lib, rows=5, cols=3, dtype="float32", seed=0):
    w = np.random.default_rng(seed).standard_normal((rows, cols)).astype(dtype)
    return lib.nn.Parameter(lib.tensor(w))


def _grad_of(lib, idx, **kw):
    w = _weight(lib)
    idx = idx if isinstance(idx, lib.Tensor) else lib.tensor(idx)
    lib.nn.functional.embedding(idx, w, sparse=True, **kw).sum().backward()
    return w.grad


@pytest.mark.parametrize("idx,kw", [
    (X, {}), ([1], {}), ([[1, 2], [2, 2]], {"padding_idx": 2}), ([2, 2], {"padding_idx": 2}),
    ([3, 0, 3], {"padding_idx": -2}), ([[0, 4, 4, 1]], {"max_norm": 1.0})])
def test_embedding_sparse_grad(idx, kw):
    both(lambda lib: _grad_of(lib, idx, **kw))


def test_embedding_sparse_grad_no_indices():
    both(lambda lib: _grad_of(lib, lib.zeros(0, dtype=lib.int64)))


def test_embedding_sparse_grad_int_indices_and_module():
    def run(lib):
        emb = lib.nn.Embedding(6, 2, sparse=True)
        with lib.no_grad():
            emb.weight.copy_(lib.arange(12.0).reshape(6, 2))
        out = emb(lib.tensor(X, dtype=lib.int32))
        assert type(out.grad_fn).__name__ == "EmbeddingBackward0"
        (out * out).sum().backward()
        return repr(emb), emb.weight.grad
    both(run)


def test_embedding_sparse_scale_grad_by_freq_error():
    same_error(lambda lib: _grad_of(lib, [2, 2], scale_grad_by_freq=True))


def test_accumulation_over_backward_calls_is_in_place():
    def run(lib):
        w = _weight(lib)
        f = lib.nn.functional.embedding
        f(lib.tensor(X), w, sparse=True).sum().backward()
        first = w.grad
        (f(lib.tensor([3, 1]), w, sparse=True) * 2).sum().backward()
        assert w.grad is first
        return w.grad
    both(run)


def test_accumulation_with_dense_gradients():
    def dense_first(lib):
        w = _weight(lib)
        w.grad = lib.ones(5, 3)
        g = w.grad
        lib.nn.functional.embedding(lib.tensor([1, 3, 1]), w, sparse=True).sum().backward()
        assert w.grad is g
        return w.grad

    def sparse_first(lib):
        w = _weight(lib)
        lib.nn.functional.embedding(lib.tensor([1, 3]), w, sparse=True).sum().backward()
        (w * 2).sum().backward()
        return w.grad
    both(dense_first)
    both(sparse_first)


def test_two_uses_in_one_graph():
    """The input buffer sums the later gradient with the held one (``var + old``); their
    values are expanded, so torch concatenates the two lists."""
    def run(lib):
        w = _weight(lib)
        f = lib.nn.functional.embedding
        a = f(lib.tensor([1, 3]), w, sparse=True)
        b = f(lib.tensor([3, 0]), w, sparse=True)
        (a.sum() + b.sum() * 3).backward()
        return w.grad

    def contiguous(lib):
        w = _weight(lib)
        f = lib.nn.functional.embedding
        a = f(lib.tensor([[1, 3], [2, 2]]), w, sparse=True)
        b = f(lib.tensor([3, 0, 2]), w, sparse=True)
        ((a * a).sum() + (b * 3).pow(2).sum()).backward()
        return w.grad
    both(run)
    both(contiguous)


def test_zero_grad_keeps_an_empty_sparse_grad():
    def run(lib):
        w = _weight(lib)
        lib.nn.functional.embedding(lib.tensor(X), w, sparse=True).sum().backward()
        g = w.grad
        lib.optim.SGD([w], lr=0.1).zero_grad(set_to_none=False)
        assert w.grad is g
        zeroed = lib.sparse_coo_tensor(g._indices(), g._values(), g.shape)
        lib.nn.functional.embedding(lib.tensor([1, 3]), w, sparse=True).sum().backward()
        return zeroed, w.grad
    both(run)


def _train(lib, opt_name, kw, steps=4, dtype="float32", rows=50, cols=7):
    """A few steps of ``opt_name`` on a sparse embedding with random indices; the weight
    and the optimizer's state."""
    w = _weight(lib, rows, cols, dtype)
    opt = getattr(lib.optim, opt_name)([w], **kw)
    rng = np.random.default_rng(1)
    for _ in range(steps):
        opt.zero_grad()
        idx = lib.tensor(rng.integers(0, rows, (4, 9)))
        (lib.nn.functional.embedding(idx, w, sparse=True) ** 2).sum().backward()
        opt.step()
    state = opt.state[w]
    return w.detach(), [state[k] for k in sorted(state)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kw", [
    {"lr": 0.1}, {"lr": 0.1, "maximize": True}, {"lr": 0.05, "momentum": 0.9},
    {"lr": 0.1, "momentum": 0.9, "nesterov": True},
    {"lr": 0.037, "momentum": 0.7, "dampening": 0.1}])
def test_sgd_sparse(kw, dtype):
    both(lambda lib: _train(lib, "SGD", kw, dtype=dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kw", [
    {}, {"lr": 0.3, "lr_decay": 0.1}, {"maximize": True, "initial_accumulator_value": 0.5}])
def test_adagrad_sparse(kw, dtype):
    both(lambda lib: _train(lib, "Adagrad", kw, dtype=dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kw", [
    {}, {"lr": 0.01, "betas": (0.5, 0.6)}, {"maximize": True, "eps": 1e-3}])
def test_sparse_adam(kw, dtype):
    both(lambda lib: _train(lib, "SparseAdam", kw, steps=5, dtype=dtype))


def test_lbfgs_takes_the_dense_view_of_a_sparse_grad():
    def run(lib):
        w = _weight(lib)
        opt = lib.optim.LBFGS([w])

        def closure():
            opt.zero_grad()
            loss = (lib.nn.functional.embedding(lib.tensor(X), w, sparse=True) ** 2).sum()
            loss.backward()
            return loss
        opt.step(closure)
        return w.detach()
    both(run)


@pytest.mark.parametrize("name,kw", [
    ("SGD", {"lr": 0.1, "weight_decay": 0.1}), ("Adagrad", {"weight_decay": 0.1}),
    ("Adam", {}), ("AdamW", {}), ("RMSprop", {}), ("Adamax", {}), ("NAdam", {}), ("RAdam", {}),
    ("ASGD", {}), ("Rprop", {}), ("Adadelta", {}), ("Adafactor", {})])
def test_optimizers_refusing_sparse_gradients(name, kw):
    same_error(lambda lib: _train(lib, name, kw, steps=1))


def test_sparse_adam_errors():
    def dense_grad(lib):
        w = _weight(lib)
        w.grad = lib.ones(5, 3)
        lib.optim.SparseAdam([w]).step()
    same_error(dense_grad)
    same_error(lambda lib: lib.optim.SparseAdam(
        [_weight(lib), lib.ones(3).to_sparse().requires_grad_()]))


@pytest.mark.parametrize("clip", [
    lambda lib, ps: lib.nn.utils.clip_grad_norm_(ps, 0.5),
    lambda lib, ps: lib.nn.utils.clip_grad_value_(ps, 0.5)])
def test_clipping_sparse_gradients_fails_as_torch(clip):
    def run(lib):
        w = _weight(lib)
        lib.nn.functional.embedding(lib.tensor(X), w, sparse=True).sum().backward()
        clip(lib, [w])
    same_dispatch_error(run)


@pytest.mark.parametrize("values_shape,coalesced", [
    ((7,), True), ((7,), False), ((7, 5), True), ((7, 5), False)])
def test_dense_add_sparse_with_alpha(values_shape, coalesced):
    """torch's axpy (one rounding) for values with dense dims or an uncoalesced operand, a
    rounded product otherwise."""
    rng = np.random.default_rng(3)
    rows = 4 if len(values_shape) > 1 else 9
    idx = rng.permutation(rows)[:4] if coalesced else rng.integers(0, rows, 7)
    idx = np.sort(idx)[None] if coalesced else idx[None]
    vals = rng.standard_normal((idx.shape[1],) + values_shape[1:]).astype(np.float32)
    dense = rng.standard_normal((rows,) + values_shape[1:]).astype(np.float32)

    def run(lib):
        s = lib.sparse_coo_tensor(lib.tensor(idx), lib.tensor(vals), dense.shape,
                                  is_coalesced=coalesced)
        d = lib.tensor(dense)
        d.add_(s, alpha=-0.1)
        return d
    both(run)


def test_sparse_add_with_alpha_and_in_place_ops():
    rng = np.random.default_rng(4)
    i1, i2 = rng.integers(0, 6, (1, 9)), rng.integers(0, 6, (1, 7))
    v1, v2 = (rng.standard_normal((n, 3)).astype(np.float32) for n in (9, 7))

    def run(lib):
        a = lib.sparse_coo_tensor(lib.tensor(i1), lib.tensor(v1), (6, 3))
        b = lib.sparse_coo_tensor(lib.tensor(i2), lib.tensor(v2), (6, 3))
        c = a.add(b, alpha=0.3)
        a.mul_(0.7).add_(b, alpha=-1.5)
        b.div_(3.0)
        expanded = lib.sparse_coo_tensor(lib.tensor(i2), lib.ones(1, 3).expand(7, 3), (6, 3))
        return c, a, b, expanded + a, expanded.sub(b, alpha=2.0)
    both(run)


@pytest.mark.parametrize("kw", [
    {"input": [1, 2, 4, 5, 4, 3, 2, 9], "offsets": [0, 4], "mode": "sum"},
    {"input": [1, 2, 4, 5, 4, 3, 2, 9], "offsets": [0, 3, 3], "mode": "mean"},
    {"input": [[1, 2, 4], [5, 4, 3]], "mode": "mean"},
    {"input": [1, 2, 4, 5, 4, 3, 2, 9], "offsets": [0, 4], "mode": "sum",
     "per_sample_weights": [0.5, 0.25, 2.0, 1.5, 0.1, 0.3, 0.7, 0.9]},
    {"input": [1, 2, 4, 5, 4, 3, 2, 9], "offsets": [0, 4, 8], "mode": "mean",
     "include_last_offset": True},
    {"input": [1, 2, 4, 5, 4, 2, 2, 9], "offsets": [0, 2, 4], "mode": "mean", "padding_idx": 2},
    {"input": [7], "offsets": [0], "mode": "mean"}])
def test_embedding_bag_sparse_grad(kw):
    """``_embedding_bag_sparse_backward``: one entry per index, its bag's gradient row scaled
    by ``1 / bag_size`` (mean) or its sample weight."""
    def run(lib):
        w = _weight(lib, 10, 3)
        args = {k: lib.tensor(v) if isinstance(v, list) else v for k, v in kw.items()}
        out = lib.nn.functional.embedding_bag(weight=w, sparse=True, **args)
        (out * lib.arange(out.numel()).view(out.shape).float()).sum().backward()
        first = w.grad
        w.grad = None
        lib.nn.functional.embedding_bag(weight=w, sparse=True, **args).sum().backward()
        return type(out.grad_fn).__name__, first, w.grad
    both(run)


def test_sparse_leaf_grads_assigned_and_accumulated():
    def run(lib):
        s = lib.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3,)).requires_grad_()
        for _ in range(2):
            lib.sparse.sum(s).backward()
        first = s.grad
        s.grad = lib.ones(3).to_sparse()
        g = s.grad
        (s.to_dense() * 2).sum().backward()
        assert s.grad is g
        w = lib.nn.Parameter(lib.ones(3))
        w.grad = lib.ones(3).to_sparse()
        return first, s.grad, w.grad
    both(run)
    same_error(lambda lib: setattr(lib.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3,))
                                   .requires_grad_(), "grad", lib.ones(3)))
