"""torch's op fuzzers (``binary``)."""
