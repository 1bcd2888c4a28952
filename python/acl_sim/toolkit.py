"""The CANN toolkit folder: `python -m acl_sim --toolkit-dir` (also `acl-sim --toolkit-dir`).

Creates (idempotently) and prints a folder that CANN build systems accept as
ASCEND_TOOLKIT_HOME / CANN_INSTALL_DIR / INSTALL_DIR / DDK_PATH:

    include/                 a copy of acl_sim's installed include tree (acl/, aclnn/, aclnnop/, hccl/, ...)
    lib64/libascendcl.so     a link to acl_sim's library; libnnopbase.so and libopapi.so link to it
                             too (acl_sim exports the aclnn symbols from it); libacl_op_compiler.so
                             and libacl_cblas.so link to acl_sim's thin libraries of those names
    lib64/stub/              the same links (the samples link against stub/)
    runtime/include, runtime/lib64 (with stub/)  links to the above: the Ascend samples' layout
    bin/npu-smi, bin/atc     wrappers of `acl-sim npu-smi` and `acl-sim atc`
    set_env.sh               sets ASCEND_TOOLKIT_HOME, ASCEND_HOME_PATH, INSTALL_DIR, DDK_PATH,
                             NPU_HOST_LIB, LD_LIBRARY_PATH and PATH

Where: ACL_SIM_TOOLKIT_DIR if set; else `toolkit/` in the build tree (ACL_SIM_BUILD_DIR) or in the
installed package when writable; else ~/.cache/acl_sim/toolkit-<version> ($XDG_CACHE_HOME).
"""
from __future__ import annotations

import filecmp
import os
import shutil
import sys

import acl_sim

_REPO_INCLUDE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "csrc", "include"))
# CANN's library names. Each links to the library of that name next to libascendcl.so when acl_sim
# builds one (libacl_op_compiler.so, libacl_cblas.so), else to libascendcl.so, which exports them all.
LIBRARY_NAMES = ("libascendcl.so", "libnnopbase.so", "libopapi.so", "libacl_op_compiler.so", "libacl_cblas.so")


def _build_dir() -> str | None:
    d = os.environ.get("ACL_SIM_BUILD_DIR")
    if d and os.path.isfile(os.path.join(d, "libascendcl.so")):
        return os.path.abspath(d)
    return None


def sources() -> tuple[str, str]:
    """(include dir, libascendcl.so path) this acl_sim runs from: a development build tree, or the package."""
    build = _build_dir()
    if build and os.path.isdir(_REPO_INCLUDE):
        return _REPO_INCLUDE, os.path.join(build, "libascendcl.so")
    return acl_sim.get_include(), acl_sim.get_library()


def default_location() -> str:
    env = os.environ.get("ACL_SIM_TOOLKIT_DIR")
    if env:
        return os.path.abspath(env)
    build = _build_dir()
    if build:
        return os.path.join(build, "toolkit")
    pkg = os.path.dirname(os.path.abspath(acl_sim.__file__))
    if os.access(pkg, os.W_OK):
        return os.path.join(pkg, "toolkit")
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "acl_sim", f"toolkit-{acl_sim.__version__}")


def _sync_tree(src: str, dst: str) -> None:
    """Make dst a copy of src (files copied when they differ; files gone from src removed)."""
    os.makedirs(dst, exist_ok=True)
    keep = set()
    for root, _dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        out = os.path.normpath(os.path.join(dst, rel))
        os.makedirs(out, exist_ok=True)
        keep.add(out)
        for f in files:
            s, d = os.path.join(root, f), os.path.join(out, f)
            keep.add(d)
            if not os.path.isfile(d) or not filecmp.cmp(s, d, shallow=False):
                shutil.copy2(s, d + ".tmp")
                os.replace(d + ".tmp", d)
    for root, dirs, files in os.walk(dst, topdown=False):
        for f in files:
            p = os.path.join(root, f)
            if p not in keep:
                os.remove(p)
        for d in dirs:
            p = os.path.join(root, d)
            if p not in keep and not os.listdir(p):
                os.rmdir(p)


