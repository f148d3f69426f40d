"""Regression tests for what the sixth round of real programs found, each against torch 2.13:
hardswish's gradient is 0 at ``x = -3`` and 1 at ``x = 3`` (torch's kernel takes the slope
branch only on the open interval ``-3 < x < 3``); ATen's argument checks with torch's messages
for batch_norm (each vector one element per channel, running stats required in evaluation mode),
adaptive pooling (output_size length, ``_list_with_default``, 1-d input rank) and bilinear
(batch dims, feature sizes, bias); layer_norm's message prints the size as a list and
GroupNorm's names the counts; masked_select broadcasts (mask, self) in that order, so a shape
mismatch names the mask's size first; nn.Unflatten checks its sizes are ints (torch dropped the
named-tensor form) and calls Tensor.unflatten, whose "don't multiply up" message names the
wrapped dim and also replaces infer_size's "shape is invalid" error; complex64 abs is libm's
hypotf of the parts, bit for bit; factories: negative sizes name the dimension (only zeros says
"Dimension size must be non-negative"), arange's overflow checks, ``zeros((2, 3), 4)``,
randint's argument parser (float bounds no longer accepted, torch's TypeErrors), rand's
NotImplementedError for integer dtypes, ``tensor(None)``'s RuntimeError; as_strided's storage
bounds check; a str in tensor data raises "too many dimensions" only where torch's sizing meets
it (the first elements), else "invalid data type"; view(dtype)'s element-size checks; c10's
device-string grammar; NumPy type names in from_numpy's message; softmax-family errors are
NotImplementedError naming the kernel (lastdim or not); float16 softmax/log_softmax compute in
float like bfloat16's; reductions over an empty dim raise torch's IndexError
(max/min/argmax/argmin/amax/amin); var_mean/std_mean name themselves for integer input;
indexing: a short list holding sequences/slices/None/... is a tuple of indices (torch's
treatSequenceAsTuple), int8/int16 index tensors are rejected, a zero slice step has Python's
message, and an out-of-range integer index names its position in the index. Padding: reflection
checks the last dim first (ATen's argument #4, #6, #8), circular padding may wrap at most once
and not empty a dim; transposed convolutions check output_padding < stride or dilation.
linalg.solve broadcasts B's batch dims before A's (the mismatch message's order); linalg.norm
dispatches as ATen (a string ord is a matrix norm over (0, 1), a number ord needs a 1-D or 2-D
input without dim); lstsq's driver message; torch.Size's AttributeError names 'torch.Size'.
autograd.grad supports is_grads_batched."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import errors_alike, torch


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_hardswish_grad_at_the_kinks(dtype):
    values = [-4.0, -3.0, -3.0001, -2.9999, 0.0, 2.9999, 3.0, 3.0001, 4.0]
    grads = []
    for lib in (ember, torch):
        x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
        lib.nn.functional.hardswish(x).backward(lib.full((len(values),), 2.0, dtype=x.dtype))
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(*grads)


def _x(lib, *shape):
    return lib.ones(*shape)


ARG_ERRORS = {
    "bn_running_mean": lambda L: L.nn.functional.batch_norm(_x(L, 2, 3, 4), L.zeros(4),
                                                            L.ones(4)),
    "bn_running_var": lambda L: L.nn.functional.batch_norm(_x(L, 2, 3, 4), L.zeros(3),
                                                           L.ones(5), training=True),
    "bn_weight": lambda L: L.nn.functional.batch_norm(_x(L, 2, 3, 4), None, None,
                                                      L.ones(4), training=True),
    "bn_bias": lambda L: L.nn.functional.batch_norm(_x(L, 2, 3, 4), L.zeros(3), L.ones(3),
                                                    bias=L.ones(2)),
    "bn_eval_no_mean": lambda L: L.nn.functional.batch_norm(_x(L, 2, 3, 4), None, L.ones(3)),
    "bn_eval_no_var": lambda L: L.nn.functional.batch_norm(_x(L, 2, 3, 4), L.zeros(3), None),
    "bn_module": lambda L: L.nn.BatchNorm2d(4)(_x(L, 2, 3, 5, 5)),
    "torch_batch_norm": lambda L: L.batch_norm(_x(L, 2, 3, 4), L.ones(4), None, None, None,
                                               True, 0.1, 1e-5, False),
    "aap2d_len": lambda L: L.nn.functional.adaptive_avg_pool2d(_x(L, 2, 3, 8, 8), (2, 2, 2)),
    "aap2d_one": lambda L: L.nn.functional.adaptive_avg_pool2d(_x(L, 2, 3, 8, 8), [2]),
    "amp2d_len": lambda L: L.nn.functional.adaptive_max_pool2d(_x(L, 2, 3, 8, 8), (2, 2, 2)),
    "aap3d_len": lambda L: L.nn.functional.adaptive_avg_pool3d(_x(L, 1, 2, 4, 4, 4), (2, 2)),
    "amp3d_len": lambda L: L.nn.functional.adaptive_max_pool3d(_x(L, 1, 2, 4, 4, 4), (2, 2)),
    "amp3d_rank_first": lambda L: L.nn.functional.adaptive_max_pool3d(_x(L, 4, 4), (2, 2)),
    "aap_list_default": lambda L: L.nn.functional.adaptive_avg_pool2d(_x(L, 3, 8),
                                                                      (2, None, 2)),
    "aap1d_len": lambda L: L.nn.functional.adaptive_avg_pool1d(_x(L, 1, 2, 4), (2, 2)),
    "aap1d_rank": lambda L: L.nn.functional.adaptive_avg_pool1d(_x(L, 4), 2),
    "amp1d_rank": lambda L: L.nn.functional.adaptive_max_pool1d(_x(L, 1, 2, 3, 4), 2),
    "bilinear_in1": lambda L: L.nn.functional.bilinear(_x(L, 2, 2), _x(L, 2, 4),
                                                       _x(L, 2, 3, 4)),
    "bilinear_in2": lambda L: L.nn.Bilinear(3, 4, 2)(_x(L, 2, 3), _x(L, 2, 3)),
    "bilinear_batch": lambda L: L.nn.functional.bilinear(_x(L, 2, 3), _x(L, 3, 4),
                                                         _x(L, 2, 3, 4)),
    "bilinear_ndim": lambda L: L.nn.functional.bilinear(_x(L, 2, 3), _x(L, 1, 2, 4),
                                                        _x(L, 2, 3, 4)),
    "bilinear_bias": lambda L: L.nn.functional.bilinear(_x(L, 2, 3), _x(L, 2, 4),
                                                        _x(L, 2, 3, 4), _x(L, 3)),
    "layer_norm_shape": lambda L: L.nn.LayerNorm(4)(_x(L, 2, 3, 8, 8)),
    "group_norm_divisible": lambda L: L.nn.GroupNorm(2, 3),
    "unflatten_infer": lambda L: _x(L, 2, 12).unflatten(1, (-1, 5)),
    "unflatten_negative_dim": lambda L: _x(L, 2, 12).unflatten(-1, (5, 3)),
    "unflatten_module_infer": lambda L: L.nn.Unflatten(-1, [2, -1, 5])(_x(L, 2, 12)),
    "unflatten_module_named": lambda L: L.nn.Unflatten("x", (("c", 2), ("h", 3))),
    "unflatten_module_float": lambda L: L.nn.Unflatten(1, (2.0, 6)),
    "unflatten_module_int": lambda L: L.nn.Unflatten(1, 12),
    "masked_select_broadcast": lambda L: _x(L, 3, 4).masked_select(L.ones(2, 4, dtype=L.bool)),
    "masked_select_broadcast_dim": lambda L: L.masked_select(_x(L, 5, 3, 4),
                                                             L.ones(2, 4, dtype=L.bool)),
}


@pytest.mark.parametrize("name", sorted(ARG_ERRORS))
def test_argument_checks_raise_torchs_errors(name):
    errors_alike(ARG_ERRORS[name])


def test_adaptive_pool_list_defaults_still_work():
    for lib in (ember, torch):
        f = lib.nn.functional
        x = lib.arange(2 * 3 * 4 * 6.0).reshape(2, 3, 4, 6)
        assert tuple(f.adaptive_avg_pool2d(x, (None, 2)).shape) == (2, 3, 4, 2)
        assert tuple(f.adaptive_max_pool2d(x, [2, None]).shape) == (2, 3, 2, 6)
        assert tuple(f.adaptive_avg_pool1d(x[0], [3]).shape) == (3, 4, 3)
    x = np.random.default_rng(0).standard_normal((2, 3, 5)).astype(np.float32)
    w = np.random.default_rng(1).standard_normal((4, 5, 5)).astype(np.float32)
    outs = [lib.nn.functional.bilinear(lib.tensor(x), lib.tensor(x), lib.tensor(w)).numpy()
            for lib in (ember, torch)]
    np.testing.assert_allclose(*outs, rtol=1e-5, atol=1e-5)


def test_complex64_abs_is_hypot_bit_for_bit():
    """torch's |z| for complex64 is libm's hypotf of the parts (numpy's complex abs is off by
    an ulp in about a third of the elements); assert_close's relative difference shows it."""
    rng = np.random.default_rng(0)
    z = (rng.standard_normal(20000) + 1j * rng.standard_normal(20000)).astype(np.complex64)
    ours, theirs = (lib.from_numpy(z).abs().numpy() for lib in (ember, torch))
    np.testing.assert_array_equal(ours, theirs)
    assert ember.tensor([1 + 1.1j]).abs().item() == torch.tensor([1 + 1.1j]).abs().item()
    msgs = []
    for lib in (ember, torch):
        with pytest.raises(AssertionError) as info:
            lib.testing.assert_close(lib.tensor([1 + 1j]), lib.tensor([1 + 1.1j]))
        msgs.append(str(info.value))
    assert msgs[0] == msgs[1]


