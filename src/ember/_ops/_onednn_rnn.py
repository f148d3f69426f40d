"""oneDNN's float32 LSTM as torch runs it on CPU (``mkldnn_rnn_layer``): the forward of
oneDNN's ``ref`` RNN (grad enabled) and ``brgemm`` RNN (``no_grad``) with their AVX512 JIT
post-gemm, whose ``logistic`` and ``tanh`` come from the eltwise injector, and the ``ref``
RNN's backward.

logistic: ``e = exp(-|x|)`` by the injector's exp (``2^(n-1) * p(r) * 2`` with a degree-5
polynomial), ``y = e / (e + 1)``, ``1 - y`` for a non-negative ``x``. tanh: a degree-6
polynomial in ``|x| - (|x| & 0xffc00000)`` picked among 32 by the exponent and top mantissa
bit of ``|x|``; ``x`` itself below 0x39ddb3d7, 1 from 0x41102cb3 on, the sign put back.
"""

from __future__ import annotations

import numpy as np

from . import _onednn_conv
from ._exact import fma

_f32 = np.float32


def _bits(*hexes):
    return np.array([int(h, 16) for h in hexes], np.uint32).view(_f32)


_ONE = _f32(1)
_HALF = _f32(0.5)
_TWO = _f32(2)
_LN2, _LOG2E, _LN_MAX, _LN_MIN = _bits("3f317218", "3fb8aa3b", "42b17218", "c2aeac50")
# degree 1 to 5 of exp(r) (degree 0 is 1)
_EXP_POL = _bits("3f7ffffb", "3efffee3", "3e2aad40", "3d2b9d0d", "3c07cfce")

_TANH_IDX_BIAS = np.int64(0x39800000)
_TANH_MASK = np.uint32(0xffc00000)
_TANH_LINEAR, _TANH_SATURATION = _bits("39ddb3d7", "41102cb3")
# degree 0 to 6 (rows) of the 32 polynomials (columns)
_TANH_POL = np.array([[int(h, 16) for h in row.split()] for row in (
    "00000000 39bfffff 39ffffff 3a3ffffe 3a7ffffb 3abffff7 3affffeb 3b3fffdc "
    "3b7fffab 3bbfff70 3bfffeab 3c3ffdc0 3c7ffaab 3cbff701 3cffeaad 3d3fdc08 "
    "3d7faacd 3dbf7081 3dfeacc9 3e3dc7fd 3e7acbf5 3eb77a9f 3eec9a9f 3f22991f "
    "3f42f7d6 3f67b7cc 3f76ca83 3f7ebbe9 3f7fd40c 3f7fff32 3f7ffffc 3f800000",
    "3f800000 3f800018 3f7fffe8 3f7fffda 3f7fffdc 3f7fffdc 3f7fffac 3f7fff70 "
    "3f7ffeec 3f7ffdc0 3f7ffbed 3f7ff704 3f7feff5 3f7fdbca 3f7fbfff 3f7f7041 "
    "3f7f009b 3f7dc36c 3f7c0aa8 3f7734b8 3f70a4de 3f5f1fd8 3f495493 3f18b9ec "
    "3ed706cb 3e390b06 3d90b11f 3c21a053 3aaf7fdb 37ccc1a3 355c6733 00000000",
    "00000000 be4e0ff1 3d25b1b1 3d6b6dab 3c9fb1d5 babff06f 3c07b3f6 bb3fc1bc "
    "3a9f5921 bbbf06f2 bbb0f402 bc47db9e bc73d5e7 bca25bda bcfca780 bd40e07c "
    "bd7dab03 bdbe4a0f bdfb14a5 be36cc8d be6bd102 be9fe7c5 beba0f10 bec206a8 "
    "bea3c388 be277d62 bd8b7960 bc209f49 baad44ca b7c6eeac b663aa41 00000000",
    "00000000 45b3ae96 c414eb20 c450e02e c3152b4e bead2f56 c2162e02 beb4bd5a "
    "c11a59a4 bed2f507 c020d32c 3dd0f506 bf2a75e2 bff950e3 bed47334 be809b8c "
    "beb64532 be961a5b be9b63ac bea0d4b2 be828a77 be378612 bdc20908 3d2d3957 "
    "3dd46e89 3db3f629 3d2c5e7b 3bd20403 3a59dfae 3770af45 372cc014 00000000",
    "00000000 cc981a1b 4a7edd3d 4ab1007c 48fedd9c 41a557b5 477ee32a 422557f5 "
    "45ff3ce4 42a55641 446e0867 c33dc19a 42915214 43af4fad 4110fe88 c1099b75 "
    "3fc8a8dc bfbeaef5 be365aad 3f4d9652 3ddfa08f 3e34e9b8 3e2d07a6 3dc63567 "
    "3cdaeb78 bcd17537 bc92829c bb43ab99 b9b471dd b6baad5a b78bafc7 00000000",
    "00000000 52f688d5 d0505c72 d08f98e3 ce505cc9 c7162b8a cc5061d6 c7162bdf "
    "ca50b37f c7162a3a c8422086 471a714e c5ece1f1 c70e3d90 c3eba94a 43e0c424 "
    "c21f4552 42217cc8 405e7dc4 c10dd401 3e96b602 bd1a6d2f bd393883 bd674682 "
    "bd310016 b961e269 3ba32495 3a7680d5 38b3173c 35a9deea 375c3f2a 00000000",
    "00000000 d8995ed1 558285ea 55b2cd69 53028625 4bc9991f 5082898a 4b4999b3 "
    "4e02c07c 4ac99764 4b72c822 ca40c0e1 489413e4 49b12224 46134c4e c60c2d57 "
    "43c83910 c3c872d1 c186bc9e 42325bc3 bf2ffa4a 3d9a203c bc545a43 bae08fee "
    "3c80225d 3b1fd1df ba36b9d1 b91de544 b71f100f b408e2ed b685fec8 00000000",
)], np.uint32).view(_f32)


