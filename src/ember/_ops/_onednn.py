"""oneDNN's AVX512 GELU (``eltwise_gelu_erf``), which torch runs on a contiguous float32
input when the CPU has AVX512: a piecewise minimax polynomial in ``|x|`` gives
``erf(x / sqrt 2)``, chosen by the top bits of ``|x|``'s exponent and mantissa (24
intervals, 2 mantissa bits each). oneDNN picks its ISA from the CPU alone
(``ONEDNN_MAX_CPU_ISA`` can lower it), whatever ``ATEN_CPU_CAPABILITY`` says.
"""

from __future__ import annotations

import functools
import os

import numpy as np

from .. import _cpu
from ._exact import fma

_f32 = np.float32

# coefficients of degree 0 to 5 (rows) of the 25 polynomials (columns), as float bits
_POL = np.array([[int(h, 16) for h in row.split()] for row in (
    "a6f2cb94 32827792 3381cc0c 34523d4a 351ac44d 35f36d88 36ee8229 37b8a3bb "
    "3867a213 3940033b 3a2a5a1d 3ae35863 3b7828f2 3c08b14b 3c515ed3 bb503236 "
    "bd8d8e5e be8abcd9 bf0c19a2 beccb328 3e176ced 3f470d99 3f7abb28 3f800000 "
    "00000000",
    "3f4c422a 3f4c421f 3f4c4207 3f4c41cb 3f4c413b 3f4c3fad 3f4c3a2f 3f4c2d40 "
    "3f4c146a 3f4bc341 3f4ad08c 3f48f8cf 3f45fac7 3f404e07 3f3b980f 3f48dff3 "
    "3f78b21b 3fbb0704 40019c32 3fe536d6 3f81331e 3e6c8684 3c98f936 00000000 "
    "3f800000",
    "b62173f4 3735e4cf 37f2ff89 388c23be 3917535c 39ab2ab0 3a60fadb 3af9b960 "
    "3b6e5491 3c0a4ec5 3ca5aa8c 3d2138d9 3d8737d4 3ddfb660 3e0f27ab 3d94004b "
    "be0efdeb bf1d96c3 bf89db58 bf6d9897 bef69fb8 bdc4f8a8 bbde6422 00000000 "
    "00000000",
    "be081a19 be084570 be08639b be089837 be08f409 be09ab95 be0b66d0 be0e400a "
    "be124df8 be1bde02 be2f19c9 be4931bf be685fbc be89c95f be96cbca be8044aa "
    "be0550f2 3dcfd6a1 3e94c826 3e79345f 3decec91 3ca46568 3aa1e00a 00000000 "
    "00000000",
    "ba3d61db 39f097a3 3a5845dc 3ab1fa35 3b0cefb8 3b653ab6 3bcae527 3c221712 "
    "3c6c5840 3cc0a703 3d1dcc19 3d63656d 3d955907 3dbf9910 3dd53f69 3db7dcef "
    "3d639ebe ba6ede48 bd22be69 bd041cf1 bc64f5ab bb097a32 b8ebf380 00000000 "
    "00000000",
    "3cb7d80c 3c9b6050 3c978d11 3c92e850 3c8d058b 3c848454 3c6cd623 3c4c824b "
    "3c2a7935 3be0b390 3b0651ac bb232f53 bbd42fa0 bc2c5366 bc492c9e bc2a7aa6 "
    "bbd55d04 ba823a76 3b102aa8 3ae25a7e 3a31f792 38b84375 3689bb5a 00000000 "
    "00000000",
)], np.uint32).view(_f32)
_IDX_BIAS = np.int64(0xc21fffff)
_RBOUND = np.uint32(0x40b15cee).view(_f32)          # 5.5419...: erf(x / sqrt 2) is 1 above


@functools.cache
def avx512() -> bool:
    """Whether oneDNN runs its AVX512 kernels here (read once, as oneDNN reads its ISA
    setting once a process)."""
    cap = os.environ.get("ONEDNN_MAX_CPU_ISA") or os.environ.get("DNNL_MAX_CPU_ISA") or ""
    cap = cap.strip().upper()
    if cap and cap != "ALL" and not cap.startswith("AVX512") and not cap.startswith("AVX10"):
        return False
    return _cpu.has_avx512()


def gelu_erf(x):
    """``0.5 x (1 + erf(x / sqrt 2))`` of a float32 array as oneDNN's AVX512 JIT computes it."""
    xp = np.abs(x)
    idx = ((xp.view(np.int32).astype(np.int64) + _IDX_BIAS) & 0xFFFFFFFF).astype(np.uint32)
    idx = np.clip(idx.view(np.int32) >> 21, 1, 24)
    idx = np.where(_RBOUND < xp, 23, idx)
    pol = _POL[5][idx]
    with np.errstate(all="ignore"):
        for deg in range(4, -1, -1):
            pol = fma(pol, xp, _POL[deg][idx])
        pol = np.where(np.signbit(x), -pol, pol) + _f32(1)
        return (x * pol) * _f32(0.5)
