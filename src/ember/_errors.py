"""Every user-visible autograd message, torch's text byte for byte, in one place."""

from __future__ import annotations

import os as _os
import sys as _sys

_PKG = _os.path.dirname(_os.path.abspath(__file__))


def user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first caller outside ember (where
    torch's ``TORCH_WARN`` from C++ points it: the user's line)."""
    frame, level = _sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PKG):
        frame, level = frame.f_back, level + 1
    return level


def internal(message: str, where: str) -> str:
    """A ``TORCH_WARN`` message as torch prints it: its C++ source line appended
    (``where`` is the path under torch's build root, ``file:line``)."""
    return f"{message} (Triggered internally at /__w/pytorch/pytorch/{where}.)"


_WARNED_ONCE: set = set()


def warn_once(key: str, message: str) -> None:
    """torch's ``TORCH_WARN_ONCE``: a UserWarning at the user's line, the first time in the
    process only."""
    if key not in _WARNED_ONCE:
        _WARNED_ONCE.add(key)
        import warnings
        warnings.warn(message, UserWarning, stacklevel=user_stacklevel())


class ArgTypeError(TypeError):
    """An argument of a type an op does not take; Tensor operators turn it into NotImplemented.

    It prints as the ``TypeError`` torch raises (in tracebacks and ``type(e).__name__``)."""


ArgTypeError.__name__ = ArgTypeError.__qualname__ = "TypeError"
ArgTypeError.__module__ = "builtins"


def must_be_tensor(name: str, param: str, position: int, value) -> str:
    """torch's message for an operand of op ``name`` that must be a Tensor; as the Tensor
    method's when a method generated for the op (first parameter ``self``) is on the stack —
    torch's method does not count ``self`` among the positions and an in-place one keeps its
    underscore. (Read off the stack: the error path only.)"""
    import sys
    frame = sys._getframe(1)
    for _ in range(8):
        if frame is None:
            break
        code = frame.f_code
        if code.co_name in (name, name + "_") and code.co_argcount \
                and code.co_varnames[0] == "self":
            name, position = code.co_name, position - 1
            break
        frame = frame.f_back
    return (f"{name}(): argument '{param}' (position {position}) must be Tensor, not "
            f"{type_name(value)}")


# torch's C types that Ember writes in Python, by the names torch's parser shows them
_TORCH_C_TYPES = {"dtype": "torch.dtype", "device": "torch.device", "layout": "torch.layout",
                  "memory_format": "torch.memory_format", "Generator": "torch._C.Generator",
                  "Size": "torch.Size"}


def type_name(obj) -> str:
    """The type name torch's argument errors show: CPython's ``tp_name``, which for a static
    (C) type names its module too (``numpy.ndarray``), for a class defined in Python not."""
    t = type(obj)
    if t.__name__ in _TORCH_C_TYPES and t.__module__.split(".")[0] == "ember":
        return _TORCH_C_TYPES[t.__name__]
    if t.__flags__ & (1 << 9) or t.__module__ == "builtins":     # Py_TPFLAGS_HEAPTYPE
        return t.__name__
    return f"{t.__module__}.{t.__name__}"


BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_LEAF_INPLACE = ("a view of a leaf Variable that requires grad is being used in an "
                     "in-place operation.")
NO_GRAD_FN = "element {} of tensors does not require grad and does not have a grad_fn"
IMPLICIT_SCALAR = "grad can be implicitly created only for scalar outputs"
IMPLICIT_REAL = "grad can be implicitly created only for real scalar outputs"

RETAIN_NO_GRAD = "can't retain_grad on Tensor that has requires_grad=False"
DETACH_VIEW_INPLACE = (
    "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
    "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
    "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
    "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
META_NUMPY = ("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the "
              "tensor to host memory first.")
META_ITEM = "Tensor.item() cannot be called on meta tensors"
META_COPY = "Cannot copy out of meta tensor; no data!"
META_NONZERO = (
    "The register_meta function for torch.nonzero() raises unimplemented by default, as a "
    "correct data-independent implementation does not exist. This implementation returns a "
    "fake value, assuming all elements of the tensor are non-zero. To enable this "
    "registration, please set 'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' "
    "to True.")


def meta_no_kernel(op: str) -> NotImplementedError:
    """torch's error for an op without a meta kernel (``op``: its ATen name)."""
    return NotImplementedError(
        f"aten::{op}: attempted to run this operator with Meta tensors, but there was no fake "
        "impl or Meta kernel registered. You may have run into this message while using an "
        "operator with PT2 compilation APIs (torch.compile/torch.export); in order to use this "
        "operator with those APIs you'll need to add a fake impl. Please see the following for "
        "next steps:  https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html")
NUMPY_GRAD = ("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
              "instead.")
NUMPY_NEGATIVE_STRIDE = (
    "At least one stride in the given numpy array is negative, and tensors with negative "
    "strides are not currently supported. (You can probably work around this by making a copy "
    "of your array  with array.copy().) ")
LIST_OF_NDARRAYS = internal(
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
    "converting the list to a single numpy.ndarray with numpy.array() before converting to a "
    "tensor.", "torch/csrc/utils/tensor_new.cpp:252")
# requires_grad_() and the attribute setter word it differently, as torch does
INT_REQUIRES_GRAD = "only Tensors of floating point dtype can require gradients"
INT_REQUIRES_GRAD_ATTR = ("only Tensors of floating point and complex dtype can require "
                          "gradients")
INT_REQUIRES_GRAD_FACTORY = "Only Tensors of floating point and complex dtype can require gradients"
NON_LEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = "
    "var.detach().")
UNUSED_INPUT = ("The differentiated Tensor at index {} appears to not have been used in the "
                "graph. Set allow_unused=True if this is the desired behavior.")
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")
INFERENCE_REQUIRES_GRAD = ("Setting requires_grad=True on inference tensor outside "
                           "InferenceMode is not allowed.")
INFERENCE_INPLACE = "Inplace update to inference tensor outside InferenceMode is not allowed." \
    "You can make a clone to get a normal tensor before doing inplace update." \
    "See https://github.com/pytorch/rfcs/pull/17 for more details."
NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If "
    "you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. "
    "See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered internally at "
    "/__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")
