"""ember.distributions against torch.distributions: the same samples after the same seed
(each sampler draws from the generator as torch's does), log_prob, entropy, moments, rsample
and log_prob gradients, validation errors, expand, kl_divergence."""

from __future__ import annotations

import pytest

from tests.helpers import caught_warnings, ember, torch
from tests.tree_compare import both

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@pytest.fixture(autouse=True)
def _default_validation():
    """torch.compile (and so ember.compile) turns argument validation off for the whole
    process; these tests start from the default, validation on."""
    for L in (torch, ember):
        L.distributions.Distribution.set_default_validate_args(True)


def T(L, x):
    return L.tensor(x)


DISTS = {
    "normal": lambda L: L.distributions.Normal(T(L, [0., 1.]), T(L, [1., 2.])),
    "normal_scalar": lambda L: L.distributions.Normal(0., 1.),
    "normal_batch": lambda L: L.distributions.Normal(T(L, [[0.], [1.]]), T(L, [1., 2., 3.])),
    "categorical_logits": lambda L: L.distributions.Categorical(logits=T(L, [0.1, 0.5, 2.])),
    "categorical_probs": lambda L: L.distributions.Categorical(
        probs=T(L, [[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]])),
    "bernoulli": lambda L: L.distributions.Bernoulli(probs=T(L, [0.3, 0.9])),
    "bernoulli_logits": lambda L: L.distributions.Bernoulli(logits=T(L, [0.3, -2.])),
    "uniform": lambda L: L.distributions.Uniform(T(L, [0., 1.]), T(L, [1., 3.])),
    "uniform_scalar": lambda L: L.distributions.Uniform(-1, 1),
    "exponential": lambda L: L.distributions.Exponential(T(L, [1., 0.5])),
    "laplace": lambda L: L.distributions.Laplace(T(L, [0., 1.]), T(L, [1., 2.])),
    "mvn_cov": lambda L: L.distributions.MultivariateNormal(
        T(L, [0., 1.]), covariance_matrix=T(L, [[2., 0.3], [0.3, 1.]])),
    "mvn_prec": lambda L: L.distributions.MultivariateNormal(
        T(L, [0., 1.]), precision_matrix=T(L, [[2., 0.3], [0.3, 1.]])),
    "mvn_tril": lambda L: L.distributions.MultivariateNormal(
        T(L, [[0., 1.], [1., 0.], [2., 2.]]), scale_tril=T(L, [[2., 0.], [0.3, 1.]])),
    "one_hot": lambda L: L.distributions.OneHotCategorical(probs=T(L, [0.2, 0.3, 0.5])),
    "independent": lambda L: L.distributions.Independent(
        L.distributions.Normal(T(L, [[0., 1.]]), T(L, [[1., 2.]])), 1),
}

VALUES = {"normal": [0.5, 0.5], "normal_scalar": 0.3, "normal_batch": [0.1, 0.2, 0.3],
          "categorical_logits": [0, 2], "categorical_probs": [1, 0, 1],
          "bernoulli": [1., 0.], "bernoulli_logits": [0., 1.], "uniform": [0.5, 2.5],
          "uniform_scalar": 0.25, "exponential": [0.5, 2.], "laplace": [0.5, 2.],
          "mvn_cov": [0.5, 0.5], "mvn_prec": [[1., 1.], [0., 0.]], "mvn_tril": [0.5, 0.5],
          "one_hot": [0., 1., 0.], "independent": [0.5, 0.5]}


@pytest.mark.parametrize("name", sorted(DISTS))
def test_samples_follow_torchs_stream(name):
    def run(L):
        L.manual_seed(0)
        d = DISTS[name](L)
        out = [d.sample(), d.sample((3,)), d.sample((2, 2))]
        if d.has_rsample:
            out.append(d.rsample((2,)))
        out.append(L.rand(2))          # the generator is where torch leaves it
        return out
    both(run, rtol=3e-7, atol=1e-7)   # the same draws; float kernels may differ in a last bit


