"""Runnable examples: ``python -m ember.examples.seeds``."""
