"""The vector instruction set torch's CPU kernels dispatch to on this machine.

torch compiles each kernel for DEFAULT, AVX2 and AVX512 and picks one at start-up from the
CPU's features (``ATEN_CPU_CAPABILITY`` overrides it). Kernels registered with
``ALSO_REGISTER_AVX512_DISPATCH`` (softmax and log_softmax among them) then run on 512-bit
vectors; the others keep their AVX2 build. Ember's emulated kernels follow the same choice.
"""

from __future__ import annotations

import functools
import os
import platform

_AVX512 = frozenset(("avx512f", "avx512bw", "avx512vl", "avx512dq", "fma"))
_AVX2 = frozenset(("avx2", "fma"))


def _cpu_flags() -> frozenset:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def _x86() -> bool:
    return platform.machine().lower() in ("x86_64", "amd64")


@functools.cache
def has_avx512() -> bool:
    """Whether the CPU has the AVX512 features torch and oneDNN build for."""
    return _x86() and _AVX512 <= _cpu_flags()


@functools.cache
def has_fp16_onednn() -> bool:
    """Whether oneDNN computes float16 here, as ``torch.ops.mkldnn._is_mkldnn_fp16_supported``
    (its ``avx512_core_fp16`` ISA: AVX512 with AVX512-FP16, or AMX-FP16). torch then sends
    float16 convolutions to oneDNN, which accumulates in float32 and rounds once; elsewhere
    they take ATen's slow path. ``ONEDNN_MAX_CPU_ISA`` (or ``DNNL_MAX_CPU_ISA``) below
    ``AVX512_CORE_FP16`` turns it off, as in oneDNN."""
    cap = (os.environ.get("ONEDNN_MAX_CPU_ISA") or os.environ.get("DNNL_MAX_CPU_ISA") or "")
    if cap.strip().upper() in _BELOW_FP16:
        return False
    return has_avx512() and bool({"avx512_fp16", "amx_fp16"} & _cpu_flags())


# oneDNN's ISA caps without float16 arithmetic
_BELOW_FP16 = frozenset(("SSE41", "AVX", "AVX2", "AVX2_VNNI", "AVX2_VNNI_2", "AVX512_CORE",
                         "AVX512_CORE_VNNI", "AVX512_CORE_BF16"))


@functools.cache
def capability() -> str:
    """``"AVX512"``, ``"AVX2"`` or ``"DEFAULT"``, as ``torch.backends.cpu.get_cpu_capability``."""
    if not _x86():
        return "DEFAULT"
    best = "AVX512" if has_avx512() else "AVX2" if _AVX2 <= _cpu_flags() else "DEFAULT"
    asked = os.environ.get("ATEN_CPU_CAPABILITY", "").strip().upper()
    order = ("DEFAULT", "AVX2", "AVX512")
    if asked in order and order.index(asked) < order.index(best):
        return asked
    return best


def avx512_lanes(dtype) -> int:
    """Lanes of a kernel that torch also builds for AVX512: 64 bytes there, else 32."""
    return (64 if capability() == "AVX512" else 32) // dtype.itemsize


def kernel_step(dtype, avx512: bool = True) -> int:
    """Elements one step of ``cpu_kernel_vec`` takes (two vectors): 64 bytes, or 128 in a
    kernel torch also builds for AVX512 (``avx512``) on an AVX512 machine. The elements left
    after the last full step run one by one."""
    return 2 * avx512_lanes(dtype) if avx512 else 64 // dtype.itemsize


def vector_channels(channels: int, dtype) -> int:
    """How many of the leading ``channels`` a channels-last kernel of torch's computes with
    its ``Vectorized`` formula: the full vectors, then one half-vector of the remainder when
    it has that many (the compiler vectorises the remainder loop with 256-bit vectors, so
    those channels round as the vector code does); the rest run the scalar loop."""
    lanes = avx512_lanes(dtype)
    n = channels - channels % lanes
    return n + lanes // 2 if channels - n >= lanes // 2 else n