SCALAR_OF_GRAD_WARNING = ("Converting a tensor with requires_grad=True to a scalar may lead to "
                          "unexpected behavior.\nConsider using tensor.detach() first. (Triggered "
                          "internally at /__w/pytorch/pytorch/torch/csrc/autograd/generated/"
                          "python_variable_methods.cpp:822.)")
CREATE_GRAPH_WARNING = internal(
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak.", "torch/csrc/autograd/engine.cpp:1307")
VOLATILE_WARNING = ("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                    "instead.")
OUT_REQUIRES_GRAD = ("{}(): functions with out=... arguments don't support automatic "
                     "differentiation, but one of the arguments requires grad.")
MULTI_OUTPUT_VIEW_INPLACE = (
    "Output {} of {} is a view and is being modified inplace. This view is the output of a "
    "function that returns multiple views. Such functions do not allow the output views to be "
    "modified inplace. You should replace the inplace operation by an out-of-place one.")
NO_GRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to "
    "be tracked).")


_CLASSIC_TYPES = frozenset(("ByteTensor", "CharTensor", "ShortTensor", "IntTensor", "LongTensor",
                            "HalfTensor", "FloatTensor", "DoubleTensor"))


def modified_inplace(legacy: str, shape: list, node, output_nr: int, version: int,
                     expected: int) -> str:
    """The "modified by an inplace operation" message; ``node`` made the saved tensor."""
    origin = ""
    if node is not None:
        name = node.name()
        name = name[:-len("Backward0")] if name.endswith("Backward0") else name
        origin = f", which is output {output_nr} of {name},"
    # (the classic types print as their legacy Python class, the others as their C++ type)
    kind = f"torch.{legacy}" if legacy in _CLASSIC_TYPES else f"CPU{legacy[:-len('Tensor')]}Type"
    return ("one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{kind} {shape}]{origin} is at version {version}; "
            f"expected version {expected} instead. Hint: enable anomaly detection to find the "
            "operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False).")


def check_failed(condition: str) -> str:
    """The message of a failed ``TORCH_CHECK`` without a message of its own."""
    return (f"Expected {condition} to be true, but got false.  (Could this error message be "
            "improved?  If so, please report an enhancement request to PyTorch.)")


def shape_mismatch(i: int, grad_shape, out_shape) -> str:
    return (f"Mismatch in shape: grad_output[{i}] has a shape of torch.Size({list(grad_shape)}) "
            f"and output[{i}] has a shape of torch.Size({list(out_shape)}).")


def out_resized(old, new) -> str:
    return (f"An output with one or more elements was resized since it had shape {list(old)}, "
            f"which does not match the required output shape {list(new)}. This behavior is "
            "deprecated, and in a future PyTorch release outputs will not be resized unless "
            "they have zero elements. You can explicitly reuse an out tensor t by resizing it, "
            "inplace, to zero elements with t.resize_(0). (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")


def broadcast(a: int, b: int, dim: int) -> str:
    return (f"The size of tensor a ({a}) must match the size of tensor b ({b}) at "
            f"non-singleton dimension {dim}")

PARTIAL_OVERLAP = ("unsupported operation: some elements of the input tensor and the "
                   "written-to tensor refer to a single memory location. Please clone() the "
                   "tensor before performing the operation.")
INTERNAL_OVERLAP = ("unsupported operation: more than one element of the written-to tensor "
                    "refers to a single memory location. Please clone() the tensor before "
                    "performing the operation.")


def expanded_write(name: str, example: str) -> str:
    """torch's warning for ``name`` (``masked_fill_`` …) writing into an expanded tensor."""
    return (f"Use of {name} on expanded tensors is deprecated. Please clone() the tensor before "
            f"performing this operation. This also applies to advanced indexing e.g. "
            f"tensor[{example}")

# vmap of a function that reads a batched tensor's values
VMAP_ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
             "calling .item() on a Tensor, please try to rewrite what you're doing with other "
             "operations. If error is occurring somewhere inside PyTorch internals, please file "
             "a bug report.")
VMAP_CONTROL_FLOW = ("vmap: It looks like you're attempting to use a Tensor in some "
                     "data-dependent control flow. We don't support that yet, please file an "
                     "issue at https://github.com/pytorch/pytorch/issues .")
VMAP_NO_STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"

# index_select (and embedding, its rows' index_select) from a dim of size 0
INDEX_SELECT_EMPTY = "index_select(): self indexing axis dim should be positive"


# ----------------------------------------------------------------------------- argument parser

def _arg_type(obj) -> str:
    """The name torch's parser gives an argument's type (``Tensor`` for any tensor)."""
    from ._tensor import Tensor
    return "Tensor" if isinstance(obj, Tensor) else type_name(obj)


def _is_int(obj) -> bool:
    """Whether torch's parser takes ``obj`` for an int: an int, not a bool."""
    return isinstance(obj, int) and not isinstance(obj, bool)


