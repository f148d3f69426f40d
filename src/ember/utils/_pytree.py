"""``torch.utils._pytree``: nested containers (tuples, lists, dicts, named tuples …) flattened
into their leaves and a :class:`TreeSpec`, and rebuilt; ``tree_map`` and friends on top.

The node types are torch's: ``tuple``, ``list``, ``dict``, every named tuple (as the one type
``namedtuple``), ``OrderedDict``, ``defaultdict``, ``deque``, ``torch.Size`` and the
``torch.return_types`` classes, plus whatever :func:`register_pytree_node` adds; anything
else (``None`` included) is a leaf. ``torch.func``'s transforms flatten their inputs here.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections import OrderedDict, defaultdict, deque, namedtuple
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

__all__ = ["PyTree", "Context", "FlattenFunc", "UnflattenFunc", "DumpableContext",
           "ToDumpableContextFn", "FromDumpableContextFn", "TreeSpec", "LeafSpec", "keystr",
           "key_get", "register_pytree_node", "tree_flatten", "tree_flatten_with_path",
           "tree_unflatten", "tree_iter", "tree_leaves", "tree_leaves_with_path",
           "tree_structure", "tree_map", "tree_map_with_path", "tree_map_", "tree_map_only",
           "tree_map_only_", "tree_all", "tree_any", "tree_all_only", "tree_any_only",
           "treespec_pprint", "is_namedtuple", "is_namedtuple_class", "is_namedtuple_instance",
           "MappingKey", "SequenceKey", "GetAttrKey", "map_only", "tree_is_leaf",
           "treespec_leaf", "treespec_tuple", "treespec_dict", "arg_tree_leaves"]

PyTree = Any
Context = Any
DumpableContext = Any
FlattenFunc = Callable[[PyTree], "tuple[list, Context]"]
UnflattenFunc = Callable[[Iterable, Context], PyTree]
ToDumpableContextFn = Callable[[Context], DumpableContext]
FromDumpableContextFn = Callable[[DumpableContext], Context]


class NodeDef(NamedTuple):
    """How one node type is flattened and rebuilt."""

    type: type
    flatten_fn: Callable
    unflatten_fn: Callable
    flatten_with_keys_fn: Callable | None


SUPPORTED_NODES: dict = {}


def _private_register_pytree_node(cls, flatten_fn, unflatten_fn, *, serialized_type_name=None,
                                  to_dumpable_context=None, from_dumpable_context=None,
                                  flatten_with_keys_fn=None) -> None:
    if cls in SUPPORTED_NODES:
        warnings.warn(f"{cls} is already registered as pytree node. "
                      "Overwriting the previous registration.", stacklevel=2)
    if (to_dumpable_context is None) ^ (from_dumpable_context is None):
        raise ValueError(f"Both to_dumpable_context and from_dumpable_context for {cls} must "
                         "be None or registered.")
    SUPPORTED_NODES[cls] = NodeDef(cls, flatten_fn, unflatten_fn, flatten_with_keys_fn)


def register_pytree_node(cls: type, flatten_fn: Callable, unflatten_fn: Callable, *,
                         serialized_type_name: str | None = None,
                         to_dumpable_context: Callable | None = None,
                         from_dumpable_context: Callable | None = None,
                         flatten_with_keys_fn: Callable | None = None) -> None:
    """Make ``cls`` a node: ``flatten_fn(obj) -> (children, context)`` and
    ``unflatten_fn(children, context) -> obj`` (``flatten_with_keys_fn`` gives key paths)."""
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    _private_register_pytree_node(
        cls, flatten_fn, unflatten_fn, serialized_type_name=serialized_type_name,
        to_dumpable_context=to_dumpable_context, from_dumpable_context=from_dumpable_context,
        flatten_with_keys_fn=flatten_with_keys_fn)


@dataclasses.dataclass(frozen=True)
class SequenceKey:
    """The key of a tuple or list element in a key path (``[0]``)."""

    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"

    def get(self, sequence):
        """``sequence[idx]``."""
        return sequence[self.idx]


@dataclasses.dataclass(frozen=True)
class MappingKey:
    """The key of a dict entry in a key path (``['name']``)."""

    key: Any

    def __str__(self) -> str:
        return f"[{self.key!r}]"

    def get(self, mapping):
        """``mapping[key]``."""
        return mapping[self.key]


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    """An attribute in a key path (``.name``: named tuple fields)."""

    name: str

    def __str__(self) -> str:
        return f".{self.name}"

    def get(self, obj):
        """``getattr(obj, name)``."""
        return getattr(obj, self.name)


def is_namedtuple_class(cls: type) -> bool:
    """Whether ``cls`` is a named tuple class."""
    return (isinstance(cls, type) and issubclass(cls, tuple)
            and isinstance(getattr(cls, "_fields", None), tuple)
            and all(type(f) is str for f in cls._fields)
            and callable(getattr(cls, "_make", None)) and callable(getattr(cls, "_asdict", None)))


def is_namedtuple(obj) -> bool:
    """Whether ``obj`` is a named tuple or a named tuple class."""
    return is_namedtuple_class(obj if isinstance(obj, type) else type(obj))


def is_namedtuple_instance(obj) -> bool:
    """Whether ``obj`` is a named tuple."""
    return is_namedtuple_class(type(obj))


def _seq_keys(values):
    return [(SequenceKey(i), v) for i, v in enumerate(values)]


def _register_sequence(cls, unflatten) -> None:
    """A tuple-like node with no context (``torch.Size``, the ``torch.return_types``)."""
    _private_register_pytree_node(cls, lambda x: (list(x), None),
                                  lambda values, context: unflatten(values),
                                  flatten_with_keys_fn=lambda x: (_seq_keys(x), None))


def _dict_flatten(d):
    return list(d.values()), list(d.keys())


def _dict_with_keys(d):
    values, keys = _dict_flatten(d)
    return [(MappingKey(k), v) for k, v in zip(keys, values)], keys


def _defaultdict_flatten(d):
    values, keys = _dict_flatten(d)
    return values, [d.default_factory, keys]


def _defaultdict_with_keys(d):
    values, context = _defaultdict_flatten(d)
    return [(MappingKey(k), v) for k, v in zip(context[1], values)], context


def _namedtuple_with_keys(d):
    return [(GetAttrKey(f), v) for f, v in zip(type(d)._fields, d)], type(d)


_private_register_pytree_node(tuple, lambda d: (list(d), None), lambda v, c: tuple(v),
                              flatten_with_keys_fn=lambda d: (_seq_keys(d), None))
_private_register_pytree_node(list, lambda d: (d, None), lambda v, c: list(v),
                              flatten_with_keys_fn=lambda d: (_seq_keys(d), None))
_private_register_pytree_node(dict, _dict_flatten, lambda v, c: dict(zip(c, v)),
                              flatten_with_keys_fn=_dict_with_keys)
_private_register_pytree_node(namedtuple, lambda d: (list(d), type(d)), lambda v, c: c(*v),
                              flatten_with_keys_fn=_namedtuple_with_keys)
_private_register_pytree_node(OrderedDict, _dict_flatten, lambda v, c: OrderedDict(zip(c, v)),
                              flatten_with_keys_fn=_dict_with_keys)
_private_register_pytree_node(defaultdict, _defaultdict_flatten,
                              lambda v, c: defaultdict(c[0], dict(zip(c[1], v))),
                              flatten_with_keys_fn=_defaultdict_with_keys)
_private_register_pytree_node(deque, lambda d: (list(d), d.maxlen),
                              lambda v, c: deque(v, maxlen=c),
                              flatten_with_keys_fn=lambda d: (_seq_keys(d), d.maxlen))

STANDARD_DICT_TYPES = frozenset({dict, OrderedDict, defaultdict})
BUILTIN_TYPES = frozenset({tuple, list, dict, namedtuple, OrderedDict, defaultdict, deque})


def _register_torch_sequences() -> frozenset:
    """``torch.Size`` (rebuilt as a plain tuple, as torch's registration does) and the
    ``torch.return_types`` classes (structseqs) are nodes of their
    own type."""
    from .. import return_types
    from .._ops.search import RETURN_TYPES
    from .._tensor import Size
    _register_sequence(Size, tuple)
    for name in return_types.__all__:
        cls = RETURN_TYPES[name]
        _register_sequence(cls, cls)
    return frozenset(RETURN_TYPES[name] for name in return_types.__all__)


_STRUCTSEQS = _register_torch_sequences()


def _get_node_type(tree) -> Any:
    cls = type(tree)
    if is_namedtuple_class(cls) and cls not in _STRUCTSEQS:
        return namedtuple      # every named tuple class is the one node type
    return cls


def tree_is_leaf(tree: PyTree, is_leaf: Callable | None = None) -> bool:
    """Whether ``tree`` is a leaf (not a registered node, or ``is_leaf(tree)``)."""
    if is_leaf is not None and is_leaf(tree):
        return True
    return _get_node_type(tree) not in SUPPORTED_NODES


class TreeSpec:
    """The structure of a pytree: the root's node type, its context (dict keys, the named
    tuple class …) and one spec per child; leaves are :class:`LeafSpec`, printed ``*``."""

    __slots__ = ("type", "_context", "_children", "num_nodes", "num_leaves", "num_children")

    def __init__(self, type: Any, context: Context, children_specs: list) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "_context", context)
        object.__setattr__(self, "_children", children_specs)
        if type is None:
            nodes = leaves = 1
        else:
            nodes = 1 + sum(c.num_nodes for c in children_specs)
            leaves = sum(c.num_leaves for c in children_specs)
        object.__setattr__(self, "num_nodes", nodes)
        object.__setattr__(self, "num_leaves", leaves)
        object.__setattr__(self, "num_children", len(children_specs))

    def __setattr__(self, name, value):
        raise dataclasses.FrozenInstanceError(f"cannot assign to field '{name}'")

    def __reduce__(self):
        # frozen: copies and pickles are built anew, not assigned to
        return TreeSpec, (self.type, self._context, self._children)

    def __repr__(self, indent: int = 0) -> str:
        text = f"TreeSpec({self.type.__name__}, {self._context}, ["
        if self.num_children > 0:
            indent += 2
            text += self._children[0].__repr__(indent)
            text += "," if self.num_children > 1 else ""
            text += ",".join("\n" + " " * indent + c.__repr__(indent)
                             for c in self._children[1:])
        return text + "])"

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        if other.__class__ is self.__class__:
            return (str(self.type) == str(other.type) and self._context == other._context
                    and self._children == other._children)
        return NotImplemented

    def __hash__(self) -> int:
        t = self.type
        if t is defaultdict:
            ctx = (self._context[0], tuple(self._context[1]))
        elif t in (dict, OrderedDict):
            ctx = tuple(self._context)
        elif t is None or t in BUILTIN_TYPES:
            ctx = self._context
        else:
            ctx = None
        return hash((t, ctx, tuple(self._children)))

    @property
    def context(self) -> Context:
        """The root node's context (dict keys, the named tuple class, ...)."""
        return self._context

    @property
    def children_specs(self) -> list:
        """The children's specs (deprecated in torch: use :meth:`children`)."""
        warnings.warn("`treespec.children_specs` is deprecated. Use `treespec.child(index)` to "
                      "access a single child, or `treespec.children()` to get all children.",
                      FutureWarning, stacklevel=2)
        return self._children

    def is_leaf(self) -> bool:
        """Whether this spec is a leaf."""
        return self.num_nodes == 1 and self.num_leaves == 1

    def children(self) -> list:
        """The children's specs."""
        return self._children.copy()

    def child(self, index: int) -> TreeSpec:
        """The spec of child ``index``."""
        return self._children[index]

    def flatten_up_to(self, tree: PyTree) -> list:
        """The subtrees of ``tree`` at this spec's leaves (``tree`` must have this structure
        as a prefix)."""
        out: list = []
        _flatten_up_to(self, tree, out)
        return out

    def unflatten(self, leaves: Iterable) -> PyTree:
        """The pytree of this structure holding ``leaves``."""
        if not isinstance(leaves, (list, tuple)):
            leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} "
                             f"but the spec refers to a pytree that holds {self.num_leaves} "
                             f"items ({self}).")
        if self.is_leaf():
            return leaves[0]
        parts, start = [], 0
        for child in self._children:
            parts.append(child.unflatten(leaves[start:start + child.num_leaves]))
            start += child.num_leaves
        return SUPPORTED_NODES[self.type].unflatten_fn(parts, self._context)