def _exp(x):
    """The injector's ``exp`` of a float32 array."""
    low = x < _LN_MIN
    x = np.maximum(np.minimum(x, _LN_MAX), _LN_MIN)
    n = np.floor(x * _LOG2E + _HALF)
    r = fma(-n, _LN2, x)
    scale = ((n - _ONE).astype(np.int32) + 127) << 23
    scale = np.where(low, 0, scale).view(_f32)
    p = np.broadcast_to(_EXP_POL[4], r.shape)
    for c in (_EXP_POL[3], _EXP_POL[2], _EXP_POL[1], _EXP_POL[0], _ONE):
        p = fma(p, r, c)
    return (p * scale) * _TWO


def logistic(x):
    """oneDNN's AVX512 ``eltwise_logistic`` of a float32 array."""
    with np.errstate(all="ignore"):
        e = _exp(-np.abs(x))
        y = e / (e + _ONE)
        return np.where(np.signbit(x), y, _ONE - y)


def tanh(x):
    """oneDNN's AVX512 ``eltwise_tanh`` of a float32 array."""
    xa = np.abs(x)
    bits = xa.view(np.uint32)
    idx = (((bits.astype(np.int64) - _TANH_IDX_BIAS) >> 22) & 31).astype(np.intp)
    r = xa - (bits & _TANH_MASK).view(_f32)
    with np.errstate(all="ignore"):
        p = _TANH_POL[6][idx]
        for deg in range(5, -1, -1):
            p = fma(p, r, _TANH_POL[deg][idx])
    y = np.where(_TANH_SATURATION > xa, p, _ONE)
    y = np.where(_TANH_LINEAR > xa, xa, y)
    return np.where(np.signbit(x), -y, y)


