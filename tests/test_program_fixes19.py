"""Fixes found by the nineteenth batch of real-style programs (``tests/programs``), each
checked against torch."""

from __future__ import annotations

import ember

from .helpers import torch


def _inference_false_flags(L):
    out = []
    with L.no_grad():
        with L.inference_mode(False):
            out.append((L.is_grad_enabled(), (L.ones(1, requires_grad=True) * 2).requires_grad))
        out.append(L.is_grad_enabled())
    with L.inference_mode():
        with L.inference_mode(False):
            out.append((L.is_grad_enabled(), L.is_inference_mode_enabled(), L.ones(1).is_inference()))
        out.append((L.is_grad_enabled(), L.is_inference_mode_enabled()))
    return out


def test_inference_mode_false_turns_grad_mode_on():
    assert _inference_false_flags(ember) == _inference_false_flags(torch)
