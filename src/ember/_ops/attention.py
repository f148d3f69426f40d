"""Scaled dot-product attention as torch's CPU flash kernel: one op, its own backward.

torch 2.13 runs ``F.scaled_dot_product_attention`` on the CPU through
``_scaled_dot_product_flash_attention_for_cpu`` whenever its conditions hold (4-d inputs of
one floating dtype with one head size, unit last strides, no dropout, a 2-d or 4-d mask that
needs no grad, the flash backend enabled); otherwise through the math composition
(``functional.py``). The flash op records one node, ``ScaledDotProductFlashAttentionForCpu
Backward0``, whose formulas recompute the attention probabilities from the saved inputs, as
the flash backward does, instead of keeping them.

Which backends may run is ``backends.cuda``'s flags (``enable_flash_sdp`` …), which
``nn.attention.sdpa_kernel`` sets, as in torch, where they steer the CPU kernels too.
"""

from __future__ import annotations

import contextlib
import math

import numpy as np

from .. import _cpu
from .._device import xp
from .._tensor import Tensor
from ..autograd import grad_mode as _grad_mode
from ..backends import cuda as _flags
from . import _exact, _gemm, _libm, _norms, _sleef, _sleef_d
from ._softmax import _tree_of_chunks
from .nn import _safe_softmax, _softmax_np
from .registry import NONE, op


def flash_applies(query, key, value, attn_mask, dropout_p, enable_gqa) -> bool:
    """torch's ``use_flash_attention_cpp``: whether the CPU flash kernel takes these inputs."""
    if not _flags._sdp["flash"] or dropout_p > 0.0:
        return False
    if not (query.ndim == key.ndim == value.ndim == 4):
        return False
    (b, h, lq, e), (bk, hk, s, ek), (bv, hv, sv, ev) = query.shape, key.shape, value.shape
    if not (e == ek == ev and b == bk == bv and s == sv and lq and s and e):
        return False
    if hk != hv or (h != hk and not (enable_gqa and hk and h % hk == 0)):
        return False
    if any(t.stride(-1) != 1 for t in (query, key, value)):
        return False
    if attn_mask is not None:
        m = attn_mask
        if m.requires_grad or m.ndim not in (2, 4) or m.shape[-2] not in (lq, 1) \
                or m.shape[-1] not in (s, 1):
            return False
        if m.ndim == 4 and (m.shape[0] not in (1, b) or m.shape[1] not in (1, h)):
            return False
    return True


def _repeat_np(a, rep):
    return a if rep == 1 else xp.repeat(a, rep, axis=1)


