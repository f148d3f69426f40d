"""``torch.fx.experimental``: :mod:`~ember.fx.experimental.optimization`."""
