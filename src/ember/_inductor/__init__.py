"""``ember._inductor``: the configuration of torch's compiler backend. Ember runs compiled
code eagerly, so ``config``'s settings are kept (torch's names and defaults) and steer
nothing."""

from .._config_module import ConfigModule as _ConfigModule

__all__ = ["config"]

config = _ConfigModule("torch._inductor.config")
