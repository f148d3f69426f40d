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
            out.append(
                (L.is_grad_enabled(), L.is_inference_mode_enabled(), L.ones(1).is_inference())
            )
        out.append((L.is_grad_enabled(), L.is_inference_mode_enabled()))
    return out


def test_inference_mode_false_turns_grad_mode_on():
    assert _inference_false_flags(ember) == _inference_false_flags(torch)


class _NotAllowed:
    pass


def _weights_only_refusal(L):
    import io

    buf = io.BytesIO()
    L.save({"obj": _NotAllowed()}, buf)
    buf.seek(0)
    try:
        L.load(buf, weights_only=True)
    except Exception as e:  # noqa: BLE001 (the class and message are compared)
        return type(e).__name__, str(e)
    return None


def test_weights_only_refusal_message_bolds_the_warning_as_torch():
    ours, theirs = _weights_only_refusal(ember), _weights_only_refusal(torch)
    assert theirs is not None and "\033[1m" in theirs[1]
    assert ours == theirs


def _cloned_draws(L):
    g = L.Generator().manual_seed(3)
    L.randn(3, generator=g)             # leaves a cached normal in the state
    c = g.clone_state()
    first = L.randn(5, generator=c).tolist()
    return type(c).__name__, c.initial_seed(), first, L.randn(5, generator=g).tolist()


def test_generator_clone_state_copies_the_state():
    assert _cloned_draws(ember) == _cloned_draws(torch)


def _unsupported_generator_calls(L):
    g = L.Generator()
    out = []
    for f in (g.get_offset, lambda: g.set_offset(3), g.graphsafe_get_state,
              lambda: g.graphsafe_set_state(g)):
        try:
            f()
        except Exception as e:      # noqa: BLE001 (the class and message are compared)
            out.append((type(e).__name__, str(e)))
    return out


def test_generator_offset_and_graphsafe_state_refuse_as_torch():
    assert _unsupported_generator_calls(ember) == _unsupported_generator_calls(torch)
    assert len(_unsupported_generator_calls(torch)) == 4


def _bad_generator(L, fn):
    try:
        fn(L)
    except TypeError as e:
        return str(e)
    return None


def test_rand_randn_refuse_a_generator_that_is_not_one():
    calls = [lambda L: L.randn(2, generator=3),
             lambda L: L.rand((2, 3), generator="a", dtype=L.float64),
             lambda L: L.randn(4, generator=1.5, requires_grad=True)]
    for fn in calls:
        theirs = _bad_generator(torch, fn)
        assert theirs is not None
        assert _bad_generator(ember, fn) == theirs


def test_parser_errors_name_torch_c_types_with_their_module():
    for make in (lambda L: L.float32, lambda L: L.device("cpu"), lambda L: L.strided,
                 lambda L: L.channels_last, lambda L: L.Size([1])):
        def fn(L, make=make):
            return L.randn(2, generator=make(L))
        theirs = _bad_generator(torch, fn)
        assert theirs is not None and "generator=torch." in theirs
        assert _bad_generator(ember, fn) == theirs
    from ember._errors import type_name
    t = type(torch.Generator())
    assert type_name(ember.Generator()) == f"{t.__module__}.{t.__name__}"
