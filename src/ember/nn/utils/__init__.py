"""``nn.utils``: gradient clipping, parameter/vector conversion, parametrizations, pruning and
packed sequences."""

from ... import _lazy
from .clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_  # noqa: F401
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401

# parametrize, prune, rnn and stateless (functional_call, deprecated in torch) load on first use
_lazy.package(globals(), modules=("parametrize", "prune", "rnn", "stateless"))
del _lazy
