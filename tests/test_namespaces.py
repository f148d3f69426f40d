"""Tab completion shows torch's names: every public ember module holds, outside ``_`` names, only
what the same torch module holds, plus the few Ember-only names listed in ``ALLOWED``.

The reference is torch itself, read at test time: a name is torch's when ``hasattr`` finds it
on torch's module (so ``torch.backends.cudnn.enabled``, a property of a module subclass, counts).
Both sides import all their public submodules first, so a submodule attribute such as
``nn.utils.prune`` is compared like for like. A helper import that leaks (``np``, ``math``,
``annotations`` from ``from __future__ import annotations``, ``no_grad`` …) is fixed by an
underscore alias (``import numpy as _np``) or a ``del`` at the module's end.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import warnings

import pytest

from tests.helpers import ember, torch

# Ember-only public names, each with the reason it is public; keep this short
ALLOWED = {
    "ember.distributed.rpc.api": dict.fromkeys(
        ("BackendType", "DEFAULT_NUM_WORKER_THREADS", "DEFAULT_RPC_TIMEOUT_SEC", "RRefProxy",
         "RpcBackendOptions", "TensorPipeRpcBackendOptions", "init_rpc"),
        "torch defines it in another module of rpc (backend_registry, constants, options, "
        "rref_proxy, the package); Ember keeps the RPC API in rpc.api"),
    "ember": {
        "install_torch_alias": "makes `import torch` load ember (docs/getting-started.md)",
        "remove_torch_alias": "undoes install_torch_alias",
        "examples": "the demo programs, `python -m ember.examples.digits`",
    },
    "ember.version": {"ember_version": "ember's own release (__version__ is the torch level)"},
    "ember.autograd.graph": {
        "explain": "seeing the graph: what each node saved, and its cost",
        "render": "seeing the graph: the picture, through graphviz",
        "summary": "seeing the graph: node and saved-tensor counts",
        "to_dot": "seeing the graph: its graphviz source",
        # torch's graph classes live in C (torch._C); ember's are Python, in this module
        "AccumulateGrad": "the leaves' grad_fn class, named as torch's",
        "SavedTensor": "a node's saved tensor (torch._C._autograd.SavedTensor)",
    },
    # torch's C functions (torch.is_grad_enabled …), defined beside the state they read
    "ember.autograd.grad_mode": {"is_grad_enabled": "torch.is_grad_enabled",
                                 "is_inference_mode_enabled": "torch.is_inference_mode_enabled"},
    "ember.autograd.anomaly_mode": {"is_anomaly_enabled": "torch.is_anomaly_enabled",
                                    "is_anomaly_check_nan_enabled":
                                        "torch.is_anomaly_check_nan_enabled"},
    "ember.amp.autocast_mode": {"get_autocast_dtype": "torch.get_autocast_dtype",
                                "set_autocast_dtype": "torch.set_autocast_dtype",
                                "is_autocast_enabled": "torch.is_autocast_enabled",
                                "set_autocast_enabled": "torch.set_autocast_enabled"},
}

# public ember modules torch has no counterpart of (implementation modules torch keeps in C,
# and the demo programs); a new one must be made private (``_name``) or listed here
EMBER_ONLY = {"ember.autograd.engine",
              "ember.autograd.visualize", "ember.examples", "ember.examples.digits",
              "ember.examples.digits_ranks", "ember.examples.seeds"}


def _public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


@functools.cache
def _modules() -> dict:
    """Every public ember module and its torch counterpart (None where torch has none)."""
    names = ["ember"] + [m.name for m in pkgutil.walk_packages(ember.__path__, "ember.")
                         if _public(m.name)]
    pairs = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            mod = importlib.import_module(name)
            try:
                ref = importlib.import_module("torch" + name[len("ember"):])
            except ImportError:
                ref = None
            pairs[name] = (mod, ref)
    return pairs


def _leaks(name: str) -> list[str]:
    mod, ref = _modules()[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sorted(n for n in dir(mod) if not n.startswith("_") and not hasattr(ref, n))


COMPARED = sorted(n for n, (_, ref) in _modules().items() if ref is not None)


def test_every_module_is_compared_or_ember_only():
    missing = sorted(n for n, (_, ref) in _modules().items() if ref is None)
    assert set(missing) == EMBER_ONLY
    assert len(COMPARED) > 100 and {"ember", "ember.nn", "ember.nn.functional", "ember.optim",
                                    "ember.optim.lr_scheduler", "ember.utils.data",
                                    "ember.autograd", "ember.linalg"} <= set(COMPARED)


@pytest.mark.parametrize("name", COMPARED)
def test_namespace_is_torchs(name):
    extra = [n for n in _leaks(name) if n not in ALLOWED.get(name, {})]
    assert not extra, (f"{name} shows names torch's module lacks: {extra}; give the import an "
                       "underscore alias, del it at the module's end, or list an Ember-only "
                       "public name in ALLOWED with its reason")


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_allow_list_is_needed(name):
    # an allowed name must still be ember's and still missing from torch's module
    assert sorted(ALLOWED[name]) == [n for n in _leaks(name) if n in ALLOWED[name]]


def test_known_leaks_stay_fixed():
    import ember.nn.functional as F
    import ember.nn.init
    import ember.optim.lr_scheduler
    assert not hasattr(ember, "annotations") and not hasattr(ember, "glu")
    assert not hasattr(ember.nn, "activation") and hasattr(ember.nn.modules, "activation")
    assert not hasattr(ember.nn.init, "np") and not hasattr(F, "no_grad")
    assert hasattr(F, "np") == hasattr(torch.nn.functional, "np")   # torch's own has np
    assert not hasattr(ember.optim, "adam") and not hasattr(torch.optim, "adam")
    assert ember.optim.Adam is importlib.import_module("ember.optim.adam").Adam
