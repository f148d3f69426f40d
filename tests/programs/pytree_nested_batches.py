# Models: the nested-structure utilities of research training code (torch.utils._pytree as used
# in public repos to move nested batches, average metric dicts and flatten parameter trees):
# tree_flatten/tree_unflatten and the TreeSpec they print, tree_map over one and several trees,
# tree_map_only, tree_leaves, tree_all/tree_any, key paths with keystr, a dataclass registered
# as a pytree node, and the errors raised for mismatched structures.
import collections
import dataclasses

import torch
import torch.utils._pytree as pytree

torch.manual_seed(0)
Pair = collections.namedtuple("Pair", ["left", "right"])

batch = {
    "image": torch.randn(2, 3),
    "meta": {"ids": [3, 7], "flags": (True, None)},
    "pair": Pair(torch.arange(4), torch.ones(2, dtype=torch.int8)),
    "ordered": collections.OrderedDict([("z", 1.5), ("a", torch.tensor(2.0))]),
}
leaves, spec = pytree.tree_flatten(batch)
print("num leaves", len(leaves), spec.num_leaves, "nodes", spec.num_nodes)
print(spec)
print([type(x).__name__ for x in leaves])
print(pytree.treespec_pprint(spec))
rebuilt = pytree.tree_unflatten(leaves, spec)
print("roundtrip", rebuilt["pair"], rebuilt["meta"], list(rebuilt["ordered"]))
print("structure equal", pytree.tree_structure(rebuilt) == spec,
      pytree.tree_structure([1, 2]) == pytree.tree_structure((1, 2)))
print("leaf spec", pytree.tree_structure(torch.ones(1)),
      pytree.tree_structure(torch.ones(1)).is_leaf())

as_double = pytree.tree_map_only(torch.Tensor, lambda t: t.double(), batch)
print("dtypes", [t.dtype for t in pytree.tree_leaves(as_double) if isinstance(t, torch.Tensor)])
print("ints x10", pytree.tree_map_only(int, lambda v: v * 10, batch["meta"]))
print("only (int, float)", pytree.tree_map_only((int, float), lambda v: -v, [1, 2.5, "s",
                                                                             torch.ones(1)]))
finite = pytree.tree_all(
    lambda x: not isinstance(x, torch.Tensor) or bool(torch.isfinite(x).all()), batch)
print("all tensors finite", finite)
print("any None", pytree.tree_any(lambda x: x is None, batch))
print("all_only", pytree.tree_all_only(torch.Tensor, lambda t: t.numel() > 0, batch))

metrics = [{"loss": torch.tensor(0.5), "acc": (torch.tensor(0.75), 3)},
           {"loss": torch.tensor(0.25), "acc": (torch.tensor(1.0), 5)},
           {"loss": torch.tensor(0.75), "acc": (torch.tensor(0.5), 4)}]
summed = pytree.tree_map(lambda *xs: sum(xs), *metrics)
print("summed metrics", summed)
mean = pytree.tree_map(
    lambda *xs: torch.stack([torch.as_tensor(x, dtype=torch.float32) for x in xs]).mean(),
    *metrics)
print("mean metrics", mean)

paths, _ = pytree.tree_flatten_with_path(batch)
for path, leaf in paths[:6]:
    print(f"{pytree.keystr(path):28s} {type(leaf).__name__}")
print(paths[0][0])

model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))
params = dict(model.named_parameters())
flat, pspec = pytree.tree_flatten(params)
print("param spec", pspec)
scaled = pytree.tree_unflatten([p.detach() * 0 + i for i, p in enumerate(flat)], pspec)
print({k: v.flatten()[:2] for k, v in scaled.items()})
grads = pytree.tree_map(torch.zeros_like, params)
print("grad shapes", pytree.tree_map(lambda t: tuple(t.shape), grads))
inplace = pytree.tree_map_(lambda t: t.add_(1.0), grads)
print("tree_map_ returns input", inplace is grads, grads["2.bias"])


@dataclasses.dataclass
class State:
    step: int
    weights: torch.Tensor
    history: list


pytree.register_pytree_node(
    State,
    lambda s: ([s.weights, s.history], s.step),
    lambda children, step: State(step, children[0], children[1]),
)
st = State(3, torch.tensor([1.0, -1.0]), [torch.tensor(0.5), torch.tensor(0.25)])
l2, s2 = pytree.tree_flatten(st)
print(len(l2), s2)
print(pytree.tree_map(lambda t: t * 2, st))

for bad in [lambda: pytree.tree_map(lambda a, b: a + b, [1, 2], [1, 2, 3]),
            lambda: pytree.tree_map(lambda a, b: a + b, {"a": 1}, {"b": 1}),
            lambda: pytree.tree_unflatten([1, 2], pytree.tree_structure((1, 2, 3)))]:
    try:
        bad()
    except (ValueError, KeyError) as e:
        print(type(e).__name__, e)
