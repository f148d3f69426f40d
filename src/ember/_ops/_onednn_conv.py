"""oneDNN's direct AVX512 convolution (``jit:avx512_core``), torch's float32 convolution
wherever ATen hands it to oneDNN (``ConvParams::use_mkldnn``) and oneDNN picks that kernel:
one group, a kernel larger than 1x1, NCHW data, AVX512.

``jit_avx512_common_conv_fwd_kernel`` keeps each output in a register lane and adds
``src * wei`` into it with FMAs. The input channels come in blocks of 16, each block one
kernel call (all channels in one block when there are fewer than 16: the "first
convolution", on the plain NCHW input); within a call the kernel rows, then the kernel
columns, then the block's channels, from zero (taps in the padding are skipped). The
block's sum is then added to the output so far: the bias for the first block, the earlier
blocks' sum after it. The reduction is never split between threads.

A chain of FMAs from zero in a fixed order is what MKL's sgemm computes for each element of
a product whose inner dimension fits one of its panels (192 on AVX512) and whose sizes take
its general kernel (16 or more rows and columns here), and ``beta = 1`` then adds the
result to ``C``: so each block is one gemm of its im2col (taps in oneDNN's order) into the
running sum. A longer block (a 5x5 kernel on 16 channels: 400 taps) is cut at the panel;
each later part re-enters the running sums as 16 leading terms of an identity matrix,
16 output channels a call. The panel is probed once against an emulated FMA chain, so
another MKL gives either the same bits or today's plain products.
"""

from __future__ import annotations

import ctypes
import functools
import math
import os
import weakref
from _thread import _local as _thread_local

import numpy as np

from .. import _lazy
from .. import _memory_format as _mf
from . import _exact, _gemm, _onednn, _vml

_backend = _lazy.defer(globals(), "_backend", "ember.backends.mkldnn")   # its flag, read each call
_F32 = np.dtype(np.float32)
_LANES = 16                 # AVX512 floats: oneDNN's channel block; MKL's safe least size
_PANEL: list = []           # [the longest FMA chain one MKL sgemm computes], once probed
_EYE = np.eye(_LANES, dtype=_F32)       # the identity terms that carry a running sum
_EYE.flags.writeable = False


