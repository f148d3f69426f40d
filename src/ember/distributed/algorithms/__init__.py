"""``ember.distributed.algorithms``: activation checkpointing wrappers
(``algorithms._checkpoint.checkpoint_wrapper``)."""