FACTORY_ERRORS = {
    "empty_negative": lambda L: L.empty(2, -1),
    "empty_tuple_negative": lambda L: L.empty((-3,)),
    "rand_negative": lambda L: L.rand(2, -1),
    "randn_negative": lambda L: L.randn(-1),
    "randint_negative": lambda L: L.randint(0, 5, (2, -1)),
    "zeros_negative": lambda L: L.zeros(2, -1),
    "zeros_extra_positional": lambda L: L.zeros((2, 3), 4),
    "ones_extra_positional": lambda L: L.ones((2,), (3,)),
    "arange_too_long": lambda L: L.arange(0, 1e20, 1),
    "arange_too_many_bytes": lambda L: L.arange(0, 2**62, 1),
    "rand_long": lambda L: L.rand(2, dtype=L.int64),
    "rand_bool": lambda L: L.rand(2, dtype=L.bool),
    "tensor_none": lambda L: L.tensor(None),
    "tensor_list_none": lambda L: L.tensor([1, None]),
    "randint_float_high": lambda L: L.randint(0, 10.5, (3,)),
    "randint_float_low": lambda L: L.randint(0.0, 10, (3,)),
    "randint_three_ints": lambda L: L.randint(0, 10, 3),
    "randint_no_args": lambda L: L.randint(),
    "randint_int_size": lambda L: L.randint(0, 10),
    "randint_kw_int_size": lambda L: L.randint(10, size=3),
    "randint_float_only_high": lambda L: L.randint(10.0, (3,)),
    "randint_keywords_only": lambda L: L.randint(size=(2,), high=5.0, low=3),
    "randint_keywords_order": lambda L: L.randint(2, high=5, size=(2,), low=1),
    "randint_float_size": lambda L: L.randint(5, (2.0,)),
    "as_strided_out_of_bounds": lambda L: L.arange(4.0).as_strided((3, 3), (1, 1), 2),
    "as_strided_inplace_out_of_bounds": lambda L: L.arange(8.0).as_strided_((3,), (4,)),
    "view_dtype_size": lambda L: L.ones(3, dtype=L.int16).view(L.int32),
    "view_dtype_stride": lambda L: L.ones(4, 2).t().view(L.float64),
    "view_dtype_0d": lambda L: L.ones(()).view(L.int16),
    "view_dtype_offset": lambda L: L.ones(8, dtype=L.int16)[1:5].view(L.int32),
    "view_dtype_down_stride": lambda L: L.ones(4, 4, dtype=L.float64)[:, ::2].view(L.float32),
    "device_digits": lambda L: L.device("float32"),
    "device_to_digits": lambda L: L.ones(2).to("float32"),
    "device_two_colons": lambda L: L.device("cpu:0:1"),
    "device_leading_zero": lambda L: L.device("cpu:01"),
    "device_negative": lambda L: L.device("cuda:-1"),
    "device_empty": lambda L: L.device(""),
    "device_unknown_name": lambda L: L.device("xyz:3"),
    "from_numpy_object": lambda L: L.from_numpy(np.array([1, "a"], dtype=object)),
    "as_tensor_str": lambda L: L.as_tensor(np.array(["a"])),
    "tensor_str_first": lambda L: L.tensor(["a"]),
    "tensor_str_later": lambda L: L.tensor([1, "a"]),
    "tensor_str_nested": lambda L: L.tensor([[1, 2], [3, "b"]]),
    "tensor_bytes": lambda L: L.tensor([b"a"]),
}


