"""``ember.backends.cuda``: CUDA's flags, as a build without CUDA reports and keeps them."""

from __future__ import annotations

from .. import _runtime

__all__ = ["is_built", "matmul", "flash_sdp_enabled", "mem_efficient_sdp_enabled",
           "math_sdp_enabled", "enable_flash_sdp", "enable_mem_efficient_sdp", "enable_math_sdp",
           "SDPAParams", "is_flash_attention_available", "can_use_flash_attention",
           "can_use_efficient_attention", "can_use_cudnn_attention"]


def is_built() -> bool:
    """False: ember has no CUDA."""
    return False


class cuBLASModule:
    """``backends.cuda.matmul``: cuBLAS's flags; ``allow_tf32`` is the float32 matmul
    precision (``"high"`` when True), as in torch."""

    _FLAGS = ("allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction",
              "allow_fp16_accumulation")

    def __init__(self):
        object.__setattr__(self, "_values", {
            "allow_fp16_reduced_precision_reduction": True,
            "allow_bf16_reduced_precision_reduction": True,
            "allow_fp16_accumulation": False})

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _runtime.get_float32_matmul_precision() != "highest"
        if name in self._FLAGS:
            return self._values[name]
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            _runtime.set_float32_matmul_precision("high" if value else "highest")
        elif name in self._FLAGS:
            self._values[name] = value
        else:
            raise AttributeError("Unknown attribute " + name)


matmul = cuBLASModule()

_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def flash_sdp_enabled() -> bool:
    return _sdp["flash"]


def mem_efficient_sdp_enabled() -> bool:
    return _sdp["mem_efficient"]


def math_sdp_enabled() -> bool:
    return _sdp["math"]


def enable_flash_sdp(enabled: bool) -> None:
    _sdp["flash"] = enabled


def enable_mem_efficient_sdp(enabled: bool) -> None:
    _sdp["mem_efficient"] = enabled


def enable_math_sdp(enabled: bool) -> None:
    _sdp["math"] = enabled


class SDPAParams:
    """The arguments of one attention call, as the kernel-choice checks below take them."""

    def __init__(self, query, key, value, attn_mask, dropout: float, is_causal: bool,
                 enable_gqa: bool):
        self.query, self.key, self.value, self.attn_mask = query, key, value, attn_mask
        self.dropout, self.is_causal, self.enable_gqa = float(dropout), is_causal, enable_gqa


def is_flash_attention_available() -> bool:
    """False: the CUDA flash kernel is not built."""
    return False


def can_use_flash_attention(params: SDPAParams, debug: bool = False) -> bool:
    """False: no CUDA attention kernel can run on a build without CUDA."""
    return False


def can_use_efficient_attention(params: SDPAParams, debug: bool = False) -> bool:
    """False: no CUDA attention kernel can run on a build without CUDA."""
    return False


def can_use_cudnn_attention(params: SDPAParams, debug: bool = False) -> bool:
    """False: no CUDA attention kernel can run on a build without CUDA."""
    return False


del annotations  # keep dir() to torch's names
