"""A warning names the line torch's names: the caller's line where torch warns from its
kernels or passes a stack level, else a line of the library file of the same name."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import ember

from .helpers import torch


def _scheduler_then_step(lib):
    p = lib.zeros(2, requires_grad=True)
    opt = lib.optim.SGD([p], lr=0.1)
    lib.optim.lr_scheduler.StepLR(opt, 1).step()


TRIGGERS = {
    "softmax without dim": lambda L: L.nn.functional.softmax(L.ones(3, 4)),
    "log_softmax without dim": lambda L: L.nn.functional.log_softmax(L.ones(3, 4)),
    "mse_loss broadcast": lambda L: L.nn.functional.mse_loss(L.ones(3, 1), L.ones(3)),
    "tensor of a tensor": lambda L: L.tensor(L.ones(2)),
    "size_average": lambda L: L.nn.MSELoss(size_average=True),
    "rnn dropout": lambda L: L.nn.LSTM(2, 3, dropout=0.5),
    "gru dropout": lambda L: L.nn.GRU(2, 3, dropout=0.5),
    "upsample": lambda L: L.nn.functional.upsample(L.ones(1, 1, 2, 2), scale_factor=2),
    "clip_grad_norm": lambda L: L.nn.utils.clip_grad_norm([L.zeros(2, requires_grad=True)],
                                                          1.0),
    "range": lambda L: L.range(0, 3),
    "T of 3-d": lambda L: L.ones(2, 3, 4).T,
    "grad of a non-leaf": lambda L: (L.ones(2, requires_grad=True) * 2).grad,
    "sample_n": lambda L: L.distributions.Normal(0., 1.).sample_n(3),
    "init.normal": lambda L: L.nn.init.normal(L.empty(3)),
    "scheduler before optimizer": _scheduler_then_step,
    "std of one element": lambda L: L.ones(1).std(),
    "affine_grid": lambda L: L.nn.functional.affine_grid(L.ones(1, 2, 3), (1, 1, 4, 4)),
    "kl_div mean": lambda L: L.nn.functional.kl_div(L.ones(3, 2), L.ones(3, 2)),
    "from_numpy read-only": lambda L: L.from_numpy(np.lib.stride_tricks.as_strided(
        np.ones(3), writeable=False)),
}


def _sites(lib, trigger):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        trigger(lib)
    here = os.path.abspath(__file__)
    return [(w.category.__name__,
             "<caller>" if os.path.abspath(w.filename) == here else os.path.basename(w.filename))
            for w in seen]


@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_warning_names_torchs_site(name):
    want = _sites(torch, TRIGGERS[name])
    assert want, "torch should warn here"
    assert _sites(ember, TRIGGERS[name]) == want
