"""``ember.distributions``: torch.distributions' distributions, sampling from the generator
exactly as torch's do (after the same seed, the same samples)."""

from __future__ import annotations

from . import constraints
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "ExponentialFamily", "Exponential",
           "Independent", "Laplace", "Multinomial", "MultivariateNormal", "Normal",
           "OneHotCategorical",
           "OneHotCategoricalStraightThrough", "Uniform", "constraints", "kl_divergence",
           "register_kl"]


del annotations  # keep dir() to torch's names
