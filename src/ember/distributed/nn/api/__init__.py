"""``ember.distributed.nn.api``."""