def _flatten_up_to(spec: TreeSpec, node, out: list) -> None:
    if spec.is_leaf():
        out.append(node)
        return
    node_type = _get_node_type(node)
    if spec.type not in BUILTIN_TYPES:
        if node_type != spec.type:
            raise ValueError(f"Type mismatch; expected {spec.type!r}, but got {node_type!r}.")
        children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
        if len(children) != spec.num_children:
            raise ValueError(f"Node arity mismatch; expected {spec.num_children}, but got "
                             f"{len(children)}.")
        if context != spec._context:
            raise ValueError(f"Node context mismatch for custom node type {spec.type!r}.")
    else:
        both_dicts = spec.type in STANDARD_DICT_TYPES and node_type in STANDARD_DICT_TYPES
        if not both_dicts and node_type != spec.type:
            raise ValueError(f"Node type mismatch; expected {spec.type!r}, but got "
                             f"{node_type!r}.")
        if len(node) != spec.num_children:
            raise ValueError(f"Node arity mismatch; expected {spec.num_children}, but got "
                             f"{len(node)}.")
        if both_dicts:
            keys = spec._context if spec.type is not defaultdict else spec._context[1]
            got, want = set(node), set(keys)
            if got != want:
                message = ""
                if want - got:
                    message += f"; missing key(s): {want - got}"
                if got - want:
                    message += f"; extra key(s): {got - want}"
                raise ValueError(f"Node keys mismatch{message}.")
            children = [node[k] for k in keys]
        else:
            children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
            if node_type is not deque and context != spec._context:
                raise ValueError(f"Node context mismatch for node type {spec.type!r}; "
                                 f"expected {spec._context!r}, but got {context!r}.")
    for sub, subspec in zip(children, spec._children):
        _flatten_up_to(subspec, sub, out)