def _link(target: str, path: str) -> None:
    if os.path.islink(path) and os.readlink(path) == target:
        return
    if os.path.lexists(path):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.remove(path)
    tmp = path + ".tmp"
    if os.path.lexists(tmp):
        os.remove(tmp)
    os.symlink(target, tmp)
    os.replace(tmp, path)


def _write(path: str, text: str, mode: int = 0o644) -> None:
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                os.chmod(path, mode)
                return
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path + ".tmp", mode)
    os.replace(path + ".tmp", path)


def _wrapper(subcommand: str) -> str:
    """A shell script running `acl-sim <subcommand>` with this interpreter and this acl_sim.

    It runs in the environment of whoever calls it, e.g. ggml's CMake inside pip's isolated build of
    llama-cpp-python, whose PYTHONPATH carries a sitecustomize that hides site-packages, from a
    temporary working directory. So the wrapper replaces PYTHONPATH instead of extending it and pins
    the build tree by absolute path (the toolkit's lib64 links point into that build anyway)."""
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(acl_sim.__file__)))
    lines = ["#!/bin/sh", f"# acl_sim toolkit: `{subcommand}` is `acl-sim {subcommand}`.",
             f'export PYTHONPATH="{pkg_parent}"', "unset PYTHONHOME"]
    build = _build_dir()
    if build:
        lines.append(f'export ACL_SIM_BUILD_DIR="{build}"')
    lines.append(f'exec "{sys.executable}" -m acl_sim {subcommand} "$@"')
    return "\n".join(lines) + "\n"


def _set_env(root: str) -> str:
    return f"""# acl_sim's CANN toolkit folder: `source {root}/set_env.sh`, as with CANN's set_env.sh.
export ASCEND_TOOLKIT_HOME="{root}"
export ASCEND_HOME_PATH="{root}"
export INSTALL_DIR="{root}"
export DDK_PATH="{root}"
export NPU_HOST_LIB="{root}/runtime/lib64/stub"
export LD_LIBRARY_PATH="{root}/lib64${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"
export PATH="{root}/bin${{PATH:+:$PATH}}"
"""


def ensure(root: str | None = None) -> str:
    """Create or refresh the toolkit folder at @root (default_location()); returns its absolute path."""
    root = os.path.abspath(root or default_location())
    include, library = sources()
    if not os.path.isfile(library):
        raise RuntimeError(f"libascendcl.so not found at {library}")
    os.makedirs(root, exist_ok=True)
    _sync_tree(include, os.path.join(root, "include"))
    for sub in ("lib64", os.path.join("lib64", "stub"), "bin", "runtime"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    for name in LIBRARY_NAMES:
        own = os.path.join(os.path.dirname(library), name)
        _link(os.path.abspath(own if os.path.isfile(own) else library), os.path.join(root, "lib64", name))
        _link(os.path.join("..", name), os.path.join(root, "lib64", "stub", name))
    _link(os.path.join("..", "include"), os.path.join(root, "runtime", "include"))
    _link(os.path.join("..", "lib64"), os.path.join(root, "runtime", "lib64"))
    _write(os.path.join(root, "bin", "npu-smi"), _wrapper("npu-smi"), 0o755)
    _write(os.path.join(root, "bin", "atc"), _wrapper("atc"), 0o755)
    _write(os.path.join(root, "set_env.sh"), _set_env(root))
    _write(os.path.join(root, "version.info"), f"Version=acl_sim-{acl_sim.__version__}\n")
    return root


def main(argv: list[str] | None = None) -> int:
    try:
        print(ensure(argv[0] if argv else None))
    except (OSError, RuntimeError) as exc:
        print(f"acl-sim --toolkit-dir: {exc}", file=sys.stderr)
        return 1
    return 0