@pytest.mark.parametrize("name", sorted(DISTS))
def test_densities_and_moments(name):
    def run(L):
        d = DISTS[name](L)
        v = T(L, VALUES[name])
        out = {"log_prob": d.log_prob(v), "batch": d.batch_shape, "event": d.event_shape,
               "repr": repr(d)}
        for attr in ("entropy", "mean", "variance", "stddev", "mode", "perplexity", "cdf"):
            try:
                val = getattr(d, attr)
                out[attr] = val(v) if attr == "cdf" else (val() if callable(val) else val)
            except NotImplementedError as e:
                out[attr] = str(e).replace("torch.", "").split("'")[0]
        return out
    both(run)


@pytest.mark.parametrize("name", sorted(DISTS))
def test_expand(name):
    def run(L):
        L.manual_seed(1)
        d = DISTS[name](L)
        e = d.expand((4,) + tuple(d.batch_shape))
        return e.batch_shape, e.event_shape, e.sample(), e.log_prob(T(L, VALUES[name]))
    both(run, rtol=3e-7, atol=1e-7)   # the same draws; float kernels may differ in a last bit


GRADS = {
    "normal": lambda L, p: [L.distributions.Normal(p[0], p[1]).rsample((3,)),
                            L.distributions.Normal(p[0], p[1]).log_prob(T(L, [0., 1.])),
                            L.distributions.Normal(p[0], p[1]).entropy()],
    "categorical": lambda L, p: [L.distributions.Categorical(logits=p[2]).log_prob(
        T(L, [0, 2])), L.distributions.Categorical(logits=p[2]).entropy()],
    "bernoulli": lambda L, p: [L.distributions.Bernoulli(probs=p[3]).log_prob(T(L, [1., 0.])),
                               L.distributions.Bernoulli(probs=p[3]).entropy()],
    "uniform": lambda L, p: [L.distributions.Uniform(p[0], p[0] + p[1]).rsample((2,)),
                             L.distributions.Uniform(p[0], p[0] + p[1]).entropy()],
    "laplace": lambda L, p: [L.distributions.Laplace(p[0], p[1]).rsample((2,)),
                             L.distributions.Laplace(p[0], p[1]).log_prob(T(L, [0.3, 0.]))],
    "exponential": lambda L, p: [L.distributions.Exponential(p[1]).rsample((2,)),
                                 L.distributions.Exponential(p[1]).entropy()],
    "mvn": lambda L, p: [L.distributions.MultivariateNormal(p[0], p[4]).rsample((2,)),
                         L.distributions.MultivariateNormal(p[0], p[4]).log_prob(
                             T(L, [0.5, 0.5])),
                         L.distributions.MultivariateNormal(p[0], scale_tril=p[4].tril()
                                                            ).entropy()],
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradients(name):
    def run(L):
        L.manual_seed(2)
        params = [L.tensor(v, requires_grad=True) for v in (
            [0.5, -1.], [1., 2.], [0.1, 0.5, 2.], [0.3, 0.6], [[2., 0.3], [0.3, 1.]])]
        outs = GRADS[name](L, params)
        loss = sum((o * (k + 1)).sum() for k, o in enumerate(outs))
        loss.backward()
        return [o.detach() for o in outs], [p.grad for p in params]
    both(run)


ERRORS = {
    "normal_scale": lambda L: L.distributions.Normal(T(L, [0., 1.]), T(L, [1., -2.])),
    "normal_value_shape": lambda L: L.distributions.Normal(T(L, [0., 1.]), T(L, [1., 2.])
                                                           ).log_prob(T(L, [1., 2., 3.])),
    "categorical_both": lambda L: L.distributions.Categorical(probs=T(L, [0.5, 0.5]),
                                                              logits=T(L, [0., 0.])),
    "categorical_none": lambda L: L.distributions.Categorical(),
    "categorical_0d": lambda L: L.distributions.Categorical(probs=T(L, 1.)),
    "categorical_value": lambda L: L.distributions.Categorical(logits=T(L, [0., 1.])
                                                               ).log_prob(T(L, 3)),
    "bernoulli_value": lambda L: L.distributions.Bernoulli(T(L, [0.3])).log_prob(T(L, [0.5])),
    "bernoulli_probs": lambda L: L.distributions.Bernoulli(T(L, [1.3])),
    "uniform_bounds": lambda L: L.distributions.Uniform(T(L, [1.]), T(L, [0.])),
    "uniform_support": lambda L: L.distributions.Uniform(T(L, [0.]), T(L, [1.])).log_prob(
        T(L, [1.5])),
    "mvn_none": lambda L: L.distributions.MultivariateNormal(T(L, [0., 1.])),
    "mvn_not_pd": lambda L: L.distributions.MultivariateNormal(T(L, [0., 1.]),
                                                               T(L, [[1., 2.], [2., 1.]])),
    "mvn_loc_0d": lambda L: L.distributions.MultivariateNormal(T(L, 0.), T(L, [[1.]])),
    "kl_missing": lambda L: L.distributions.kl_divergence(
        L.distributions.Normal(0., 1.), L.distributions.Categorical(logits=T(L, [0., 1.]))),
    "rsample_missing": lambda L: L.distributions.Categorical(logits=T(L, [0., 1.])).rsample(),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors(name):
    both(ERRORS[name])


KL = {
    "normal": lambda L: (L.distributions.Normal(T(L, [0., 1.]), T(L, [1., 2.])),
                         L.distributions.Normal(T(L, [1., 1.]), T(L, [1., 1.]))),
    "categorical": lambda L: (L.distributions.Categorical(logits=T(L, [0.1, 0.5, 2.])),
                              L.distributions.Categorical(probs=T(L, [0.3, 0.3, 0.4]))),
    "bernoulli": lambda L: (L.distributions.Bernoulli(T(L, [0.3, 0.9])),
                            L.distributions.Bernoulli(T(L, [0.5, 0.5]))),
    "uniform": lambda L: (L.distributions.Uniform(T(L, [0., 1.]), T(L, [1., 3.])),
                          L.distributions.Uniform(T(L, [-1., 0.]), T(L, [2., 4.]))),
    "uniform_normal": lambda L: (L.distributions.Uniform(T(L, [0., 1.]), T(L, [1., 3.])),
                                 L.distributions.Normal(T(L, [0., 1.]), T(L, [1., 2.]))),
    "mvn": lambda L: (L.distributions.MultivariateNormal(T(L, [0., 1.]),
                                                         T(L, [[2., 0.3], [0.3, 1.]])),
                      L.distributions.MultivariateNormal(T(L, [1., 1.]), L.eye(2))),
    "exponential": lambda L: (L.distributions.Exponential(T(L, [1., 0.5])),
                              L.distributions.Exponential(T(L, [2., 2.]))),
    "laplace": lambda L: (L.distributions.Laplace(T(L, [0., 1.]), T(L, [1., 2.])),
                          L.distributions.Laplace(T(L, [0., 0.]), T(L, [1., 1.]))),
    "one_hot": lambda L: (L.distributions.OneHotCategorical(probs=T(L, [0.2, 0.8])),
                          L.distributions.OneHotCategorical(probs=T(L, [0.5, 0.5]))),
    "independent": lambda L: (
        L.distributions.Independent(L.distributions.Normal(T(L, [0., 1.]), T(L, [1., 2.])), 1),
        L.distributions.Independent(L.distributions.Normal(T(L, [1., 1.]), T(L, [1., 1.])), 1)),
}


@pytest.mark.parametrize("name", sorted(KL))
def test_kl_divergence(name):
    both(lambda L: L.distributions.kl_divergence(*KL[name](L)))


def test_validation_switch_and_constraints():
    def run(L):
        D = L.distributions
        c = D.constraints
        return (D.Distribution._validate_args,
                D.Normal(T(L, [0.]), T(L, [-1.]), validate_args=False).scale,
                [repr(x) for x in (c.positive, c.real, c.simplex, c.interval(0, 1),
                                   c.integer_interval(0, 3), c.real_vector, c.boolean)],
                c.positive.check(T(L, [1., -1.])),
                D.Categorical(logits=T(L, [0., 1., 2.])).support.check(T(L, [0, 3])),
                D.Categorical(logits=T(L, [0., 1.])).enumerate_support(),
                D.Bernoulli(T(L, [0.3, 0.2])).enumerate_support())
    both(run)
    d = ember.distributions.Normal(0., 1.)
    t = torch.distributions.Normal(0., 1.)
    assert (caught_warnings(lambda L: d.sample_n(2), ember)
            == caught_warnings(lambda L: t.sample_n(2), torch))
