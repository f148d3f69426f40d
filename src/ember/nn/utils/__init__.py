"""``nn.utils``: gradient clipping, parameter/vector conversion, parametrizations, batch-norm
fusion, weight layouts, pruning, weight and spectral normalisation and packed sequences."""

from ... import _lazy
from .clip_grad import _clip_grads_with_norm_ as clip_grads_with_norm_  # noqa: F401
from .clip_grad import _get_total_norm as get_total_norm  # noqa: F401
from .clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_  # noqa: F401
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401

# the rest (stateless's functional_call is deprecated in torch) loads on first use; prune, as
# in torch, only once imported (``import torch.nn.utils.prune``)
_lazy.package(globals(), modules=("fusion", "init", "memory_format", "parametrizations",
                                  "parametrize", "rnn", "stateless"),
              names={"fuse_conv_bn_eval": "fusion", "fuse_conv_bn_weights": "fusion",
                     "fuse_linear_bn_eval": "fusion", "fuse_linear_bn_weights": "fusion",
                     "skip_init": "init",
                     "convert_conv2d_weight_memory_format": "memory_format",
                     "convert_conv3d_weight_memory_format": "memory_format",
                     "weight_norm": "weight_norm", "remove_weight_norm": "weight_norm",
                     "spectral_norm": "spectral_norm", "remove_spectral_norm": "spectral_norm"},
              # (their modules' names: importing them must not replace the functions)
              hide=("weight_norm", "spectral_norm"))
del _lazy
