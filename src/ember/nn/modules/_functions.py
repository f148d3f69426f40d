"""Custom autograd functions behind some layers, as torch's ``nn.modules._functions``."""

from __future__ import annotations

import numpy as np

from ..._tensor import Tensor
from ...autograd.function import Function


class CrossMapLRN2d(Function):
    """Lua Torch's cross-map local response normalisation, torch's running-sum algorithm:
    ``scale = k + alpha / size * sum of squares over the channel window``,
    ``output = input * scale^-beta``; backward as torch's."""

    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D "
                             "instead.")
        x = input.detach()._data
        dt = x.dtype
        channels = x.shape[1]
        sq = x * x
        pre_pad = int((size - 1) / 2 + 1)
        scale = np.empty_like(x)
        scale[:, 0] = 0
        for c in range(min(pre_pad, channels)):
            scale[:, 0] += sq[:, c]
        for c in range(1, channels):
            scale[:, c] = scale[:, c - 1]
            if c < channels - pre_pad + 1:
                scale[:, c] += sq[:, c + pre_pad - 1]
            if c > pre_pad:
                scale[:, c] -= sq[:, c - pre_pad]
        scale = (scale * dt.type(alpha / size) + dt.type(k)).astype(dt)
        output = (np.power(scale, dt.type(-beta)) * x).astype(dt)
        ctx.scale = scale
        out = Tensor._wrap(output)
        ctx.save_for_backward(input, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        input, output = ctx.saved_tensors
        x, out, go = input.detach()._data, output.detach()._data, grad_output.detach()._data
        dt = x.dtype
        size, scale = ctx.size, ctx.scale
        n_batch, channels = x.shape[:2]
        padded = np.zeros((channels + size - 1,) + x.shape[2:], dt)
        cache = dt.type(2 * ctx.alpha * ctx.beta / size)
        inverse_pre_pad = int(size - (size - 1) / 2)
        grad = (np.power(scale, dt.type(-ctx.beta)) * go).astype(dt)
        for n in range(n_batch):
            padded[inverse_pre_pad:inverse_pre_pad + channels] = go[n] * out[n] / scale[n]
            accum = padded[:size - 1].sum(0)
            for c in range(channels):
                accum += padded[c + size - 1]
                grad[n, c] += -cache * x[n, c] * accum
                accum -= padded[c]
        return Tensor._wrap(grad), None, None, None, None
