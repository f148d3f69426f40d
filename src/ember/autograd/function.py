"""Custom differentiable functions: ``class F(Function)`` with ``forward``/``backward``.

``F.apply(*args)`` runs ``forward`` without recording and, when an input requires grad,
creates one node of class ``FBackward`` whose ``backward`` is the user's. The ``ctx`` object
that both methods receive *is* that node, as in torch.
"""

from __future__ import annotations

import functools

from .. import _errors
from . import forward_ad as _forward_ad
from . import grad_mode as _grad_mode
from .graph import Node as _Node
from .graph import SavedTensor as _SavedTensor
from .graph import _EdgesNode


class FunctionCtx:
    """What ``forward`` can tell ``backward``: saved tensors and flags."""

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors (or None) for backward, with in-place checks on use."""
        self._to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors) -> None:
        """Declare inputs that ``forward`` modified in place."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Declare outputs that get no gradient (indices, masks …)."""
        self._non_diff = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """Whether missing output gradients reach ``backward`` as zeros (default) or None."""
        self.materialize_grads = bool(value)


class BackwardCFunction(_Node, FunctionCtx):
    """The node of a custom Function application; also its ``ctx``."""

    _cls = None

    def __init__(self):
        _Node.__init__(self)
        self._to_save = ()
        self._dirty = ()
        self._non_diff = ()
        self.materialize_grads = True
        self.needs_input_grad = ()
        self._nout = []
        self._out_is_tensor = ()
        self.next_functions = ()

    @property
    def saved_tensors(self) -> tuple:
        if self._released:
            raise RuntimeError(_errors.BACKWARD_TWICE)
        if self.__dict__.get("_in_jvp"):       # jvp reads what save_for_forward kept
            return tuple(self.__dict__.get("saved_for_forward", ()))
        if self._saved is None:
            return tuple(self._to_save)
        return tuple(None if s is None else s.unpack(self) for s in self._saved)

    @property
    def num_outputs(self) -> int:
        return max(1, len(self._nout))

    def apply(self, grads):
        from .._tensor import Tensor
        if self.materialize_grads:
            grads = [g if g is not None or meta is None else
                     Tensor._wrap(_zeros(meta)) for g, meta in zip(grads, self._nout)]
        result = self._cls.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        n = len(self.next_functions)
        if len(result) != n:
            if len(result) > n and all(r is None for r in result[n:]):
                result = result[:n]
            else:
                raise RuntimeError(f"function {self._name} returned an incorrect number of "
                                   f"gradients (expected {n}, got {len(result)})")
        out = []
        for r, (node, _) in zip(result, self.next_functions):
            if r is not None and not isinstance(r, Tensor):
                raise TypeError(f"function {self._name} returned a gradient different than "
                                f"None at position {len(out) + 1}, but the corresponding "
                                "forward input was not a Variable")
            out.append(r if node is not None else None)
        return out


def _zeros(meta):
    from .._device import xp
    shape, dt = meta
    return xp.zeros(shape, dt.np)


def _mark_views(outputs, ctx) -> None:
    """torch's creation meta of a custom Function's view outputs (``_wrap_outputs``): writes
    to them would bypass its backward, so in-place ops on them raise; several differentiable
    outputs make their views multi-output views instead."""
    from .._ops.registry import _IN_CUSTOM_FUNCTION, _MULTI
    from .._tensor import Tensor
    dirty = {id(t) for t in ctx._dirty}
    views = [o for o in outputs
             if isinstance(o, Tensor) and o._base is not None and id(o) not in dirty]
    for o in views:
        o.__dict__["_cm"] = _IN_CUSTOM_FUNCTION
    if sum(isinstance(o, Tensor) and o.grad_fn is ctx for o in outputs) > 1:
        for o in views:
            if o.grad_fn is ctx:
                o.__dict__["_cm"] = _MULTI


class FunctionMeta(type):
    """Gives each Function subclass its own node class, ``<Name>Backward``."""

    def __init__(cls, name, bases, attrs):
        node_name = name + "Backward"
        cls._backward_cls = type(node_name, (BackwardCFunction,),
                                 {"_name": node_name, "_cls": cls})
        super().__init__(name, bases, attrs)