# the ops whose parser takes a number for a Tensor (python_arg_parser.cpp,
# should_allow_numbers_as_tensors)
_NUMBERS_AS_TENSORS = frozenset(
    n + suffix for n in ("add", "div", "divide", "mul", "multiply", "sub", "subtract",
                         "true_divide", "floor_divide") for suffix in ("", "_", "_out")) | {
    "to", "_to_copy", "copy_", "copy", "_conj"}


def _matches(kind: str, obj, name: str = "") -> bool:
    """Whether ``obj`` fits a parameter of torch's signature type ``kind`` in op ``name``'s
    parser (where in doubt, it does: this only decides whether torch's parser would refuse
    a call)."""
    from ._tensor import Tensor
    if kind == "Tensor":    # (a tensor-like is handed to its __torch_function__)
        return isinstance(obj, Tensor) or hasattr(type(obj), "__torch_function__") or (
            name in _NUMBERS_AS_TENSORS and _is_number(obj))
    if kind == "int":       # (a tensor: an integral one of no dims, not requiring grad)
        if isinstance(obj, Tensor):
            from . import _dtype
            return not obj.ndim and not obj.requires_grad and obj.dtype is not _dtype.bool \
                and not (obj.is_floating_point() or obj.is_complex())
        return not isinstance(obj, bool) and hasattr(obj, "__index__")
    if kind == "SymInt":    # (a tensor: an integral (or bool) one of one element)
        if isinstance(obj, Tensor):
            return obj.numel() == 1 and not (obj.is_floating_point() or obj.is_complex())
        return not isinstance(obj, bool) and hasattr(obj, "__index__")
    if kind == "bool":
        return isinstance(obj, bool) or type(obj).__name__ == "bool_"
    if kind in ("float", "double", "Number"):    # (a tensor: one of no dims, not requiring grad)
        if isinstance(obj, Tensor):
            return not obj.ndim and not obj.requires_grad
        return _is_number(obj) and (kind == "Number" or not isinstance(obj, complex))
    if kind.startswith("tuple of ints"):     # (``tuple of ints[2]`` takes an int too)
        return kind[-1] == "]" and _matches("int", obj) or isinstance(
            obj, (tuple, list)) and (not obj or _matches("int", obj[0]))
    if kind == "tuple of Tensors":
        return isinstance(obj, (tuple, list)) and all(
            isinstance(v, Tensor) or hasattr(type(v), "__torch_function__") for v in obj)
    if kind == "tuple of floats":
        return isinstance(obj, (tuple, list)) or _is_number(obj)
    if kind.startswith("tuple of"):
        return isinstance(obj, (tuple, list))
    if kind == "torch.dtype":
        from ._dtype import dtype
        return isinstance(obj, (dtype, type))
    if kind in ("torch.layout", "torch.memory_format", "torch.Generator"):
        return type(obj).__name__.lower() == kind[6:].replace("_", "").lower() \
            or type(obj).__name__ == kind[6:]
    if kind == "str":
        return isinstance(obj, str)
    return True


def _is_number(obj) -> bool:
    """A Python or NumPy number (a bool too), as torch's parser takes for a Number."""
    import numbers

    import numpy
    return isinstance(obj, (numbers.Number, numpy.generic))


def _parse_option(option: str) -> list:
    """``(type, name)`` of each parameter of one of torch's printed signatures, as its parser
    reads them back: every comma-separated part counts (``*``, and the one empty part of
    ``()``), named by its last word (a default's value, where there is one)."""
    return [tuple(part.rsplit(" ", 1)) if " " in part else ("", part)
            for part in option[1:-1].split(", ")]


def _type_fits(kind: str, obj) -> bool:
    """Whether ``obj`` fits the printed type ``kind`` as torch's list of signatures tells:
    by the name of its type (a ``float`` taking an ``int`` too; ``tuple of ints``,
    ``Number`` … no name matches)."""
    return _arg_type(obj) in {"float": ("float", "int"), "int": ("int",)}.get(kind, (kind,))


def _arg_shown(obj) -> str:
    """An argument as torch's list of signatures shows it: a tuple (``torch.Size`` …) or
    list with the types of its elements."""
    if isinstance(obj, (tuple, list)):
        inner = ", ".join(_arg_type(v) for v in obj)
        if isinstance(obj, list):
            return f"list of [{inner}]"
        return f"{type_name(obj)} of ({inner}{',' if len(obj) == 1 else ''})"
    return _arg_type(obj)


