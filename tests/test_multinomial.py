"""distributions.Multinomial against torch: the same samples after the same seed, log_prob,
entropy, moments, expand."""

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")


def _run(lib):
    lib.manual_seed(0)
    p = lib.tensor([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]])
    d = lib.distributions.Multinomial(7, probs=p)
    s = d.sample((4,))
    d2 = lib.distributions.multinomial.Multinomial(5, logits=lib.tensor([0.1, -1.0, 2.0]))
    zero = lib.distributions.Multinomial(3, probs=lib.tensor([0.0, 1.0]))
    return [s, d.log_prob(s), d.entropy(), d.mean, d.variance, d2.sample(), d2.entropy(),
            d2.log_prob(lib.tensor([1., 1., 3.])), d.expand((3, 2)).sample(),
            zero.log_prob(lib.tensor([0.0, 3.0])), zero.sample((2,)),
            lib.tensor(d.batch_shape), lib.tensor(d.event_shape)]


def test_multinomial_as_torchs():
    for t, e in zip(_run(torch), _run(ember)):
        assert str(e.dtype) == str(t.dtype) and tuple(e.shape) == tuple(t.shape)
        np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-5, atol=1e-6)


def test_inhomogeneous_total_count_is_refused_as_in_torch():
    for lib in (torch, ember):
        with pytest.raises(NotImplementedError, match="inhomogeneous total_count"):
            lib.distributions.Multinomial(lib.tensor([2, 3]), lib.tensor([0.5, 0.5]))
