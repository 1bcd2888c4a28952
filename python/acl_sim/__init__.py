"""acl_sim: run AscendCL (CANN) programs unchanged on any CPU.

`import acl` (the pyACL face) re-exports the submodules of `acl_sim._core`.
"""
from __future__ import annotations

import os as _os

__version__ = "0.1.0"

_HERE = _os.path.dirname(_os.path.abspath(__file__))

# Development builds: ACL_SIM_BUILD_DIR=build/<name> makes `acl_sim._core`
# come from that CMake build tree (see DEVELOPERS.md).
_BUILD_DIR = _os.environ.get("ACL_SIM_BUILD_DIR")
if _BUILD_DIR:
    __path__.insert(0, _os.path.abspath(_BUILD_DIR))  # type: ignore[name-defined]


def _point_dvpp_at_pillow_libs() -> None:
    """DVPP loads libjpeg/libpng at run time; the Pillow wheel's copies are its last resort
    (docs/dvpp.md). Tell the C++ side where they are, without importing PIL."""
    if "ACL_SIM_PILLOW_LIBS" in _os.environ:
        return
    import importlib.util

    try:
        spec = importlib.util.find_spec("PIL")
    except (ImportError, ValueError):
        return
    if spec and spec.origin:
        libs = _os.path.join(_os.path.dirname(_os.path.dirname(spec.origin)), "pillow.libs")
        if _os.path.isdir(libs):
            _os.environ["ACL_SIM_PILLOW_LIBS"] = libs


_point_dvpp_at_pillow_libs()


def get_include() -> str:
    """Directory holding acl/acl.h and hccl/hccl.h."""
    return _os.path.join(_HERE, "include")


def get_library_dir() -> str:
    """Directory holding libascendcl.so."""
    return _os.path.join(_HERE, "lib")


def get_library() -> str:
    """Path of libascendcl.so."""
    return _os.path.join(get_library_dir(), "libascendcl.so")


def get_cmake_dir() -> str:
    """Directory for find_package(acl_sim): pass as acl_sim_DIR or on CMAKE_PREFIX_PATH."""
    return _os.path.join(_HERE, "share", "cmake", "acl_sim")


__all__ = ["get_include", "get_library_dir", "get_library", "get_cmake_dir", "__version__"]
