"""The rest of torch.distributions against torch: Gamma, Beta, Dirichlet, Poisson, Binomial …,
the transformed distributions, LKJCholesky, Wishart, mixtures and the relaxed ones. The same
samples after the same seed (the gamma, Poisson, binomial and Dirichlet samplers follow ATen's
CPU rejection loops draw for draw), log_prob, entropy, moments, cdf/icdf, expand, reprs,
rsample and log_prob gradients, validation errors and torch's KL pairs among them."""

from __future__ import annotations

import pytest

from tests.helpers import ember, torch
from tests.tree_compare import both

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::UserWarning")


@pytest.fixture(autouse=True)
def _default_validation():
    for L in (torch, ember):
        L.distributions.Distribution.set_default_validate_args(True)


def T(L, x, dtype="float64"):
    return L.tensor(x, dtype=getattr(L, dtype))


DISTS = {
    "beta": lambda L: L.distributions.Beta(T(L, [0.5, 2., 3.]), T(L, [1.5, 0.7, 3.])),
    "binomial": lambda L: L.distributions.Binomial(T(L, [5., 10., 100.]), T(L, [.2, .5, .9])),
    "binomial_logits": lambda L: L.distributions.Binomial(7, logits=T(L, [-1., 2.])),
    "cauchy": lambda L: L.distributions.Cauchy(T(L, [0., 1.]), T(L, [1., 2.])),
    "chi2": lambda L: L.distributions.Chi2(T(L, [1., 3.5])),
    "cont_bernoulli": lambda L: L.distributions.ContinuousBernoulli(T(L, [0.2, 0.5, 0.8])),
    "dirichlet": lambda L: L.distributions.Dirichlet(T(L, [[0.5, 1., 2.], [3., 1., .2]])),
    "fisher": lambda L: L.distributions.FisherSnedecor(T(L, [2., 5.]), T(L, [3., 7.])),
    "gamma": lambda L: L.distributions.Gamma(T(L, [0.5, 1., 4.]), T(L, [1., 2., .5])),
    "gamma_f32": lambda L: L.distributions.Gamma(T(L, [0.3, 2.5], "float32"),
                                                 T(L, [1., 3.], "float32")),
    "gen_pareto": lambda L: L.distributions.GeneralizedPareto(
        T(L, [0., 1.], "float32"), T(L, [1., 2.], "float32"), T(L, [0.2, -0.1], "float32")),
    "geometric": lambda L: L.distributions.Geometric(T(L, [0.2, 0.7])),
    "gumbel": lambda L: L.distributions.Gumbel(T(L, [0., 1.]), T(L, [1., 2.])),
    "half_cauchy": lambda L: L.distributions.HalfCauchy(T(L, [1., 2.])),
    "half_normal": lambda L: L.distributions.HalfNormal(T(L, [1., 2.])),
    "inverse_gamma": lambda L: L.distributions.InverseGamma(T(L, [2., 3.]), T(L, [1., 2.])),
    "kumaraswamy": lambda L: L.distributions.Kumaraswamy(T(L, [2., 3.]), T(L, [1., 2.])),
    "lkj": lambda L: L.distributions.LKJCholesky(3, T(L, 0.5)),
    "log_normal": lambda L: L.distributions.LogNormal(T(L, [0., 1.]), T(L, [1., 0.5])),
    "logistic_normal": lambda L: L.distributions.LogisticNormal(T(L, [0., 1.]), T(L, [1., .5])),
    "lowrank_mvn": lambda L: L.distributions.LowRankMultivariateNormal(
        T(L, [0., 1., 2.]), T(L, [[1.], [0.5], [0.2]]), T(L, [1., 2., 3.])),
    "mixture": lambda L: L.distributions.MixtureSameFamily(
        L.distributions.Categorical(T(L, [0.3, 0.7])),
        L.distributions.Normal(T(L, [0., 5.]), T(L, [1., 2.]))),
    "neg_binomial": lambda L: L.distributions.NegativeBinomial(T(L, [3., 5.]), T(L, [.3, .6])),
    "pareto": lambda L: L.distributions.Pareto(T(L, [1., 2.]), T(L, [3., 4.])),
    "poisson": lambda L: L.distributions.Poisson(T(L, [0.5, 4., 30.])),
    "poisson_f32": lambda L: L.distributions.Poisson(T(L, [2., 12., 300.], "float32")),
    "relaxed_bernoulli": lambda L: L.distributions.RelaxedBernoulli(T(L, 0.5), T(L, [.2, .7])),
    "relaxed_onehot": lambda L: L.distributions.RelaxedOneHotCategorical(
        T(L, 0.5), T(L, [0.2, 0.3, 0.5])),
    "student_t": lambda L: L.distributions.StudentT(T(L, [2., 5.]), T(L, [0., 1.]),
                                                    T(L, [1., 2.])),
    "von_mises": lambda L: L.distributions.VonMises(T(L, [0., 1.]), T(L, [1., 5.])),
    "weibull": lambda L: L.distributions.Weibull(T(L, [1., 2.]), T(L, [0.5, 3.])),
    "wishart": lambda L: L.distributions.Wishart(
        T(L, 4.), covariance_matrix=T(L, [[2., 0.5], [0.5, 1.]])),
    "transformed": lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(T(L, [0., 1.]), T(L, [1., 2.])),
        [L.distributions.transforms.AffineTransform(1., 2.),
         L.distributions.transforms.SigmoidTransform()]),
}