@pytest.mark.parametrize("name", sorted(FACTORY_ERRORS))
def test_factory_and_view_errors_are_torchs(name):
    errors_alike(FACTORY_ERRORS[name])


def test_randint_forms_and_valid_views_still_work():
    for lib in (ember, torch):
        lib.manual_seed(0)
        draws = [lib.randint(5, (2,)), lib.randint(2, 5, size=(2,)), lib.randint(high=5, size=[2]),
                 lib.randint(low=1, high=5, size=(2,)), lib.randint(lib.tensor(5), (2,)),
                 lib.randint(0, 10, (2,), dtype=lib.float32)]
        if lib is ember:
            ours = [d.tolist() for d in draws]
        else:
            assert ours == [d.tolist() for d in draws]
    for lib in (ember, torch):
        v = lib.ones(3, 6, dtype=lib.int16)[:, :4].view(lib.int32)
        assert (tuple(v.shape), v.stride()) == ((3, 2), (3, 1))
        assert lib.arange(8.0)[2:].as_strided((2, 2), (3, 1)).tolist() == [[2.0, 3.0], [5.0, 6.0]]


REDUCTION_ERRORS = {
    "softmax_long": lambda L: L.nn.functional.softmax(L.arange(6).view(2, 3), 1),
    "softmax_long_dim0": lambda L: L.nn.functional.softmax(L.arange(6).view(2, 3), 0),
    "log_softmax_bool": lambda L: L.ones(2, 3, dtype=L.bool).log_softmax(0),
    "log_softmax_int8_last": lambda L: L.nn.functional.log_softmax(L.ones(2, 3, dtype=L.int8),
                                                                   -1),
    "softmax_complex": lambda L: L.softmax(L.ones(3, dtype=L.complex64), 0),
    "max_empty_dim": lambda L: L.empty(0, 4).max(dim=0),
    "max_empty_negative_dim": lambda L: L.empty(0, 4).max(dim=-2),
    "min_empty_dim": lambda L: L.empty(3, 0).min(1),
    "argmax_empty": lambda L: L.empty(0, 4).argmax(),
    "argmin_empty_dim": lambda L: L.empty(0, 4).argmin(-2),
    "amax_empty_dim_as_given": lambda L: L.empty(0, 4).amax((-2, 1)),
    "amax_empty_all": lambda L: L.empty(0, 4).amax(),
    "amin_empty_list": lambda L: L.empty(0, 4).amin([]),
    "var_mean_int": lambda L: L.var_mean(L.arange(6)),
    "std_mean_int": lambda L: L.std_mean(L.arange(6), dim=0),
    "var_int": lambda L: L.arange(6).var(),
}