class LeafSpec(TreeSpec):
    """The spec of a leaf (printed ``*``)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(None, None, [])

    def __reduce__(self):
        return LeafSpec, ()

    def __repr__(self, indent: int = 0) -> str:
        return "*"


_LEAF_SPEC = LeafSpec()


def treespec_leaf() -> LeafSpec:
    """The spec of a leaf."""
    return _LEAF_SPEC


def treespec_tuple(iterable: Iterable = (), /) -> TreeSpec:
    """A tuple's spec from its children's specs."""
    children = list(iterable)
    if any(not isinstance(c, TreeSpec) for c in children):
        raise ValueError(f"Expected a tuple of TreeSpec values, got: {children!r}.")
    return TreeSpec(tuple, None, children)


def treespec_dict(mapping=(), /, **kwargs) -> TreeSpec:
    """A dict's spec from its children's specs."""
    dct = dict(mapping, **kwargs)
    if any(not isinstance(c, TreeSpec) for c in dct.values()):
        raise ValueError(f"Expected a dictionary of TreeSpec values, got: {dct!r}.")
    return TreeSpec(dict, list(dct.keys()), list(dct.values()))


def tree_flatten(tree: PyTree, is_leaf: Callable | None = None) -> tuple[list, TreeSpec]:
    """The leaves of ``tree`` (depth first, dicts in insertion order) and its structure."""
    leaves: list = []

    def helper(node) -> TreeSpec:
        if tree_is_leaf(node, is_leaf=is_leaf):
            leaves.append(node)
            return _LEAF_SPEC
        node_type = _get_node_type(node)
        children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
        return TreeSpec(node_type, context, [helper(c) for c in children])

    spec = helper(tree)
    return leaves, spec


def tree_unflatten(leaves: Iterable, treespec: TreeSpec) -> PyTree:
    """The inverse of :func:`tree_flatten`."""
    if not isinstance(treespec, TreeSpec):
        if not isinstance(leaves, TreeSpec):
            raise TypeError("Expected `treespec` to be an instance of PyTreeSpec but got item "
                            f"of type {type(treespec)}.")
        leaves, treespec = treespec, leaves
    return treespec.unflatten(leaves)


def tree_iter(tree: PyTree, is_leaf: Callable | None = None):
    """The leaves of ``tree``, one after another."""
    if tree_is_leaf(tree, is_leaf=is_leaf):
        yield tree
        return
    children, _ = SUPPORTED_NODES[_get_node_type(tree)].flatten_fn(tree)
    for child in children:
        yield from tree_iter(child, is_leaf=is_leaf)


def tree_leaves(tree: PyTree, is_leaf: Callable | None = None) -> list:
    """The leaves of ``tree`` as a list."""
    return list(tree_iter(tree, is_leaf=is_leaf))


def arg_tree_leaves(*args, **kwargs) -> list:
    """The leaves of all the arguments, positional ones first."""
    out: list = []
    for a in (*args, *kwargs.values()):
        out.extend(tree_iter(a))
    return out


def tree_structure(tree: PyTree, is_leaf: Callable | None = None) -> TreeSpec:
    """The :class:`TreeSpec` of ``tree``."""
    return tree_flatten(tree, is_leaf=is_leaf)[1]


def tree_map(func: Callable, tree: PyTree, *rests: PyTree, is_leaf: Callable | None = None):
    """``tree`` with each leaf ``x`` replaced by ``func(x, *xs)``, ``xs`` the matching leaves
    (or subtrees) of ``rests``, which must have ``tree``'s structure as a prefix."""
    leaves, spec = tree_flatten(tree, is_leaf=is_leaf)
    flat = [leaves] + [spec.flatten_up_to(r) for r in rests]
    return spec.unflatten(map(func, *flat))