def invalid_arguments(name: str, options, args, kwargs: dict) -> TypeError:
    """torch's parser error for a call of ``name`` (positional ``args``, keyword ``kwargs``)
    that fits none of its signatures ``options`` (as torch prints them): the arguments given,
    then each signature, with why one taking as many arguments did not match. (torch keeps
    the keywords in a hash map: given few, it lists them last given first, as here.)"""
    kws = list(kwargs.items())[::-1]

    def described(params=None):
        parts = []
        for i, a in enumerate(args):
            if params is None:
                parts.append(_arg_type(a))
                continue
            ok = i < len(params) and _type_fits(params[i][0], a)
            parts.append(_arg_shown(a) if ok else f"!{_arg_shown(a)}!")
        for i, (k, v) in enumerate(kws, len(args)):
            if params is None:
                parts.append(f"{k}={_arg_type(v)}")
                continue
            if i < len(params) and params[i][1] in kwargs:
                kind, k = params[i]
                v = kwargs[k]
            else:
                kind = {n: t for t, n in params}.get(k)
            ok = kind is not None and _type_fits(kind, v)
            parts.append(f"{k}={_arg_shown(v)}" if ok else f"!{k}={_arg_shown(v)}!")
        text = "".join(p + ", " for p in parts)
        return "(" + (text[:-2] if args else text) + ")"

    def count_fits(params):
        return len(args) + len(kwargs) == len(params)

    def unmatched(params):
        tail = {n for _, n in params[max(len(params) - len(kwargs), 0):]}
        return [k for k, _ in kws if k not in tail]

    if len(options) == 1:
        params = _parse_option(options[0])
        keywords = {n for _, n in params[params.index(("", "*")) + 1:]} \
            if ("", "*") in params else set()
        bad = [k for k in kwargs if k not in keywords]     # (torch's: keyword-only ones)
        if bad:
            return TypeError(f"{name}() received an invalid combination of arguments - got "
                             f"unrecognized keyword arguments: {', '.join(bad)}")
        return TypeError(f"{name}() received an invalid combination of arguments - got "
                         f"{described(params if count_fits(params) else None)}, but "
                         f"expected {options[0]}")
    msg = f"{name}() received an invalid combination of arguments - got {described()}"
    msg += ", but expected one of:\n"
    for option in options:
        params = _parse_option(option)
        msg += f" * {option}\n"
        if count_fits(params):
            bad = unmatched(params)
            msg += ("      didn't match because some of the keywords were incorrect: "
                    f"{', '.join(bad)}\n" if bad else
                    "      didn't match because some of the arguments have invalid types: "
                    f"{described(params)}\n")
    return TypeError(msg)


def reparsed(err: BaseException, name: str, method: bool, args, kwargs: dict):
    """What a public function (or Tensor method, ``args[0]`` its tensor) ``name`` raises
    instead of ``err``, raised by the call ``(args, kwargs)``: torch's parser error where its
    parser refuses the call (:func:`parse_failure`), else None (``err`` stands). An
    :class:`ArgTypeError` stays one (Tensor's operators answer it with NotImplemented)."""
    new = parse_failure(name, method, args[1:] if method else args, kwargs)
    if new is None:
        return None
    return ArgTypeError(str(new)) if isinstance(err, ArgTypeError) else new


def _call_keywords(frame) -> tuple:
    """``(names, count)``: the names of the keyword arguments of the call ``frame`` is making
    and the number of its positional ones (a method's tensor not counted), read off its
    bytecode (``(None, None)`` where they cannot be read: a call ``f(*args, **kwargs)`` …)."""
    import dis
    code, at = frame.f_code, frame.f_lasti
    previous = []       # (the instructions up to the one running, whose inline caches
    # ``f_lasti`` may point into)
    for ins in dis.get_instructions(code):
        if ins.offset > at:
            break
        previous.append(ins)
    if not previous or previous[-1].opname not in ("CALL", "CALL_KW"):
        return None, None
    count = previous[-2].arg if len(previous) > 1 and previous[-2].opname == "PRECALL" \
        else None
    for prev in reversed(previous[-4:-1]):
        if prev.opname == "KW_NAMES":
            names = code.co_consts[prev.arg]
            return names, None if count is None else count - len(names)
        if previous[-1].opname == "CALL_KW" and prev.opname == "LOAD_CONST":
            return prev.argval, None
    return (), count


_NAME_LOADS = frozenset(("LOAD_NAME", "LOAD_GLOBAL", "LOAD_FAST", "LOAD_DEREF",
                         "LOAD_CLASSDEREF"))
_PUSH_NONE = frozenset(("PRECALL", "KW_NAMES", "CACHE", "NOP", "EXTENDED_ARG"))


def _pusher(instructions, i: int, depth: int) -> int | None:
    """The index of the instruction among ``instructions[:i]`` that pushed the value
    ``depth`` entries below the top of the stack as ``instructions[i]`` runs (None where
    the code between jumps, or stores: not plain to tell)."""
    import dis
    for j in range(i - 1, -1, -1):
        ins = instructions[j]
        if ins.is_jump_target or ins.opcode in dis.hasjrel or ins.opcode in dis.hasjabs \
                or ins.opname.startswith(("STORE_", "DELETE_", "POP_", "SWAP", "RE")):
            return None
        effect = dis.stack_effect(ins.opcode, ins.arg, jump=False) \
            if ins.opcode >= dis.HAVE_ARGUMENT else dis.stack_effect(ins.opcode)
        pushed = 2 if ins.opname == "LOAD_METHOD" else 0 if ins.opname in _PUSH_NONE \
            else max(effect, 1)
        if depth < pushed:
            return j
        depth -= effect
    return None


def _loaded(frame, instructions, j: int, seen: int = 0):
    """The value ``instructions[j]`` of ``frame`` loaded where it is a name's, or an
    attribute of a module (a chain from a name); :data:`_MISSING` where it is neither."""
    import builtins
    import types
    ins = instructions[j]
    if ins.opname in _NAME_LOADS:
        for space in (frame.f_locals, frame.f_globals, vars(builtins)):
            if ins.argval in space:
                return space[ins.argval]
    elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and seen < 8:
        k = _pusher(instructions, j, 0)
        owner = _MISSING if k is None else _loaded(frame, instructions, k, seen + 1)
        if isinstance(owner, types.ModuleType):
            return getattr(owner, ins.argval, _MISSING)
    return _MISSING


