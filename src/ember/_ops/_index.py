"""The names each op family loaded on first use defines (``ember.<name>`` and
``Tensor.<name>``), by family: written by ``tools/op_index.py``, checked by
``tests/test_startup.py``."""

FUNCTIONS = {
    'unary': (
        'abs', 'abs_', 'absolute', 'acos', 'acosh', 'arccos', 'arccosh', 'arcsin', 'arcsinh',
        'arctan', 'arctanh', 'asin', 'asinh', 'atan', 'atanh', 'ceil', 'cos', 'cosh',
        'deg2rad', 'erf', 'erfc', 'erfinv', 'exp', 'exp2', 'expm1', 'fix', 'floor', 'frac',
        'isfinite', 'isinf', 'isnan', 'isneginf', 'isposinf', 'log', 'log10', 'log1p',
        'log2', 'logit', 'nan_to_num', 'rad2deg', 'reciprocal', 'round', 'rsqrt', 'sgn',
        'sigmoid', 'sign', 'signbit', 'sin', 'sinh', 'sqrt', 'square', 'tan', 'tanh',
        'trunc',
    ),
    'sorting': (
        'argsort', 'kthvalue', 'median', 'mode', 'msort', 'nanmedian', 'sort', 'topk',
        'unique', 'unique_consecutive',
    ),
    'linalg': (
        '_addbmm', '_addmm', '_addmv', '_addr', '_baddbmm', '_bmm', '_dot', '_mm', '_mv',
        '_trace', '_trilinear', '_vdot', 'addbmm', 'addmm', 'addmv', 'addr', 'baddbmm',
        'bmm', 'diag', 'diag_embed', 'diagonal', 'dot', 'einsum', 'ger', 'kron', 'matmul',
        'mm', 'mv', 'outer', 'spmm', 'tensordot', 'trace', 'tril', 'triu', 'vdot',
    ),
    'cross': (
        'cross',
    ),
    'bucketing': (
        'bincount', 'bucketize', 'searchsorted',
    ),
    'special': (
        'digamma', 'i0', 'igamma', 'igammac', 'lgamma', 'mvlgamma', 'polygamma',
    ),
    'sampling': (
        '_dirichlet_grad', '_sample_dirichlet', '_standard_gamma', '_standard_gamma_grad',
        'binomial', 'poisson',
    ),
    'nn': (
        'celu', 'constant_pad_nd', 'convolution', 'log_softmax', 'prelu', 'selu', 'softmax',
        'threshold',
    ),
    'distances': (
        'cdist', 'dist',
    ),
    'histograms': (
        'histc', 'histogram', 'histogramdd',
    ),
    'complex_views': (
        'angle', 'complex', 'conj', 'conj_physical', 'is_conj', 'is_neg', 'polar',
        'resolve_conj', 'resolve_neg', 'view_as_complex', 'view_as_real',
    ),
    'nn_extra': (
        'hardshrink',
    ),
    'statistics': (
        'aminmax', 'corrcoef', 'cov', 'nanquantile', 'quantile',
    ),
    'constructions': (
        'block_diag', 'broadcast_shapes', 'cartesian_prod', 'cholesky_inverse',
        'cholesky_solve', 'combinations', 'cumulative_trapezoid', 'diagflat', 'diff', 'imag',
        'inner', 'isin', 'isreal', 'matrix_exp', 'matrix_power', 'positive', 'real',
        'trapezoid', 'trapz', 'tril_indices', 'triu_indices', 'vander',
    ),
    'elementwise': (
        'frexp', 'gcd', 'heaviside', 'lcm', 'ldexp', 'logaddexp', 'logaddexp2',
        'logcumsumexp', 'nextafter', 'sinc',
    ),
    'view_scatters': (
        'as_strided_scatter', 'diagonal_scatter', 'select_scatter', 'slice_scatter',
    ),
    'decompositions': (
        'cholesky', 'det', 'inverse', 'logdet', 'pinverse', 'qr', 'slogdet', 'svd',
    ),
    'fake_quantize': (
        'fake_quantize_per_channel_affine', 'fake_quantize_per_tensor_affine',
    ),
}