def tree_map_(func: Callable, tree: PyTree, *rests: PyTree, is_leaf: Callable | None = None):
    """:func:`tree_map` for its side effects: calls ``func`` on the leaves, returns ``tree``."""
    leaves, spec = tree_flatten(tree, is_leaf=is_leaf)
    flat = [leaves] + [spec.flatten_up_to(r) for r in rests]
    deque(map(func, *flat), maxlen=0)
    return tree


def map_only(type_or_types_or_pred, /) -> Callable:
    """A decorator: the function applies to the leaves of the given type(s) (or for which the
    predicate holds) and passes others through unchanged."""
    import types
    if isinstance(type_or_types_or_pred, (type, tuple, types.UnionType)):
        def pred(x):
            return isinstance(x, type_or_types_or_pred)
    elif callable(type_or_types_or_pred):
        pred = type_or_types_or_pred
    else:
        raise TypeError("Argument must be a type, a tuple of types, or a callable.")

    def wrapper(func):
        import functools

        @functools.wraps(func)
        def wrapped(x):
            return func(x) if pred(x) else x
        return wrapped
    return wrapper


def tree_map_only(type_or_types_or_pred, /, func: Callable, tree: PyTree,
                  is_leaf: Callable | None = None):
    """:func:`tree_map` over the leaves of the given type(s) only; other leaves stay."""
    return tree_map(map_only(type_or_types_or_pred)(func), tree, is_leaf=is_leaf)