def _callee(frame):
    """What the call ``frame`` is making calls, read off its bytecode: ``(owner, None,
    attribute)`` for an attribute of ``owner`` (``x.add(…)``), ``(None, value, None)`` for
    another value (``f(…)``), :data:`_MISSING` for the owner or value where it is not a
    name's (or a module's attribute); None where the call cannot be read."""
    import dis
    at = frame.f_lasti
    instructions = [i for i in dis.get_instructions(frame.f_code) if i.offset <= at]
    if len(instructions) < 2 or instructions[-1].opname != "CALL" \
            or instructions[-2].opname != "PRECALL":
        return None
    i = len(instructions) - 2
    j = _pusher(instructions, i, instructions[i].arg)
    if j is None:
        return None
    if instructions[j].opname in ("LOAD_METHOD", "LOAD_ATTR"):
        k = _pusher(instructions, j, 0)
        return (_MISSING if k is None else _loaded(frame, instructions, k), None,
                instructions[j].argval)
    return None, _loaded(frame, instructions, j), None


def _called_as_method(frame) -> bool | None:
    """Whether the call ``frame`` is making calls a Tensor method (a tensor's attribute, or
    a bound method of one) rather than a function (None where that cannot be told)."""
    import types

    from ._tensor import Tensor
    called = _callee(frame)
    if called is None:
        return None
    owner, value, _ = called
    if owner is not None:
        return True if isinstance(owner, Tensor) else False if isinstance(
            owner, types.ModuleType) else None
    if isinstance(value, types.MethodType):
        return isinstance(value.__self__, Tensor)
    return False if isinstance(value, types.FunctionType) else None


def _no_arguments_owner() -> str:
    """How CPython names the class of a Tensor method of no arguments in its error for the
    user's call: the bound method's tensor's class where the call is of a bound method
    object (``f = x.abs; f(1)``), else the class that defines it (``x.abs(1)``,
    ``Tensor.abs(x, 1)``)."""
    import types
    frame = _sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename.startswith(_PKG)
                                 or "_reparsed" in frame.f_globals):   # (generated ops')
        frame = frame.f_back
    called = None if frame is None else _callee(frame)
    if called is None or called[0] is not None:
        return "TensorBase"
    if isinstance(called[1], types.MethodType):
        return type(called[1].__self__).__qualname__
    # (a value of an expression, ``getattr(x, name)(1)``: a bound method, most likely)
    return "Tensor" if called[1] is _MISSING else "TensorBase"


def call_of(name: str, method: bool, names, values, npos: int, defaults: dict,
            keywords: tuple | None = None, given: int | None = None):
    """A call of public function (or Tensor method) ``name`` read back from the values its
    parameters ``names`` (the first ``npos`` positional) took: ``(args, kwargs)``. Where
    the call's keywords' names (``keywords``) and the number of its positional arguments
    (``given``) are known, as they were given; else its leading arguments positionally (as
    many as torch's signatures take so, but none of ``keywords``), the others by keyword, a
    default (``defaults``, by name) counting as not given. :data:`REQUIRED
    <._ops.registry.REQUIRED>` is never given."""
    from ._ops import _signatures
    if given is not None and keywords is not None:
        first = 1 if method else 0
        args = tuple(values[first:first + min(given, npos - first)])
        kwargs = {n: v for n, v in zip(names, values)
                  if n in keywords and type(v).__name__ != "_Required"}
        return args, kwargs
    options = (_signatures.METHODS if method else _signatures.FUNCTIONS).get(name) or ()
    max_pos = max((sum(not p[4] for p in _signature(o)) for o in options), default=npos)
    args, kwargs, leading = [], {}, True
    for i, (n, v) in enumerate(zip(names, values)):
        if method and not i:
            continue
        if v is defaults.get(n, _MISSING) or type(v).__name__ == "_Required":
            leading = False
        elif leading and i < npos and len(args) < max_pos and n not in (keywords or ()):
            args.append(v)
        else:
            kwargs[n] = v
            leading = False
    return tuple(args), kwargs


_PUBLISHED: dict = {}     # id of the code of public functions and Tensor methods (code
# objects compare by value): [(name, method, fn)]
_PUBLISHED_KEY: list = [None]     # (the namespaces' sizes it was read at)
_NAMESPACES = ("ember.linalg", "ember.special", "ember.fft")   # (their functions named
# ``linalg_det`` …)


def _published_codes() -> dict:
    """The code objects of ember's public functions and Tensor methods (and of what they
    wrap), read on the first error that asks (again once an op family loaded later has
    published more)."""
    import types

    from ._tensor import Tensor
    ember = _sys.modules[__package__]      # (by its own name: the package under any alias)
    # (torch.linalg's, torch.special's and torch.fft's functions: by their parser names)
    spaces = [vars(m) for m in map(_sys.modules.get, _NAMESPACES) if m is not None]
    key = (len(vars(ember)), len(vars(Tensor)), *map(len, spaces))
    if _PUBLISHED_KEY[0] != key:
        _PUBLISHED.clear()
        _PUBLISHED_KEY[0] = key
        for method, space in ((True, vars(Tensor)), (False, vars(ember)),
                              *((None, s) for s in spaces)):
            for name, fn in list(space.items()):
                if method is None:
                    name = getattr(fn, "__name__", name)
                while isinstance(fn, types.FunctionType):
                    _PUBLISHED.setdefault(id(fn.__code__), []).append((name, bool(method), fn))
                    fn = fn.__dict__.get("__wrapped__")
    return _PUBLISHED


def published_changed() -> None:
    """Read the public functions' code objects again on the next error that asks (a
    function's code was replaced)."""
    _PUBLISHED_KEY[0] = None


_REBINDS: dict = {}       # a code object: where it assigns to a parameter, and its loops


