"""Write torch's compiler configuration defaults (``torch._dynamo.config``,
``torch._inductor.config``) to ``src/ember/_compiler_config.json``: the names Ember's config
modules accept and the values they start with. Values that are not JSON (sets, callables) are
kept as lists or None; a set is marked ``{"set": [...]}``, another name for a setting
``{"alias": name}``.

    python tools/config_defaults.py
"""

from __future__ import annotations

import json
import pathlib
import warnings

OUT = pathlib.Path(__file__).resolve().parents[1] / "src" / "ember" / "_compiler_config.json"


def _plain(value):
    if isinstance(value, (set, frozenset)):
        return {"set": sorted(map(str, value))}
    try:
        json.dumps(value)
    except TypeError:
        return None
    return value


def main() -> None:
    import torch._dynamo.config
    import torch._inductor.config
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for mod in (torch._dynamo.config, torch._inductor.config):
            prefix = mod.__name__ + "."
            out[mod.__name__] = {
                k: {"alias": e.alias[len(prefix):]} if e.alias and e.alias.startswith(prefix)
                else _plain(getattr(mod, k) if e.alias else e.default)
                for k, e in sorted(mod._config.items()) if not k.startswith("_")}
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({sum(map(len, out.values()))} entries)")


if __name__ == "__main__":
    main()