METHODS = {
    'unary': (
        'abs', 'abs_', 'absolute', 'absolute_', 'acos', 'acos_', 'acosh', 'acosh_', 'arccos',
        'arccos_', 'arccosh', 'arccosh_', 'arcsin', 'arcsin_', 'arcsinh', 'arcsinh_',
        'arctan', 'arctan_', 'arctanh', 'arctanh_', 'asin', 'asin_', 'asinh', 'asinh_',
        'atan', 'atan_', 'atanh', 'atanh_', 'ceil', 'ceil_', 'cos', 'cos_', 'cosh', 'cosh_',
        'deg2rad', 'deg2rad_', 'erf', 'erf_', 'erfc', 'erfc_', 'erfinv', 'erfinv_', 'exp',
        'exp2', 'exp2_', 'exp_', 'expm1', 'expm1_', 'fix', 'fix_', 'floor', 'floor_', 'frac',
        'frac_', 'isfinite', 'isinf', 'isnan', 'isneginf', 'isposinf', 'log', 'log10',
        'log10_', 'log1p', 'log1p_', 'log2', 'log2_', 'log_', 'logit', 'logit_',
        'nan_to_num', 'nan_to_num_', 'rad2deg', 'rad2deg_', 'reciprocal', 'reciprocal_',
        'round', 'round_', 'round_decimals_', 'rsqrt', 'rsqrt_', 'sgn', 'sgn_', 'sigmoid',
        'sigmoid_', 'sign', 'sign_', 'signbit', 'sin', 'sin_', 'sinh', 'sinh_', 'sqrt',
        'sqrt_', 'square', 'square_', 'tan', 'tan_', 'tanh', 'tanh_', 'trunc', 'trunc_',
    ),
    'sorting': (
        'argsort', 'kthvalue', 'median', 'mode', 'msort', 'nanmedian', 'sort', 'topk',
        'unique', 'unique_consecutive',
    ),
    'linalg': (
        '_addbmm', '_addmm', '_addmv', '_addr', '_baddbmm', '_bmm', '_dot', '_mm', '_mv',
        '_trace', '_vdot', 'addbmm', 'addbmm_', 'addmm', 'addmm_', 'addmv', 'addmv_', 'addr',
        'addr_', 'baddbmm', 'baddbmm_', 'bmm', 'diag', 'diag_embed', 'diagonal', 'dot',
        'ger', 'kron', 'matmul', 'mm', 'mv', 'outer', 'trace', 'tril', 'tril_', 'triu',
        'triu_', 'vdot',
    ),
    'cross': (
        'cross',
    ),
    'bucketing': (
        'bincount',
    ),
    'special': (
        'digamma', 'digamma_', 'i0', 'i0_', 'igamma', 'igamma_', 'igammac', 'igammac_',
        'lgamma', 'lgamma_', 'mvlgamma', 'polygamma', 'polygamma_',
    ),
    'sampling': (),
    'nn': (
        'log_softmax', 'prelu', 'softmax',
    ),
    'distances': (
        'dist',
    ),
    'histograms': (
        'histc', 'histogram',
    ),
    'complex_views': (
        'angle', 'conj', 'conj_physical', 'is_conj', 'is_neg', 'resolve_conj', 'resolve_neg',
    ),
    'nn_extra': (
        'hardshrink',
    ),
    'statistics': (
        'aminmax', 'corrcoef', 'cov', 'nanquantile', 'quantile',
    ),
    'constructions': (
        'cholesky_inverse', 'cholesky_solve', 'diagflat', 'diff', 'imag', 'inner', 'isreal',
        'matrix_exp', 'matrix_power', 'positive', 'real', 'vander',
    ),
    'elementwise': (
        'frexp', 'gcd', 'gcd_', 'heaviside', 'heaviside_', 'lcm', 'lcm_', 'ldexp', 'ldexp_',
        'logaddexp', 'logaddexp2', 'logcumsumexp', 'nextafter', 'nextafter_', 'sinc',
        'sinc_',
    ),
    'view_scatters': (
        'as_strided_scatter', 'diagonal_scatter', 'select_scatter', 'slice_scatter',
    ),
    'decompositions': (
        'cholesky', 'det', 'inverse', 'logdet', 'pinverse', 'qr', 'slogdet', 'svd',
    ),
    'fake_quantize': (),
}