def _rebinds_parameters(code, at: int | None = None) -> bool:
    """Whether the function of ``code`` has assigned to one of its parameters (its frame
    then no longer tells how it was called) when it reaches offset ``at`` (anywhere, where
    None): an assignment before it, or in a loop around it."""
    if code not in _REBINDS:
        import dis
        import inspect
        n = code.co_argcount + code.co_kwonlyargcount
        n += bool(code.co_flags & inspect.CO_VARARGS) + bool(
            code.co_flags & inspect.CO_VARKEYWORDS)
        params = set(code.co_varnames[:n])
        instructions = list(dis.get_instructions(code))
        stores, cast = [], 0
        for i in instructions:
            # (``a, b = autocast_inputs(op, a, b)``: the same arguments, their dtypes cast)
            if i.opname == "LOAD_GLOBAL" and i.argval == "autocast_inputs":
                cast = -1
            elif cast == -1 and i.opname == "UNPACK_SEQUENCE":
                cast = i.arg
            elif i.opname in ("STORE_FAST", "DELETE_FAST") and i.argval in params:
                if cast > 0:
                    cast -= 1
                    continue
                stores.append(i.offset)
        loops = [(i.argval, i.offset) for i in instructions
                 if "BACKWARD" in i.opname and i.argval is not None]
        _REBINDS[code] = stores, loops
    stores, loops = _REBINDS[code]
    if at is None:
        return bool(stores)
    return any(s < at for s in stores) or any(
        start <= at < end and any(start <= s <= end for s in stores) for start, end in loops)


def _failed_at(frame, err) -> int:
    """The offset in ``frame`` of the instruction that raised ``err`` (where its traceback
    passes through the frame), else the one the frame runs."""
    tb = getattr(err, "__traceback__", None)
    while tb is not None:
        if tb.tb_frame is frame:
            return tb.tb_lasti
        tb = tb.tb_next
    return frame.f_lasti


def _frame_forms(frame, candidates, called=None) -> list:
    """The forms ``(name, method, fn)`` in which the function ``frame`` runs is published,
    of ``candidates`` (those of its code): the function whose closure holds what the frame's
    free variables do (the function and the method of one op may be two), as a Tensor method
    and/or a function; the one the user's call named first (``called``: :func:`_callee`'s)."""
    import types
    owner, value, attribute = called or (None, None, None)
    value = value.__func__ if isinstance(value, types.MethodType) else value

    if attribute is not None and isinstance(owner, types.ModuleType) \
            and owner.__name__ in _NAMESPACES:
        attribute = f"{owner.__name__[6:]}_{attribute}"     # (``linalg.det``: linalg_det)

    def named(c):
        return c[0] == attribute if attribute is not None else c[2] is value

    # (aliases share their code: the function named as it is read first)
    candidates = sorted(candidates, key=lambda c: (not named(c), c[0] != frame.f_code.co_name))
    found = [c for c in candidates if all(
        frame.f_locals.get(v, _MISSING) is cell.cell_contents
        for v, cell in zip(c[2].__code__.co_freevars, c[2].__closure__ or ()))]
    return [c for c in found if c[0] == found[0][0]]


def call_failure(err: BaseException | None = None):
    """torch's parser error for the call of the public function (or Tensor method) the user
    made, running on the stack above the caller, where torch's parser refuses it (None where
    it takes it, or none is found): the outermost public function among the frames of ember
    (its modules' and the ops' generated functions') above the caller, its call read back by
    :func:`call_of`. A function published as a Tensor method too counts as called as the
    method when its first argument is a tensor and the call fits neither. For an error path
    of a hand-written op (a generator that is not one …): nothing to pay where nothing
    fails."""
    import inspect
    codes = _published_codes()
    frame, found = _sys._getframe(1), None
    while frame is not None and (id(frame.f_code) in codes or "_reparsed" in frame.f_globals
                                 or frame.f_code.co_filename.startswith(_PKG)):
        if id(frame.f_code) in codes:
            found = frame
        frame = frame.f_back
    if found is None:
        return None
    code = found.f_code
    if _rebinds_parameters(code, _failed_at(found, err)) and not any(
            type(found.f_locals.get(n)).__name__ == "_Required"
            for n in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]):
        return None     # (a function that assigns to a parameter: its frame no longer holds
        # what it was called with; but for an argument missing, the call fits none anyway)
    # (the user's call, where the user's code called it, or its stub or a wrapper passing
    # the call on)
    caller = found.f_back
    while caller is not frame and caller is not None and caller.f_code.co_name in (
            "_stub_call", "wrapper", code.co_name):
        caller = caller.f_back
    direct = caller is frame and frame is not None
    forms = _frame_forms(found, codes[id(code)], _callee(frame) if direct else None)
    if not forms:
        return None
    fn = forms[0][2]
    npos, nkw = code.co_argcount, code.co_kwonlyargcount
    names = code.co_varnames[:npos + nkw]
    defaults = dict(zip(names[npos - len(fn.__defaults__ or ()):npos], fn.__defaults__ or ()))
    defaults.update(fn.__kwdefaults__ or {})
    values = found.f_locals
    keywords = as_method = given = None
    if direct:
        (keywords, given), as_method = _call_keywords(frame), _called_as_method(frame)
    if as_method is not None and any(f[1] == as_method for f in forms):
        forms = [f for f in forms if f[1] == as_method]
    from ._tensor import Tensor
    errors = []
    for name, method, _ in sorted(forms, key=lambda f: not f[1]):
        first = values.get(names[0]) if names else (
            values.get(code.co_varnames[npos + nkw]) or (None,))[0] \
            if code.co_flags & inspect.CO_VARARGS else None
        if method and not isinstance(first, Tensor):
            continue
        args, kwargs = call_of(name, method, names, [values.get(n) for n in names], npos,
                               defaults, keywords, given)
        extra = npos + nkw
        if code.co_flags & inspect.CO_VARARGS:
            args += tuple(values.get(code.co_varnames[extra], ()))
            extra += 1
        if code.co_flags & inspect.CO_VARKEYWORDS:
            kwargs.update(values.get(code.co_varnames[extra], {}))
        # (a method's tensor: its first parameter, else the first of its ``*args``)
        new = reparsed(err, name, method, ((None,) if method and names else ()) + args,
                       kwargs)
        if new is None:
            return None
        errors.append(new)
    return errors[0] if errors else None


