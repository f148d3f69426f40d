"""The CTC loss (``CtcLossBackward0``), torch's CPU algorithm: the forward variables
``log_alpha`` over the blank-extended target in log space, the negative log-likelihood from
its last two states, and the gradient from ``log_alpha + log_beta`` as torch computes it
(``exp(lp) - exp(logsumexp_s(alpha + beta) + nll - lp)``, which assumes ``log_probs`` are
log-softmax outputs, as torch's does). The gradient is not itself differentiable (torch:
``_ctc_loss_backward`` has no derivative). Like torch's one-by-one loops, every ``exp`` and
``log`` is the C library's, and each label's ``alpha + beta`` terms are log-added from the
last extended-target position down.
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from . import _libm
from .nn_extra import no_double_backward
from .registry import NONE, op

_wrap = Tensor._wrap


def _exp(x):
    return _libm.libm("exp", x)


def _log(x):
    return _libm.libm("log", x)


def _lse(*terms):
    """torch's log-sum-exp of two or three terms (``std::exp``/``std::log``: the C
    library's), with a max of -inf taken as 0."""
    m = terms[0]
    for t in terms[1:]:
        m = np.maximum(m, t)
    m = np.where(m == -np.inf, m.dtype.type(0), m)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        s = _exp(terms[0] - m)
        for t in terms[1:]:
            s = s + _exp(t - m)
        return _log(s) + m


def _targets(targets, target_lengths):
    """Each sample's target labels (``targets`` padded (N, S) or concatenated 1-D)."""
    out, pos = [], 0
    for b, n in enumerate(target_lengths):
        if targets.ndim == 1:
            out.append(targets[pos:pos + n])
            pos += n
        else:
            out.append(targets[b, :n])
    return out


class _Batch:
    """The blank-extended targets ``l'`` of a batch, padded with blanks to one length
    ``S``, and what the recursions read of them. Every sample runs the same elementwise
    steps at once; positions beyond a sample's own ``2L + 1`` never feed its own ones."""

    def __init__(self, targets, input_lengths, target_lengths, blank):
        n = len(target_lengths)
        self.T = np.asarray(input_lengths, np.int64)
        self.L = np.asarray(target_lengths, np.int64)
        S = 2 * int(self.L.max(initial=0)) + 1
        ext = np.full((n, S), blank, np.int64)
        for b, tgt in enumerate(_targets(targets, target_lengths)):
            ext[b, 1:2 * len(tgt):2] = tgt
        self.ext, self.S, self.rows = ext, S, np.arange(n)
        pos = np.arange(S)
        own = pos < (2 * self.L + 1)[:, None]
        # alpha reads s - 2 where l'[s - 2] != l'[s]; beta reads s + 1 and s + 2 (where
        # l'[s + 2] != l'[s]) inside the sample's own positions
        self.skip_a = np.zeros((n, S), bool)
        self.skip_a[:, 2:] = ext[:, 2:] != ext[:, :-2]
        self.next_b = own & (pos < 2 * self.L[:, None])
        self.skip_b = np.zeros((n, S), bool)
        self.skip_b[:, :-2] = (ext[:, :-2] != ext[:, 2:]) & (pos[:-2] < 2 * self.L[:, None] - 1)

    def lp(self, log_probs, t):
        """``log_probs[t, b, l'[b, s]]`` for every sample and position."""
        return log_probs[t][self.rows[:, None], self.ext]


def _shift(a, k, ninf):
    """``a`` moved ``k`` positions along its last axis (right for k > 0), -inf filling."""
    out = np.full_like(a, ninf)
    if k > 0:
        out[:, k:] = a[:, :-k]
    else:
        out[:, :k] = a[:, -k:]
    return out


def _alpha(log_probs, bt):
    """``log_alpha`` (N, T, S) as ``ctc_loss_cpu_template`` computes it."""
    n, S = bt.ext.shape
    T = log_probs.shape[0]
    dt = log_probs.dtype
    ninf = dt.type(-np.inf)
    la = np.full((n, T, S), ninf, dt)
    if T == 0:
        return la
    first = bt.lp(log_probs, 0)
    la[:, 0, 0] = first[:, 0]
    if S > 1:
        la[:, 0, 1] = np.where(bt.L > 0, first[:, 1], ninf)
    for t in range(1, T):
        prev = la[:, t - 1]
        a3 = np.where(bt.skip_a, _shift(prev, 2, ninf), ninf)
        la[:, t] = _lse(prev, _shift(prev, 1, ninf), a3) + bt.lp(log_probs, t)
    return la