def tree_map_only_(type_or_types_or_pred, /, func: Callable, tree: PyTree,
                   is_leaf: Callable | None = None):
    """:func:`tree_map_` over the leaves of the given type(s) only."""
    return tree_map_(map_only(type_or_types_or_pred)(func), tree, is_leaf=is_leaf)


def tree_all(pred: Callable, tree: PyTree, is_leaf: Callable | None = None) -> bool:
    """Whether ``pred`` holds for every leaf."""
    return all(map(pred, tree_iter(tree, is_leaf=is_leaf)))


def tree_any(pred: Callable, tree: PyTree, is_leaf: Callable | None = None) -> bool:
    """Whether ``pred`` holds for some leaf."""
    return any(map(pred, tree_iter(tree, is_leaf=is_leaf)))


def tree_all_only(type_or_types, /, pred: Callable, tree: PyTree,
                  is_leaf: Callable | None = None) -> bool:
    """Whether ``pred`` holds for every leaf of the given type(s)."""
    return all(pred(x) for x in tree_iter(tree, is_leaf=is_leaf) if isinstance(x, type_or_types))


def tree_any_only(type_or_types, /, pred: Callable, tree: PyTree,
                  is_leaf: Callable | None = None) -> bool:
    """Whether ``pred`` holds for some leaf of the given type(s)."""
    return any(pred(x) for x in tree_iter(tree, is_leaf=is_leaf) if isinstance(x, type_or_types))