class Unparsed(TypeError):
    """Raised inside an op for a call that fits none of torch's signatures of it, where Python
    bound the call: an op published with its ``overloads`` answers with :func:`parser_error`
    for the call as given (a plain TypeError of this message otherwise)."""


Unparsed.__name__ = Unparsed.__qualname__ = "TypeError"
Unparsed.__module__ = "builtins"


class _NotGiven:
    """The default of a parameter torch's overloads take or omit but never take as None
    (``max``'s and ``squeeze``'s ``dim``): an explicit None is an :class:`Unparsed` call."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<not given>"


NOT_GIVEN = _NotGiven()

_MISSING = object()


def _signature(option: str) -> list:
    """``(type, name, optional, allow_none, keyword_only)`` of each parameter of one of
    torch's signatures as :mod:`._ops._signatures` writes them: as printed, a ``?`` after a
    type that takes None without a default of None, a leading ``!`` on a deprecated one
    (``* ,`` marks the keyword-only parameters; a default: optional)."""
    params, kw_only = [], False
    for part in option.strip().lstrip("!")[1:-1].split(", "):
        if not part:
            continue
        if part == "*":
            kw_only = True
            continue
        decl, given, default = part.partition(" = ")
        kind, name = decl.rsplit(" ", 1)
        nullable = kind.endswith("?")
        params.append((kind.rstrip("?"), name, bool(given), nullable or default == "None",
                       kw_only))
    return params


def _shown(options) -> list:
    """The signatures torch's errors list: the deprecated ones left out, as printed (a
    ``SymInt`` printed ``int``)."""
    import re
    return [re.sub(r"(\[\d+\])?\?? ", " ", o).replace("(SymInt ", "(int ").replace(
        " SymInt ", " int ") for o in options if not o.startswith("!")]


def _printed(kind: str) -> str:
    """A parameter's type as torch's parser names it in its errors."""
    kind = kind.split("[")[0]
    return "int" if kind == "SymInt" else kind


def _parse_error(name: str, params, args, kwargs) -> TypeError | None:
    """The error torch's ``FunctionSignature::parse`` raises for the call on one signature
    (None where it binds): the positional arguments, then each parameter in order, then the
    keywords left over."""
    nargs, max_pos = len(args), sum(not p[4] for p in params)
    min_args = sum(not p[2] for p in params)

    def extra_args():
        if min_args != max_pos:
            return TypeError(f"{name}() takes from {min_args} to {max_pos} positional "
                             f"arguments but {nargs} were given")
        return TypeError(f"{name}() takes {max_pos} positional argument"
                         f"{'' if max_pos == 1 else 's'} but {nargs} "
                         f"{'was' if nargs == 1 else 'were'} given")

    # (a lone int[] parameter takes the ints of the call one by one, the first an int)
    varargs = max_pos == 1 and params[0][0].startswith("tuple of ints") and (
        not nargs or _is_int(args[0]))
    if nargs > max_pos and not varargs:
        return extra_args()
    arg_pos, remaining = 0, len(kwargs)
    for i, (kind, pname, optional, allow_none, kw_only) in enumerate(params):
        is_kwd = arg_pos >= nargs
        if not is_kwd and kw_only:
            return extra_args()
        obj = kwargs.get(pname, _MISSING) if is_kwd else args[arg_pos]
        if (obj is _MISSING and optional) or (obj is None and allow_none):
            pass
        elif obj is _MISSING:
            return missing_arguments(name, [p[1] for p in params[i:] if not p[2]])
        elif _matches(kind, obj, name):
            pass
        elif kind == "tuple of Tensors" and isinstance(obj, (tuple, list)):
            # (its parser checks each element, and throws for one not a tensor)
            bad = next(k for k, v in enumerate(obj) if not _matches("Tensor", v))
            err = TypeError(f"expected Tensor as element {bad} in argument {i}, but got "
                            f"{type_name(obj[bad])}")
            err.thrown = True
            return err
        elif varargs and arg_pos == 0 and not is_kwd:
            arg_pos = nargs
            continue
        elif is_kwd:
            return TypeError(f"{name}(): argument '{pname}' must be {_printed(kind)}, not "
                             f"{type_name(obj)}")
        elif kind.startswith("tuple of ints") and isinstance(obj, (tuple, list)):
            # (its parser looks at the first element of an int list only)
            return TypeError(f"{name}(): argument '{pname}' (position {arg_pos + 1}) must be "
                             f"tuple of ints, but found element of type {type_name(obj[0])} "
                             "at pos 0")
        else:
            return TypeError(f"{name}(): argument '{pname}' (position {arg_pos + 1}) must be "
                             f"{_printed(kind)}, not {type_name(obj)}")
        if not is_kwd:
            arg_pos += 1
        elif obj is not _MISSING:
            remaining -= 1
    if remaining > 0:
        names = [p[1] for p in params]
        for k in kwargs:
            if k not in names:
                return TypeError(f"{name}() got an unexpected keyword argument '{k}'")
            if names.index(k) < nargs:
                return TypeError(f"{name}() got multiple values for argument '{k}'")
        return TypeError("invalid keyword arguments")
    return None


def missing_arguments(name: str, names) -> TypeError:
    """torch's parser error for a call of ``name`` without its required arguments ``names``
    (its ``missing_args``, which says "arguments" for one and "argument" for more)."""
    quoted = ", ".join(f'"{n}"' for n in names)
    return TypeError(f"{name}() missing {len(names)} required positional argument"
                     f"{'s' if len(names) == 1 else ''}: {quoted}")


def parser_error(name: str, options, args, kwargs: dict) -> TypeError:
    """torch's ``PythonArgParser`` error for a call of ``name`` (positional ``args``, keyword
    ``kwargs``) that fits none of its printed signatures ``options``: one signature's own
    parse error where only one takes as many arguments as given (or there is only one), else
    the list of them all (:func:`invalid_arguments`)."""
    sigs = [_signature(o) for o in options]
    for sig in sigs:        # (in its order: an error thrown while one is read stands)
        err = _parse_error(name, sig, args, kwargs)
        if getattr(err, "thrown", False):
            return err
    n = len(args) + len(kwargs)
    plausible = [s for o, s in zip(options, sigs) if not o.startswith("!")
                 and sum(not p[2] for p in s) <= n <= len(s)]
    if len(sigs) == 1 or len(plausible) == 1:
        err = _parse_error(name, sigs[0] if len(sigs) == 1 else plausible[0], args, kwargs)
        if err is not None:
            return err
    return invalid_arguments(name, _shown(options), args, kwargs)


def parse_failure(name: str, method: bool, args, kwargs: dict) -> TypeError | None:
    """torch's parser error for a call of function (or Tensor method, ``args`` without the
    tensor) ``name`` that none of its signatures in :mod:`._ops._signatures` takes; None
    where one takes it, or the table has none of ``name``. (Built on the error path only:
    what an op raised is replaced by this where torch's parser would have refused the call.)"""
    from ._ops import _signatures
    options = (_signatures.METHODS if method else _signatures.FUNCTIONS).get(name)
    if options is None:
        return None
    if not options:         # (a method of no arguments: CPython's error)
        if args:
            return TypeError(f"{_no_arguments_owner()}.{name}() takes no arguments "
                             f"({len(args)} given)")
        return TypeError(f"{_no_arguments_owner()}.{name}() takes no keyword arguments") \
            if kwargs else None
    for sig in [_signature(o) for o in options]:
        err = _parse_error(name, sig, args, kwargs)
        if err is None:
            return _unpack_error(name, sig, args, kwargs)
        if getattr(err, "thrown", False):
            return err
    return parser_error(name, options, args, kwargs)


def _unpack_error(name: str, params, args, kwargs: dict) -> TypeError | None:
    """torch's error for a call its parser took on signature ``params`` that it then fails
    to read: an int list (the parser looked at its first element only) with an element not
    an int. None where there is none."""
    from ._tensor import Tensor
    varargs = len(args) > 1 and sum(not p[4] for p in params) == 1
    for i, (kind, pname, *_) in enumerate(params):
        value = (args if varargs else args[i]) if i < len(args) else kwargs.get(pname)
        if not kind.startswith("tuple of ints") or not isinstance(value, (tuple, list)):
            continue
        for pos, v in enumerate(value):
            if not (isinstance(v, bool) or _matches("int", v)) or isinstance(v, Tensor) and (
                    v.is_floating_point() or v.is_complex()):
                return TypeError(
                    f"{name}(): argument '{pname}' failed to unpack the object at pos "
                    f"{pos + 1} with error \"type must be tuple of ints,but got "
                    f"{_arg_type(v)}\"")
    return None


def method_options(options) -> tuple:
    """A function's printed signatures as its method's: without the leading ``Tensor input``
    and the ``out`` parameter (nor a ``*`` then left with nothing after it)."""
    out = []
    for option in options:
        parts = [p for p in option.strip("()").split(", ") if not p.endswith(" out = None")]
        if parts and parts[0].startswith("Tensor "):
            parts = parts[1:]
        if parts and parts[-1] == "*":
            parts = parts[:-1]
        out.append("(" + ", ".join(parts) + ")")
    return tuple(out)


SUBCLASS_DEEPCOPY = (
    "The default implementation of __deepcopy__() for non-wrapper subclasses only works for "
    "subclass types that implement new_empty() and for which that function returns another "
    "instance of the same subclass. You should either properly implement new_empty() for your "
    "subclass or override __deepcopy__() if it is intended behavior for new_empty() to return "
    "an instance of a different type.")


def no_backend_kernel(aten_name: str, backend: str) -> NotImplementedError:
    """torch's dispatcher error for an op with no kernel for ``backend`` (``'CPU'``,
    ``'QuantizedCPU'``): its first sentences, the list of backends it has shortened."""
    return NotImplementedError(
        f"Could not run '{aten_name}' with arguments from the '{backend}' backend. This could "
        "be because the operator doesn't exist for this backend, or was omitted during the "
        "selective/custom build process (if using custom build). If you are a Facebook employee "
        "using PyTorch on mobile, please visit https://fburl.com/ptmfixes for possible "
        f"resolutions. '{aten_name}' is only available for these backends: [CPU, Meta, ...].")


def complex_grad_mismatch(i, grad_dtype, out_dtype) -> str:
    """torch's ``_make_grads`` error for a complex gradient of a real output, or vice versa."""
    return ("For complex Tensors, both grad_output and output are required to have the same "
            f"dtype. Mismatch in dtype: grad_output[{i}] has a dtype of {grad_dtype} and "
            f"output[{i}] has a dtype of {out_dtype}.")
