"""``ember.utils.cpp_extension``: building C++ extensions at run time (``load``,
``load_inline``).

torch compiles such an extension against its own C++ API (``torch/extension.h``, libtorch)
and imports the result. Ember is pure Python on NumPy: it has no C++ API to compile against
and no C++ tensors to hand to the compiled functions. It checks what torch checks first (the
``ninja`` build system, with torch's error when it is missing) and then raises
``RuntimeError("Error building extension '<name>'")`` with the reason, where torch would
build; see docs/differences.md.
"""

from __future__ import annotations

import subprocess

__all__ = ["is_ninja_available", "load", "load_inline", "verify_ninja_availability"]


def is_ninja_available() -> bool:
    """Whether the ``ninja`` build system runs on this machine."""
    try:
        subprocess.check_output(["ninja", "--version"])
    except Exception:   # noqa: BLE001
        return False
    return True


def verify_ninja_availability() -> None:
    """Raise torch's ``RuntimeError`` when ``ninja`` is not available."""
    if not is_ninja_available():
        raise RuntimeError("Ninja is required to load C++ extensions (pip install ninja to get "
                           "it)")


def _cannot_build(name: str) -> RuntimeError:
    return RuntimeError(f"Error building extension '{name}': Ember has no C++ API "
                        "(torch/extension.h, libtorch) to compile C++ extensions against")


def load(name, sources, extra_cflags=None, extra_cuda_cflags=None, extra_sycl_cflags=None,
         extra_ldflags=None, extra_include_paths=None, build_directory=None, verbose=False,
         with_cuda=None, with_sycl=None, is_python_module=True, is_standalone=False,
         keep_intermediates=True):
    """Build and load a C++ extension from ``sources`` (raises: see the module's doc)."""
    for path in [sources] if isinstance(sources, str) else sources:
        with open(path, "rb") as f:      # (torch hashes the sources first)
            f.read()
    verify_ninja_availability()
    raise _cannot_build(name)


def load_inline(name, cpp_sources, cuda_sources=None, sycl_sources=None, functions=None,
                extra_cflags=None, extra_cuda_cflags=None, extra_sycl_cflags=None,
                extra_ldflags=None, extra_include_paths=None, build_directory=None,
                verbose=False, with_cuda=None, with_sycl=None, is_python_module=True,
                with_pytorch_error_handling=True, keep_intermediates=True, use_pch=False,
                no_implicit_headers=False):
    """Build and load a C++ extension from source strings (raises: see the module's doc)."""
    verify_ninja_availability()
    raise _cannot_build(name)


del annotations  # keep dir() to torch's names
