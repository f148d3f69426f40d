"""``ember.optim``: torch's optimizers and learning-rate schedulers, with torch's exact updates.

Each optimizer follows torch 2.13's default (single-tensor, for-loop) CPU implementation, so
the same parameters and gradients give the same trajectory, and ``state_dict()`` has torch's
layout (state keyed by parameter index; ``param_groups`` listing indices).
"""

from __future__ import annotations

from . import lr_scheduler
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamw import AdamW
from .adamax import Adamax
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax",
           "NAdam", "RAdam", "LBFGS", "lr_scheduler"]


# the implementation modules stay importable (``ember.optim.adam``) but, as in torch, out of
# the package's namespace
del adadelta, adagrad, adam, adamw, adamax, lbfgs, nadam, optimizer, radam, rmsprop, sgd  # noqa: F821
del annotations  # keep dir() to torch's names
