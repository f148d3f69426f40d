"""``torch.ao.ns``: numeric comparison of float and quantized models."""
