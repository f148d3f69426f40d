"""Common mistakes in real programs raise torch's error class with torch's message (or
succeed where torch does): a table of calls run in both libraries."""

import pytest

import ember

from .helpers import outcome

torch = pytest.importorskip("torch")

CASES = {
    "triu_indices_negative": lambda L: L.triu_indices(-1, -2),
    "tril_indices_negative_col": lambda L: L.tril_indices(2, -1),
    "hsplit_indivisible": lambda L: L.ones(2, 3).hsplit(2),
    "vsplit_1d": lambda L: L.ones(1).vsplit(1),
    "complex_of_integers": lambda L: L.complex(L.ones(2, dtype=L.long), L.ones(2)),
    "logcumsumexp_integer": lambda L: L.tensor([1, 2]).logcumsumexp(0),
    "ctc_negative_target_length": lambda L: L.nn.functional.ctc_loss(
        L.ones(5, 1, 3).log_softmax(2), L.tensor([[1]]), L.tensor([5]), L.tensor([-1])
    ),
    "ctc_negative_input_length": lambda L: L.nn.functional.ctc_loss(
        L.ones(5, 1, 3).log_softmax(2), L.tensor([[1]]), L.tensor([-1]), L.tensor([1])
    ),
    "layer_norm_no_dims": lambda L: L.nn.functional.layer_norm(L.ones(2, 3), ()),
    "rrelu_bounds": lambda L: L.nn.functional.rrelu(L.ones(3), lower=0.5, upper=0.1),
    "celu_zero_alpha": lambda L: L.nn.functional.celu(L.ones(3), alpha=0.0),
    "repeat_negative": lambda L: L.ones(2, 3).repeat(-1, 2, 2),
    "full_str": lambda L: L.full((2,), "a"),
    "conv_all_bad": lambda L: L.nn.functional.conv2d(
        L.ones(1, 2, 4, 4), L.ones(2, 1, 2, 2), stride=0, dilation=0, padding=-1, groups=0
    ),
    "conv_zero_stride": lambda L: L.nn.functional.conv1d(
        L.ones(1, 1, 4), L.ones(1, 1, 2), stride=0
    ),
    "conv_negative_padding": lambda L: L.nn.functional.conv2d(
        L.ones(1, 1, 4, 4), L.ones(1, 1, 2, 2), padding=(0, -1)
    ),
    "conv_zero_dilation": lambda L: L.nn.functional.conv1d(
        L.ones(1, 1, 4), L.ones(1, 1, 2), dilation=0
    ),
    "conv_transpose_zero_dilation": lambda L: L.nn.functional.conv_transpose2d(
        L.ones(1, 1, 4, 4), L.ones(1, 1, 2, 2), dilation=0
    ),
    "conv_transpose_negative_output_padding": lambda L: L.nn.functional.conv_transpose2d(
        L.ones(1, 1, 4, 4), L.ones(1, 1, 2, 2), output_padding=-1
    ),
    "max_pool_zero_dilation": lambda L: L.nn.functional.max_pool3d(
        L.ones(1, 1, 4, 4, 4), 2, dilation=0
    ),
    "max_pool1d_zero_dilation": lambda L: L.nn.functional.max_pool1d(
        L.ones(1, 1, 4), 2, dilation=0
    ),
    "max_pool2d_zero_stride": lambda L: L.nn.MaxPool2d(2, stride=0)(L.ones(1, 1, 4, 4)),
    "avg_pool1d_zero_stride": lambda L: L.nn.functional.avg_pool1d(L.ones(1, 1, 4), 2, 0),
    "max_pool1d_zero_stride": lambda L: L.nn.functional.max_pool1d(L.ones(1, 1, 4), 2, 0),
    "max_pool1d_zero_stride_indices": lambda L: L.nn.functional.max_pool1d(
        L.ones(1, 1, 4), 2, 0, return_indices=True
    ),
    "gru_proj_size": lambda L: L.nn.GRU(3, 4, proj_size=0),
    "rnn_proj_size": lambda L: L.nn.RNN(3, 4, proj_size=2),
    "layer_norm_weight_shape": lambda L: L.nn.functional.layer_norm(L.ones(2, 3), (3,), L.ones(4)),
    "layer_norm_bias_shape": lambda L: L.nn.functional.layer_norm(
        L.ones(2, 3), (3,), None, L.ones(2, 2)
    ),
    "layer_norm_input_shape": lambda L: L.nn.functional.layer_norm(L.ones(2, 3), (2,)),
    "leaf_inplace": lambda L: L.ones(2, requires_grad=True).add_(1),
    "bcast_inplace": lambda L: L.ones(3).add_(L.ones(2, 3)),
    "cast_inplace": lambda L: L.ones(3, dtype=L.long).add_(L.ones(3)),
    "cast_inplace_scalar": lambda L: L.ones(3, dtype=L.long).mul_(1.5),
    "int_div_": lambda L: L.ones(3, dtype=L.long).div_(2),
    "bool_sub": lambda L: L.ones(3, dtype=L.bool) - L.ones(3, dtype=L.bool),
    "neg_bool": lambda L: -L.ones(3, dtype=L.bool),
    "matmul_1d_mismatch": lambda L: L.ones(3) @ L.ones(4),
    "mm_3d": lambda L: L.mm(L.ones(2, 2, 2), L.ones(2, 2)),
    "bmm_2d": lambda L: L.bmm(L.ones(2, 2), L.ones(2, 2)),
    "linear_mismatch": lambda L: L.nn.Linear(3, 2)(L.ones(4, 5)),
    "conv_channels": lambda L: L.nn.Conv2d(3, 2, 3)(L.ones(1, 4, 5, 5)),
    "conv_small": lambda L: L.nn.Conv2d(1, 2, 3)(L.ones(1, 1, 2, 2)),
    "conv_3d_input": lambda L: L.nn.Conv2d(1, 2, 3)(L.ones(1, 1, 5)),
    "ce_target_oob": lambda L: L.nn.functional.cross_entropy(L.ones(2, 3), L.tensor([0, 3])),
    "ce_float_target_shape": lambda L: L.nn.functional.cross_entropy(L.ones(2, 3), L.ones(2)),
    "ce_target_dtype": lambda L: L.nn.functional.cross_entropy(
        L.ones(2, 3), L.tensor([0, 1], dtype=L.int32)
    ),
    "nll_3d_target": lambda L: L.nn.functional.nll_loss(L.ones(2, 3), L.zeros(2, 1, dtype=L.long)),
    "bce_oob": lambda L: L.nn.functional.binary_cross_entropy(L.full((2,), 1.5), L.ones(2)),
    "embedding_oob": lambda L: L.nn.Embedding(3, 2)(L.tensor([3])),
    "embedding_float": lambda L: L.nn.Embedding(3, 2)(L.tensor([1.0])),
    "backward_nonscalar": lambda L: (L.ones(2, requires_grad=True) * 2).backward(),
    "backward_noreq": lambda L: L.ones(2).sum().backward(),
    "backward_twice": lambda L: (lambda y: (y.backward(), y.backward()))(
        (L.ones(2, requires_grad=True) * 2).exp().sum()
    ),
    "numpy_reqgrad": lambda L: L.ones(2, requires_grad=True).numpy(),
    "view_noncontig": lambda L: L.ones(2, 3).t().view(6),
    "expand_bad": lambda L: L.ones(2, 3).expand(3, 3),
    "cat_dtype_mix": lambda L: L.cat([L.ones(2), L.ones(2, dtype=L.long)]),
    "cat_dim_mismatch": lambda L: L.cat([L.ones(2, 3), L.ones(2, 4)]),
    "stack_mismatch": lambda L: L.stack([L.ones(2), L.ones(3)]),
    "index_float": lambda L: L.ones(3)[L.tensor([1.0])],
    "index_bool_shape": lambda L: L.ones(3)[L.tensor([True, False])],
    "gather_dtype": lambda L: L.ones(3).gather(0, L.tensor([0], dtype=L.int32)),
    "scatter_shape": lambda L: L.zeros(3).scatter_(0, L.tensor([[0]]), 1.0),
    "squeeze_bad": lambda L: L.ones(2).squeeze(3),
    "permute_bad": lambda L: L.ones(2, 3).permute(0),
    "transpose_bad": lambda L: L.ones(2, 3).transpose(0, 2),
    "reshape_bad": lambda L: L.ones(6).reshape(4, 2),
    "item_grad": lambda L: L.ones(1, requires_grad=True).item(),
    "float_of_tensor": lambda L: float(L.ones(2)),
    "randint_bad": lambda L: L.randint(5, 3, (2,)),
    "normal_neg_std": lambda L: L.normal(0.0, -1.0, (2,)),
    "multinomial_neg": lambda L: L.multinomial(L.tensor([-1.0, 2.0]), 1),
    "softmax_int": lambda L: L.ones(3, dtype=L.long).softmax(0),
    "mean_int": lambda L: L.ones(3, dtype=L.long).mean(),
    "sqrt_int": lambda L: L.ones(3, dtype=L.long).sqrt(),
    "requires_grad_int": lambda L: L.ones(3, dtype=L.long).requires_grad_(),
    "param_int": lambda L: L.nn.Parameter(L.ones(3, dtype=L.long)),
    "opt_nonleaf": lambda L: L.optim.SGD([L.ones(2, requires_grad=True) * 2], lr=0.1),
    "opt_empty": lambda L: L.optim.SGD([], lr=0.1),
    "opt_neg_lr": lambda L: L.optim.Adam([L.nn.Parameter(L.ones(2))], lr=-1),
    "module_setattr": lambda L: setattr(L.nn.Linear(2, 2), "weight", L.ones(2, 2)),
    "load_state_mismatch": lambda L: L.nn.Linear(2, 2).load_state_dict(
        {"weight": L.ones(3, 2), "bias": L.ones(2)}
    ),
    "load_state_missing": lambda L: L.nn.Linear(2, 2).load_state_dict({"weight": L.ones(2, 2)}),
    "maxpool_big": lambda L: L.nn.MaxPool2d(3)(L.ones(1, 1, 2, 2)),
    "bn_batch1": lambda L: L.nn.BatchNorm1d(3)(L.ones(1, 3)),
    "lstm_input_dim": lambda L: L.nn.LSTM(3, 4)(L.ones(2, 5, 2)),
    "mha_embed": lambda L: L.nn.MultiheadAttention(5, 2),
    "dropout_p": lambda L: L.nn.Dropout(1.5),
    "one_hot_neg": lambda L: L.nn.functional.one_hot(L.tensor([-1])),
    "one_hot_float": lambda L: L.nn.functional.one_hot(L.tensor([1.0])),
    "one_hot_small": lambda L: L.nn.functional.one_hot(L.tensor([3]), 2),
    "pad_neg_bad": lambda L: L.nn.functional.pad(L.ones(2), (1,)),
    "interp_noargs": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 2)),
    "clip_grad_none": lambda L: L.nn.utils.clip_grad_norm_([L.nn.Parameter(L.ones(2))], 1.0),
}


def _shown(lib, y):
    return (
        (tuple(y.shape), str(y.dtype).replace("torch.", ""))
        if isinstance(y, lib.Tensor)
        else (type(y).__name__,)
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_as_torch(name):
    got, want = outcome(ember, CASES[name], _shown), outcome(torch, CASES[name], _shown)
    assert repr(got).replace("ember", "torch") == repr(want)