def _grouped(g, rep):
    """A gradient for the repeated key/value heads summed back onto each shared head."""
    if rep == 1:
        return g
    b, h, s, e = g.shape
    return g.reshape(b, h // rep, rep, s, e).sum(2)


def _probs(query, key, attn_mask, scale, rep):
    k = key if rep == 1 else key.repeat_interleave(rep, 1)
    scores = query.matmul(k.transpose(-2, -1)) * scale
    if attn_mask is not None:
        scores = scores + attn_mask
    return _safe_softmax(scores, scores.ndim - 1)


def _dscores(grad, query, key, value, attn_mask, scale, rep):
    p = _probs(query, key, attn_mask, scale, rep)
    v = value if rep == 1 else value.repeat_interleave(rep, 1)
    dp = grad.matmul(v.transpose(-2, -1))
    return p * (dp - (dp * p).sum(-1, keepdim=True))


def _grad_query(grad, query, key, value, attn_mask, scale, rep, causal):
    k = key if rep == 1 else key.repeat_interleave(rep, 1)
    return _dscores(grad, query, key, value, attn_mask, scale, rep).matmul(k) * scale


def _grad_key(grad, query, key, value, attn_mask, scale, rep, causal):
    ds = _dscores(grad, query, key, value, attn_mask, scale, rep)
    return _grouped(ds.transpose(-2, -1).matmul(query) * scale, rep)


def _grad_value(grad, query, key, value, attn_mask, scale, rep, causal):
    p = _probs(query, key, attn_mask, scale, rep)
    return _grouped(p.transpose(-2, -1).matmul(grad), rep)


def _raw_grads(which):
    """A raw formula: torch's flash backward kernel (all three gradients at once, kept for
    the other two formulas of the same backward call), or None where it does not apply."""
    def formula(grad, query, key, value, attn_mask, scale, rep, causal):
        if rep != 1:
            return None
        args = (grad, query, key, value, attn_mask)
        hit = _LAST_GRADS[0]
        if hit is None or len(hit[0]) != 5 or any(a is not b for a, b in zip(hit[0], args)) \
                or hit[1] != (scale, causal):
            grads = _flash_backward(grad, query, key, value, None if causal else attn_mask,
                                    scale, causal)
            if grads is None:
                return None
            _LAST_GRADS[0] = hit = (args, (scale, causal), grads)
        return hit[2][which]
    return formula


_LAST_GRADS: list = [None]


def _kernel_first(which, composite):
    """The formula of one input: torch's flash backward kernel, as the raw formula computes
    it (the general path gives its bits); with a graph being built, its result behind a node
    that raises torch's error on a further derivative (torch defines none). The composite
    where the kernel does not apply (grouped heads)."""
    raw = _raw_grads(which)

    def formula(grad, query, key, value, attn_mask, scale, rep, causal):
        ts = (grad, query, key, value, attn_mask)
        arrays = [None if t is None else t._data for t in ts]
        r = None
        if all(a is None or a.dtype == arrays[1].dtype for a in arrays):
            r = raw(*arrays, scale, rep, causal)
        if r is None:
            return composite(grad, query, key, value, attn_mask, scale, rep, causal)
        out = Tensor._wrap(r)
        if _grad_mode._state.enabled:
            from .nn_extra import no_double_backward
            out = no_double_backward(out, ts[which + 1],
                                     "_scaled_dot_product_flash_attention_for_cpu_backward")
        return out
    return formula


@op("ScaledDotProductFlashAttentionForCpuBackward0",
    name="_scaled_dot_product_flash_attention_for_cpu", method=False, function=False,
    promote=NONE, tensors=("query", "key", "value", "attn_mask"),
    query=_kernel_first(0, _grad_query), key=_kernel_first(1, _grad_key),
    value=_kernel_first(2, _grad_value),
    raw={"query": _raw_grads(0), "key": _raw_grads(1), "value": _raw_grads(2)})
def _flash(query, key, value, attn_mask, scale, rep, causal=False):
    """``softmax(q @ kᵀ · scale + mask) @ v`` over 4-d (batch, heads, length, size) arrays;
    ``mask`` is additive (``-inf`` where masked) or None; rows masked everywhere give zeros."""
    k, v = _repeat_np(key, rep), _repeat_np(value, rep)
    out = _flash_forward(query, k, v, None if causal else attn_mask, scale, causal)
    if out is not None:
        return out
    scores = xp.matmul(query, k.swapaxes(-2, -1)) * query.dtype.type(scale)
    if attn_mask is not None:
        scores = scores + attn_mask
    p = _softmax_np(scores, -1)
    dead = xp.isneginf(scores).all(-1, keepdims=True)
    if dead.any():
        p = xp.where(dead, xp.zeros((), p.dtype), p)
    return xp.matmul(p.astype(query.dtype, copy=False), v)


def flash(query, key, value, attn_mask, scale, enable_gqa, causal=False):
    """Run the flash op (``flash_applies`` said yes); ``attn_mask`` additive or None (with
    ``causal``, the causal mask, which the backward formulas read; the kernel applies it as
    torch's does, by position)."""
    rep = query.shape[1] // key.shape[1] if enable_gqa else 1
    sc = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    return _flash(query, key, value, attn_mask, sc, rep, causal)


# ----------------------------------------------------------------------------- the kernel

def _exp_via_double(x):
    """The C library's ``exp(double)`` of float32 values, rounded back to float32 (what an
    unqualified ``exp`` of a float calls in the kernel's scalar tail)."""
    return _sleef_d.exp_scalar(x.astype(np.float64)).astype(np.float32)


_LOG = {np.dtype(np.float32): lambda x: _libm.float_fn("log")(x),
        np.dtype(np.float64): lambda x: _libm.double_fn("log")(x)}

# per dtype: Vectorized::exp_u20 (Sleef's exp for doubles), the tail's exp, std::exp
_FLASH_MATH = {
    np.dtype(np.float32): (_sleef.exp_u20, _exp_via_double, _sleef.expf_scalar),
    np.dtype(np.float64): (_sleef_d.expd, _sleef_d.exp_scalar, _sleef_d.exp_scalar)}


def _flash_geometry(q, k, tasks_per_head):
    """The kernels' shared set-up: query and key block sizes (ATen's 32/64/256 by query
    length, 512 keys), the threads ``parallel_for`` runs ``tasks`` on and its chunk size."""
    b_, h_, lq, _ = q.shape
    qsplit = min(256 if lq >= 768 else 64 if lq >= 192 else 32, lq)
    ksplit = min(512, k.shape[2])
    tasks = b_ * h_ * (-(-lq // qsplit) if tasks_per_head else 1)
    threads = min(_exact.get_num_threads(), tasks)
    return qsplit, ksplit, tasks, threads, -(-tasks // threads)


def _causal_fill(block, m, n, value):
    """ATen's causal fill: in a block of queries from ``m`` by keys from ``n``, the keys
    after each query's own position take ``value``."""
    qb, kb = block.shape[-2:]
    block[..., np.arange(kb) > (m - n + np.arange(qb))[:, None]] = value


def _lead(a):
    """The leading dimension (rows' stride in elements) of a (…, length, size) array."""
    return a.strides[-2] // a.itemsize


def _flash_forward(q, k, v, mask, scale, causal, lse=False):
    """ATen's ``cpu_flash_attention`` on float32/float64 arrays, bit for bit where MKL's BLAS
    is installed (None elsewhere): blocks of 32/64/256 queries by 512 keys; per block,
    ``q @ kᵀ`` by one gemm per head, scaled (and masked), the running maximum, ``exp_u20``
    of the differences on full vectors (the C library's double ``exp`` on the rest) with
    their vector-folded sum, the running sum rescaled by ``exp(old max - new max)`` (one
    fused multiply-add), the output accumulated by a second gemm, and at the end multiplied
    by ``1 / sum``. The gemms write into torch's per-thread scratch layout, at its
    alignment: MKL rounds a small product by its output's address. With ``lse``, also the
    rows' ``max + log(sum)``, which the backward kernel reads."""
    dt = q.dtype
    if dt not in _FLASH_MATH or not _gemm.available(dt):
        return None
    vexp, texp, sexp = _FLASH_MATH[dt]
    t = dt.type
    b_, h_, lq, e_ = q.shape
    s_ = k.shape[2]
    qsplit, ksplit, tasks, threads, chunk = _flash_geometry(q, k, True)
    slices = -(-lq // qsplit)
    lanes = _cpu.avx512_lanes(dt)
    out = np.empty(q.shape, dt)
    logsum = np.empty(q.shape[:3], dt)
    q_ld, k_ld, v_ld = _lead(q), _lead(k), _lead(v)
    if mask is not None:
        mask = np.broadcast_to(mask, (b_, h_, lq, s_))
    heads = [(i, j) for i in range(b_) for j in range(h_)]
    buf = _gemm.aligned_empty((threads, qsplit * ksplit + 2 * qsplit + qsplit * e_), dt)
    at_dst = qsplit * ksplit + 2 * qsplit
    inf = t(np.inf)
    with np.errstate(all="ignore"), \
            (_gemm.one_thread() if tasks > 1 else contextlib.nullcontext()):
        for m in range(0, lq, qsplit):
            qb = min(qsplit, lq - m)
            # the thread running each head's task (parallel_for's even chunks, in order)
            scratch = [buf[((i * h_ + j) * slices + m // qsplit) // chunk] for i, j in heads]
            top = np.full((b_, h_, qb), -inf, dt)
            total = np.zeros((b_, h_, qb), dt)
            dst = np.empty((b_, h_, qb, e_), dt)
            keys = min(m + qb, s_) if causal else s_
            for n in range(0, keys, ksplit):
                kb = min(ksplit, s_ - n)
                qk = np.empty((b_, h_, qb, kb), dt)
                for (i, j), sc in zip(heads, scratch):
                    part = sc[:qb * kb].reshape(qb, kb)
                    _gemm.gemm(True, False, kb, qb, e_, 1.0, k[i, j, n:], k_ld, q[i, j, m:],
                               q_ld, 0.0, part, kb)
                    qk[i, j] = part
                if causal and keys - n <= ksplit:
                    _causal_fill(qk, m, n, -inf)
                if mask is not None:
                    qk = _exact.fma(qk, t(scale), mask[:, :, m:m + qb, n:n + kb])
                else:
                    qk *= t(scale)
                new = np.maximum(top, qk.max(-1))
                live = new != -inf
                full = kb - kb % lanes
                d = qk - new[..., None]
                ex = np.empty_like(d)
                ex[..., :full] = vexp(d[..., :full])
                ex[..., full:] = texp(d[..., full:])
                ex[~live] = 0
                part = _tree_of_chunks(np.moveaxis(ex, -1, 0), lanes)
                for c in range(full, kb):
                    part = part + ex[..., c]
                shrink = sexp(top - new)
                total = np.where(live, _exact.fma(shrink, total, part), total)
                top = np.where(live, new, top)
                if n:
                    dst = np.where(live[..., None], dst * shrink[..., None], dst)
                for (i, j), sc in zip(heads, scratch):
                    weights = sc[:qb * kb].reshape(qb, kb)
                    weights[...] = ex[i, j]
                    acc = sc[at_dst:at_dst + qb * e_].reshape(qb, e_)
                    if n:
                        acc[...] = dst[i, j]
                    _gemm.gemm(False, False, e_, qb, kb, 1.0, v[i, j, n:], v_ld, weights, kb,
                               0.0 if n == 0 else 1.0, acc, e_)
                    dst[i, j] = acc
            total[total == 0] = 1
            out[:, :, m:m + qb] = dst * (t(1) / total)[..., None]
            if lse:
                top[top == -inf] = 0
                logsum[:, :, m:m + qb] = top + _LOG[dt](total)
    return (out, logsum) if lse else out


def _flash_backward(grad, q, k, v, mask, scale, causal):
    """ATen's ``cpu_flash_attention_backward``: (grad_query, grad_key, grad_value), or None
    without MKL. Per (batch, head) and block: ``scale * q @ kᵀ`` (+ mask) by gemm, the
    probabilities ``exp(· - lse)`` (Sleef's vector exp on every element), ``grad_v +=
    pᵀ @ grad_out``, ``grad_p = grad_out @ vᵀ``, ``ds = p * (grad_p - rowsum(grad_out *
    out))``, ``grad_q += scale * ds @ k``, ``grad_k += scale * dsᵀ @ q``; the gradients are
    laid out (batch, length, heads, size), as torch allocates them."""
    dt = q.dtype
    if dt not in _FLASH_MATH or not _gemm.available(dt) or grad.dtype != dt:
        return None
    fwd = _flash_forward(q, k, v, mask, scale, causal, lse=True)
    out, logsum = fwd
    t = dt.type
    b_, h_, lq, e_ = q.shape
    s_ = k.shape[2]
    qsplit, ksplit, tasks, threads, chunk = _flash_geometry(q, k, False)
    vexp = _sleef.expf if dt == np.float32 else _sleef_d.expd
    lanes = _cpu.avx512_lanes(dt)
    if mask is not None:
        mask = np.broadcast_to(mask, (b_, h_, lq, s_))
    # torch's layouts: grad_out made contiguous as (B, L, H, E), gradients zeros of that shape
    go = _gemm.aligned_empty((b_, lq, h_, e_), dt)
    go[...] = grad.transpose(0, 2, 1, 3)
    gq, gk, gv = (_gemm.aligned_empty((b_, n, h_, e_), dt, zero=True) for n in (lq, s_, s_))
    go_ld, g_ld_q, g_ld_kv = h_ * e_, h_ * e_, h_ * e_
    q_ld, k_ld, v_ld = _lead(q), _lead(k), _lead(v)
    buf = _gemm.aligned_empty((threads, 2 * qsplit * ksplit), dt)
    sc = t(scale)
    with np.errstate(all="ignore"), \
            (_gemm.one_thread() if tasks > 1 else contextlib.nullcontext()):
        for z in range(tasks):
            i, j = divmod(z, h_)
            scratch = buf[z // chunk]
            for m in range(0, lq, qsplit):
                qb = min(qsplit, lq - m)
                dsum = _norms.vec_sum_rows(None, fused=(go[i, m:m + qb, j], out[i, j, m:m + qb]),
                                           lanes=lanes)
                keys = min(m + qb, s_) if causal else s_
                for n in range(0, keys, ksplit):
                    kb = min(ksplit, s_ - n)
                    attn = scratch[:qb * kb].reshape(qb, kb)
                    gattn = scratch[qsplit * ksplit:qsplit * ksplit + qb * kb].reshape(qb, kb)
                    _gemm.gemm(True, False, kb, qb, e_, sc, k[i, j, n:], k_ld, q[i, j, m:],
                               q_ld, 0.0, attn, kb)
                    if mask is not None:
                        attn += mask[i, j, m:m + qb, n:n + kb]
                    attn[...] = vexp(attn - logsum[i, j, m:m + qb, None])
                    if causal and keys - n <= ksplit:
                        _causal_fill(attn, m, n, 0)
                    _gemm.gemm(False, True, e_, kb, qb, 1.0, go[i, m:, j], go_ld, attn, kb,
                               1.0, gv[i, n:, j], g_ld_kv)
                    _gemm.gemm(True, False, kb, qb, e_, 1.0, v[i, j, n:], v_ld, go[i, m:, j],
                               go_ld, 0.0, gattn, kb)
                    gattn[...] = attn * (gattn - dsum[:, None])
                    _gemm.gemm(False, False, e_, qb, kb, sc, k[i, j, n:], k_ld, gattn, kb,
                               1.0, gq[i, m:, j], g_ld_q)
                    _gemm.gemm(False, True, e_, kb, qb, sc, q[i, j, m:], q_ld, gattn, kb,
                               1.0, gk[i, n:, j], g_ld_kv)
    return tuple(g.transpose(0, 2, 1, 3) for g in (gq, gk, gv))


def check_inputs(query, key, value, attn_mask) -> None:
    """torch's ``validate_sdpa_input`` errors on dtypes."""
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {query.dtype.cpp_name} key.dtype: "
                           f"{key.dtype.cpp_name} and value.dtype: {value.dtype.cpp_name} "
                           "instead.")
    if attn_mask is not None and attn_mask.dtype.name not in ("bool", "float32") \
            and attn_mask.dtype != query.dtype:
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {attn_mask.dtype.cpp_name} and  "
                           f"query.dtype: {query.dtype.cpp_name} instead.")


def check_math_enabled() -> None:
    """torch's errors when the math backend is off and the flash kernel does not apply."""
    if not _flags._sdp["math"]:
        if _flags._sdp["flash"]:
            raise RuntimeError("No available kernel.  Aborting execution.")
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. This "
                           "is likely due to turning off both the math kernel and the fused "
                           "kernels.")
