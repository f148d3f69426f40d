"""torch's Callgrind result classes (``timer_interface``)."""
