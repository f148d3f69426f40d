"""The graph autograd records, as a learner prints it: each op's ``grad_fn`` name and its
``next_functions`` tree, node by node, as torch records them for the same code."""

import warnings

import pytest

import ember

torch = pytest.importorskip("torch")


def tree(fn, depth=0):
    """``(name, ((child, input_nr), …))`` of a grad_fn, six levels deep."""
    if fn is None:
        return None
    if depth > 6:
        return type(fn).__name__
    return type(fn).__name__, tuple((tree(n, depth + 1), i) for n, i in fn.next_functions)


CASES = {
    "linear": lambda L, x, w, b: L.nn.functional.linear(x, w, b),
    "linear_nobias": lambda L, x, w, b: L.nn.functional.linear(x, w),
    "linear3d": lambda L, x, w, b: L.nn.functional.linear(x.unsqueeze(0), w, b),
    "mm": lambda L, x, w, b: x @ w.t(),
    "matmul_1d": lambda L, x, w, b: x @ b[:3],
    "mse": lambda L, x, w, b: L.nn.functional.mse_loss(x, w[:2]),
    "ce": lambda L, x, w, b: L.nn.functional.cross_entropy(x, L.tensor([0, 1])),
    "bce_logits": lambda L, x, w, b: L.nn.functional.binary_cross_entropy_with_logits(
        x, w[:2].sigmoid()
    ),
    "softmax": lambda L, x, w, b: x.softmax(-1),
    "relu": lambda L, x, w, b: x.relu(),
    "sigmoid": lambda L, x, w, b: L.sigmoid(x),
    "mean": lambda L, x, w, b: x.mean(),
    "sum_dim": lambda L, x, w, b: x.sum(1),
    "view": lambda L, x, w, b: x.view(-1),
    "reshape_t": lambda L, x, w, b: x.t().reshape(-1),
    "index": lambda L, x, w, b: x[0],
    "slice": lambda L, x, w, b: x[:, 1:],
    "cat": lambda L, x, w, b: L.cat([x, w[:2]]),
    "stack": lambda L, x, w, b: L.stack([x, w[:2]]),
    "pow2": lambda L, x, w, b: x**2,
    "sqrt": lambda L, x, w, b: x.abs().sqrt(),
    "div_scalar": lambda L, x, w, b: x / 2,
    "rsub": lambda L, x, w, b: 1 - x,
    "neg": lambda L, x, w, b: -x,
    "expand": lambda L, x, w, b: b[:3].expand(2, 3),
    "unsqueeze": lambda L, x, w, b: b.unsqueeze(0),
    "dropout_eval": lambda L, x, w, b: L.nn.functional.dropout(x, 0.5, training=False),
    "layer_norm": lambda L, x, w, b: L.nn.functional.layer_norm(x, (3,), w[0], b[:3]),
    "bn_train": lambda L, x, w, b: L.nn.functional.batch_norm(
        x, None, None, w[0], b[:3], training=True
    ),
    "embedding": lambda L, x, w, b: L.nn.functional.embedding(L.tensor([0, 1]), w),
    "max": lambda L, x, w, b: x.max(),
    "max_dim": lambda L, x, w, b: x.max(1)[0],
    "clamp": lambda L, x, w, b: x.clamp(0, 1),
    "where": lambda L, x, w, b: L.where(x > 0, x, w[:2]),
    "norm": lambda L, x, w, b: x.norm(),
    "tanh_sum": lambda L, x, w, b: x.tanh().sum(),
    "addcmul": lambda L, x, w, b: L.addcmul(x, x, w[:2]),
    "lerp": lambda L, x, w, b: L.lerp(x, w[:2], 0.5),
    "gelu": lambda L, x, w, b: L.nn.functional.gelu(x),
    "log_softmax": lambda L, x, w, b: x.log_softmax(1),
    "transpose": lambda L, x, w, b: x.transpose(0, 1),
    "contig": lambda L, x, w, b: x.t().contiguous(),
    "clone": lambda L, x, w, b: x.clone(),
    "to64": lambda L, x, w, b: x.double(),
    "detach_mul": lambda L, x, w, b: x.detach() * w[:2],
    "squeeze": lambda L, x, w, b: x[None].squeeze(0),
    "flatten": lambda L, x, w, b: x.flatten(),
    "chunk": lambda L, x, w, b: x.chunk(3, 1)[1],
    "split": lambda L, x, w, b: x.split(1, 1)[2],
    "unbind": lambda L, x, w, b: x.unbind(0)[1],
    "inplace": lambda L, x, w, b: (x * 1).add_(1).mul_(2),
    "inplace_view": lambda L, x, w, b: (lambda y: (y[0].mul_(2), y)[1])(x * 1),
    "masked_fill": lambda L, x, w, b: x.masked_fill(x > 0, 0.0),
    "conv1d": lambda L, x, w, b: L.nn.functional.conv1d(
        x[None], w[:, :, None].expand(4, 3, 1).contiguous()[:2, :2]
    ),
    "std": lambda L, x, w, b: x.std(),
    "var_mean": lambda L, x, w, b: L.var_mean(x)[0],
    "sort": lambda L, x, w, b: x.sort()[0],
    "topk": lambda L, x, w, b: x.topk(2)[0],
    "gather": lambda L, x, w, b: x.gather(1, L.tensor([[0], [2]])),
    "repeat": lambda L, x, w, b: x.repeat(2, 1),
    "einsum": lambda L, x, w, b: L.einsum("ij,kj->ik", x, w),
    "bmm": lambda L, x, w, b: L.bmm(x[None], w.t()[None]),
    "cumsum": lambda L, x, w, b: x.cumsum(1),
    "prod": lambda L, x, w, b: x.prod(),
    "logsumexp": lambda L, x, w, b: x.logsumexp(1),
    "abs": lambda L, x, w, b: x.abs(),
    "exp_sum_log": lambda L, x, w, b: x.exp().sum().log(),
    "one_minus_sig": lambda L, x, w, b: 1 - x.sigmoid(),
}


def _graph(lib, fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.manual_seed(0)
        x = lib.randn(2, 3, requires_grad=True)
        w = lib.randn(4, 3, requires_grad=True)
        b = lib.randn(4, requires_grad=True)
        return tree(fn(lib, x, w, b).grad_fn)


@pytest.mark.parametrize("name", sorted(CASES))
def test_graph_as_torch(name):
    assert _graph(ember, CASES[name]) == _graph(torch, CASES[name])
