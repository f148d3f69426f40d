"""``RemoteModule``: an ``nn.Module`` made on, and run by, another RPC worker."""

from __future__ import annotations

from ....nn import Module
from ... import rpc

_UNSUPPORTED = ("register_buffer", "register_parameter", "add_module", "apply", "cuda", "ipu",
                "xpu", "cpu", "type", "float", "double", "half", "bfloat16", "to",
                "register_backward_hook", "register_forward_pre_hook", "register_forward_hook",
                "state_dict", "load_state_dict", "named_parameters", "buffers",
                "named_buffers", "children", "named_children", "modules", "named_modules",
                "requires_grad_", "zero_grad", "share_memory", "extra_repr")


def _create_module(module_cls, args, kwargs, device):
    module = module_cls(*args, **kwargs)
    if not isinstance(module, Module):
        raise ValueError("Expect `module_cls(*args, **kwargs)` returns an instance of <class "
                         f"nn.Module>, but it returns an instance of {type(module)}.")
    module.to(device)
    return module


def _param_rrefs(module_rref, recurse) -> list:
    return [rpc.RRef(param) for param in module_rref.local_value().parameters(recurse)]


def _remote_forward(module_rref, device, is_moving_cpu_to_cuda, *args, **kwargs):
    return module_rref.local_value().forward(*args, **kwargs)


def _parse_remote_device(remote_device: str) -> tuple:
    """(worker name or rank, device) of ``"worker1/cpu"``, ``"rank:1/cpu"`` or ``"worker1"``."""
    if not isinstance(remote_device, str):
        raise ValueError(f"Could not parse remote_device: {remote_device}. The valid format "
                         "is '<workername>/<device>' or 'rank:<rank>/<device>'")
    on, _, device = remote_device.partition("/")
    device = device or "cpu"
    if on.startswith("rank:"):
        try:
            on = int(on[5:])
        except ValueError:
            raise ValueError(f"Could not parse remote_device: {remote_device}. The valid "
                             "format is '<workername>/<device>' or "
                             "'rank:<rank>/<device>'") from None
    if not on:
        raise ValueError(f"Could not parse remote_device: {remote_device}. The valid format is "
                         "'<workername>/<device>' or 'rank:<rank>/<device>'")
    return on, device


class RemoteModule(Module):
    """``module_cls(*args, **kwargs)`` made on the worker ``remote_device`` names
    (``"worker1/cpu"`` or ``"rank:1/cpu"``); ``forward`` (and ``forward_async``, a future)
    run it there, ``remote_parameters`` gives RRefs to its parameters (for
    ``DistributedOptimizer``), and gradients flow back under distributed autograd."""

    def __init__(self, remote_device: str, module_cls, args=None, kwargs=None,
                 _module_interface_cls=None) -> None:
        super().__init__()
        self._prepare_init(remote_device)
        self.is_scriptable = False
        self.module_rref = rpc.remote(self.on, _create_module,
                                      (module_cls, tuple(args or ()), dict(kwargs or {}),
                                       self.device))

    def _prepare_init(self, remote_device: str) -> None:
        if rpc.api._state.agent is None:
            raise AssertionError("RemoteModule only works in RPC.")
        self.on, self.device = _parse_remote_device(remote_device)
        self.is_device_map_set = False

    @staticmethod
    def init_from_module_rref(remote_device: str, module_rref, _module_interface_cls=None):
        """A ``RemoteModule`` over a module that ``module_rref`` already refers to."""
        remote_module = object.__new__(RemoteModule)
        Module.__init__(remote_module)
        remote_module._prepare_init(remote_device)
        remote_module.is_scriptable = False
        remote_module.module_rref = module_rref
        return remote_module

    def forward(self, *args, **kwargs):
        """Run the module's ``forward`` on its worker and return the result."""
        return self.forward_async(*args, **kwargs).wait()

    def forward_async(self, *args, **kwargs):
        """Start the module's ``forward`` on its worker; a future of the result."""
        return rpc.rpc_async(self.module_rref.owner(), _remote_forward,
                             (self.module_rref, self.device, False, *args), kwargs)

    def remote_parameters(self, recurse: bool = True) -> list:
        """RRefs to the remote module's parameters."""
        return rpc.rpc_sync(self.on, _param_rrefs, args=(self.module_rref, recurse))

    def get_module_rref(self):
        """The RRef of the remote module."""
        return self.module_rref

    def train(self, mode: bool = True):
        return self.module_rref.rpc_sync().train()

    def eval(self):
        return self.module_rref.rpc_sync().eval()

    def parameters(self, recurse: bool = True):
        raise ValueError("Method ``parameters`` not supported for RemoteModule. Please use "
                         "``remote_parameters`` instead.")

    def __getstate__(self):
        raise RuntimeError("Cannot pickle RemoteModule in python pickler. RemoteModule can "
                           "only be pickled when using RPC")

    def __setstate__(self, state):
        raise RuntimeError("Cannot unpickle RemoteModule in python pickler. RemoteModule can "
                           "only be unpickled when using RPC")


def _not_supported(name: str):
    def method(self, *args, **kwargs):
        raise ValueError(f"Method ``{name}`` not supported for RemoteModule")
    method.__name__ = name
    method.__doc__ = "Not supported on a RemoteModule (raises ValueError, as torch's)."
    return method


for _name in _UNSUPPORTED:
    setattr(RemoteModule, _name, _not_supported(_name))
del _name


del annotations  # keep dir() to torch's names