class Function(FunctionCtx, metaclass=FunctionMeta):
    """Base class of custom autograd functions.

    >>> import ember
    >>> class Square(ember.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x
    ...     @staticmethod
    ...     def backward(ctx, grad):
    ...         x, = ctx.saved_tensors
    ...         return 2 * x * grad
    >>> x = ember.tensor(3.0, requires_grad=True)
    >>> Square.apply(x).backward(); x.grad
    tensor(6.)
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """The forward-mode formula: the outputs' tangents from the inputs' (``ctx`` as
        ``forward`` left it)."""
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        """The batching rule a subclass gives for ``vmap`` (or ``generate_vmap_rule = True``)."""
        raise NotImplementedError("To use autograd.Function with vmap, you must either override "
                                  "the vmap staticmethod or set generate_vmap_rule=True.")

    @classmethod
    def _check_transforms(cls, new_style: bool) -> None:
        """torch's refusals of a Function under ``torch.func`` transforms: ``setup_context``
        is required, and under ``vmap`` exactly one of a ``vmap`` rule or
        ``generate_vmap_rule``."""
        from ..func import _transforms
        frame = _grad_mode._state.vmap
        if frame is None and not _transforms._depth[0]:
            return
        if not new_style:
            raise RuntimeError("In order to use an autograd.Function with functorch transforms "
                               "(vmap, grad, jvp, jacrev, ...), it must override the "
                               "setup_context staticmethod. For more details, please see "
                               "https://pytorch.org/docs/main/notes/extending.func.html")
        if frame is None:
            return
        overridden = cls.vmap is not Function.vmap
        if cls.generate_vmap_rule and overridden:
            raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it has both "
                               "generate_vmap_rule=True and an overridden vmap staticmethod. "
                               "Please set generate_vmap_rule=False or delete the overridden "
                               "vmap staticmethod to avoid ambiguity. For more details, please "
                               "see https://pytorch.org/docs/main/notes/extending.func.html")
        if not cls.generate_vmap_rule and not overridden:
            raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it does not have "
                               "vmap support. Please override and implement the vmap "
                               "staticmethod or set generate_vmap_rule=True. For more details, "
                               "please see https://pytorch.org/docs/main/notes/extending.func.html")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args, **kwargs):
        from .._tensor import Tensor
        ctx = cls._backward_cls()
        tensors = [a if isinstance(a, Tensor) else None for a in args]
        ctx.needs_input_grad = tuple(t is not None and t.requires_grad for t in tensors)
        record = _grad_mode._state.enabled and any(ctx.needs_input_grad)
        new_style = cls.setup_context is not Function.setup_context
        cls._check_transforms(new_style)
        with _grad_mode.no_grad():
            if new_style:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        single = not isinstance(output, tuple)
        outputs = (output,) if single else output
        if not record:
            if any(isinstance(o, Tensor) and o.requires_grad and any(o is t for t in tensors)
                   for o in outputs):
                # torch returns detached aliases of inputs that require grad
                outputs = tuple(o.detach() if isinstance(o, Tensor) and o.requires_grad
                                and any(o is t for t in tensors) else o for o in outputs)
                output = outputs[0] if single else outputs
            _mark_views(outputs, ctx)
            return output
        ctx.next_functions = tuple(t._edge() if t is not None else (None, 0) for t in tensors)
        ctx._input_meta = [(t._data.shape, t.dtype) if t is not None and t.requires_grad
                           else None for t in tensors]
        dirty = {id(t) for t in ctx._dirty}
        non_diff = {id(t) for t in ctx._non_diff}
        wrapped = []
        rebased = []
        for nr, o in enumerate(outputs):
            if not isinstance(o, Tensor):
                ctx._nout.append(None)
                wrapped.append(o)
                continue
            if id(o) in dirty:
                if o.grad_fn is None and o._requires_grad:
                    # (custom_function.cpp's own wording, not the in-place ops' one)
                    raise RuntimeError("a leaf Variable that requires grad has been used in an "
                                       "in-place operation.")
                from .._ops.registry import check_inplace
                check_inplace(o)
                o._vc.value += 1           # torch bumps a dirty tensor's version once more
                if nr == 0 and o._base is not None and o._base.requires_grad \
                        and tensors and tensors[0] is o:
                    rebased.append(o)      # a view written in place: see below
            elif any(o is t for t in tensors):
                with _grad_mode.no_grad():   # an input returned as is: a view of it, as in
                    o = o.view_as(o)          # torch (view_as_self)
            ctx._nout.append((o._data.shape, o.dtype))
            if id(o) not in non_diff and (o.dtype.is_floating_point or o.dtype.is_complex):
                o.grad_fn, o._output_nr = ctx, nr
            wrapped.append(o)
        _mark_views(wrapped, ctx)
        for view in rebased:
            # torch's rebase_history: the base's history becomes a CopySlices around this
            # Function (whose first input is the view), the view an AsStridedBackward0
            from .._ops.views import rebase_onto_base
            rebase_onto_base(view, ctx)
        out_ids = {id(o): o for o in wrapped if isinstance(o, Tensor)}
        saved = []
        for t in ctx._to_save:
            if t is None:
                saved.append(None)
            else:
                saved.append(_SavedTensor(t, is_output=id(t) in out_ids and t.grad_fn is ctx))
        ctx._saved = saved
        ctx._to_save = ()
        if _forward_ad._levels and (cls.jvp is not Function.jvp
                                    or not cls.__module__.startswith("ember.")):
            _forward_ad._function_jvp(cls, ctx, args, wrapped)   # (ember's own: by backward)
        return wrapped[0] if single else tuple(wrapped)


class _DelayedError(_EdgesNode):
    """torch's ``Error`` node: what a once-differentiable ``backward`` returns hangs from it
    (when its incoming gradients require grad), and differentiating through it raises."""

    _name = "torch::autograd::Error"

    def __init__(self, msg: str, edges: tuple) -> None:
        super().__init__(edges)
        self._msg = msg

    def apply(self, grads):
        raise RuntimeError(self._msg)


_DelayedError.__name__ = _DelayedError.__qualname__ = "Error"      # as torch's


def once_differentiable(fn):
    """Mark a ``backward`` that cannot itself be differentiated: it runs under no_grad and,
    when grad mode is on and an incoming gradient requires grad, its results require grad
    through a node whose backward raises."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with _grad_mode.no_grad():
            outputs = fn(ctx, *args)
        if not _grad_mode.is_grad_enabled() or not any(
                getattr(a, "requires_grad", False) for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        fakes = [None if o is None else o.detach().requires_grad_() for o in outs]
        node = _DelayedError("trying to differentiate twice a function that was marked with "
                             "@once_differentiable",
                             tuple((None, 0) if f is None else f._edge() for f in fakes))
        wrapped = []
        for nr, f in enumerate(fakes):
            if f is not None:
                f = f.detach()
                f.grad_fn, f._output_nr = node, nr
            wrapped.append(f)
        return wrapped[0] if single else tuple(wrapped)
    return wrapper


del annotations  # keep dir() to torch's names
