"""Module backward hooks, as torch's ``torch.utils.hooks.BackwardHook`` builds them.

The module's tensor inputs and outputs pass through an identity Function,
``BackwardHookFunction``; a hook on the outputs' node records the gradients w.r.t. the
outputs (after the backward pre-hooks, which may replace them), and a hook on the inputs'
node calls ``hook(module, grad_input, grad_output)`` with the gradients w.r.t. the inputs,
which it may replace. The identity's outputs are views made inside a custom Function: writing
into them in place raises torch's error. Legacy (non-full) hooks are hooks on the output's
``grad_fn``, with torch's deprecation warnings.
"""

from __future__ import annotations

import warnings

from ... import _errors
from ..._ops.registry import _IN_CUSTOM_FUNCTION
from ..._tensor import Tensor
from ...autograd import grad_mode
from ...autograd.function import Function


class BackwardHookFunction(Function):
    """Identity on its tensor arguments (each output a view of its input)."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return tuple(a.view_as(a) for a in args)

    @staticmethod
    def backward(ctx, *args):
        return args


class BackwardHook:
    """Wires one forward call of ``module`` to its full backward (pre) hooks."""

    def __init__(self, module, user_hooks, user_pre_hooks) -> None:
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size):
        res = [None] * size
        for idx, val in zip(indices, values, strict=True):
            res[idx] = val
        return tuple(res)

    @staticmethod
    def _unpack_none(indices, values):
        return tuple(values[idx] for idx in indices)

    def _set_user_hook(self, grad_fn) -> None:
        def hook(grad_input, _):
            if self.grad_outputs is None:
                return None
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(out)}, but expected {len(res)}")
                res = out
            self.grad_outputs = None
            return self._unpack_none(self.input_tensors_index, res)
        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn, args):
        tensors_idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in tensors_idx]
        if not (any(t.requires_grad for t in tensors) and grad_mode._state.enabled):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        if len(new_tensors) == 0:
            raise RuntimeError("Cannot set Module backward hook for a Module with no input "
                               "Tensors.")
        for t in new_tensors:
            t.__dict__["_cm"] = _IN_CUSTOM_FUNCTION
        grad_fns = [t.grad_fn for t in new_tensors if t.grad_fn is not None
                    and t.grad_fn.name() == "BackwardHookFunctionBackward"]
        fn(grad_fns[0])
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors, strict=True):
            arg_list[idx] = val
        out = tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)
        return out, tensors_idx

    def setup_input_hook(self, args):
        res, input_idx = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        self.input_tensors_index = input_idx
        return res

    def setup_output_hook(self, args):
        def fn(grad_fn) -> None:
            def hook(_, grad_output):
                self.grad_outputs = self._pack_with_none(self.output_tensors_index,
                                                         grad_output, self.n_outputs)
                expected_len = len(self.grad_outputs)
                for user_pre_hook in self.user_pre_hooks:
                    hook_grad_outputs = user_pre_hook(self.module, self.grad_outputs)
                    if hook_grad_outputs is None:
                        continue
                    if len(hook_grad_outputs) != expected_len:
                        raise RuntimeError("Backward pre hook returned an invalid number of "
                                           f"grad_output, got {len(hook_grad_outputs)}, but "
                                           f"expected {expected_len}")
                    self.grad_outputs = hook_grad_outputs
                local_grad_outputs = self.grad_outputs
                if self.input_tensors_index is None:
                    warnings.warn(
                        "Full backward hook is firing when gradients are computed with respect "
                        "to module outputs since no inputs require gradients. See "
                        "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                        "#torch.nn.Module.register_full_backward_hook for more details.",
                        stacklevel=_errors.user_stacklevel())
                    grad_inputs = self._pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple)
                                                    and all(el is None for el in res)):
                            raise RuntimeError("Backward hook for Modules where no input "
                                               "requires gradient should always return None "
                                               "or None for all gradients.")
                    self.grad_outputs = None
                if local_grad_outputs is not None:
                    return tuple(local_grad_outputs[i] for i in self.output_tensors_index)
                return None
            grad_fn.register_hook(hook)

        is_tuple = isinstance(args, tuple)
        if not is_tuple:
            args = (args,)
        res, output_idx = self._apply_on_tensors(fn, args)
        self.n_outputs = len(args)
        self.output_tensors_index = output_idx
        return res if is_tuple else res[0]


def register_legacy_hooks(module, hooks, args, result) -> None:
    """Hang the non-full backward ``hooks`` on the output's ``grad_fn`` (torch's legacy
    ``register_backward_hook``) and give torch's warnings where its grad_input/grad_output
    will not be the module's."""
    var = result
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) \
            else var[0]
    grad_fn = var.grad_fn
    if grad_fn is None:
        return
    for hook in hooks:
        grad_fn.register_hook(lambda gi, go, hook=hook: hook(module, gi, go))
    _maybe_warn_non_full_backward_hook(args, result, grad_fn)


def _warn(msg: str) -> None:
    warnings.warn(msg, FutureWarning, stacklevel=4)


def _maybe_warn_non_full_backward_hook(inputs, result, grad_fn) -> None:
    if not isinstance(result, Tensor):
        if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
            _warn("Using non-full backward hooks on a Module that does not return a single "
                  "Tensor or a tuple of Tensors is deprecated and will be removed in future "
                  "versions. This hook will be missing some of the grad_output. Please use "
                  "register_full_backward_hook to get the documented behavior.")
            return
    else:
        result = (result,)
    if not isinstance(inputs, Tensor):
        if not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
            _warn("Using non-full backward hooks on a Module that does not take as input a "
                  "single Tensor or a tuple of Tensors is deprecated and will be removed in "
                  "future versions. This hook will be missing some of the grad_input. Please "
                  "use register_full_backward_hook to get the documented behavior.")
            return
    else:
        inputs = (inputs,)
    out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
    if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
        _warn("Using a non-full backward hook when outputs are nested in python data structure "
              "is deprecated and will be removed in future versions. This hook will be missing "
              "some grad_output.")
    elif len(out_grad_fn) > 1:
        _warn("Using a non-full backward hook when outputs are generated by different autograd "
              "Nodes is deprecated and will be removed in future versions. This hook will be "
              "missing some grad_output. Please use register_full_backward_hook to get the "
              "documented behavior.")
    else:
        inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
        next_functions = {n[0] for n in grad_fn.next_functions}
        if inputs_grad_fn != next_functions:
            _warn("Using a non-full backward hook when the forward contains multiple autograd "
                  "Nodes is deprecated and will be removed in future versions. This hook will be "
                  "missing some grad_input. Please use register_full_backward_hook to get the "
                  "documented behavior.")