class _Asterisk(str):
    __slots__ = ()

    def __new__(cls):
        return super().__new__(cls, "*")

    def __repr__(self) -> str:
        return "*"


_asterisk = _Asterisk()


def treespec_pprint(treespec: TreeSpec) -> str:
    """The structure written as the container it describes, leaves as ``*``."""
    return repr(tree_unflatten([_asterisk] * treespec.num_leaves, treespec))


def _key_paths(path: tuple, tree: PyTree, is_leaf: Callable | None):
    if is_leaf and is_leaf(tree):
        yield path, tree
        return
    node_type = _get_node_type(tree)
    handler = SUPPORTED_NODES.get(node_type)
    if not handler:
        yield path, tree
        return
    if handler.flatten_with_keys_fn is None:
        raise ValueError(f"Did not find a flatten_with_keys_fn for type: {node_type}. "
                         "Please pass a flatten_with_keys_fn argument to register_pytree_node.")
    children, _ = handler.flatten_with_keys_fn(tree)
    for k, c in children:
        yield from _key_paths((*path, k), c, is_leaf)


def tree_flatten_with_path(tree: PyTree, is_leaf: Callable | None = None):
    """:func:`tree_flatten` with each leaf's key path: ``([(path, leaf), ...], spec)``."""
    _, spec = tree_flatten(tree, is_leaf)
    return list(_key_paths((), tree, is_leaf)), spec


def tree_leaves_with_path(tree: PyTree, is_leaf: Callable | None = None) -> list:
    """``[(key path, leaf), ...]``."""
    return list(_key_paths((), tree, is_leaf))


def tree_map_with_path(func: Callable, tree: PyTree, *rests: PyTree,
                       is_leaf: Callable | None = None):
    """:func:`tree_map` whose ``func`` takes each leaf's key path first."""
    pairs, spec = tree_flatten_with_path(tree, is_leaf)
    columns = list(zip(*pairs)) + [spec.flatten_up_to(r) for r in rests]
    return spec.unflatten(func(*xs) for xs in zip(*columns))


def keystr(kp: tuple) -> str:
    """A key path written as an indexing expression (``['a'][0].field``)."""
    return "".join(str(k) for k in kp)


def key_get(obj: Any, kp: tuple) -> Any:
    """The value at key path ``kp`` in ``obj``."""
    for k in kp:
        obj = k.get(obj)
    return obj