def _k_blocks(k: int) -> list:
    """The slices of the sum oneDNN's sgemm driver (the ``ref`` RNN's) computes apart:
    blocks of 384 while more than 768 remain, the rest in two halves (the first one the
    longer), one block up to 384."""
    bounds, lo = [0], 0
    while k - lo > 768:
        lo += 384
        bounds.append(lo)
    if k - lo > 384:
        bounds.append(lo + (k - lo + 1) // 2)
    bounds.append(k)
    return [slice(a, b) for a, b in zip(bounds, bounds[1:])]


def _fma_sum(x, w_t, acc=None):
    """``acc + x @ w_t`` as one fused multiply-add per term, in order (``acc`` zero when
    None): how oneDNN's kernels sum each element of a product."""
    if acc is None:
        if x.shape[1]:
            fast = _onednn_conv.chain_product(x, w_t)
            if fast is not None:
                return fast
        acc = np.zeros((x.shape[0], w_t.shape[1]), np.float32)
    for j in range(x.shape[1]):
        acc = fma(x[:, j:j + 1], w_t[j], acc)
    return acc


def _gemm(x, w_t, c=None, blocks: bool = True):
    """``x @ w_t`` (``x`` (n, k), ``w_t`` (k, m), float32), plus ``c`` when given, as oneDNN
    sums it: each block of :func:`_k_blocks` (one block unless ``blocks``) summed from zero
    and added to what came before. A product with one row or one column is a matrix-vector
    product, which oneDNN's driver hands to its gemv kernel: one pass over ``k``."""
    if w_t.shape[1] == 1 or x.shape[0] == 1:
        blocks = False
    for part in (_k_blocks(x.shape[1]) if blocks else [slice(None)]):
        s = _fma_sum(x[:, part], w_t[part])
        c = s if c is None else s + c
    return c


def lstm_layer(x, h, c, w_ih, w_hh, bias, reverse: bool, inference: bool):
    """One direction of one layer as oneDNN's forward computes it: the input gemm over the
    whole sequence, then per step the hidden gemm, the bias added, the gates' activations,
    ``c' = fma(i, g, f * c)`` and ``h' = o * tanh(c')``. ``x`` (T, N, I), ``h``/``c``
    (N, H), ``bias`` (4H,) the sum ``b_ih + b_hh``; returns the outputs (T, N, H) and the
    last ``(h, c)``.

    In training the sgemm driver sums long products in blocks (:func:`_k_blocks`), each
    added to the result so far. The hidden gemm's sum is added to the input's after it
    (``beta = 1`` on the kernel's result), except where it goes on from it: in training
    (the ``ref`` RNN) when N is 1 (oneDNN's gemv), in inference (``brgemm``, torch's
    choice under ``no_grad``) when I is H and N is not 1 (one batch-reduce kernel over
    both products)."""
    steps, n, size = x.shape
    hidden = h.shape[1]
    carry = n == 1 if not inference else size == hidden and n > 1
    xg = _gemm(x.reshape(steps * n, size), np.ascontiguousarray(w_ih.T),
               blocks=not inference).reshape(steps, n, -1)
    w_hh_t = np.ascontiguousarray(w_hh.T)
    y = np.empty((steps, n, hidden), np.float32)
    with np.errstate(all="ignore"):
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            if carry:
                g = _fma_sum(h, w_hh_t, xg[t].copy())
            else:
                g = _gemm(h, w_hh_t, xg[t], blocks=not inference)
            g += bias
            # (the activations are elementwise: one call over all four gates costs less
            # than one per gate, and the unused lanes change nothing)
            sig, th = logistic(g), tanh(g)
            i, f, o = sig[:, :hidden], sig[:, hidden:2 * hidden], sig[:, 3 * hidden:]
            c = fma(i, th[:, 2 * hidden:3 * hidden], c * f)
            h = o * tanh(c)
            y[t] = h
    return y, h, c


def _layer_states(x, h, c, w_ih, w_hh, bias, reverse):
    """The training forward of :func:`lstm_layer` keeping what its backward reads: the
    gates (i, f, g, o) and the states before each step, in step order."""
    steps, n, size = x.shape
    hidden = h.shape[1]
    xg = _gemm(x.reshape(steps * n, size), np.ascontiguousarray(w_ih.T)).reshape(steps, n, -1)
    w_hh_t = np.ascontiguousarray(w_hh.T)
    gates = np.empty((steps, n, 4 * hidden), np.float32)
    hs = np.empty((steps + 1, n, hidden), np.float32)
    cs = np.empty((steps + 1, n, hidden), np.float32)
    hs[0], cs[0] = h, c
    with np.errstate(all="ignore"):
        for k, t in enumerate(range(steps - 1, -1, -1) if reverse else range(steps)):
            g = _fma_sum(h, w_hh_t, xg[t].copy()) if n == 1 else _gemm(h, w_hh_t, xg[t])
            g += bias
            sig, th = logistic(g), tanh(g)
            gates[k] = sig
            gates[k, :, 2 * hidden:3 * hidden] = th[:, 2 * hidden:3 * hidden]
            i, f, gg, o = np.split(gates[k], 4, axis=1)
            c = fma(i, gg, c * f)
            h = o * tanh(c)
            hs[k + 1], cs[k + 1] = h, c
    return gates, hs, cs


def lstm_layer_backward(x, h, c, w_ih, w_hh, bias, reverse, grad_y, grad_h, grad_c):
    """The gradients of :func:`lstm_layer` (training) as oneDNN's ``ref`` RNN backward
    computes them: per step, last first, the JIT post-gemm's ``dG`` (``1 - t*t``, ``o - o*o``
    … as fused negated multiply-adds) and ``dh = dG @ W_hh``; then ``dx = dG @ W_ih``,
    ``dW_ih = dG^T x`` and ``dW_hh = dG^T h`` over the whole sequence in the order the
    steps ran (left to right, the first step's ``dW_hh`` term apart and added last), and the
    bias's gradient summed step by step (last processed first), row by row. Returns
    ``(dx, dW_ih, dW_hh, db, dh0, dc0)``."""
    steps, n, size = x.shape
    hidden = h.shape[1]
    gates, hs, cs = _layer_states(x, h, c, w_ih, w_hh, bias, reverse)
    order = list(range(steps - 1, -1, -1) if reverse else range(steps))
    one = _f32(1)
    dh, dc = grad_h.copy(), grad_c.copy()
    dgates = np.empty((steps, n, 4 * hidden), np.float32)     # by time index
    db = np.zeros(4 * hidden, np.float32)
    with np.errstate(all="ignore"):
        for k in range(steps - 1, -1, -1):
            t = order[k]
            i, f, gg, o = np.split(gates[k], 4, axis=1)
            tc = tanh(cs[k + 1])
            d_h = grad_y[t] + dh
            d_c = dc + (fma(-tc, tc, one) * d_h) * o
            dg = dgates[t]
            dg[:, 3 * hidden:] = (fma(-o, o, o) * d_h) * tc
            dg[:, :hidden] = (fma(-i, i, i) * d_c) * gg
            dg[:, hidden:2 * hidden] = (fma(-f, f, f) * d_c) * cs[k]
            dg[:, 2 * hidden:3 * hidden] = fma(-gg, gg, one) * (i * d_c)
            dc = d_c * f
            dh = _gemm(dg, w_hh)
            for row in dg:
                db += row
        dx = _gemm(dgates.reshape(steps * n, 4 * hidden), w_ih).reshape(steps, n, size)
        flat = np.ascontiguousarray(dgates[order].reshape(steps * n, 4 * hidden).T)
        dw_ih = _gemm(flat, x[order].reshape(steps * n, size))
        h_prev = hs[:-1].reshape(steps * n, hidden)
        if reverse:
            dw_hh = _gemm(flat, h_prev)
        else:       # the first step's product (with the initial state) apart, added last
            dw_hh = _gemm(flat[:, :n], h_prev[:n],
                          _gemm(flat[:, n:], h_prev[n:]) if steps > 1 else None)
    return dx, dw_ih, dw_hh, db, dh, dc
