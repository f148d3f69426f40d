"""``QConfigMapping``: qconfigs by global default, module type, module name (FX mode's
configuration object; eager mode reads it as a plain dict)."""

from __future__ import annotations

from collections import OrderedDict

__all__ = ["QConfigMapping", "get_default_qconfig_mapping"]


class QConfigMapping:
    """Which qconfig each part of a model gets: ``set_global``, ``set_object_type``,
    ``set_module_name`` (later settings of a kind win)."""

    def __init__(self):
        self.global_qconfig = None
        self.object_type_qconfigs = OrderedDict()
        self.module_name_regex_qconfigs = OrderedDict()
        self.module_name_qconfigs = OrderedDict()
        self.module_name_object_type_order_qconfigs = OrderedDict()

    def set_global(self, global_qconfig):
        self.global_qconfig = global_qconfig
        return self

    def set_object_type(self, object_type, qconfig):
        self.object_type_qconfigs[object_type] = qconfig
        return self

    def set_module_name_regex(self, module_name_regex, qconfig):
        self.module_name_regex_qconfigs[module_name_regex] = qconfig
        return self

    def set_module_name(self, module_name, qconfig):
        self.module_name_qconfigs[module_name] = qconfig
        return self

    def set_module_name_object_type_order(self, module_name, object_type, index, qconfig):
        self.module_name_object_type_order_qconfigs[(module_name, object_type, index)] = qconfig
        return self

    def __repr__(self) -> str:
        output = self.__class__.__name__ + " ("
        for style, attr in (("global_qconfig", "global_qconfig"),
                            ("object_type_qconfigs", "object_type_qconfigs"),
                            ("module_name_regex_qconfigs", "module_name_regex_qconfigs"),
                            ("module_name_qconfigs", "module_name_qconfigs"),
                            ("module_name_object_type_order_qconfigs",
                             "module_name_object_type_order_qconfigs")):
            output += f"\n {style}"
            value = getattr(self, attr)
            if isinstance(value, OrderedDict) and value:
                for key, qconfig in value.items():
                    output += f"\n  {key}: {qconfig}"
            else:
                output += f"\n  {value}"
        return output + "\n)"

    def to_dict(self) -> dict:
        return {"": self.global_qconfig,
                "object_type": list(self.object_type_qconfigs.items()),
                "module_name_regex": list(self.module_name_regex_qconfigs.items()),
                "module_name": list(self.module_name_qconfigs.items()),
                "module_name_object_type_order": [
                    (*k, v) for k, v in self.module_name_object_type_order_qconfigs.items()]}

    @classmethod
    def from_dict(cls, qconfig_dict):
        m = cls()
        if "" in qconfig_dict:
            m.set_global(qconfig_dict[""])
        for t, q in qconfig_dict.get("object_type", []):
            m.set_object_type(t, q)
        for r, q in qconfig_dict.get("module_name_regex", []):
            m.set_module_name_regex(r, q)
        for n, q in qconfig_dict.get("module_name", []):
            m.set_module_name(n, q)
        return m


def get_default_qconfig_mapping(backend: str = "x86", version: int = 0) -> QConfigMapping:
    """The global default qconfig of ``backend`` as a QConfigMapping."""
    from .qconfig import get_default_qconfig
    return QConfigMapping().set_global(get_default_qconfig(backend, version))