def _div_up(a, b):
    return -(-a // b)


def enabled() -> bool:
    """Whether ``backends.mkldnn.enabled`` lets ATen choose oneDNN."""
    return bool(_backend.enabled)


def use_mkldnn(shape, wshape, stride, dilation, groups, threads: int) -> bool:
    """ATen's ``ConvParams::use_mkldnn`` for a float32 CPU input of ``shape`` (1-d viewed as
    2-d, as ``_convolution`` does first): oneDNN unless the convolution is small enough
    for ATen's own kernels, or ``backends.mkldnn.enabled`` is off."""
    return _backend.enabled and _use_mkldnn_sizes(tuple(shape), tuple(wshape), tuple(stride),
                                                  tuple(dilation), groups, threads)


@functools.lru_cache(maxsize=256)
def _use_mkldnn_sizes(shape, wshape, stride, dilation, groups, threads: int) -> bool:
    """:func:`use_mkldnn`'s test of the sizes (tuples; cached: a function of them alone)."""
    k = tuple(wshape[2:]) if len(wshape) > 3 else (1,) + tuple(wshape[2:])
    spatial = tuple(shape[2:]) if len(shape) > 3 else (1,) + tuple(shape[2:])
    if not (any(s != 1 for s in stride) or any(d != 1 for d in dilation) or shape[0] >= 16
            or k[-1] != 1 or k[-2] != 1 or threads > 1):
        return False
    return (groups > 1 or (k[-1] > 3 and k[-2] > 3) or shape[0] > 1
            or shape[0] * shape[1] * math.prod(spatial) > 20480)


def _probe() -> int:
    """The longest inner dimension (of 192, 128, 64) for which MKL's sgemm gives each
    element as one FMA chain from zero in ``k`` order, added to ``C`` (``beta = 1``)
    after; 0 where none does or MKL is absent."""
    if not _gemm.available(_F32):
        return 0
    for k in (192, 128, 64):
        if all(_chains(k, n) for n in (4, 8, 12, _LANES, 40)):
            return k
    return 0


def _chains(k, n) -> bool:
    """Whether MKL's sgemm of inner dimension ``k`` and ``n`` columns gives plain chains
    (for 16 columns also transposed, 16 rows: the weight gradient's calls)."""
    rng = np.random.default_rng(k + n)
    m = 48
    a = _gemm.aligned_empty((k, m), _F32)
    a[...] = rng.standard_normal((k, m))
    b = _gemm.aligned_empty((n, k), _F32)
    b[...] = rng.standard_normal((n, k))
    c = rng.standard_normal((n, m)).astype(_F32)
    out = _gemm.aligned_empty((n, m), _F32)
    out[...] = c
    _gemm.gemm(False, False, m, n, k, 1.0, a, m, b, k, 1.0, out, m)
    acc = np.zeros((n, m), _F32)
    for i in range(k):
        acc = _exact.fma(b[:, i:i + 1], a[i:i + 1], acc)
    if not np.array_equal(out, acc + c):
        return False
    if n != _LANES:
        return True
    out_t = _gemm.aligned_empty((m, n), _F32)
    a_t = _gemm.aligned_empty((m, k), _F32)
    a_t[...] = a.T
    _gemm.gemm(True, False, n, m, k, 1.0, b, k, a_t, k, 0.0, out_t, n)
    return np.array_equal(out_t.T, acc)


def _columns(o: int) -> int:
    """The output channels a product is given (zero weights past ``o``): MKL's general
    kernel, whose sums are plain chains, takes 4, 8 or 12 and more columns."""
    return o if o >= 12 or o in (4, 8) else 4 if o < 4 else 8 if o < 8 else 12


def _panel() -> int:
    if not _PANEL:
        with _gemm.one_thread():         # as the kernels below call MKL
            _PANEL.append(_probe())
    return _PANEL[0]


def _geometry(shape, wshape, stride, padding, dilation):
    """2-d (sizes, kernel, stride, padding, dilation) of a 1-d or 2-d convolution."""
    if len(shape) == 3:
        return ((1,) + tuple(shape[2:]), (1,) + tuple(wshape[2:]), (1,) + tuple(stride),
                (0,) + tuple(padding), (1,) + tuple(dilation))
    return tuple(shape[2:]), tuple(wshape[2:]), tuple(stride), tuple(padding), tuple(dilation)


def _group_block(cg, og):
    """The channel block of the direct kernel with groups (``simd_w``): 16 where both
    channel counts a group allow, else 8, else 4; 0 where none (oneDNN's gemm kernel)."""
    for simd in (_LANES, 8, 4):
        if cg % simd == 0 and og % simd == 0:
            return simd
    return 0


def _direct(shape, wshape, stride, padding, dilation, groups, threads,
            grouped=False, mkldnn=True) -> bool:
    """The sizes' part of :func:`direct_forward` (groups only where ``grouped``; ATen's
    choice of oneDNN for ``shape`` too where ``mkldnn``)."""
    return (_direct_sizes(tuple(shape), tuple(wshape), tuple(stride), tuple(padding),
                          tuple(dilation), groups, threads, grouped,
                          mkldnn and _backend.enabled, mkldnn)
            and _onednn.avx512() and _panel() > 0)


@functools.lru_cache(maxsize=256)
def _direct_sizes(shape, wshape, stride, padding, dilation, groups, threads, grouped,
                  enabled, mkldnn) -> bool:
    """:func:`_direct` but for the CPU and MKL (``enabled``: ``backends.mkldnn``'s flag,
    where ``mkldnn``), cached: a function of its arguments alone."""
    if len(shape) not in (3, 4) or 0 in shape or 0 in wshape:
        return False
    if groups != 1 and not (grouped and _group_block(shape[1] // groups,
                                                     wshape[0] // groups)):
        return False
    sizes, kernel, st, pad, dil = _geometry(shape, wshape, stride, padding, dilation)
    if kernel == (1, 1) and groups == 1 and _takes_1x1(sizes, st, pad):
        return False                     # oneDNN's jit_1x1 kernel
    if (dil[0] > 1 and st[0] > 1) or any(d > 1 and d * (k - 1) + 1 > s
                                          for s, k, d in zip(sizes, kernel, dil)):
        # a dilated row stride, or (not all such cases) a dilated kernel wider than the
        # input: oneDNN's gemm kernel
        return False
    for s, k, t, p, d in zip(sizes, kernel, st, pad, dil):
        ext = d * (k - 1) + 1
        out = (s + 2 * p - ext) // t + 1
        if out <= 0 or ext <= p or ext <= (out - 1) * t + ext - s - p:
            return False                 # a tap window wholly in the padding: gemm conv
    return not mkldnn or (enabled and _use_mkldnn_sizes(shape, wshape, stride, dilation,
                                                        groups, threads))


def _plain(*arrays) -> bool:
    """float32 arrays that torch would not lay out channels-last (oneDNN's brgemm
    convolution takes those)."""
    return all(a.dtype == _F32 and (a.flags.c_contiguous
                                    or _mf.suggest(a) is _mf.contiguous_format)
               for a in arrays)


def direct_forward(x: np.ndarray, w: np.ndarray, stride, padding, dilation, groups,
                   threads: int) -> bool:
    """Whether torch computes this float32 convolution (1-d or 2-d, not transposed) with
    oneDNN's ``jit:avx512_core`` forward, and MKL can reproduce it here."""
    return _plain(x, w) and _direct(x.shape, w.shape, stride, padding, dilation, groups,
                                    threads, grouped=True)


def direct_backward_data(grad: np.ndarray, input_shape, w: np.ndarray, stride, padding,
                         dilation, groups, threads: int) -> bool:
    """Whether torch computes the input gradient of this float32 convolution with oneDNN's
    ``jit:avx512_core`` backward-data kernel: where it took the direct forward, at stride 1
    (a stride takes oneDNN's ``brgconv_strided``). (torch picks the layout from the input
    and the weight; the input's is not known here, the weight's decides.)"""
    return (grad.dtype == _F32 and all(s == 1 for s in stride) and _plain(w)
            and _direct(input_shape, w.shape, stride, padding, dilation, groups, threads,
                        grouped=True))


def direct_transposed(x: np.ndarray, w: np.ndarray, out_shape, stride, padding, dilation,
                      output_padding, groups, threads: int) -> bool:
    """Whether torch computes this float32 transposed convolution with oneDNN's
    deconvolution, which runs the ``jit:avx512_core`` backward-data kernel of the
    convolution it transposes (``ref_deconvolution``; see :func:`backward_data`): ATen's
    ``use_mkldnn`` on the transposed convolution's own input, the kernel's sizes on the
    convolution's view (its input the output here), stride 1 and no output padding."""
    return (x.dtype == _F32 and all(s == 1 for s in stride) and not any(output_padding)
            and _plain(x, w)
            and use_mkldnn(x.shape, w.shape, stride, dilation, groups, threads)
            and _direct(out_shape, w.shape, stride, padding, dilation, groups, threads,
                        grouped=True, mkldnn=False))


def transposed_bias_grad(grad: np.ndarray, x_shape, wshape, stride, dilation, groups,
                         threads: int):
    """The bias gradient of a float32 transposed convolution that torch hands to oneDNN:
    ``ref_deconvolution``'s sum per output channel of its 8- or 16-channel blocked layout
    (4 or more channels), one chain of adds over image and position in order; None where
    torch takes another path."""
    if not (grad.dtype == _F32 and groups == 1 and wshape[1] >= 4 and _plain(grad)
            and use_mkldnn(x_shape, wshape, stride, dilation, groups, threads)):
        return None
    return _adds_in_order(_positions(grad if grad.ndim == 4 else grad[:, :, None]))


def _adds_in_order(rows: np.ndarray) -> np.ndarray:
    """Each row's elements added one after another in float32 from zero, as oneDNN's bias
    loops add them (a cumulative sum rounds each partial sum; 0 + -0 is +0)."""
    return np.add.accumulate(rows, axis=1)[:, -1] + _F32.type(0)


def _windows(x, kernel, stride, padding, dilation):
    """(padded-input view (N, C, kh, kw, OH, OW), (OH, OW)) of a 4-d ``x``."""
    n, c, h, wd = x.shape
    (ph, pw), (sh, sw), (dh, dw) = padding, stride, dilation
    out = ((h + 2 * ph - dh * (kernel[0] - 1) - 1) // sh + 1,
           (wd + 2 * pw - dw * (kernel[1] - 1) - 1) // sw + 1)
    xp = np.zeros((n, c, h + 2 * ph, wd + 2 * pw), _F32)
    xp[:, :, ph:ph + h, pw:pw + wd] = x
    s = xp.strides
    # each kernel column's output columns of every padded row, (N, C, kw, Hp, OW): a tap's
    # window is then whole rows of it, at a unit row stride one run per image and channel
    # (copies from the view go in runs of OH * OW, not OW)
    shifted = np.empty((n, c, kernel[1], xp.shape[2], out[1]), _F32)
    shifted[...] = _view_of(xp, shifted.shape, s[:2] + (s[3] * dw, s[2], s[3] * sw))
    s = shifted.strides
    view = _view_of(shifted, (n, c) + tuple(kernel) + out,
                    s[:2] + (s[3] * dh, s[2], s[3] * sh, s[4]))
    return view, out


def _view_of(a, shape, strides, offset=0):
    """A read-only view of ``shape`` and ``strides`` (bytes) into the C-contiguous ``a``
    from byte ``offset`` on (``as_strided``'s view, made directly on ``a``'s buffer at a
    fraction of its cost)."""
    view = np.ndarray(shape, a.dtype, a, offset, strides)
    view.flags.writeable = False
    return view


def _chain(cols, wm, res, beta, panel, start=None):
    """``res (O, M) = chain(wm (O, K) · cols (K, M)) + beta * res``, each element's products
    added by FMAs in ``k`` order, from zero or from ``start`` (O, M), with MKL's sgemm
    (O, M >= 16). Returns False, writing nothing to ``res``, where a running sum that must
    re-enter a later panel is not finite. ``cols`` is scratch: the carried sums overwrite
    rows of it."""
    o, k = wm.shape
    m = cols.shape[1]
    if start is None and k <= panel:
        _gemm.gemm(False, False, m, o, k, 1.0, cols, m, wm, k, beta, res, m)
        return True
    # the carried sums go 16 channels a call; 4, 8 or 12 channels (MKL's narrower general
    # kernels, as fast per call as their width) in one call of their own width
    lanes = o if o < _LANES and o % 4 == 0 else _LANES
    if o % lanes:
        padded = _gemm.aligned_empty((_div_up(o, lanes) * lanes, k), _F32, zero=True)
        padded[:o] = wm
        wm = padded
    acc = _gemm.aligned_empty((wm.shape[0], m), _F32)
    if start is None:
        _gemm.gemm(False, False, m, wm.shape[0], panel, 1.0, cols, m, wm, k, 0.0, acc, m)
        first = panel
    else:
        acc[:o] = start
        acc[o:] = 0
        first = 0
    step = panel - lanes
    for k0 in range(first, k, step):
        if not np.isfinite(acc).all():
            return False                 # 0 * inf in the identity terms would give NaN
        k1 = min(k, k0 + step)
        kk = lanes + k1 - k0
        if k0 >= lanes:
            # the sums carried go into the rows just before the panel's, whose terms the
            # earlier calls have taken: the panel is read where it lies, not copied
            ext = cols[k0 - lanes:k1]
        else:
            ext = _gemm.aligned_empty((kk, m), _F32)
            ext[lanes:] = cols[k0:k1]
        wext = _gemm.aligned_empty((lanes, kk), _F32)
        wext[:, :lanes] = _EYE[:lanes, :lanes]
        for j in range(0, wm.shape[0], lanes):
            ext[:lanes] = acc[j:j + lanes]
            wext[:, lanes:] = wm[j:j + lanes, k0:k1]
            _gemm.gemm(False, False, m, lanes, kk, 1.0, ext, m, wext, kk, 0.0,
                       acc[j:j + lanes], m)
    if beta:
        np.add(acc[:o], res, out=res)
    else:
        res[...] = acc[:o]
    return True


def chain_product(a: np.ndarray, b: np.ndarray):
    """``a (N, K) @ b (K, M)`` in float32 with each element one FMA chain from zero in
    ``k`` order (how oneDNN's own kernels sum a product), on MKL's sgemm as
    :func:`_chain` drives it; None without the probed MKL kernel or where a carried sum is
    not finite (the caller then chains in NumPy)."""
    panel = _panel()
    if not panel:
        return None
    n, k = a.shape
    m = b.shape[1]
    op, mp = _columns(n), max(m, _LANES)
    wm = _gemm.aligned_empty((op, k), _F32, zero=op > n)
    wm[:n] = a
    cols = _gemm.aligned_empty((k, mp), _F32)
    cols[:, :m] = b
    if mp > m:
        cols[:, m:] = 0
    res = _gemm.aligned_empty((op, mp), _F32)
    with _gemm.one_thread():
        if not _chain(cols, wm, res, 0.0, panel):
            return None
    return res[:n, :m]


class _Taps:
    """The reduced tensor's values under each kernel tap for every output position, taps in
    oneDNN's order (kernel row, then column; ``flip``: from the kernel's last row and
    column, the input gradient's). At stride 1 the positions are the "wide" rows of the
    padded grid, each tap one contiguous run of the flat padded tensor (the positions past
    the output's width computed, then cropped), where that costs at most a quarter more."""

    def __init__(self, x, kernel, stride, pad, dilation, flip=False):
        n, c, h, w = x.shape
        (ph, pw), (dh, dw) = pad, dilation
        hp, wp = h + 2 * ph, w + 2 * pw
        self.out = ((hp - dh * (kernel[0] - 1) - 1) // stride[0] + 1,
                    (wp - dw * (kernel[1] - 1) - 1) // stride[1] + 1)
        self.n, self.kernel, self.wp = n, kernel, wp
        self.wide = stride == (1, 1) and wp <= 1.25 * self.out[1]
        if self.wide:
            self.length = self.out[0] * wp
            last = (kernel[0] - 1) * dh * wp + (kernel[1] - 1) * dw   # the last tap's start
            buf = np.zeros((n, c, max(hp * wp, last + self.length)), _F32)
            buf[:, :, :hp * wp].reshape(n, c, hp, wp)[:, :, ph:ph + h, pw:pw + w] = x
            # every tap's run at once: (kh, kw, N, C, positions), a kernel row dh rows and
            # a kernel column dw elements on (flipped: back from the last tap)
            s = buf.strides
            tap = (dh * wp * s[2], dw * s[2])
            self.runs = _view_of(buf, tuple(kernel) + (n, c, self.length),
                                 tuple(-t if flip else t for t in tap) + s,
                                 last * s[2] if flip else 0)
        else:
            self.length = self.out[0] * self.out[1]
            win, _ = _windows(x, kernel, stride, pad, dilation)
            self.win = win[:, :, ::-1, ::-1] if flip else win

    def fill(self, c0, cb, images, dst):
        """``dst`` (kh, kw, cb, images, positions): channels ``c0:c0 + cb`` of the images
        ``images`` (a slice) under each tap."""
        if self.wide:
            dst[...] = self.runs[:, :, images, c0:c0 + cb].transpose(0, 1, 3, 2, 4)
        else:
            nb = dst.shape[3]
            dst.reshape(self.kernel + (cb, nb) + self.out)[...] = \
                self.win[images, c0:c0 + cb].transpose(2, 3, 1, 0, 4, 5)

    def crop(self, res, out):
        """``out`` (images, O, OH, OW) from the chains' sums ``res`` (O, images * positions)."""
        o, nb = res.shape[0], out.shape[0]
        if self.wide:
            res = res.reshape(o, nb, self.out[0], self.wp)[..., :self.out[1]]
        out[...] = res.reshape((o, nb) + self.out).transpose(1, 0, 2, 3)


def _blocked(taps, r, wt, bias, block=_LANES):
    """The chains of oneDNN's direct kernel over ``taps`` (:class:`_Taps`) of a tensor of
    ``r`` channels, ``wt`` (O, R, kh, kw) the weights: per block of 16 reduced channels one
    chain over (row, column, channel), each block's sum added to the bias or the earlier
    blocks' (N, O, *out), or None (see :func:`_chain`). Each image's sums are its own: on
    torch's threads the images are shared out, as oneDNN shares them."""
    n, kernel = taps.n, taps.kernel
    o = wt.shape[0]
    op = _columns(o)
    kp = kernel[0] * kernel[1]
    weights = []
    for c0 in range(0, r, block):
        cb = min(block, r - c0)
        wm = _gemm.aligned_empty((op, kp * cb), _F32, zero=op > o)
        wm[:o] = wt[:, c0:c0 + cb].transpose(0, 2, 3, 1).reshape(o, kp * cb)
        weights.append((c0, cb, wm))
    out = np.empty((n, o) + taps.out, _F32)
    panel = _panel()
    # the images go a few at a time, as many as keep one block's taps and the sums in L2
    # (each image's chains are its own: the same bits in any grouping)
    per_image = (kp * min(r, block) + op) * taps.length * _F32.itemsize
    chunk = max(1, min(n, _CACHE_BYTES // per_image))

    def images(i0, i1):
        return all(piece(j0, min(i1, j0 + chunk)) for j0 in range(i0, i1, chunk))

    def piece(i0, i1):
        m = (i1 - i0) * taps.length
        mp = max(m, _LANES)              # MKL's general kernel: 16 or more rows and columns
        res = _gemm.aligned_empty((op, mp), _F32)
        beta = 0.0
        if bias is not None:
            res[:o] = bias.reshape(o, 1)
            res[o:] = 0
            beta = 1.0
        for c0, cb, wm in weights:
            cols = _gemm.aligned_empty((kp * cb, mp), _F32)
            taps.fill(c0, cb, slice(i0, i1), cols[:, :m].reshape(kernel + (cb, i1 - i0,
                                                                           taps.length)))
            if mp > m:
                cols[:, m:] = 0
            # one thread: MKL's second one costs more than it saves on these thin products
            with _gemm.one_thread():
                if not _chain(cols, wm, res, beta, panel):
                    return False
            beta = 1.0
        taps.crop(res[:o, :m], out[i0:i1])
        return True

    parts = _image_parts(n, n * taps.length * kp * r * op)
    return out if all(_parallel(images, parts)) else None


_CACHE_BYTES = 1 << 20      # the working set of one piece of a direct kernel: a core's L2
_PARALLEL_WORK = 1 << 24     # multiply-adds below which a second thread costs more than it saves
_POOL: list = []             # :func:`_parallel`'s worker threads and their number
_PARALLEL_CALL = 1 << 19     # multiply-adds of a weight-gradient call worth a thread per share


def _image_parts(n: int, work: int) -> list:
    """The images' ranges, one per torch thread (oneDNN's ``balance211``); one range for
    small work."""
    threads = min(n, _exact.get_num_threads())
    if threads < 2 or work < _PARALLEL_WORK:
        return [(0, n)]
    return [_balance211(n, threads, t) for t in range(threads)]


def _parallel(fn, parts) -> list:
    """``fn(*part)`` for each part, the first on this thread and the others on worker
    threads at the same time (NumPy's copies and MKL's calls release the GIL)."""
    if len(parts) == 1:
        return [fn(*parts[0])]
    if not _POOL or _POOL[1] < len(parts) - 1:
        import concurrent.futures  # (at first use: it costs an import of logging)
        _POOL[:] = [concurrent.futures.ThreadPoolExecutor(len(parts) - 1, "ember-conv"),
                    len(parts) - 1]
    later = [_POOL[0].submit(fn, *part) for part in parts[1:]]
    return [fn(*parts[0])] + [f.result() for f in later]


# a forked child (a DataLoader worker) has no worker thread: it makes its own at first use
os.register_at_fork(after_in_child=_POOL.clear)


def forward(x: np.ndarray, w: np.ndarray, bias, stride, padding, dilation, groups=1):
    """oneDNN's ``jit:avx512_core`` forward of a 1-d or 2-d float32 convolution (see
    :func:`direct_forward`), or None where it cannot be reproduced (a running sum that
    is not finite, in a block longer than MKL's panel). The input channels are the blocks
    (a first convolution's fewer than 16 are one; with groups, each group's in blocks of
    :func:`_group_block`)."""
    one_d = x.ndim == 3
    _, kernel, stride, padding, dilation = _geometry(x.shape, w.shape, stride, padding,
                                                     dilation)
    if one_d:
        x, w = x[:, :, None], w[:, :, None]
    if groups == 1:
        y = _blocked(_Taps(x, kernel, stride, padding, dilation), x.shape[1], w, bias)
    else:
        cg, og = x.shape[1] // groups, w.shape[0] // groups
        block = _group_block(cg, og)
        parts = []
        for g in range(groups):
            taps = _Taps(x[:, g * cg:(g + 1) * cg], kernel, stride, padding, dilation)
            part = _blocked(taps, cg, w[g * og:(g + 1) * og],
                            None if bias is None else bias[g * og:(g + 1) * og], block)
            if part is None:
                return None
            parts.append(part)
        y = np.concatenate(parts, axis=1)
    return y[:, :, 0] if one_d and y is not None else y


# ---------------------------------------------------------------- 1x1 forward
# ``jit_avx512_common_1x1_conv_kernel`` chains the input channels in blocks of
# ``reduce_blocking`` channels (its ``init_conf``: 80, 512 or 256 by the output's height,
# less where the input's rows would alias in cache): the first block's chain starts from
# the bias, each later one from zero and is then added to the output so far.

_SMALL_SPATIAL, _BIG_SPATIAL, _BIG_LOAD_DIM = 10, 28, 256


def direct_forward_1x1(x: np.ndarray, w: np.ndarray, stride, padding, dilation, groups,
                       threads: int) -> bool:
    """Whether torch computes this float32 convolution with oneDNN's ``jit_1x1`` forward
    (a 1x1 kernel, one group, no padding, NCHW data, AVX512) and MKL can reproduce it."""
    return _plain(x, w) and _direct_1x1(x.shape, w.shape, stride, padding, dilation, groups,
                                        threads)


def _takes_1x1(sizes, stride, padding) -> bool:
    """Whether ``jit_1x1`` takes a 1x1 kernel (2-d sizes): no padding, and a stride that
    divides the input (its strided copy of the input); else the direct kernel runs it."""
    return all(p == 0 for p in padding) and all(s % t == 0 for s, t in zip(sizes, stride))


def _direct_1x1(shape, wshape, stride, padding, dilation, groups, threads) -> bool:
    if len(shape) not in (3, 4) or groups != 1 or 0 in shape or 0 in wshape \
            or any(k != 1 for k in wshape[2:]) or any(d != 1 for d in dilation):
        return False
    sizes, _, st, pad, _ = _geometry(shape, wshape, stride, padding, dilation)
    if not _takes_1x1(sizes, st, pad):
        return False
    # (with more than 8 threads a sample the kernel blocks otherwise: not followed here)
    return (8 * shape[0] >= threads
            and use_mkldnn(shape, wshape, stride, dilation, groups, threads)
            and _onednn.avx512() and _panel() > 0)


def _reduce_blocking(ic, oc, out_h, bcast_dim, ur_regs=(9, 6)):
    """``reduce_blocking`` of the 1x1 kernel's ``init_conf`` (explicit broadcast, NCHW)."""
    reduce_dim = _div_up(ic, _LANES) * _LANES
    load_dim = _div_up(oc, _LANES) * _LANES
    if load_dim <= _BIG_LOAD_DIM and _SMALL_SPATIAL < out_h < _BIG_SPATIAL:
        rb = min(reduce_dim, 80)
    elif out_h > _SMALL_SPATIAL:
        rb = min(reduce_dim, 512)
    else:
        rb = min(reduce_dim, 256)
    way, max_hits = 64 * 1024 // 4, 7
    if bcast_dim * rb > way * max_hits:
        ur = _ur_1x1(out_h, bcast_dim, load_dim, *ur_regs)
        nrb, wl = rb // _LANES, way // _LANES
        for start in range(ur):
            off, hits = start, 0
            while off < bcast_dim * nrb:
                if off % bcast_dim >= ur:
                    off += wl
                    continue
                hits += 1
                if hits < max_hits:
                    off += wl
                    continue
                rb = min(rb, _LANES * max(1, (off + wl) // bcast_dim))
                break
    return rb


def _ur_1x1(spatial, os, load_dim, max_regs, min_regs):
    """The 1x1 kernel's ``ur`` (output positions per register block)."""
    if load_dim > 128 and load_dim < _BIG_LOAD_DIM and _SMALL_SPATIAL < spatial < _BIG_SPATIAL:
        max_regs, min_regs = 6, 5
    for ur in range(max_regs, min_regs - 1, -1):
        if (spatial >= 14 and spatial % ur == 0) or (spatial < 14 and os % ur == 0):
            return ur
    best, tail = min(max_regs, os), os % max_regs
    for i in range(max_regs, min_regs - 1, -1):
        t = os % i
        if t > tail or t == 0:
            best, tail = i, t
            if t == 0:
                break
    return best


def forward_1x1(x: np.ndarray, w: np.ndarray, bias, stride):
    """oneDNN's ``jit_1x1`` forward (see :func:`direct_forward_1x1`), or None where a
    running sum that must cross MKL's panels is not finite."""
    one_d = x.ndim == 3
    if one_d:
        x, w, stride = x[:, :, None], w[:, :, None], (1,) + tuple(stride)
    x = x[:, :, ::stride[0], ::stride[1]]
    y = _chains_1x1(x, w.reshape(w.shape[:2]), bias)
    return y[:, :, 0] if one_d and y is not None else y


def direct_backward_data_1x1(grad: np.ndarray, input_shape, w: np.ndarray, stride,
                             padding, dilation, groups, threads: int) -> bool:
    """Whether torch computes this input gradient with oneDNN's ``jit_1x1`` backward-data
    kernel: where it took the 1x1 forward, at stride 1 (a stride: ``brgconv_strided``)."""
    return (grad.dtype == _F32 and all(s == 1 for s in stride) and _plain(w)
            and _direct_1x1(input_shape, w.shape, stride, padding, dilation, groups,
                            threads))


def backward_data_1x1(grad: np.ndarray, w: np.ndarray):
    """oneDNN's ``jit_1x1`` input gradient (stride 1): the forward's blocked chains with
    the output channels reduced (blocks by the input's height), or None."""
    one_d = grad.ndim == 3
    if one_d:
        grad = grad[:, :, None]
    y = _chains_1x1(grad, w.reshape(w.shape[:2]).T, None)
    return y[:, :, 0] if one_d and y is not None else y


def _chains_1x1(x, w, bias):
    """(N, O, H, W) of the 1x1 kernel's chains over the channels of ``x`` (N, C, H, W),
    ``w`` (O, C)."""
    n, c, oh, ow = x.shape
    o = w.shape[0]
    m = n * oh * ow
    mp = max(m, _LANES)
    op = _columns(o)
    rb = _reduce_blocking(c, o, oh, oh * ow)
    panel = _panel()
    res = _gemm.aligned_empty((op, mp), _F32)
    wm = np.zeros((op, c), _F32)
    wm[:o] = w
    start = None
    if bias is not None:
        start = np.zeros((op, mp), _F32)
        start[:o] = bias.reshape(o, 1)
    with _gemm.one_thread():
        for c0 in range(0, c, rb):
            cb = min(rb, c - c0)
            cols = _gemm.aligned_empty((cb, mp), _F32, zero=mp > m)
            cols[:, :m].reshape(cb, n, oh, ow)[...] = x[:, c0:c0 + cb].transpose(1, 0, 2, 3)
            wb = _gemm.aligned_empty((op, cb), _F32)
            wb[...] = wm[:, c0:c0 + cb]
            if not _chain(cols, wb, res, 1.0 if c0 else 0.0, panel,
                          start if c0 == 0 else None):
                return None
    return np.ascontiguousarray(res[:o, :m].reshape(o, n, oh, ow).transpose(1, 0, 2, 3))


# ---------------------------------------------------------------- depthwise forward
# ``jit_uni_dw_conv_fwd_kernel`` (``jit_dw``) keeps each output in a register lane started
# from the bias and FMAs its channel's taps, kernel row then column. Per channel that is one
# MKL chain: a leading row of ones carries the bias (1 * b + 0 is b), the weights repeated
# over 4 columns (MKL's general kernel).

def direct_depthwise(x: np.ndarray, w: np.ndarray, stride, padding, dilation, groups,
                     threads: int) -> bool:
    """Whether torch computes this float32 convolution with oneDNN's ``jit_dw`` forward
    (one input and one output channel a group, 2-d or 1-d, NCHW, AVX512)."""
    if not _plain(x, w) or x.ndim not in (3, 4) or 0 in x.shape or 0 in w.shape \
            or groups < 2 or groups != x.shape[1] or w.shape[0] != groups or w.shape[1] != 1:
        return False
    sizes, kernel, st, pad, dil = _geometry(x.shape, w.shape, stride, padding, dilation)
    for s, k, t, p, d in zip(sizes, kernel, st, pad, dil):
        ext = d * (k - 1) + 1
        out = (s + 2 * p - ext) // t + 1
        if out <= 0 or ext <= p or ext <= (out - 1) * t + ext - s - p:
            return False                 # a tap window wholly in the padding: gemm conv
    return _onednn.avx512() and _panel() >= max(64, kernel[0] * kernel[1] + 1)


def forward_depthwise(x: np.ndarray, w: np.ndarray, bias, stride, padding, dilation):
    """oneDNN's ``jit_dw`` forward (see :func:`direct_depthwise`)."""
    one_d = x.ndim == 3
    _, kernel, stride, padding, dilation = _geometry(x.shape, w.shape, stride, padding,
                                                     dilation)
    if one_d:
        x, w = x[:, :, None], w[:, :, None]
    win, out = _windows(x, kernel, stride, padding, dilation)
    y = _depthwise_chains(win, w.reshape(x.shape[1], -1), bias)
    return y[:, :, 0] if one_d else y


def _depthwise_chains(win, taps, bias):
    """(N, C, OH, OW): per channel an FMA chain from the bias (or zero) over ``win``
    (N, C, kh, kw, OH, OW) times ``taps`` (C, kh * kw), taps in order."""
    n, c = win.shape[:2]
    out = win.shape[4:]
    kp = taps.shape[1]
    m = n * out[0] * out[1]
    mp = max(m, _LANES)
    cols = _gemm.aligned_empty((kp + 1, mp), _F32, zero=mp > m)
    cols[0] = 1
    wm = _gemm.aligned_empty((4, kp + 1), _F32)
    res = _gemm.aligned_empty((c, 4, mp), _F32)
    with _gemm.one_thread():
        for ch in range(c):
            cols[1:, :m].reshape((kp, n) + out)[...] = \
                win[:, ch].reshape((n, kp) + out).transpose(1, 0, 2, 3)
            wm[:, 0] = 0 if bias is None else bias[ch]
            wm[:, 1:] = taps[ch]
            _gemm.gemm(False, False, mp, 4, kp + 1, 1.0, cols, mp, wm, kp + 1, 0.0, res[ch],
                       mp)
    return np.ascontiguousarray(res[:, 0, :m].reshape((c, n) + out).transpose(1, 0, 2, 3))


def direct_backward_data_depthwise(grad: np.ndarray, input_shape, w: np.ndarray, stride,
                                   padding, dilation, groups, threads: int) -> bool:
    """Whether torch computes this float32 input gradient with oneDNN's ``jit_dw``
    backward-data kernel (one input and one output channel a group, no dilation, 2-d or
    1-d, NCHW, AVX512)."""
    return (grad.dtype == _F32 and _plain(w) and len(input_shape) in (3, 4)
            and 0 not in input_shape and 0 not in grad.shape and groups >= 2
            and input_shape[1] == w.shape[0] == groups and w.shape[1] == 1
            and all(d == 1 for d in dilation)
            and use_mkldnn(input_shape, w.shape, stride, dilation, groups, threads)
            and _onednn.avx512() and _panel() >= max(64, math.prod(w.shape[2:]) + 1))


def backward_data_depthwise(grad: np.ndarray, w: np.ndarray, input_shape, stride, padding):
    """oneDNN's ``jit_dw`` input gradient: per input element an FMA chain from zero over
    the kernel's taps in order (row, then column) that reach an output (the output
    gradient spread by the stride, zeros between: a zero term adds nothing)."""
    one_d = grad.ndim == 3
    _, kernel, st, pad, _ = _geometry(input_shape, w.shape, stride, padding,
                                      (1,) * (grad.ndim - 2))
    sizes = tuple(input_shape[2:]) if not one_d else (1,) + tuple(input_shape[2:])
    if one_d:
        grad, w = grad[:, :, None], w[:, :, None]
    n, c, oh, ow = grad.shape
    # element i of the input reads tap a from spread[i + k - 1 - a]: the windows reversed
    spread = np.zeros((n, c) + tuple(s + k - 1 for s, k in zip(sizes, kernel)), _F32)
    lead = [k - 1 - p for k, p in zip(kernel, pad)]
    src = grad
    for axis, (l, t, m) in enumerate(zip(lead, st, (oh, ow))):
        cut = max(0, -l)                 # outputs before the spread's start (a wide padding)
        first = _div_up(cut, t)
        src = np.take(src, range(first, m), axis=2 + axis)
        lead[axis] = l + first * t
    stop = [min(sz, ld + (src.shape[2 + i] - 1) * t + 1) for i, (sz, ld, t) in
            enumerate(zip(spread.shape[2:], lead, st))]
    keep = [_div_up(e - ld, t) for e, ld, t in zip(stop, lead, st)]
    spread[:, :, lead[0]:stop[0]:st[0], lead[1]:stop[1]:st[1]] = \
        src[:, :, :keep[0], :keep[1]]
    win, _ = _windows(spread, kernel, (1, 1), (0, 0), (1, 1))
    y = _depthwise_chains(win[:, :, ::-1, ::-1], w.reshape(c, -1), None)
    return y[:, :, 0] if one_d else y


def backward_data(grad: np.ndarray, w: np.ndarray, input_shape, padding, dilation,
                  groups=1):
    """oneDNN's ``jit:avx512_core`` input gradient (stride 1, see
    :func:`direct_backward_data`), or None: per input element the same chains as the
    forward's with the output channels as the blocks (a group's in blocks of
    :func:`_group_block`), the kernel rows and columns ascending (the output rows they
    read descending)."""
    one_d = grad.ndim == 3
    _, kernel, _, padding, dilation = _geometry(input_shape, w.shape, (1,) * (grad.ndim - 2),
                                                padding, dilation)
    if one_d:
        grad, w = grad[:, :, None], w[:, :, None]
    full = tuple(d * (k - 1) - p for k, p, d in zip(kernel, padding, dilation))
    og, cg = w.shape[0] // groups, w.shape[1]
    block = _LANES if groups == 1 else _group_block(cg, og)
    parts = []
    for g in range(groups):
        taps = _Taps(grad[:, g * og:(g + 1) * og], kernel, (1, 1), full, dilation, flip=True)
        part = _blocked(taps, og, w[g * og:(g + 1) * og].transpose(1, 0, 2, 3), None, block)
        if part is None:
            return None
        parts.append(part)
    y = parts[0] if groups == 1 else np.concatenate(parts, axis=1)
    return y[:, :, 0] if one_d else y


# ---------------------------------------------------------------- strided backward data
# A stride takes oneDNN's ``brgconv_strided`` backward-data kernel (and the deconvolution
# that runs it). Without AMX it keeps the whole of ``oc`` as the brgemm's reduction and
# each input row's positions of one stride phase (``iw``, ``iw + s``, ...) as its rows;
# a call's batch is the kernel taps that reach those positions, kernel row then column,
# each tap's ``oc`` terms in order: per element one FMA chain from zero, which a ``beta``
# call then adds to the element's sum so far. All valid kernel rows go to every call.
# Where the stride divides the width the columns split into calls (``get_kw_range``): each
# column that some of the phase's positions miss is a call of its own (the lower columns
# first), the columns that reach all of them one call between those; where it does not
# divide, the input is copied into a padded buffer and one call takes all of the phase's
# columns (those in the padding read zeros). The calls of a phase row cover the whole row
# where ``iw_block`` is the width: oneDNN's blocking heuristic picks it (as measured) for
# widths up to 108 where the images share out evenly between the threads, and may cut wider
# rows, or rows whose images leave a thread short, in blocks (not followed: another split
# of the columns). Each element is one thread's, so their number changes nothing else.

_STRIDED_WIDTH = 108       # rows a stride divides are one block up to this width (measured)
# f32 shapes oneDNN leaves to another kernel ("low performance"): (ic, oc, ih, iw, oh, ow,
# kernel, stride), None where any
_STRIDED_SKIPPED = (
    (128, 256, 101, 85, 49, 41, None, None), (3, 128, 207, 175, 101, 85, None, None),
    (512, 1024, 8, 8, 4, 4, 4, 2), (1024, 2048, 4, 4, 2, 2, 4, 2),
    (64, 128, 513, 513, 256, 256, 3, 2), (32, 64, 1025, 1025, 512, 512, 3, 2),
    (128, 256, 257, 257, 128, 128, 3, 2), (256, 512, 49, 41, 23, 19, 5, 2),
    (64, 128, 14, 14, 7, 7, 4, 2), (1, 64, 28, 28, 14, 14, 4, 2))


def _strided(shape, wshape, stride, padding, dilation, groups, threads) -> bool:
    """The sizes' part of :func:`direct_backward_data_strided`, ``shape`` the input's (the
    transposed convolution's output), ``wshape`` the convolution's weight."""
    if len(shape) not in (3, 4) or 0 in shape or 0 in wshape or groups != 1 \
            or all(s == 1 for s in stride) or any(d != 1 for d in dilation):
        return False
    sizes, kernel, st, pad, _ = _geometry(shape, wshape, stride, padding, dilation)
    out = tuple((s + 2 * p - k) // t + 1 for s, k, t, p in zip(sizes, kernel, st, pad))
    if min(out) <= 0:
        return False
    if sizes[1] % st[1] == 0 and (shape[0] % threads or sizes[1] > _STRIDED_WIDTH):
        return False                     # the rows may be cut in blocks: not followed
    for skipped in _STRIDED_SKIPPED:
        if skipped[:6] == (shape[1], wshape[0]) + sizes + out and \
                skipped[6] in (None, kernel[0]) and skipped[7] in (None, st[0]) \
                and kernel[0] == kernel[1] and st[0] == st[1]:
            return False
    return _onednn.avx512() and _panel() > 0


def direct_backward_data_strided(grad: np.ndarray, input_shape, w: np.ndarray, stride,
                                 padding, dilation, groups, threads: int) -> bool:
    """Whether torch computes the input gradient of this strided float32 convolution (1-d
    or 2-d, one group, not dilated) with oneDNN's ``brgconv_strided`` kernel, as
    :func:`backward_data_strided` reproduces it."""
    return (grad.dtype == _F32 and _plain(w)
            and use_mkldnn(input_shape, w.shape, stride, dilation, groups, threads)
            and _strided(input_shape, w.shape, stride, padding, dilation, groups, threads))


def strided_transposed(x: np.ndarray, w: np.ndarray, out_shape, stride, padding, dilation,
                       groups, threads: int) -> bool:
    """Whether torch computes this strided float32 transposed convolution with oneDNN's
    ``brg_deconv``, the ``brgconv_strided`` backward-data kernel of the convolution it
    transposes (see :func:`direct_transposed`; an output padding only adds to the
    sizes)."""
    return (x.dtype == _F32 and _plain(x, w)
            and use_mkldnn(x.shape, w.shape, stride, dilation, groups, threads)
            and _strided(out_shape, w.shape, stride, padding, dilation, groups, threads))


def _trunc_div(a, b):
    return -(-a // b) if a < 0 else a // b


def _covered(iw, kw, sw, pad, size, out):
    """oneDNN's ``get_iw_range``: the first position of the phase row from ``iw`` that
    kernel column ``kw`` reaches, and how many of the row's positions it reaches."""
    m = _div_up(size, sw)
    ow = _trunc_div(iw - kw + pad, sw)
    count = max(0, m - max(0, -ow) - max(0, ow + m - out))
    first = iw
    while _trunc_div(first - kw + pad, sw) < 0 and first + sw < size:
        first += sw
    return first, count


def _column_calls(size, kernel, sw, pad, out) -> list:
    """Per input column, the kernel columns of each call that reaches it, in call order
    (``ker_base``'s split, or one call a phase where the stride does not divide
    ``size``)."""
    calls = [[] for _ in range(size)]
    if size % sw:
        for iw in range(size):
            cols = tuple(k for k in range(kernel) if (iw + pad - k) % sw == 0)
            if cols:
                calls[iw].append(cols)
        return [tuple(c) for c in calls]
    m = size // sw
    for iw in range(min(sw, size)):
        counts = [_covered(iw, k, sw, pad, size, out)[1] for k in range(kernel)]
        valid = [k for k in range(kernel) if counts[k] > 0]
        full = [k for k in valid if counts[k] == m]
        k_s, k_f = (valid[0], valid[-1] + 1) if valid else (0, 0)
        f_s, f_f = (full[0], full[-1] + 1) if full else (k_f, k_f)
        phase = (iw + pad) % sw
        k_s += (phase - k_s) % sw        # the first columns of this phase
        f_s += (phase - f_s) % sw
        if k_f <= k_s or k_s >= kernel:
            continue
        groups = [(k,) for k in range(k_s, f_s, sw)]
        if f_s < f_f:
            groups.append(tuple(range(f_s, f_f, sw)))
        groups += [(k,) for k in range(f_f, k_f, sw)]
        for cols in groups:
            first, count = _covered(iw, cols[0], sw, pad, size, out)
            for j in range(count):
                calls[first + j * sw].append(cols)
    return [tuple(c) for c in calls]


def backward_data_strided(grad: np.ndarray, w: np.ndarray, input_shape, stride, padding):
    """oneDNN's ``brgconv_strided`` input gradient (see
    :func:`direct_backward_data_strided`), or None where a running sum that must cross
    MKL's panels is not finite: the input positions in classes that share their calls
    (rows by their valid kernel rows, columns by their calls), each call one MKL chain
    over its taps' output channels for all of a class, the calls' sums added in order."""
    one_d = grad.ndim == 3
    if one_d:
        grad, w = grad[:, :, None], w[:, :, None]
        stride, padding = (1,) + tuple(stride), (0,) + tuple(padding)
    n, o, oh, ow = grad.shape
    c, kh, kw = w.shape[1:]
    (sh, sw), (ph, pw) = stride, padding
    ih, iw = (1,) + tuple(input_shape[2:]) if one_d else tuple(input_shape[2:])
    gt = np.zeros((o, n, oh, ow + 1), _F32)        # a zero column for taps in the padding
    gt[..., :ow] = grad.transpose(1, 0, 2, 3)
    wt = w.transpose(2, 3, 1, 0)                      # (kh, kw, C, O)
    op = _columns(c)
    panel = _panel()
    out = np.empty((c, n, ih, iw), _F32)
    plan, empty_rows, empty_cols = _strided_plan(ih, iw, kh, kw, sh, sw, ph, pw, oh, ow)
    out[:, :, empty_rows] = 0
    out[..., empty_cols] = 0
    plan = [(nr, nc, rs, cs, [(_tap_weights(wt, taps, op), where) for taps, where in steps])
            for nr, nc, rs, cs, steps in plan]

    def images(i0, i1):
        nb = i1 - i0
        g = gt[:, i0:i1]
        for nr, nc, rs, cs, steps in plan:
            m = nb * nr * nc
            mp = max(m, _LANES)
            total = None
            for wm, where in steps:
                tcols = _gemm.aligned_empty((wm.shape[1], mp), _F32, zero=mp > m)
                for t, (ri, ci) in enumerate(where):
                    tcols[t * o:(t + 1) * o, :m].reshape(o, nb, nr, nc)[...] = \
                        _take(_take(g, ri, 2), ci, 3)
                res = _gemm.aligned_empty((op, mp), _F32)
                with _gemm.one_thread():
                    if not _chain(tcols, wm, res, 0.0, panel):
                        return False
                total = res[:c, :m].copy() if total is None else total + res[:c, :m]
            out[:, i0:i1, rs, cs] = total.reshape(c, nb, nr, nc)
        return True

    work = n * ih * iw * c * o * kh * kw // (sh * sw)
    if not all(_parallel(images, _image_parts(n, work))):
        return None
    out = np.ascontiguousarray(out.transpose(1, 0, 2, 3))
    return out[:, :, 0] if one_d else out


@functools.lru_cache(maxsize=64)
def _strided_plan(ih, iw, kh, kw, sh, sw, ph, pw, oh, ow):
    """The classes of input positions that share their calls (rows by their valid kernel
    rows, columns by their calls): per class its number of rows and columns, where they
    lie in the input, and per call its taps with each tap's rows and columns of the
    gradient (slices where evenly spaced); and the rows and columns no tap reaches."""
    rows: dict = {}
    for r in range(ih):
        taps = tuple(a for a in range(kh) if (r + ph - a) % sh == 0
                     and 0 <= (r + ph - a) // sh < oh)
        rows.setdefault(taps, []).append(r)
    cols: dict = {}
    for col, calls in enumerate(_column_calls(iw, kw, sw, pw, ow)):
        cols.setdefault(calls, []).append(col)
    plan = []
    for khs, rl in rows.items():
        r = np.array(rl)
        for calls, cl in cols.items():
            if not khs or not calls:
                continue
            cc = np.array(cl)
            steps = []
            for kws in calls:
                taps = tuple((a, b) for a in khs for b in kws)
                where = []
                for a, b in taps:
                    num = cc + pw - b
                    owi = np.where((num % sw == 0) & (num >= 0) & (num < ow * sw),
                                   num // sw, ow)
                    where.append((_evenly((r + ph - a) // sh), _evenly(owi)))
                steps.append((taps, where))
            rs, cs = _evenly(r), _evenly(cc)
            if not isinstance(rs, slice) and not isinstance(cs, slice):
                rs = rs[:, None]
            plan.append((r.size, cc.size, rs, cs, steps))
    return plan, rows.get((), []), cols.get((), [])


def _tap_weights(wt, taps, op):
    """(op, len(taps) * O): each tap's weights ``wt[a, b]`` (C, O) side by side."""
    c, o = wt.shape[2:]
    wm = _gemm.aligned_empty((op, len(taps) * o), _F32, zero=op > c)
    for t, (a, b) in enumerate(taps):
        wm[:c, t * o:(t + 1) * o] = wt[a, b]
    return wm


def _evenly(idx: np.ndarray):
    """A slice for ascending evenly spaced indices, else the indices."""
    step = int(idx[1] - idx[0]) if idx.size > 1 else 1
    if step > 0 and (np.diff(idx) == step).all():
        return slice(int(idx[0]), int(idx[-1]) + 1, step)
    return idx


def _take(a: np.ndarray, sel, axis: int) -> np.ndarray:
    """``a``'s entries at ``sel`` (a slice or indices, see :func:`_evenly`) along ``axis``."""
    if isinstance(sel, slice):
        return a[(slice(None),) * axis + (sel,)]
    return np.take(a, sel, axis=axis)


# ---------------------------------------------------------------- backward weights
# ``jit_avx512_common_conv_bwd_weights_kernel_f32`` FMAs each output position's
# ``diff_dst * src`` into the weight gradient it keeps in memory, the positions (image,
# output row, output column) in order: per weight element one chain over all positions of
# the thread's share. Threads share the positions (``nthr_mb`` of them, by ``balance``):
# images, or image rows where the output has more than 9 rows (``harness_2d_reduction``);
# their chains are added in thread order. The bias gradient is the same chain of plain adds.
# jit:avx2's kernel (which takes 4 to 15 input channels on AVX512 machines) chains the same
# way; its threads share whole images as ``cpu_reducer``'s balance says.

_MIN_OH_REDUCE = 9
_AVX2_CHANNELS = (4, 15)    # input channels the AVX512 kernel leaves to jit:avx2's
# the bias gradient :func:`backward_weights` computed last: (weak reference to its
# gradient array, sizes, bias), taken by the next :func:`backward_bias` of that array
_BIAS: list = [None, None, None]


def _wgeometry(shape, wshape, stride, padding, dilation):
    """(mb, ic, oc, (ih, iw), (oh, ow), kernel, stride, padding, dilation), 2-d."""
    sizes, kernel, st, pad, dil = _geometry(shape, wshape, stride, padding, dilation)
    out = tuple((s + 2 * p - d * (k - 1) - 1) // t + 1
                for s, k, t, p, d in zip(sizes, kernel, st, pad, dil))
    return shape[0], shape[1], wshape[0], sizes, out, kernel, st, pad, dil


def direct_backward_weights(x: np.ndarray, wshape, stride, padding, dilation, groups,
                            threads: int) -> bool:
    """Whether torch computes the weight (and bias) gradient of this float32 convolution
    with oneDNN's ``jit:avx512_core`` backward-weights kernel, or (4 to 15 input channels)
    ``jit:avx2``'s, which adds in the same order: where it took the direct forward and the
    kernel takes the sizes (the padding within half the kernel, at most 14 kernel
    columns)."""
    return _plain(x) and _weights_kernel(x.shape, wshape, stride, padding, dilation, groups,
                                         threads)


def direct_backward_bias(grad: np.ndarray, x_shape, wshape, stride, padding, dilation,
                         groups, threads: int) -> bool:
    """Whether oneDNN's backward-weights kernel computes this bias gradient (see
    :func:`direct_backward_weights`; the input's layout is not known here)."""
    return grad.dtype == _F32 and (
        _weights_kernel(x_shape, wshape, stride, padding, dilation, groups, threads)
        or _direct_1x1(x_shape, wshape, stride, padding, dilation, groups, threads))


def _avx2_weights(ic, oc, groups) -> bool:
    """Whether ``jit:avx2``'s backward-weights kernel runs (8-channel blocks): 4 to 15
    input channels, or groups whose channels share no block of 16 but one of 8."""
    if groups == 1:
        return _AVX2_CHANNELS[0] <= ic <= _AVX2_CHANNELS[1]
    return _group_block(ic // groups, oc // groups) == 8


def _weights_kernel(shape, wshape, stride, padding, dilation, groups, threads) -> bool:
    return (_direct(shape, wshape, stride, padding, dilation, groups, threads, grouped=True)
            and _weights_sizes(tuple(shape), tuple(wshape), tuple(stride), tuple(padding),
                               tuple(dilation), groups))


@functools.lru_cache(maxsize=256)
def _weights_sizes(shape, wshape, stride, padding, dilation, groups) -> bool:
    """:func:`_weights_kernel`'s test of the sizes past the direct kernel's (tuples; cached:
    a function of them alone)."""
    if groups != 1 and _group_block(shape[1] // groups, wshape[0] // groups) < 8:
        return False                     # 4-channel blocks: oneDNN's gemm kernel
    mb, ic, oc, (ih, iw), (oh, ow), (kh, kw), (sh, sw), (ph, pw), (dh, dw) = \
        _wgeometry(shape, wshape, stride, padding, dilation)
    if kw > 14:
        return False                     # oneDNN's gemm kernel
    if _avx2_weights(ic, oc, groups) and (dh > 1 or dw > 1):
        return False                     # dilated: not jit:avx2's order (not followed)
    ext_h, ext_w = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    if dh > 1 and (sh != 1 or ext_h > ih):
        return False
    r_pad = max(0, (ow - 1) * sw + ext_w - iw - pw)
    b_pad = max(0, (oh - 1) * sh + ext_h - ih - ph)
    return (pw < ext_w and r_pad < ext_w and ph <= ext_h // 2 and b_pad <= ext_h // 2
            and pw <= 28 and r_pad <= 28)


def _nthr_mb(mb, ic, oc, sizes, out, kernel, stride, dilation, nthreads):
    """oneDNN's ``balance`` for one group: the threads that share the positions, and
    whether they share image rows (the 2-d harness) rather than images."""
    (ih, iw), (oh, ow), (kh, kw), (sh, sw) = sizes, out, kernel, stride
    two_d = dilation[0] == 1 and oh > _MIN_OH_REDUCE
    first = ic < _LANES
    ic_block = ic if first else _LANES
    nb_ic = 1 if first else _div_up(ic, _LANES)
    nb_oc = _div_up(oc, _LANES)
    ih_reduce, oh_reduce = (ih, oh) if two_d else (1, 1)
    ih_no, oh_no = (1, 1) if two_d else (ih, oh)
    nthr_oh_reduce = max(1, oh_reduce // _MIN_OH_REDUCE)

    def mem_cost(n_mb, n_oc, n_ic):
        src = _div_up(mb * ih_reduce, n_mb) * _div_up(nb_ic, n_ic) * ic_block * ih_no * iw
        src = src // sh // sw
        dst = _div_up(mb * oh_reduce, n_mb) * _div_up(nb_oc, n_oc) * _LANES * oh_no * ow
        wei = 8 * _div_up(nb_oc, n_oc) * _div_up(nb_ic, n_ic) * kh * kw * ic_block * _LANES
        return src + dst + wei

    def comp_cost(n_mb, n_oc, n_ic):
        return _div_up(mb * oh_reduce, n_mb) * _div_up(nb_oc, n_oc) * _div_up(nb_ic, n_ic)

    def splits():
        for n_mb in range(1, min(nthreads, mb * nthr_oh_reduce) + 1):
            par = nthreads // n_mb
            for n_oc in range(1, min(par, nb_oc) + 1):
                yield n_mb, n_oc, min(par // n_oc, nb_ic)

    best = (1, 1, 1)
    best_mem = mem_cost(*best)
    for s in splits():
        if mem_cost(*s) <= best_mem:
            best_mem, best = mem_cost(*s), s
    best_comp = comp_cost(*best)
    for s in splits():
        comp = comp_cost(*s)
        if (comp <= best_comp and mem_cost(*s) < 1.1 * best_mem) or 4 * comp <= 3 * best_comp:
            best_comp, best = comp, s
    n_mb = best[0]
    if nthreads // 2 < n_mb < nthreads:
        n_mb = min(mb * nthr_oh_reduce, nthreads)
    return n_mb, two_d, n_mb * best[1] * best[2]


def _reduce_threads(nthr, job_size, njobs, mb):
    """``reduce_balancer_t``'s threads per group: how many share the images of a gradient
    reduced by ``cpu_reducer`` (``njobs`` jobs of ``job_size`` floats, at most
    ``nthr * 3 * 5 * 5 * 16 * 16`` floats of buffer)."""
    min_per_group = max(1, njobs // nthr)
    max_per_group = max(1, 3 * 5 * 5 * 16 * 16 // job_size)
    groups = min(njobs // min_per_group, nthr)
    per_group = min(nthr // groups, mb)
    best = njobs * job_size * mb
    for c in range(min_per_group, njobs):
        cg = min(njobs // c, nthr)
        cn = min(nthr // cg, mb)
        ub = _div_up(njobs, cg)
        if cn > 1 and ub > max_per_group:
            continue
        cost = job_size * ub * (_div_up(mb, cn) + (cn != 1))
        if cost < best:
            per_group, best = cn, cost
    return per_group


def _balance211(work, nthr, ithr):
    if nthr <= 1:
        return 0, work
    n1 = _div_up(work, nthr)
    n2 = n1 - 1
    t1 = work - n2 * nthr
    start = n1 * ithr if ithr <= t1 else t1 * n1 + (ithr - t1) * n2
    return start, start + (n1 if ithr < t1 else n2)


def _shares(x_shape, wshape, stride, padding, dilation, threads, bias=False):
    """Each thread's range of positions (flat over image, output row, output column), for
    the weight gradient or the bias's."""
    return _shares_of(tuple(x_shape), tuple(wshape), tuple(stride), tuple(padding),
                      tuple(dilation), threads, bias)


@functools.lru_cache(maxsize=64)
def _shares_of(x_shape, wshape, stride, padding, dilation, threads, bias):
    mb, ic, oc, sizes, out, kernel, st, pad, dil = _wgeometry(x_shape, wshape, stride,
                                                               padding, dilation)
    groups = ic // wshape[1]
    if groups == 1 and kernel == (1, 1) and _takes_1x1(sizes, st, pad):
        # jit_1x1's: cpu_reducer shares the images among the kernel's threads
        nthr = _calls_1x1(mb, ic, oc, out[0], out[1], threads)[1]
        n_mb = _reduce_threads(nthr, _LANES, _div_up(oc, _LANES), mb)
        unit = out[0] * out[1]
        ranges = [_balance211(mb, n_mb, t) for t in range(n_mb)]
        return [(a * unit, b * unit) for a, b in ranges if b > a]
    cg, og = ic // groups, oc // groups
    if _avx2_weights(ic, oc, groups):
        # jit:avx2's kernel: 8-channel blocks, images shared by cpu_reducer's balance
        two_d = False
        blocks = groups * _div_up(og, 8) * (1 if bias else _div_up(cg, 8))
        n_mb = _reduce_threads(threads, 8 if bias else 64 * kernel[0] * kernel[1], blocks,
                               mb)
    elif threads < groups:
        two_d, n_mb = False, 1           # balance: a thread per group
    else:
        # balance: a thread set per group, each group's own split of the rest
        n_mb, two_d, nthr = _nthr_mb(mb, cg, og, sizes, out, kernel, st, dil,
                                     threads // groups)
        if bias and not two_d:
            n_mb = _reduce_threads(nthr * groups, _LANES, groups * _div_up(og, _LANES), mb)
    unit = out[1] if two_d else out[0] * out[1]
    work = mb * (out[0] if two_d else 1)
    ranges = [_balance211(work, n_mb, t) for t in range(n_mb)]
    return [(a * unit, b * unit) for a, b in ranges if b > a]


def _position_chains(cols, g, shares):
    """``res (O, R)``: per share an FMA chain from zero over its positions of
    ``g[o, p] * cols[r, p]`` (``cols`` (R, M), ``g`` (O, M)), the shares' sums added in
    order; None where a value is not finite.

    The positions are cut into MKL panels, each led by a slot per output channel of a
    group (up to 64 channels, :func:`_slots`): their running sums, which identity terms
    carry into the panel's chain. Each call writes its sums straight into the next panel's
    slots (the product transposed: the group's channels as rows), so the calls follow one
    another with nothing between them; a group as wide as the channels reads each panel
    of ``cols`` once, where a call per 16 channels would read it once per 16. The panels
    lie one after another in memory, so that the calls of a piece are one strided batch
    (:func:`_panel_calls`).

    A value that is not finite anywhere leaves a sum that is not finite (a running sum
    never returns to finite, and ``0 * inf`` in a carry spreads NaN), so one check of the
    result stands for all."""
    r, m = cols.shape
    o = g.shape[0]
    panel = _panel()
    rp = r if r >= _LANES or _narrow_rows(r, panel) else _LANES
    op = _div_up(o, _LANES) * _LANES
    slots = _slots(op, panel)
    step = panel - slots

    def share(a, b):
        length = b - a
        nseg = _div_up(length, step)
        # the panels go a piece at a time through buffers that stay in cache (a step's
        # gradients come cold: MKL reads a piece's panels from L2 just after they are filled),
        # one more panel than a piece holds: the last call's sums land in its slots, which the
        # next piece's first panel takes as its carry (a panel's slots are written before they
        # are read)
        piece = max(1, min(nseg, _CACHE_BYTES // ((rp + op) * panel * _F32.itemsize)))
        ax, gx = _panel_buffers(r, o, rp, op, piece, panel, slots)
        carry = np.zeros((op // slots, rp, slots), _F32)
        with _gemm.one_thread():         # small products: MKL's threads would only wait
            for s0 in range(0, nseg, piece):
                p0 = a + s0 * step
                p1 = min(b, p0 + piece * step)
                full, rem = divmod(p1 - p0, step)
                for dst, src, rows in ((ax, cols, r), (gx, g, o)):
                    if full:
                        dst[:full, :rows, slots:] = \
                            src[:, p0:p0 + full * step].reshape(rows, full, step).transpose(
                                1, 0, 2)
                    if rem:
                        dst[full, :rows, slots:slots + rem] = src[:, p0 + full * step:p1]
                for q in range(op // slots):
                    ax[0, :, :slots] = carry[q]
                    _panel_calls(ax, gx, q * slots, slots, full, rem)
                    carry[q] = ax[full + (1 if rem else 0), :, :slots]
        return carry.transpose(0, 2, 1).reshape(op, rp)

    # the shares on threads of their own, as oneDNN's, where each call is long enough that
    # the threads do not wait on each other for the GIL between calls
    if slots * rp * panel >= _PARALLEL_CALL:
        parts = _parallel(share, shares)
    else:
        parts = [share(a, b) for a, b in shares]
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    out = total[:o, :r]
    return out if np.isfinite(out).all() else None


@functools.lru_cache(maxsize=16)
def _narrow_rows(n: int, panel: int) -> bool:
    """Whether MKL's transposed sgemm of 16 rows and ``n`` (4 to 15) columns, the weight
    gradient's call, gives each element as one FMA chain from zero over a panel (probed once
    per width): then the taps go unpadded, a narrower product."""
    if n < 4:
        return False
    rng = np.random.default_rng(n)
    a = _gemm.aligned_empty((_LANES, panel), _F32)
    a[...] = rng.standard_normal(a.shape)
    b = _gemm.aligned_empty((n, panel), _F32)
    b[...] = rng.standard_normal(b.shape)
    out = _gemm.aligned_empty((n, _LANES), _F32)
    with _gemm.one_thread():
        _gemm.gemm(True, False, _LANES, n, panel, 1.0, a, panel, b, panel, 0.0, out, _LANES)
    acc = np.zeros((_LANES, n), _F32)
    for i in range(panel):
        acc = _exact.fma(a[:, i:i + 1], b[None, :, i], acc)
    return np.array_equal(out.T, acc)


def _slots(op: int, panel: int) -> int:
    """The output channels one weight-gradient call carries (a multiple of 16 dividing the
    padded count ``op``, at most a third of the panel: 64 of 192 positions)."""
    for slots in (64, 48, 32):
        if op % slots == 0 and 3 * slots <= panel:
            return slots
    return _LANES


_SGEMM: list = []


def _sgemm():
    """MKL's ``cblas_sgemm`` bound without argument types (:func:`_gemm._raw_gemm`), with
    the float32 constants 1 and 0 and the pointer type, and ``cblas_sgemm_batch_strided``
    (None where this MKL has none): :func:`_panel_calls` makes many small calls."""
    if not _SGEMM:
        i, p, f = ctypes.c_int, ctypes.c_void_p, ctypes.c_float
        batch = _vml.bind("cblas_sgemm_batch_strided", (i, i, i, i, i, i, f, p, i, i, p, i,
                                                        i, f, p, i, i, i)) \
            if hasattr(_vml.library(), "cblas_sgemm_batch_strided") else None
        _SGEMM[:] = [_gemm._raw_gemm(_F32)[0], ctypes.c_float(1.0), ctypes.c_float(0.0),
                     ctypes.c_void_p, batch]
    return _SGEMM


# (rows, slots, channels, panel, calls) -> whether one strided batch of these calls gave the
# bits of the calls one by one (MKL runs a batch's products in order on one thread, so each
# reads the sums the one before wrote; checked once per sizes, as MKL does not promise it)
_BATCH_OK: dict = {}


def _panel_calls(ax, gx, j0, slots, full, rem):
    """The chained calls over a piece's panels for the output channels ``j0:j0 + slots``:
    call ``s`` multiplies ``gx[s, j0:j0 + slots]`` (identity terms, then the gradient) by
    ``ax[s]`` (the running sums, then the taps) into the slots of ``ax[s + 1]``; ``full``
    panels of ``panel`` terms, then ``rem`` more positions in a shorter last call. The full
    panels go in one strided batch where it has been seen to give the calls' bits."""
    gemm, one, zero, ptr, batch = _sgemm()
    _, rp, panel = ax.shape
    op = gx.shape[1]
    size = _F32.itemsize
    pa, pb = gx.ctypes.data + j0 * panel * size, ax.ctypes.data
    sa, sb = op * panel, rp * panel
    key = (rp, slots, op, panel, full)
    ok = _BATCH_OK.get(key) if batch is not None and full > 1 else False
    if ok:
        batch(102, 112, 111, slots, rp, panel, 1.0, pa, panel, sa, pb, panel, sb, 0.0,
              pb + sb * size, panel, sb, full)
    else:
        for s in range(full):
            gemm(102, 112, 111, slots, rp, panel, one, ptr(pa + s * sa * size), panel,
                 ptr(pb + s * sb * size), panel, zero, ptr(pb + (s + 1) * sb * size), panel)
        if ok is None:
            # the batch once more from the same carry: its sums must be the calls'
            sums = ax[1:full + 1, :, :slots].copy()
            batch(102, 112, 111, slots, rp, panel, 1.0, pa, panel, sa, pb, panel, sb, 0.0,
                  pb + sb * size, panel, sb, full)
            _BATCH_OK[key] = np.array_equal(sums.view(np.uint32),
                                            ax[1:full + 1, :, :slots].view(np.uint32))
            ax[1:full + 1, :, :slots] = sums
    if rem:
        gemm(102, 112, 111, slots, rp, slots + rem, one, ptr(pa + full * sa * size), panel,
             ptr(pb + full * sb * size), panel, zero, ptr(pb + (full + 1) * sb * size), panel)


_PANELS = _thread_local()    # per thread: {sizes: the panel buffers of the last few sizes}
_PANELS_KEPT = 4


def _panel_buffers(r, o, rp, op, piece, panel, slots):
    """:func:`_position_chains`' panel buffers for one thread, panel after panel: ``ax``
    (piece + 1, rp, panel), its rows past ``r`` zero; ``gx`` (piece, op, panel), its rows
    past ``o`` zero and each panel led by the identity terms of its group of ``slots``
    channels. The calls write only the panels' slots and the bodies of the first ``r`` and
    ``o`` rows, so the buffers are kept for the next gradient of these sizes (a training
    step's) and the zeros and the identities are made once."""
    kept = _PANELS.__dict__.setdefault("kept", {})
    key = (r, o, rp, op, piece, panel, slots)
    bufs = kept.pop(key, None)
    if bufs is None:
        ax = _gemm.aligned_empty((piece + 1, rp, panel), _F32)
        gx = _gemm.aligned_empty((piece, op, panel), _F32)
        ax[:, r:] = 0
        gx[:, o:] = 0
        gx.reshape(piece, op // slots, slots, panel)[..., :slots] = np.eye(slots, dtype=_F32)
        bufs = ax, gx
        if len(kept) >= _PANELS_KEPT:
            del kept[next(iter(kept))]
    kept[key] = bufs                     # the most recent last
    return bufs


def _positions(a):
    """(C, N * OH * OW) of a (N, C, OH, OW) array: the positions in order per channel."""
    n, c = a.shape[:2]
    return np.ascontiguousarray(a.transpose(1, 0, 2, 3)).reshape(c, -1)


def backward_weights(x: np.ndarray, grad: np.ndarray, wshape, stride, padding, dilation,
                     threads: int):
    """oneDNN's ``jit:avx512_core`` weight gradient (see :func:`direct_backward_weights`;
    with groups, each group's own chains), or None where a value is not finite."""
    one_d = x.ndim == 3
    x_shape = x.shape
    _, kernel, st, pad, dil = _geometry(x_shape, wshape, stride, padding, dilation)
    shares = _shares(x_shape, wshape, stride, padding, dilation, threads)
    if one_d:
        x, grad = x[:, :, None], grad[:, :, None]
    win, out = _windows(x, kernel, st, pad, dil)
    n, c = x.shape[:2]
    groups = c // wshape[1]
    cg, og = wshape[1], wshape[0] // groups
    r = cg * kernel[0] * kernel[1]
    # a row of ones after each group's taps: the bias gradient's chain of adds, nearly free
    cols = np.empty((groups, r + 1, n * out[0] * out[1]), _F32)
    cols[:, :r].reshape((groups, cg) + kernel + (n,) + out)[...] = \
        win.transpose(1, 2, 3, 0, 4, 5).reshape((groups, cg) + kernel + (n,) + out)
    cols[:, r] = 1
    g = _positions(grad)
    parts = []
    for j in range(groups):
        part = _position_chains(cols[j], g[j * og:(j + 1) * og], shares)
        if part is None:
            return None
        parts.append(part)
    res = parts[0] if groups == 1 else np.concatenate(parts)
    if shares == _shares(x_shape, wshape, stride, padding, dilation, threads, bias=True):
        _BIAS[:] = [weakref.ref(grad), (x_shape, tuple(wshape), stride, padding, dilation,
                                        threads), res[:, r].copy()]
    # contiguous, as oneDNN's diff_weights (and so a parameter's .grad taken as it is)
    return np.ascontiguousarray(res[:, :r]).reshape(tuple(wshape))


def backward_bias(grad: np.ndarray, x_shape, wshape, stride, padding, dilation,
                  threads: int):
    """The bias gradient oneDNN's backward-weights kernel computes beside the weights'
    (see :func:`direct_backward_weights`): per share a chain of adds over its positions,
    the shares added in order (the weight gradient's by-product where it has just been
    computed from this gradient)."""
    ref, key, bias = _BIAS
    _BIAS[:] = [None, None, None]
    if ref is not None and ref() is grad and key == (x_shape, tuple(wshape), stride, padding,
                                                     dilation, threads):
        return bias
    return _share_adds(grad, _shares(x_shape, wshape, stride, padding, dilation, threads,
                                     bias=True))


def _share_adds(grad: np.ndarray, shares):
    """Per share of the positions a chain of adds, the shares' sums added in order."""
    if grad.ndim == 3:
        grad = grad[:, :, None]
    g = _positions(grad)
    total = None
    for a, b in shares:
        part = _adds_in_order(g[:, a:b])
        total = part if total is None else total + part
    return total


# ---------------------------------------------------------------- 1x1 backward weights
# ``jit_avx512_common_1x1_convolution_bwd_weights_t`` reduces over the positions (the
# strided input's copy where a stride takes ``rtus``): threads share them (``nthr_mb`` of
# ``balance``) in units of ``reduce_block`` positions of one image; each thread's calls
# take ``nb_reduce_blocking`` units of one image at a time (the rest of the image where less
# than ``nb_reduce_blocking_max`` remain). Each call's sums are FMA chains from zero over its
# positions, stored by the thread's first call and added to its sums after; the threads'
# sums are then added in thread order. The bias: per thread of ``cpu_reducer``'s balance a
# chain of adds over its images, the threads' added in order.

@functools.cache
def _l1_floats() -> int:
    """The per-core L1 data cache in floats, as oneDNN's ``get_per_core_cache_size(1)``
    reads it from the CPU (the kernel's blocks follow it); 32 KiB where it cannot be read."""
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for index in sorted(os.listdir(base)):
            path = os.path.join(base, index)
            with open(os.path.join(path, "level")) as f_level, \
                    open(os.path.join(path, "type")) as f_type:
                if f_level.read().strip() != "1" or f_type.read().strip() != "Data":
                    continue
            with open(os.path.join(path, "size")) as f_size:
                size = f_size.read().strip()
            scale = {"K": 1024, "M": 1024 * 1024}.get(size[-1:], 1)
            return int(size.rstrip("KM")) * scale // 4
    except (OSError, ValueError):
        pass
    return 32 * 1024 // 4


def _best_divider(value, lo, hi, find_max):
    """oneDNN's ``best_divider``: the divider of least padding loss (float32) in [lo, hi]."""
    hi = max(1, min(hi, value))
    lo = max(1, min(lo, hi))
    best, pick = np.float32(np.inf), hi
    for d in range(hi, lo - 1, -1):
        r = _div_up(value, d) * d
        loss = np.float32(r - value) / np.float32(r)
        if loss < best or (not find_max and loss == best):
            best, pick = loss, d
    return pick


@functools.lru_cache(maxsize=64)
def _calls_1x1(mb, ic, oc, ih, iw, threads):
    """(per thread sharing the positions, its calls' (start, end) flat positions; the
    threads of the kernel's balance)."""
    size = ih * iw
    unit = _best_divider(size, 7, 16, True)
    if size % unit:
        unit = _best_divider(iw, 4, iw, False)
    if unit > 256:
        unit = 1
    ur = _LANES // 2 if unit <= 19 else _LANES
    most = min(_l1_floats() // ur, size)
    least = min(_l1_floats() // ur, max(iw, ih))
    block = max(_best_divider(size, least, most, True) // unit * unit, unit)
    step, step_max = _div_up(block, unit), _div_up(block * 3 // 2 // unit * unit, unit)
    sp_nb = _div_up(size, unit)
    nb_bcast, nb_load = _div_up(ic, _LANES), _div_up(oc, _LANES)

    def cost(n_mb, n_oc, n_ic):
        work = _div_up(mb * sp_nb, n_mb)
        return (work * _div_up(nb_bcast, n_ic) * _LANES * unit
                + work * _div_up(nb_load, n_oc) * _LANES * unit
                + 12 * _div_up(nb_load, n_oc) * _div_up(nb_bcast, n_ic) * _LANES * _LANES)

    (n_mb, n_oc, n_ic), best = (1, 1, 1), cost(1, 1, 1)
    for m in range(1, min(threads, mb * sp_nb) + 1):
        par = threads // m
        for o in range(1, min(par, nb_load) + 1):
            c = cost(m, o, min(par // o, nb_bcast))
            if c <= best:
                best, (n_mb, n_oc, n_ic) = c, (m, o, min(par // o, nb_bcast))
    if threads // 2 < n_mb < threads:
        n_mb = min(mb, threads)
    nthr = n_mb * n_oc * n_ic
    shares = []
    for t in range(n_mb):
        start, end = _balance211(mb * sp_nb, n_mb, t)
        calls, u = [], start
        while u < end:
            img, sp = divmod(u, sp_nb)
            left = min(sp_nb - sp, end - u)
            n = left if left < step_max else step
            a = img * size + sp * unit
            calls.append((a, min(a + n * unit, (img + 1) * size)))
            u += n
        if calls:
            shares.append(calls)
    return shares, nthr


def direct_backward_weights_1x1(x: np.ndarray, wshape, stride, padding, dilation, groups,
                                threads: int) -> bool:
    """Whether torch computes this float32 weight gradient with oneDNN's ``jit_1x1``
    backward-weights kernel (where it takes the 1x1 forward) and MKL can reproduce it."""
    return _plain(x) and _direct_1x1(x.shape, wshape, stride, padding, dilation, groups,
                                     threads)


def backward_weights_1x1(x: np.ndarray, grad: np.ndarray, wshape, stride, threads: int):
    """oneDNN's ``jit_1x1`` weight gradient (see :func:`direct_backward_weights_1x1`): per
    call one MKL product of at most a panel of positions (longer calls carried across
    panels by :func:`_position_chains`), the calls of a thread added in order by ``beta``,
    the threads' sums after; None where a carried sum is not finite."""
    if x.ndim == 3:
        x, grad, stride = x[:, :, None], grad[:, :, None], (1,) + tuple(stride)
    x = x[:, :, ::stride[0], ::stride[1]]
    mb, c, ih, iw = x.shape
    o = grad.shape[1]
    shares = _calls_1x1(mb, c, o, ih, iw, threads)[0]
    m = mb * ih * iw
    rp, op = max(c, _LANES), _div_up(o, _LANES) * _LANES
    cols = _gemm.aligned_empty((rp, m), _F32, zero=rp > c)
    cols[:c].reshape(c, mb, ih, iw)[...] = x.transpose(1, 0, 2, 3)
    g = _gemm.aligned_empty((op, m), _F32, zero=op > o)
    g[:o].reshape(o, mb, ih, iw)[...] = grad.transpose(1, 0, 2, 3)
    panel = _panel()
    gemm, one, _, ptr = _sgemm()[:4]
    size = _F32.itemsize
    total = None
    with _gemm.one_thread():
        for calls in shares:
            acc = _gemm.aligned_empty((rp, op), _F32)
            beta = ctypes.c_float(0.0)
            for a, b in calls:
                if b - a <= panel:
                    gemm(102, 112, 111, op, rp, b - a, one, ptr(g.ctypes.data + a * size), m,
                         ptr(cols.ctypes.data + a * size), m, beta, ptr(acc.ctypes.data),
                         op)
                else:
                    part = _position_chains(cols[:, a:b], g[:, a:b], [(0, b - a)])
                    if part is None:
                        return None
                    if beta.value:
                        acc += part.T
                    else:
                        acc[...] = part.T
                beta = one
            total = acc if total is None else total + acc
    return np.ascontiguousarray(total[:c, :o].T).reshape(tuple(wshape))


# ---------------------------------------------------------------- depthwise weights: gemm
# A depthwise weight gradient that ``jit_dw`` declines (a kernel wider than 3, a padding
# past half the kernel, a dilation) takes oneDNN's ``gemm_convolution_bwd_weights_t``:
# per group and image one ``sgemm("T", "N")`` of the im2col (taps × positions) by the
# group's output gradient, ``beta = 1`` after the first image. One output channel a
# group makes it a ``gemv`` (``jit_avx_gemv_t_f32_kern``): per tap, 8 lanes each an FMA
# chain over the positions of its lane in the whole 16-position blocks, summed
# ((l0 + l1) + (l4 + l5)) + ((l2 + l3) + (l6 + l7)) and added to the running sum; then
# the remaining 8, 4, 2 and 1 positions the same way, each its own sum added. With no
# more threads than groups each group is one thread's, so the sums are the same on any
# such count. The bias: per image row a chain of adds, the rows' sums added in order.

_GEMV_LANES = 8              # jit_avx_gemv_t_f32_kern: one ymm of partial sums per output
_GEMV_BLOCK = 16             # positions per step of its main loop (two ymm)


def _takes_dw_weights(sizes, kernel, stride, padding, dilation) -> bool:
    """Whether ``jit_dw``'s backward-weights kernel takes these 2-d sizes (its
    ``init_conf``)."""
    (ih, iw), (kh, kw), (sh, sw), (ph, pw) = sizes, kernel, stride, padding
    if kw > 3 or sw > kw or any(d != 1 for d in dilation):
        return False
    oh = (ih + 2 * ph - kh) // sh + 1
    ow = (iw + 2 * pw - kw) // sw + 1
    b_pad = max(0, (oh - 1) * sh + kh - ih - ph)
    r_pad = max(0, (ow - 1) * sw + kw - iw - pw)
    return (ph <= kh // 2 and b_pad <= kh // 2 and pw <= kw // 2 and r_pad <= kw // 2
            and ih >= kh + (-ph) % sh and (ph <= 1 or ph % sh == 0)
            and (b_pad <= 1 or b_pad % sh == 0))


def _gemm_depthwise(shape, wshape, stride, padding, dilation, groups, threads) -> bool:
    if len(shape) not in (3, 4) or 0 in shape or 0 in wshape or groups < 2 \
            or not (shape[1] == wshape[0] == groups and wshape[1] == 1):
        return False
    sizes, kernel, st, pad, dil = _geometry(shape, wshape, stride, padding, dilation)
    out = [(s + 2 * p - d * (k - 1) - 1) // t + 1
           for s, k, t, p, d in zip(sizes, kernel, st, pad, dil)]
    if min(out) <= 0 or out[0] * out[1] > _GEMM_POSITIONS:
        return False
    return (threads <= groups and not _takes_dw_weights(sizes, kernel, st, pad, dil)
            and use_mkldnn(shape, wshape, stride, dilation, groups, threads)
            and _onednn.avx512())


_GEMM_POSITIONS = 1 << 15    # positions per image measured to be one os block


def gemm_depthwise_weights(x: np.ndarray, wshape, stride, padding, dilation, groups,
                           threads: int) -> bool:
    """Whether torch computes this float32 depthwise weight gradient with oneDNN's gemm
    convolution (see :func:`weights_gemm`)."""
    return _plain(x) and _gemm_depthwise(x.shape, wshape, stride, padding, dilation, groups,
                                         threads)


def gemm_depthwise_bias(grad: np.ndarray, x_shape, wshape, stride, padding, dilation,
                        groups, threads: int) -> bool:
    """Whether the gemm convolution computes this bias gradient (its input's layout is not
    known here)."""
    return grad.dtype == _F32 and _gemm_depthwise(x_shape, wshape, stride, padding, dilation,
                                                  groups, threads)


def _gemv_sums(cols, g):
    """``jit_avx_gemv_t_f32_kern``'s sums of ``cols (..., T, P) · g (..., P)``: the list
    of (..., T) sums it adds to ``y`` one after another."""
    p = cols.shape[-1]
    full = p // _GEMV_BLOCK * _GEMV_BLOCK
    g = g[..., None, :]
    sums = []

    def lanes(v):
        t = v[..., 0::2] + v[..., 1::2]              # vhaddps: (l0+l1, l2+l3, l4+l5, l6+l7)
        return (t[..., 0] + t[..., 2]) + (t[..., 1] + t[..., 3])

    if full:
        lead = cols.shape[:-2]
        acc = _lane_chains(cols[..., :full].reshape((-1,) + cols.shape[-2:-1] + (full,)),
                           g[..., 0, :full].reshape(-1, 1, full), _GEMV_LANES)
        if acc is not None:
            acc = acc.reshape(lead + acc.shape[2:])
        else:
            acc = np.zeros(cols.shape[:-1] + (_GEMV_LANES,), _F32)
            for k in range(0, full, _GEMV_LANES):
                a = cols[..., k:k + _GEMV_LANES]
                acc = _exact.fma(a, np.broadcast_to(g[..., k:k + _GEMV_LANES], a.shape), acc)
        sums.append(lanes(acc))
    k = full
    for ux in (8, 4, 2, 1):
        if (p - full) & ux:
            v = np.zeros(cols.shape[:-1] + (_GEMV_LANES,), _F32)
            v[..., :ux] = cols[..., k:k + ux] * g[..., k:k + ux]
            sums.append(lanes(v))
            k += ux
    return sums


def _lane_chains(cols, g, lanes):
    """(B, O, T, lanes): lane ``l``'s FMA chain from zero over positions ``l``,
    ``l + lanes``, ... of ``g (B, O, P) * cols (B, T, P)`` (positions past ``P`` as
    zeros); None where the chains pass MKL's panel.

    Per batch item one MKL product, (output, lane) as its rows (padded to 16) and (tap,
    lane) as its columns: each lane's chain is on the diagonal, its terms of other lanes'
    columns never computed into it. A chain is padded to 16 terms with zeros (an FMA of
    zero leaves a sum from +0 as it is)."""
    b, t, p = cols.shape
    o = g.shape[1]
    steps = _div_up(p, lanes)
    if steps > _panel():
        return None
    kk = max(steps, _LANES)
    rows = _div_up(o * lanes, _LANES) * _LANES
    cols_n = max(t * lanes, _LANES)
    a = _gemm.aligned_empty((b, rows, kk), _F32, zero=True)
    av = a[:, :o * lanes].reshape(b, o, lanes, kk)
    bv = _gemm.aligned_empty((b, cols_n, kk), _F32, zero=True)
    bt = bv[:, :t * lanes].reshape(b, t, lanes, kk)
    full = p // lanes
    av[..., :full] = g[..., :full * lanes].reshape(b, o, full, lanes).transpose(0, 1, 3, 2)
    bt[..., :full] = cols[..., :full * lanes].reshape(b, t, full, lanes).transpose(0, 1, 3, 2)
    if p > full * lanes:
        av[:, :, :p - full * lanes, full] = g[..., full * lanes:]
        bt[:, :, :p - full * lanes, full] = cols[..., full * lanes:]
    res = _gemm.aligned_empty((b, cols_n, rows), _F32)
    gemm, one, zero, ptr = _sgemm()[:4]
    size = _F32.itemsize
    pa, pb, pc = a.ctypes.data, bv.ctypes.data, res.ctypes.data
    sa, sb, sc = rows * kk * size, cols_n * kk * size, cols_n * rows * size
    with _gemm.one_thread():
        for i in range(b):
            gemm(102, 112, 111, rows, cols_n, kk, one, ptr(pa + i * sa), kk,
                 ptr(pb + i * sb), kk, zero, ptr(pc + i * sc), rows)
    lane = np.arange(lanes)
    out = res[:, :t * lanes, :o * lanes].reshape(b, t, lanes, o, lanes)[:, :, lane, :, lane]
    return out.transpose(1, 3, 2, 0)     # (lanes, B, T, O) -> (B, O, T, lanes)


def _halving(v):
    """The sum of the last axis's lanes as a 16-way halving tree adds them (lane ``j``
    with ``j + 8``, then ``j + 4``, ``j + 2``, ``j + 1``): ``reduction_16x16``."""
    while v.shape[-1] > 1:
        h = v.shape[-1] // 2
        v = v[..., :h] + v[..., h:]
    return v[..., 0]


# ---------------------------------------------------------------- grouped weights: gemm
# Groups whose channel counts share no block of 8 take oneDNN's gemm convolution too; with
# 2 to 15 output channels a group its ``sgemm("T", "N")`` is ``gemm_smalln_tn``: per
# weight element 16 lanes of FMA chains over the positions (lane ``l`` the positions
# ``l``, ``l + 16``, ...), summed by a halving tree and added to the running sum (the
# first image's stored). One output channel a group: the gemv above.

def gemm_grouped_weights(x: np.ndarray, wshape, stride, padding, dilation, groups,
                         threads: int) -> bool:
    """Whether torch computes this float32 grouped weight gradient with oneDNN's gemm
    convolution and its ``smalln_tn`` or gemv kernel (see :func:`weights_gemm`)."""
    return _plain(x) and _gemm_grouped(x.shape, wshape, stride, padding, dilation, groups,
                                       threads)


def _gemm_grouped(shape, wshape, stride, padding, dilation, groups, threads) -> bool:
    if len(shape) not in (3, 4) or 0 in shape or 0 in wshape or groups < 2:
        return False
    cg, og = shape[1] // groups, wshape[0] // groups
    if (cg, og) == (1, 1) or og > 15 or _group_block(cg, og) >= 8:
        return False
    sizes, kernel, st, pad, dil = _geometry(shape, wshape, stride, padding, dilation)
    out = [(s + 2 * p - d * (k - 1) - 1) // t + 1
           for s, k, t, p, d in zip(sizes, kernel, st, pad, dil)]
    return (min(out) > 0 and out[0] * out[1] <= _GEMM_POSITIONS and threads <= groups
            and use_mkldnn(shape, wshape, stride, dilation, groups, threads)
            and _onednn.avx512())


def gemm_grouped_bias(grad: np.ndarray, x_shape, wshape, stride, padding, dilation, groups,
                      threads: int) -> bool:
    """Whether the gemm convolution computes this grouped bias gradient."""
    return grad.dtype == _F32 and _gemm_grouped(x_shape, wshape, stride, padding, dilation,
                                                groups, threads)


def weights_gemm(x: np.ndarray, grad: np.ndarray, wshape, stride, padding, dilation,
                 groups):
    """The gemm convolution's weight gradient with groups (see :func:`gemm_grouped_weights`
    and :func:`gemm_depthwise_weights`): per image the ``smalln_tn`` or gemv sums, each
    added in turn to the running sum (the first from zero), or None where the lanes'
    chains pass MKL's panel."""
    _, kernel, st, pad, dil = _geometry(x.shape, wshape, stride, padding, dilation)
    if x.ndim == 3:
        x, grad = x[:, :, None], grad[:, :, None]
    win, out = _windows(x, kernel, st, pad, dil)
    n, c = x.shape[:2]
    cg, og = c // groups, wshape[0] // groups
    t = cg * kernel[0] * kernel[1]
    cols = win.reshape(n * groups, t, out[0] * out[1])
    g = grad.reshape(n * groups, og, -1)
    if og == 1:
        sums = _gemv_sums(cols.reshape(n, groups, t, -1), g.reshape(n, groups, -1))
        y = np.zeros((groups, t), _F32)
        for i in range(n):
            for part in sums:
                y = y + part[i]
        return y.reshape(tuple(wshape))
    lanes = _lane_chains(cols, g, _LANES)
    if lanes is None:
        return None
    sums = _halving(lanes).reshape(n, groups * og, t)
    y = sums[0]
    for i in range(1, n):
        y = y + sums[i]
    return y.reshape(tuple(wshape))


def bias_gemm(grad: np.ndarray):
    """The gemm convolution's bias gradient: per image row (over the output's last axis) a
    chain of adds from zero, the rows' sums added in order."""
    n, c = grad.shape[:2]
    rows = _adds_in_order(np.ascontiguousarray(grad.swapaxes(0, 1)).reshape(-1, grad.shape[-1]))
    return _adds_in_order(rows.reshape(c, -1))


# ---------------------------------------------------------------- depthwise weights: jit_dw
# ``jit_uni_dw_conv_bwd_weights_kernel_f32`` keeps each weight's sum in memory and FMAs
# into it image after image, output row after row, column after column (taps in the
# padding skipped): one chain per thread. A call takes 15 output rows of an image; an
# output wider than 30 columns it cuts in blocks of 15 (``calculate_w_unrolling``) and runs
# the rows of each block in turn. Threads take blocks of 16 channels first
# (``nthr_g``), the images (``nthr_mb``) only where fewer blocks than threads; those
# threads' sums are added in order. The bias: the same chain of adds.

def direct_depthwise_weights(x: np.ndarray, wshape, stride, padding, dilation, groups,
                             threads: int) -> bool:
    """Whether torch computes this float32 depthwise weight gradient with oneDNN's
    ``jit_dw`` backward-weights kernel (its ``init_conf``: a kernel of at most 3 columns,
    a padding within half the kernel, no dilation; NCHW data, AVX512)."""
    return _plain(x) and _dw_weights(x.shape, wshape, stride, padding, dilation, groups,
                                     threads)


def direct_depthwise_bias(grad: np.ndarray, x_shape, wshape, stride, padding, dilation,
                          groups, threads: int) -> bool:
    """Whether ``jit_dw``'s backward-weights kernel computes this bias gradient."""
    return grad.dtype == _F32 and _dw_weights(x_shape, wshape, stride, padding, dilation,
                                              groups, threads)


def _dw_weights(shape, wshape, stride, padding, dilation, groups, threads) -> bool:
    if len(shape) not in (3, 4) or 0 in shape or 0 in wshape or groups < 2 \
            or not (shape[1] == wshape[0] == groups and wshape[1] == 1):
        return False
    sizes, kernel, st, pad, dil = _geometry(shape, wshape, stride, padding, dilation)
    return (_takes_dw_weights(sizes, kernel, st, pad, dil)
            and use_mkldnn(shape, wshape, stride, dilation, groups, threads)
            and _onednn.avx512() and _panel() > 0)


def _dw_shares(x_shape, wshape, stride, padding, threads):
    """The positions' shares of ``jit_dw``'s threads: whole images, split only where
    fewer 16-channel blocks than threads."""
    mb = x_shape[0]
    _, _, _, _, out, _, _, _, _ = _wgeometry(x_shape, wshape, stride, padding,
                                             (1,) * (len(x_shape) - 2))
    n_g = min(_div_up(x_shape[1], _LANES), threads)
    n_mb = min(max(1, threads // n_g), mb)
    unit = out[0] * out[1]
    return [(a * unit, b * unit) for a, b in (_balance211(mb, n_mb, t) for t in range(n_mb))
            if b > a]


_DW_ROWS, _DW_UNROLL, _DW_BLOCK = 15, 30, 15   # jit_dw: oh_blk_size, max_unroll_w_, block_size_


def _dw_order(oh, ow, r_pad):
    """An image's positions in the order ``jit_dw`` chains them, or None where that is
    the plain order (at most 30 columns)."""
    if ow <= _DW_UNROLL:
        return None
    unroll = min(_DW_BLOCK, ow)
    trips, tail = divmod(ow, unroll)
    if (tail == 0 and r_pad) or (r_pad and r_pad >= tail):
        if trips > 1:
            tail, trips = tail + unroll, trips - 1
        else:
            tail, unroll = tail + unroll - unroll // 2, unroll // 2
    cuts = [unroll] * trips + ([tail] if tail else [])
    grid = np.arange(oh * ow).reshape(oh, ow)
    order = []
    for r0 in range(0, oh, _DW_ROWS):
        c0 = 0
        for width in cuts:
            order.append(grid[r0:r0 + _DW_ROWS, c0:c0 + width].ravel())
            c0 += width
    return np.concatenate(order)


def backward_weights_depthwise(x: np.ndarray, grad: np.ndarray, wshape, stride, padding,
                               threads: int):
    """``jit_dw``'s weight gradient (see :func:`direct_depthwise_weights`): 16 channels
    a :func:`_position_chains` product (each channel's own taps on the diagonal), or None
    where a value is not finite."""
    shares = _dw_shares(x.shape, wshape, stride, padding, threads)
    _, kernel, st, pad, dil = _geometry(x.shape, wshape, stride, padding,
                                        (1,) * (x.ndim - 2))
    if x.ndim == 3:
        x, grad = x[:, :, None], grad[:, :, None]
    win, out = _windows(x, kernel, st, pad, dil)
    n, c = x.shape[:2]
    kp = kernel[0] * kernel[1]
    order = _dw_order(out[0], out[1],
                      max(0, (out[1] - 1) * st[1] + kernel[1] - x.shape[3] - pad[1]))
    if order is not None:
        win = win.reshape(win.shape[:4] + (-1,))[..., order]
        grad = grad.reshape(n, c, 1, -1)[..., order]
    g = _positions(grad)
    res = np.empty((c, kp), _F32)
    for c0 in range(0, c, _LANES):
        cb = min(_LANES, c - c0)
        cols = np.ascontiguousarray(
            win[:, c0:c0 + cb].reshape(n, cb, kp, -1).transpose(1, 2, 0, 3)).reshape(cb * kp, -1)
        part = _position_chains(cols, g[c0:c0 + cb], shares)
        if part is None:
            return None
        idx = np.arange(cb)
        res[c0:c0 + cb] = part.reshape(cb, cb, kp)[idx, idx]
    return res.reshape(tuple(wshape))


def backward_bias_depthwise(grad: np.ndarray, x_shape, wshape, stride, padding,
                            threads: int):
    """``jit_dw``'s bias gradient: per share a chain of adds, the shares' sums added."""
    return _share_adds(grad, _dw_shares(x_shape, wshape, stride, padding, threads))