# distributions whose samples are the primitive samplers' output itself: bit for bit
EXACT = {"gamma", "gamma_f32", "poisson", "poisson_f32", "binomial", "dirichlet", "chi2",
         "geometric", "cauchy", "half_cauchy"}


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
    if name in EXACT:
        both(run, rtol=0, atol=0)
    else:
        both(run, rtol=1e-6, atol=1e-7)


def _value(L, name):
    L.manual_seed(7)
    return DISTS[name](L).sample((2,))


@pytest.mark.parametrize("name", sorted(DISTS))
def test_densities_and_moments(name):
    def run(L):
        d = DISTS[name](L)
        v = _value(L, name)
        out = {"log_prob": d.log_prob(v), "batch": d.batch_shape, "event": d.event_shape,
               "repr": repr(d), "support": repr(d.support),
               "args": sorted(d.arg_constraints)}
        for attr in ("entropy", "mean", "variance", "stddev", "mode", "cdf", "icdf"):
            try:
                val = getattr(d, attr)
                if attr == "cdf":
                    out[attr] = val(v)
                elif attr == "icdf":
                    out[attr] = val(L.full(d.batch_shape, 0.3, dtype=v.dtype))
                else:
                    out[attr] = val() if callable(val) else val
            except NotImplementedError as e:
                out[attr] = "NotImplementedError"
                del e
        return out
    both(run, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", sorted(DISTS))
def test_expand(name):
    def run(L):
        d = DISTS[name](L)
        e = d.expand((4,) + tuple(d.batch_shape))
        L.manual_seed(1)
        return e.batch_shape, e.event_shape, e.sample(), type(e).__name__
    both(run, rtol=1e-6, atol=1e-7)


def test_primitive_samplers_bitwise():
    def run(L):
        L.manual_seed(5)
        out = []
        for dt in ("float32", "float64"):
            al = T(L, [0.1, 0.5, 1., 2.5, 10., 100.] * 20, dt)
            out.append(L._standard_gamma(al))
            out.append(L._sample_dirichlet(al.reshape(-1, 3)))
            out.append(L.poisson(T(L, [0., 0.1, 3., 9.9, 10., 37., 1000.] * 10, dt)))
            out.append(L.binomial(T(L, [5., 10., 100., 1000., 7., 50., 0.] * 10, dt),
                                  T(L, [0.3, 0.5, 0.2, 0.9, 0.99, 0.7, 0.5] * 10, dt)))
            out.append(L.tensor([0.]).expand(3, 2).clone().cauchy_())
        out.append(L.empty(4, dtype=L.float64).geometric_(0.3))
        out.append(L.empty(4, dtype=L.float64).log_normal_())
        out.append(L._standard_gamma(T(L, [3.])))     # leaves a cached normal: randn reads it
        out += [L.randn(3, dtype=L.float64), L.rand(3)]
        return out
    both(run, rtol=0, atol=0)


def test_sampler_edge_values_and_errors():
    def run(L):
        L.manual_seed(0)
        return [L._standard_gamma(T(L, [-1., float("nan"), 0.], "float32")),
                L._sample_dirichlet(T(L, [-1., 0., 1.], "float32")),
                L.binomial(T(L, [-1., 3., 3., 3.]), T(L, [.5, -1., 2., float("nan")]))]
    both(run)
    for fn in (lambda L: L.poisson(T(L, [-1.])),
               lambda L: L._standard_gamma(L.tensor([1])),
               lambda L: L.poisson(L.tensor([1])),
               lambda L: L.binomial(T(L, [1.], "float32"), T(L, [1.]))):
        both(fn)


def test_gamma_and_dirichlet_gradients():
    def run(L):
        al = [0.1, 0.5, 1., 2.5, 10., 100.] * 3
        xs = [0.05, 0.3, 0.9, 2., 9., 120., 0.7, 1.5, 11., 95., 105., 3.] + [0.01] * 6
        x = [0.1, 0.3, 0.5, 0.7, 0.95, 0.5, 0.4]
        a = [0.5, 2., 10., 3., 1., 20., 7.]
        tot = [2., 5., 30., 4., 1.5, 45., 20.]
        return [L._standard_gamma_grad(T(L, al), T(L, xs)),
                L._standard_gamma_grad(T(L, al, "float32"), T(L, xs, "float32")),
                L._dirichlet_grad(T(L, x), T(L, a), T(L, tot))]
    both(run, rtol=0, atol=0)


def test_dirichlet_grad_float32_close():
    def run(L):
        return L._dirichlet_grad(T(L, [0.1, 0.3, 0.5, 0.7, 0.95], "float32"),
                                 T(L, [0.5, 2., 10., 3., 1.], "float32"),
                                 T(L, [2., 5., 30., 4., 1.5], "float32"))
    both(run, rtol=1e-6, atol=0)      # computed in double throughout; torch mixes in float


GRADS = {
    "gamma": lambda L, a, b: [L.distributions.Gamma(a, b).rsample((3,)),
                              L.distributions.Gamma(a, b).log_prob(T(L, [0.5, 1.5])),
                              L.distributions.Gamma(a, b).entropy()],
    "beta": lambda L, a, b: [L.distributions.Beta(a, b).rsample((3,)),
                             L.distributions.Beta(a, b).entropy()],
    "dirichlet": lambda L, a, b: [L.distributions.Dirichlet(a * b).rsample((2,)),
                                  L.distributions.Dirichlet(a).log_prob(T(L, [0.3, 0.7]))],
    "student_t": lambda L, a, b: [L.distributions.StudentT(a + 1, b, a).rsample((2,)),
                                  L.distributions.StudentT(a + 1, b, a).entropy()],
    "poisson": lambda L, a, b: [L.distributions.Poisson(a).log_prob(T(L, [1., 3.])),
                                L.poisson(a * 10)],
    "log_normal": lambda L, a, b: [L.distributions.LogNormal(b, a).rsample((2,)),
                                   L.distributions.LogNormal(b, a).entropy()],
    "von_mises": lambda L, a, b: [L.distributions.VonMises(b, a).log_prob(T(L, [0.1, 2.]))],
    "weibull": lambda L, a, b: [L.distributions.Weibull(a, b).rsample((2,)),
                                L.distributions.Weibull(a, b).entropy()],
    "lowrank": lambda L, a, b: [L.distributions.LowRankMultivariateNormal(
        b, a.unsqueeze(-1), a * 2).log_prob(T(L, [0.1, 0.2]))],
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradients(name):
    def run(L):
        L.manual_seed(2)
        a = T(L, [0.7, 2.5]).requires_grad_()
        b = T(L, [1.5, 0.8]).requires_grad_()
        outs = GRADS[name](L, a, b)
        loss = sum((o * (k + 1)).sum() for k, o in enumerate(outs))
        loss.backward()
        return [o.detach() for o in outs], a.grad, b.grad
    both(run, rtol=1e-6, atol=1e-9)


ERRORS = {
    "gamma_rate": lambda L: L.distributions.Gamma(T(L, [1.]), T(L, [-1.])),
    "beta_support": lambda L: L.distributions.Beta(T(L, [1.]), T(L, [1.])).log_prob(
        T(L, [1.5])),
    "poisson_value": lambda L: L.distributions.Poisson(T(L, [1.])).log_prob(T(L, [0.5])),
    "binomial_both": lambda L: L.distributions.Binomial(3, T(L, [.5]), T(L, [0.])),
    "dirichlet_0d": lambda L: L.distributions.Dirichlet(T(L, 1.)),
    "student_df": lambda L: L.distributions.StudentT(T(L, [-1.])),
    "wishart_df": lambda L: L.distributions.Wishart(T(L, 0.5), L.eye(2, dtype=L.float64)),
    "lkj_dim": lambda L: L.distributions.LKJCholesky(1),
    "gen_pareto_f64": lambda L: L.distributions.GeneralizedPareto(
        T(L, [0.]), T(L, [1.]), T(L, [0.2])).log_prob(T(L, [0.5])),
    "mixture_cat": lambda L: L.distributions.MixtureSameFamily(
        L.distributions.Normal(0., 1.), L.distributions.Normal(0., 1.)),
    "transform_cache": lambda L: L.distributions.transforms.ExpTransform(cache_size=2),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors(name):
    both(ERRORS[name])


KL = {
    "beta": lambda L: (L.distributions.Beta(T(L, [0.5, 2.]), T(L, [1.5, 0.7])),
                       L.distributions.Beta(T(L, [1., 1.]), T(L, [2., 3.]))),
    "binomial": lambda L: (L.distributions.Binomial(10, T(L, [0.2, 0.6])),
                           L.distributions.Binomial(10, T(L, [0.5, 0.5]))),
    "gamma": lambda L: (L.distributions.Gamma(T(L, [0.5, 2.]), T(L, [1., 3.])),
                        L.distributions.Gamma(T(L, [1., 1.]), T(L, [2., 0.5]))),
    "dirichlet": lambda L: (L.distributions.Dirichlet(T(L, [0.5, 2., 1.])),
                            L.distributions.Dirichlet(T(L, [1., 1., 3.]))),
    "poisson": lambda L: (L.distributions.Poisson(T(L, [0.5, 2.])),
                          L.distributions.Poisson(T(L, [1., 3.]))),
    "geometric": lambda L: (L.distributions.Geometric(T(L, [0.2, 0.6])),
                            L.distributions.Geometric(T(L, [0.5, 0.5]))),
    "gumbel": lambda L: (L.distributions.Gumbel(T(L, [0., 1.]), T(L, [1., 2.])),
                         L.distributions.Gumbel(T(L, [1., 1.]), T(L, [1., 3.]))),
    "half_normal": lambda L: (L.distributions.HalfNormal(T(L, [1., 2.])),
                              L.distributions.HalfNormal(T(L, [2., 1.]))),
    "pareto": lambda L: (L.distributions.Pareto(T(L, [1., 2.]), T(L, [3., 4.])),
                         L.distributions.Pareto(T(L, [0.5, 1.]), T(L, [2., 2.]))),
    "cauchy": lambda L: (L.distributions.Cauchy(T(L, [0., 1.]), T(L, [1., 2.])),
                         L.distributions.Cauchy(T(L, [1., 1.]), T(L, [1., 1.]))),
    "cont_bernoulli": lambda L: (L.distributions.ContinuousBernoulli(T(L, [0.2, 0.7])),
                                 L.distributions.ContinuousBernoulli(T(L, [0.5, 0.4]))),
    "lowrank": lambda L: (L.distributions.LowRankMultivariateNormal(
        T(L, [0., 1.]), T(L, [[1.], [0.5]]), T(L, [1., 2.])),
        L.distributions.LowRankMultivariateNormal(T(L, [1., 1.]), T(L, [[0.2], [0.1]]),
                                                  T(L, [1., 1.]))),
    "lowrank_mvn": lambda L: (L.distributions.LowRankMultivariateNormal(
        T(L, [0., 1.]), T(L, [[1.], [0.5]]), T(L, [1., 2.])),
        L.distributions.MultivariateNormal(T(L, [1., 1.]), L.eye(2, dtype=L.float64))),
    "beta_uniform": lambda L: (L.distributions.Beta(T(L, [2.]), T(L, [3.])),
                               L.distributions.Uniform(T(L, [0.]), T(L, [1.]))),
    "gamma_exponential": lambda L: (L.distributions.Gamma(T(L, [2.]), T(L, [3.])),
                                    L.distributions.Exponential(T(L, [1.5]))),
    "gamma_normal": lambda L: (L.distributions.Gamma(T(L, [2.]), T(L, [3.])),
                               L.distributions.Normal(T(L, [1.]), T(L, [2.]))),
    "normal_gumbel": lambda L: (L.distributions.Normal(T(L, [1.]), T(L, [2.])),
                                L.distributions.Gumbel(T(L, [0.]), T(L, [1.5]))),
    "exponential_gumbel": lambda L: (L.distributions.Exponential(T(L, [2.])),
                                     L.distributions.Gumbel(T(L, [0.]), T(L, [1.5]))),
    "uniform_beta": lambda L: (L.distributions.Uniform(T(L, [0.2]), T(L, [0.7])),
                               L.distributions.Beta(T(L, [2.]), T(L, [3.]))),
    "transformed": lambda L: (
        L.distributions.LogNormal(T(L, [0., 1.]), T(L, [1., 0.5])),
        L.distributions.LogNormal(T(L, [1., 1.]), T(L, [2., 1.]))),
    "poisson_bernoulli": lambda L: (L.distributions.Bernoulli(T(L, [0.3])),
                                    L.distributions.Poisson(T(L, [2.]))),
}


@pytest.mark.parametrize("name", sorted(KL))
def test_kl_divergence(name):
    both(lambda L: L.distributions.kl_divergence(*KL[name](L)), rtol=1e-7, atol=1e-10)


TRANSFORMS = {
    "affine": lambda t: t.AffineTransform(1., 2.),
    "exp": lambda t: t.ExpTransform(),
    "sigmoid": lambda t: t.SigmoidTransform(),
    "tanh": lambda t: t.TanhTransform(),
    "softplus": lambda t: t.SoftplusTransform(),
    "power": lambda t: t.PowerTransform(2.),
    "abs": lambda t: t.AbsTransform(),
    "softmax": lambda t: t.SoftmaxTransform(),
    "stick": lambda t: t.StickBreakingTransform(),
    "compose": lambda t: t.ComposeTransform([t.AffineTransform(0.5, 3.), t.ExpTransform()]),
    "inverse": lambda t: t.ExpTransform().inv,
    "reshape": lambda t: t.ReshapeTransform((2, 2), (4,)),
    "independent": lambda t: t.IndependentTransform(t.ExpTransform(), 1),
    "cat": lambda t: t.CatTransform([t.ExpTransform(), t.identity_transform], 0, [2, 2]),
    "stack": lambda t: t.StackTransform([t.ExpTransform(), t.SigmoidTransform()], 0),
    "lower_cholesky": lambda t: t.LowerCholeskyTransform(),
    "corr_cholesky": lambda t: t.CorrCholeskyTransform(),
    "positive_definite": lambda t: t.PositiveDefiniteTransform(),
}
SHAPES = {"reshape": (2, 2), "stack": (2, 2), "lower_cholesky": (2, 2),
          "positive_definite": (2, 2), "corr_cholesky": (3,)}


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_transforms(name):
    def run(L):
        t = TRANSFORMS[name](L.distributions.transforms)
        x = L.linspace(-0.8, 0.9, 4, dtype=L.float64).reshape(SHAPES.get(name, (4,)))
        if name == "positive_definite":
            x = x.tril()
        y = t(x)
        out = {"y": y, "inv": t.inv(y), "repr": repr(t), "sign": None,
               "bij": t.bijective, "event": (t.domain.event_dim, t.codomain.event_dim),
               "fshape": t.forward_shape(x.shape), "ishape": t.inverse_shape(y.shape)}
        try:
            out["sign"] = t.sign
        except NotImplementedError:
            pass
        try:
            out["ladj"] = t.log_abs_det_jacobian(x, y)
        except NotImplementedError:
            out["ladj"] = None
        return out
    both(run, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("cname", ["real", "positive", "unit_interval", "simplex",
                                   "lower_cholesky", "corr_cholesky", "positive_definite",
                                   "greater_than", "interval", "real_vector"])
def test_biject_to_and_transform_to(cname):
    def run(L):
        D = L.distributions
        c = D.constraints
        con = {"greater_than": c.greater_than(1.5), "interval": c.interval(-1., 2.)}.get(
            cname) or getattr(c, cname)
        n = 3 if cname in ("lower_cholesky", "positive_definite") else 6
        x = L.linspace(-1., 1., n * (n if n == 3 else 1), dtype=L.float64)
        if n == 3:
            x = x.reshape(3, 3)
        out = []
        for f in (D.biject_to, D.transform_to):
            t = f(con)
            y = t(x)
            out += [repr(t), y, bool(con.check(y).all())]
        return out
    both(run, rtol=1e-9, atol=1e-12)