def _nll(la, bt):
    """``-log p`` per sample from its last two alphas (inf for an empty input)."""
    out = np.full(bt.ext.shape[0], np.inf, la.dtype)
    ok = bt.T > 0
    b = bt.rows[ok]
    last = la[b, bt.T[ok] - 1]
    l1 = last[np.arange(b.size), 2 * bt.L[ok]]
    l2 = np.where(bt.L[ok] > 0, last[np.arange(b.size), np.maximum(2 * bt.L[ok] - 1, 0)],
                  la.dtype.type(-np.inf))
    out[ok] = -_lse(l1, l2)
    return out


def _beta(log_probs, bt):
    """``log_beta`` (N, T, S) as ``ctc_loss_backward_cpu_template`` computes it: each
    sample's last row from its input length down."""
    n, S = bt.ext.shape
    T = log_probs.shape[0]
    dt = log_probs.dtype
    ninf = dt.type(-np.inf)
    lb = np.full((n, T, S), ninf, dt)
    ok = bt.T > 0
    b, last = bt.rows[ok], bt.T[ok] - 1
    tail = log_probs[last, b][np.arange(b.size)[:, None], bt.ext[ok]]
    lb[b, last, 2 * bt.L[ok]] = tail[np.arange(b.size), 2 * bt.L[ok]]
    has = bt.L[ok] > 0
    lb[b[has], last[has], 2 * bt.L[ok][has] - 1] = tail[np.arange(b.size)[has],
                                                        2 * bt.L[ok][has] - 1]
    for t in range(T - 2, -1, -1):
        run = t < bt.T - 1
        if not run.any():
            continue
        nxt = lb[:, t + 1]
        b2 = np.where(bt.next_b, _shift(nxt, -1, ninf), ninf)
        b3 = np.where(bt.skip_b, _shift(nxt, -2, ninf), ninf)
        new = _lse(nxt, b2, b3) + bt.lp(log_probs, t)
        lb[:, t] = np.where(run[:, None], new, lb[:, t])
    return lb


def _ctc_grad(grad, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity,
              result):
    lp = log_probs._data
    nll = result._data
    bt = _Batch(targets._data, input_lengths, target_lengths, blank)
    n, S = bt.ext.shape
    T, _, C = lp.shape
    dt = lp.dtype
    la, lb = _alpha(lp, bt), _beta(lp, bt)
    ab = la + lb
    # the sums over positions (log-added, the last position first), per sample and time
    lcab = np.full((n, T, C), -np.inf, dt)
    ok = bt.T > 0
    b, last = bt.rows[ok], bt.T[ok] - 1
    lcab[b, last, blank] = ab[b, last, 2 * bt.L[ok]]
    has = bt.L[ok] > 0
    lcab[b[has], last[has], bt.ext[b[has], 2 * bt.L[ok][has] - 1]] = \
        ab[b[has], last[has], 2 * bt.L[ok][has] - 1]
    steps = np.arange(T)[None, :] < (bt.T - 1)[:, None]          # t < T_b - 1
    for s in range(S - 1, -1, -1):
        sel = bt.rows[s <= 2 * bt.L]
        if not sel.size:
            continue
        c = bt.ext[sel, s]
        cur = lcab[sel, :, c]
        new = _lse(cur, ab[sel, :, s])
        lcab[sel, :, c] = np.where(steps[sel], new, cur)
    out = np.zeros((n, T, C), dt)
    live = ok & ~(zero_infinity & (nll == np.inf))
    with np.errstate(over="ignore", invalid="ignore"):
        g = (_exp(lp.transpose(1, 0, 2)) - _exp(lcab + nll[:, None, None]
                                                - lp.transpose(1, 0, 2)))
        g *= grad._data.astype(dt, copy=False)[:, None, None]
    keep = live[:, None] & (np.arange(T)[None, :] < bt.T[:, None])
    out[keep] = g[keep]
    return no_double_backward(_wrap(out.transpose(1, 0, 2)), log_probs, "_ctc_loss_backward")


@op("CtcLossBackward0", name="_ctc_loss", method=False, function=False, promote=NONE,
    tensors=("log_probs", "targets"), log_probs=_ctc_grad)
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    """Per sample, ``-log p(target | log_probs)`` over all CTC alignments; (T, N, C) input."""
    bt = _Batch(targets, input_lengths, target_lengths, blank)
    return _nll(_alpha(log_probs, bt), bt)