@pytest.mark.parametrize("name", sorted(REDUCTION_ERRORS))
def test_reduction_and_softmax_errors_are_torchs(name):
    errors_alike(REDUCTION_ERRORS[name])


@pytest.mark.parametrize("shape,dim", [((64, 37), 1), ((300,), 0), ((4, 1000), -1)])
def test_float16_last_dim_softmax_is_torchs(shape, dim):
    a = (np.random.default_rng(0).standard_normal(shape) * 3).astype(np.float32)
    outs = [lib.softmax(lib.from_numpy(a).half(), dim).float().numpy() for lib in (ember, torch)]
    np.testing.assert_array_equal(*outs)
    a = a.reshape(shape[0], -1)
    outs = [lib.log_softmax(lib.from_numpy(a).half(), 0).float().numpy()
            for lib in (ember, torch)]
    np.testing.assert_array_equal(*outs)


INDEX_CASES = {
    "nested_list": lambda L, x: x[[[0, 1]]],
    "list_of_lists": lambda L, x: x[[[0, 1], [1, 2]]],
    "list_with_slice": lambda L, x: x[[slice(0, 1), 0]],
    "list_with_none": lambda L, x: x[[None, 0]],
    "list_with_ellipsis": lambda L, x: x[[..., 0]],
    "list_with_tensor": lambda L, x: x[[L.tensor(0), 1]],
    "plain_list": lambda L, x: x[[1, 0]],
    "int8_scalar_tensor": lambda L, x: x[L.tensor(1, dtype=L.int8)],
    "int32_tensor": lambda L, x: x[L.tensor([1], dtype=L.int32)],
}


