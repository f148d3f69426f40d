"""The deprecated torch.cuda.amp spellings: grad_scaler.GradScaler, custom_fwd/custom_bwd, and
their warnings on a machine without CUDA."""
import warnings

import torch
from torch.cuda.amp.grad_scaler import GradScaler, OptState

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    s = GradScaler()

    class F(torch.autograd.Function):
        @staticmethod
        @torch.cuda.amp.custom_fwd
        def forward(ctx, x):
            return x * 2

        @staticmethod
        @torch.cuda.amp.custom_bwd
        def backward(ctx, g):
            return g * 2
    x = torch.ones(2, requires_grad=True)
    F.apply(x).sum().backward()
print([(m.category.__name__, str(m.message)) for m in w])
print(s.is_enabled(), OptState.READY, x.grad, torch.cuda.amp.amp_definitely_not_available())
print(torch.cuda.amp.GradScaler is GradScaler, torch.cuda.amp.autocast_mode.autocast)
