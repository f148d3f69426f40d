# Models: checkpoint migration in a library that renamed a parameter: state_dict _metadata and
# module _version, an overridden _load_from_state_dict renaming old keys, assign=True loading,
# load_state_dict type/value errors, BatchNorm's missing num_batches_tracked, load/state_dict
# hooks and strict=False with size mismatches, each printed with torch's messages.
import torch
import torch.nn as nn


def attempt(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
sd = m.state_dict()
attempt("metadata", lambda: dict(sd._metadata))
attempt("type", lambda: type(sd).__name__)


class Renamed(nn.Module):
    _version = 2

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(1))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing,
                              unexpected, errors):
        print("version seen", local_metadata.get("version"), repr(prefix))
        if prefix + "old_w" in state_dict:
            state_dict[prefix + "w"] = state_dict.pop(prefix + "old_w")
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing,
                                      unexpected, errors)


v = Renamed()
attempt("module metadata", lambda: dict(v.state_dict()._metadata))
attempt("load old key", lambda: v.load_state_dict({"old_w": torch.tensor([5.0])}))
attempt("w", lambda: v.w)
wrapped = nn.Sequential(Renamed())
attempt("nested old key", lambda: wrapped.load_state_dict({"0.old_w": torch.tensor([7.0])}))
attempt("nested w", lambda: wrapped[0].w)
fresh_sd = nn.Linear(2, 2).state_dict()
attempt("assign", lambda: nn.Linear(2, 2).load_state_dict(fresh_sd, assign=True))
lin = nn.Linear(2, 2)
attempt("load wrong type", lambda: lin.load_state_dict([1, 2]))
attempt("load bad value", lambda: lin.load_state_dict({"weight": [1.0], "bias": torch.zeros(2)}))
bn_sd = {k: t for k, t in nn.BatchNorm1d(2).state_dict().items() if "num_batches" not in k}
attempt("bn without num_batches_tracked", lambda: nn.BatchNorm1d(2).load_state_dict(bn_sd))
lin.register_load_state_dict_post_hook(lambda mod, keys: print("post hook", keys))
attempt("post hook", lambda: lin.load_state_dict(lin.state_dict()))
lin.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: print("pre hook", repr(prefix)))
attempt("pre hook keys", lambda: list(lin.state_dict()))
attempt("strict=False extra", lambda: lin.load_state_dict({"weight": torch.zeros(2, 2), "foo": 1},
                                                          strict=False))
attempt("size mismatch non-strict", lambda: lin.load_state_dict({"weight": torch.zeros(3, 2)},
                                                                strict=False))
