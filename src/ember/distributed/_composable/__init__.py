"""``torch.distributed._composable``: the composable APIs' older home (``fsdp``)."""
