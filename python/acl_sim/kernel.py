"""Ascend C-style kernels on acl_sim: compile, load, launch.

The low-level face is ``acl_sim._core.kernel`` (pyACL conventions: handles are
ints, calls return ``ret`` or ``(value, ret)``)::

    bin_, ret = kernel.load("add_custom.so")
    func, ret = kernel.get_function(bin_, "add_custom")
    ret = kernel.launch(func, 8, [x_dev, y_dev, z_dev, tiling_dev], stream)
    ret = kernel.unload(bin_)

This module adds the paths a kernel author needs (``include_dir``,
``library_dir``), ``compile_kernel`` (g++ on the host), and small
``KernelBinary`` / ``KernelFunction`` wrappers that raise ``KernelError``
instead of returning codes.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from typing import Iterable, Optional, Sequence

import acl_sim

__all__ = [
    "KernelError",
    "KernelBinary",
    "KernelFunction",
    "include_dir",
    "library_dir",
    "compile_kernel",
    "MAX_BLOCK_DIM",
]

MAX_BLOCK_DIM = 65535

_REPO_INCLUDE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "csrc", "include"))


def _core_kernel():
    from acl_sim._core import kernel as _k  # imported lazily: the extension may come from ACL_SIM_BUILD_DIR

    return _k


class KernelError(RuntimeError):
    """A kernel API call failed; ``code`` is the CANN error code."""

    def __init__(self, what: str, code: int):
        super().__init__(f"{what} failed with error {code}")
        self.code = code


def include_dir() -> str:
    """Directory holding kernel_operator.h and acl/acl.h (installed wheel, or the source tree in development)."""
    installed = acl_sim.get_include()
    if os.path.exists(os.path.join(installed, "kernel_operator.h")):
        return installed
    return _REPO_INCLUDE


def library_dir() -> str:
    """Directory holding libascendcl.so (ACL_SIM_BUILD_DIR in development, else the wheel's lib/)."""
    build = os.environ.get("ACL_SIM_BUILD_DIR")
    if build and os.path.exists(os.path.join(build, "libascendcl.so")):
        return os.path.abspath(build)
    return acl_sim.get_library_dir()


def compile_kernel(
    sources: Iterable[str] | str,
    output: str,
    include_dirs: Sequence[str] = (),
    defines: Sequence[str] = (),
    extra_flags: Sequence[str] = (),
    cxx: Optional[str] = None,
    opt: str = "-O2",
) -> str:
    """Build Ascend C-style kernel sources into a host shared object with g++; returns ``output``.

    The kernel needs only the headers: it does not link libascendcl. Raises
    ``subprocess.CalledProcessError`` (with the compiler's output) on failure.
    """
    if isinstance(sources, str):
        sources = [sources]
    compiler = cxx or os.environ.get("CXX") or shutil.which("g++") or "c++"
    cmd = [compiler, "-std=c++17", opt, "-shared", "-fPIC", "-I", include_dir()]
    for d in include_dirs:
        cmd += ["-I", d]
    cmd += [f"-D{d}" for d in defines]
    cmd += list(extra_flags)
    cmd += list(sources)
    cmd += ["-o", output]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return output


class KernelFunction:
    """One kernel of a loaded binary. Call as ``f(block_dim, *args, stream=0)``; args are ints (device pointers or integers)."""

    def __init__(self, binary: "KernelBinary", name: str, handle: int):
        self.binary = binary
        self.name = name
        self.handle = handle

    def launch(self, block_dim: int, args: Sequence[int], stream: int = 0) -> None:
        """Enqueue on ``stream`` (0: the current context's default stream). Kernel faults surface at synchronize."""
        ret = _core_kernel().launch(self.handle, int(block_dim), [int(a) for a in args], int(stream))
        if ret != 0:
            raise KernelError(f"launch of {self.name}", ret)

    def __call__(self, block_dim: int, *args: int, stream: int = 0) -> None:
        self.launch(block_dim, args, stream)


class KernelBinary:
    """A loaded kernel .so (aclrtBinaryLoadFromFile); usable as a context manager that unloads on exit."""

    def __init__(self, path: str):
        self.path = path
        handle, ret = _core_kernel().load(path)
        if ret != 0:
            raise KernelError(f"loading {path}", ret)
        self.handle = handle

    def function(self, name: str) -> KernelFunction:
        handle, ret = _core_kernel().get_function(self.handle, name)
        if ret != 0:
            raise KernelError(f"looking up kernel {name!r} in {self.path}", ret)
        return KernelFunction(self, name, handle)

    def unload(self) -> None:
        if self.handle:
            ret = _core_kernel().unload(self.handle)
            self.handle = 0
            if ret != 0:
                raise KernelError(f"unloading {self.path}", ret)

    def __enter__(self) -> "KernelBinary":
        return self

    def __exit__(self, *exc) -> None:
        self.unload()
