"""Run a benchmark with onnxruntime on its AVX2 kernels on an AVX-512 host (for the AVX2 rows of RESULTS.md).

onnxruntime's MLAS picks its kernels once, from CPUID and XCR0, and has no switch to stay off AVX-512. This
tool copies the installed onnxruntime package into a cache and patches one branch of the copy's MLAS platform
setup: the `test $0x10000, reg` (CPUID leaf 7 EBX bit 16, AVX512F) / `je` pair that guards the AVX-512
kernel selection becomes an unconditional jump, which is the path an AVX2-only CPU (Zen 3, Haswell..) takes.
Nothing else changes: CPUID, XCR0 and the other feature checks are the host's. The branch is found by its
byte pattern (AVX512F test, short je, then the XCR0 `test $0xe0, al` within a few bytes), and the tool refuses
to run unless it matches exactly once, so a new onnxruntime build fails loudly rather than measuring AVX-512.
Checked on onnxruntime 1.32.0 with `perf annotate`: a Conv's hot loop is ymm FMAs in the patched copy, zmm
in the installed one.

    python bench/ort_avx2.py -- python bench/bench_models.py --models resnet50

The command runs with the patched copy first on PYTHONPATH, ACL_SIM_KERNEL_ISA=avx2 and
OPENBLAS_CORETYPE=Haswell (numpy's OpenBLAS, the GEMM reference), so all three sides run AVX2 code.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys

# test $0x10000, r32 (optionally REX.B) ; je rel8 ; ... ; test $0xe0, %al
_AVX512F_BRANCH = re.compile(rb"(?:\x41)?\xf7[\xc0-\xc7]\x00\x00\x01\x00(\x74.)(?:.{0,8}?)\xa8\xe0", re.S)


def patched_package() -> str:
    """Directory holding the AVX2-patched onnxruntime package (built once per onnxruntime version)."""
    spec = importlib.util.find_spec("onnxruntime")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("ort_avx2: onnxruntime is not installed")
    src = list(spec.submodule_search_locations)[0]
    version = importlib.metadata.version("onnxruntime")
    root = os.path.join(os.path.expanduser("~"), ".cache", "acl_sim", "ort_avx2", version)
    done = os.path.join(root, "PATCHED")
    if os.path.exists(done):
        return root
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(src, os.path.join(root, "onnxruntime"))
    capi = os.path.join(root, "onnxruntime", "capi")
    modules = [f for f in os.listdir(capi) if f.startswith("onnxruntime_pybind11_state") and f.endswith(".so")]
    if len(modules) != 1:
        raise SystemExit(f"ort_avx2: expected one onnxruntime_pybind11_state*.so in {capi}, found {modules}")
    path = os.path.join(capi, modules[0])
    with open(path, "rb") as f:
        image = bytearray(f.read())
    hits = list(_AVX512F_BRANCH.finditer(image))
    if len(hits) != 1:
        shutil.rmtree(root, ignore_errors=True)
        raise SystemExit(f"ort_avx2: the AVX512F branch of onnxruntime {version} matched {len(hits)} times "
                         "(expected once); this build is not supported")
    image[hits[0].start(1)] = 0xEB  # je rel8 -> jmp rel8
    with open(path, "wb") as f:
        f.write(image)
    with open(done, "w") as f:
        f.write(f"{modules[0]}: je -> jmp at file offset {hits[0].start(1):#x}\n")
    return root


def main() -> int:
    argv = sys.argv[1:]
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        print(__doc__)
        return 2
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (patched_package(), env.get("PYTHONPATH", "")) if p)
    env.setdefault("ACL_SIM_KERNEL_ISA", "avx2")
    env.setdefault("OPENBLAS_CORETYPE", "Haswell")
    return subprocess.call(argv, env=env)


if __name__ == "__main__":
    sys.exit(main())
