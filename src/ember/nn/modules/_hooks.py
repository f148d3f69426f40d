"""Full backward hooks: identity autograd Functions around a module's inputs and outputs.

The output identity records the gradients w.r.t. the outputs (and runs the backward pre
hooks); the input identity then receives the gradients w.r.t. the inputs and calls
``hook(module, grad_input, grad_output)``, as torch's ``BackwardHook`` does.
"""

from __future__ import annotations

from ..._tensor import Tensor
from ...autograd.function import Function


class BackwardHookFunction(Function):
    """Identity on its tensor arguments; its backward calls ``ctx.hook_fn(grads)``."""

    @staticmethod
    def forward(ctx, hook_fn, *args):
        ctx.hook_fn = hook_fn
        return tuple(a.view_as(a) for a in args) if len(args) > 1 else args[0].view_as(args[0])

    @staticmethod
    def backward(ctx, *grads):
        res = ctx.hook_fn(grads)
        return (None, *res)


class BackwardHook:
    """Wires one forward call of ``module`` to its full backward (pre) hooks."""

    def __init__(self, module, hooks, pre_hooks):
        self.module = module
        self.hooks = hooks
        self.pre_hooks = pre_hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_has_grad = False

    def _wrap(self, values, fn):
        values = values if isinstance(values, tuple) else (values,)
        idx = [i for i, v in enumerate(values) if isinstance(v, Tensor) and v.requires_grad]
        if not idx:
            return values, False
        out = BackwardHookFunction.apply(fn, *[values[i] for i in idx])
        out = out if isinstance(out, tuple) else (out,)
        new = list(values)
        for i, o in zip(idx, out):
            new[i] = o
        return tuple(new), True

    def setup_input_hook(self, args):
        def fn(grads):
            res = grads
            for hook in self.hooks:
                r = hook(self.module, res, self.grad_outputs)
                if r is not None:
                    res = tuple(r) if isinstance(r, (tuple, list)) else (r,)
            return res
        self.n_inputs = len(args)
        new, self.input_has_grad = self._wrap(tuple(args), fn)
        return new

    def setup_output_hook(self, result):
        def fn(grads):
            for hook in self.pre_hooks:
                r = hook(self.module, grads)
                if r is not None:
                    grads = tuple(r) if isinstance(r, (tuple, list)) else (r,)
            self.grad_outputs = grads
            if not self.input_has_grad:
                for hook in self.hooks:
                    hook(self.module, (None,) * max(1, self.n_inputs), grads)
            return grads
        single = not isinstance(result, tuple)
        new, _ = self._wrap(result, fn)
        return new[0] if single else new