@pytest.mark.parametrize("name", sorted(INDEX_CASES))
def test_index_forms_select_what_torch_selects(name):
    import warnings
    outs = []
    for lib in (ember, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outs.append(INDEX_CASES[name](lib, lib.arange(24).view(2, 3, 4)).numpy())
    np.testing.assert_array_equal(*outs)
    assert outs[0].shape == outs[1].shape


INDEX_ERRORS = {
    "int16_tensor": lambda L, x: x[L.tensor([1], dtype=L.int16)],
    "int8_tensor_setitem": lambda L, x: x.__setitem__(L.tensor([1], dtype=L.int8), 1),
    "zero_step": lambda L, x: x[::0],
    "zero_step_later": lambda L, x: x[0, ::0],
    "negative_step": lambda L, x: x[::-2],
    "out_of_range_last": lambda L, x: x[0, 0, 4],
    "out_of_range_after_none": lambda L, x: x[None, 0, None, 5],
    "out_of_range_after_ellipsis": lambda L, x: x[..., 7],
    "out_of_range_setitem": lambda L, x: x.__setitem__((0, 0, 4), 1),
}


@pytest.mark.parametrize("name", sorted(INDEX_ERRORS))
def test_index_errors_are_torchs(name):
    errors_alike(lambda lib: INDEX_ERRORS[name](lib, lib.arange(24).view(2, 3, 4)))


PAD_CONV_ERRORS = {
    "reflect_last_dim_first": lambda L: L.nn.functional.pad(L.ones(1, 1, 4, 4), (4, 0, 4, 0),
                                                            mode="reflect"),
    "reflect_height": lambda L: L.nn.functional.pad(L.ones(1, 1, 4, 4), (0, 0, 4, 0),
                                                    mode="reflect"),
    "reflect_depth": lambda L: L.nn.functional.pad(L.ones(1, 2, 3, 3, 3), (0, 0, 0, 0, 3, 0),
                                                   mode="reflect"),
    "reflect_3d_on_4d": lambda L: L.nn.functional.pad(L.ones(1, 1, 4, 4), (1,) * 6,
                                                      mode="reflect"),
    "reflect_conv_padding_mode": lambda L: L.nn.Conv2d(2, 1, 3, padding=7,
                                                       padding_mode="reflect")(L.ones(1, 2, 7, 6)),
    "circular_wraps_twice": lambda L: L.nn.functional.pad(L.ones(1, 1, 4, 4), (5, 0, 0, 0),
                                                          mode="circular"),
    "circular_empty": lambda L: L.nn.functional.pad(L.ones(1, 1, 4, 4), (-5, 0, 0, 0),
                                                    mode="circular"),
    "transpose1d_output_padding": lambda L: L.nn.functional.conv_transpose1d(
        L.ones(1, 2, 5), L.ones(2, 1, 3), stride=2, output_padding=2),
    "transpose2d_output_padding": lambda L: L.nn.functional.conv_transpose2d(
        L.ones(2, 4, 4), L.ones(2, 1, 3, 3), stride=(2, 1), output_padding=(1, 1)),
    "transpose3d_output_padding": lambda L: L.nn.functional.conv_transpose3d(
        L.ones(1, 2, 3, 3, 3), L.ones(2, 1, 3, 3, 3), stride=2, output_padding=(0, 2, 0)),
}


@pytest.mark.parametrize("name", sorted(PAD_CONV_ERRORS))
def test_pad_and_transposed_conv_errors_are_torchs(name):
    errors_alike(PAD_CONV_ERRORS[name])


def test_circular_pad_of_a_whole_period_and_dilated_output_padding_still_work():
    for lib in (ember, torch):
        f = lib.nn.functional
        assert tuple(f.pad(lib.ones(1, 1, 4, 4), (4, 0, 0, 0), mode="circular").shape) == \
            (1, 1, 4, 8)
        assert tuple(f.conv_transpose2d(lib.ones(1, 2, 4, 4), lib.ones(2, 1, 3, 3), stride=2,
                                        dilation=3, output_padding=2).shape) == (1, 1, 15, 15)


LINALG_ERRORS = {
    "solve_batch_order": lambda L: L.linalg.solve(L.eye(4).expand(3, 4, 4), L.ones(2, 4, 1)),
    "solve_batch_order_right": lambda L: L.linalg.solve(L.eye(4).expand(3, 4, 4),
                                                        L.ones(2, 1, 4), left=False),
    "norm_string_ord_1d": lambda L: L.linalg.norm(L.ones(3), "fro"),
    "norm_string_ord_dim": lambda L: L.linalg.norm(L.ones(3), "nuc", dim=0),
    "norm_number_ord_3d": lambda L: L.linalg.norm(L.ones(2, 3, 4), 2),
    "norm_three_dims": lambda L: L.linalg.norm(L.ones(2, 3, 4), dim=(0, 1, 2)),
    "lstsq_driver": lambda L: L.linalg.lstsq(L.ones(5, 2), L.ones(5, 1), driver="qr"),
    "size_attribute": lambda L: L.ones(2).shape.requires_grad,
}


@pytest.mark.parametrize("name", sorted(LINALG_ERRORS))
def test_linalg_and_size_errors_are_torchs(name):
    errors_alike(LINALG_ERRORS[name])


def test_linalg_norm_dispatch_matches_torch():
    x = np.arange(24.0).reshape(2, 3, 4) - 5
    cases = [lambda L, t: L.linalg.norm(t), lambda L, t: L.linalg.norm(t, dim=(0, 1)),
             lambda L, t: L.linalg.norm(t, "fro", dim=(0, 2)),
             lambda L, t: L.linalg.norm(t, 1, dim=(1, 2)), lambda L, t: L.linalg.norm(t[0], 1),
             lambda L, t: L.linalg.norm(t[0], 3, dim=1), lambda L, t: L.linalg.norm(t[0], "nuc")]
    for case in cases:
        ours, theirs = (case(L, L.tensor(x)).numpy() for L in (ember, torch))
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_grad_is_grads_batched_stacks_one_backward_per_slice():
    outs = []
    for lib in (ember, torch):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = lib.tensor([0.5, -1.0], requires_grad=True)
        out = x**2 * 3
        (gx,) = lib.autograd.grad(out, x, grad_outputs=lib.eye(3), is_grads_batched=True,
                                  retain_graph=True)
        gx2, gy = lib.autograd.grad(out, [x, y], grad_outputs=lib.arange(6.0).view(2, 3),
                                    is_grads_batched=True, allow_unused=True)
        outs.append((gx.numpy(), gx2.numpy(), gy))
    np.testing.assert_array_equal(outs[0][0], outs[1][0])
    np.testing.assert_array_equal(outs[0][1], outs[1][1])
    assert outs[0][2] is None and outs[1][2] is None
