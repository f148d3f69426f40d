"""``ember.optim``: torch's optimizers and learning-rate schedulers, with torch's exact updates.

Each optimizer follows torch 2.13's default (single-tensor, for-loop) CPU implementation, so
the same parameters and gradients give the same trajectory, and ``state_dict()`` has torch's
layout (state keyed by parameter index; ``param_groups`` listing indices).
"""

from __future__ import annotations

from .. import _lazy

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax",
           "NAdam", "RAdam", "LBFGS", "Rprop", "ASGD", "Adafactor", "SparseAdam", "Muon",
           "lr_scheduler", "swa_utils"]

# each optimizer (and the schedulers) loads on first use; the implementation modules stay
# importable (``ember.optim.adam``) but, as in torch, out of the package's namespace
_CLASSES = {"Adadelta": "adadelta", "Adagrad": "adagrad", "Adam": "adam", "AdamW": "adamw",
            "Adamax": "adamax", "LBFGS": "lbfgs", "NAdam": "nadam", "Optimizer": "optimizer",
            "RAdam": "radam", "RMSprop": "rmsprop", "SGD": "sgd", "Rprop": "rprop",
            "ASGD": "asgd", "Adafactor": "_adafactor", "SparseAdam": "sparse_adam",
            "Muon": "_muon"}
_lazy.package(globals(), modules=("lr_scheduler", "swa_utils"), names=_CLASSES,
              hide=_CLASSES.values())
del _lazy, _CLASSES
del annotations  # keep dir() to torch's names
