"""torch's sparsifiers."""
