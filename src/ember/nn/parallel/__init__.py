"""``ember.nn.parallel``: data parallelism (``DistributedDataParallel`` over MPI)."""

from .distributed import DistributedDataParallel
