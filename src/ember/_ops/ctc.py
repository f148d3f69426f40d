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


def _libc(dtype):
    """The C library's ``exp`` and ``log`` for ``dtype`` (what ``std::exp``/``std::log`` run)."""
    if dtype == np.float32:
        return _libm.float_fn("exp"), _libm.float_fn("log")
    return _libm.double_fn("exp"), _libm.double_fn("log")


def _lse(*terms):
    """torch's log-sum-exp of two or three terms, with a max of -inf taken as 0."""
    shape = np.shape(terms[0])
    terms = [np.reshape(t, (-1,)) for t in terms]
    m = terms[0]
    for t in terms[1:]:
        m = np.maximum(m, t)
    m = np.where(m == -np.inf, m.dtype.type(0), m)
    exp, log = _libc(m.dtype)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        s = exp(terms[0] - m)
        for t in terms[1:]:
            s = s + exp(t - m)
        return (log(s) + m).reshape(shape)


def _prime(target, blank):
    """The blank-extended target ``l'`` (length 2L + 1)."""
    ext = np.full(2 * len(target) + 1, blank, np.int64)
    ext[1::2] = target
    return ext


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


def _alpha(lp, ext, T):
    S = ext.size
    la = np.full((T, S), -np.inf, lp.dtype)
    la[0, 0] = lp[0, ext[0]]
    if S > 1:
        la[0, 1] = lp[0, ext[1]]
    skip = np.zeros(S, bool)
    skip[2:] = ext[2:] != ext[:-2]
    ninf = lp.dtype.type(-np.inf)
    for t in range(1, T):
        prev = la[t - 1]
        a2 = np.concatenate(([ninf], prev[:-1]))
        a3 = np.where(skip, np.concatenate(([ninf, ninf], prev[:-2]))[:S], ninf)
        la[t] = _lse(prev, a2, a3) + lp[t, ext]
    return la


def _beta(lp, ext, T):
    S = ext.size
    lb = np.full((T, S), -np.inf, lp.dtype)
    lb[T - 1, S - 1] = lp[T - 1, ext[S - 1]]
    if S > 1:
        lb[T - 1, S - 2] = lp[T - 1, ext[S - 2]]
    skip = np.zeros(S, bool)
    skip[:-2] = ext[:-2] != ext[2:]
    ninf = lp.dtype.type(-np.inf)
    for t in range(T - 2, -1, -1):
        nxt = lb[t + 1]
        b2 = np.concatenate((nxt[1:], [ninf]))
        b3 = np.where(skip, np.concatenate((nxt[2:], [ninf, ninf]))[:S], ninf)
        lb[t] = _lse(nxt, b2, b3) + lp[t, ext]
    return lb


def _nll(la, T, S):
    l1 = la[T - 1, S - 1]
    l2 = la[T - 1, S - 2] if S > 1 else la.dtype.type(-np.inf)
    return -_lse(l1, l2)


def _samples(log_probs, targets, input_lengths, target_lengths, blank):
    for b, (tgt, T) in enumerate(zip(_targets(targets, target_lengths), input_lengths)):
        yield b, log_probs[:, b], _prime(tgt, blank), T


def _ctc_grad(grad, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity,
              result):
    lp_all = log_probs._data
    nll = result._data
    out = np.zeros(lp_all.shape, lp_all.dtype)
    for b, lp, ext, T in _samples(lp_all, targets._data, input_lengths, target_lengths, blank):
        if T == 0 or (zero_infinity and nll[b] == np.inf):
            continue
        la, lb = _alpha(lp, ext, T), _beta(lp, ext, T)
        lcab = np.full((T, lp.shape[1]), -np.inf, lp.dtype)
        ab = la + lb
        for s in range(ext.size - 1, -1, -1):      # torch's order: the last position first
            c = ext[s]
            lcab[:, c] = _lse(lcab[:, c], ab[:, s])
        exp = _libc(lp.dtype)[0]
        with np.errstate(over="ignore", invalid="ignore"):
            out[:T, b] = exp(lp[:T]) - exp(lcab + nll[b] - lp[:T])
    return no_double_backward(_wrap(out) * grad.reshape(1, -1, 1), log_probs,
                              "_ctc_loss_backward")


@op("CtcLossBackward0", name="_ctc_loss", method=False, function=False, promote=NONE,
    tensors=("log_probs", "targets"), log_probs=_ctc_grad)
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    """Per sample, ``-log p(target | log_probs)`` over all CTC alignments; (T, N, C) input."""
    out = np.empty(log_probs.shape[1], log_probs.dtype)
    for b, lp, ext, T in _samples(log_probs, targets, input_lengths, target_lengths, blank):
        out[b] = np.inf if T == 0 else _nll(_alpha(lp, ext, T), T, ext.size)
    return out
