"""``nn.parallel``: torch's data-parallel API as a CPU-only torch provides it.

With no accelerator, ``DataParallel`` wraps the module and calls it directly; the functional
pieces (``scatter``, ``gather``, ``replicate``, ``parallel_apply``, ``data_parallel``) give
torch's own answers and errors on such a build.
"""

from .data_parallel import DataParallel, data_parallel  # noqa: F401
from .parallel_apply import parallel_apply  # noqa: F401
from .replicate import replicate  # noqa: F401
from .scatter_gather import gather, scatter  # noqa: F401
from .distributed import DistributedDataParallel  # noqa: F401
