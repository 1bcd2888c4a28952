"""Runtime benchmarks (issue 2 §6): async enqueue cost from C++ and Python,
64 MiB memcpy H2D/D2H/D2D against numpy.copyto, cached malloc+free from C++.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_runtime.py
    python bench/bench_runtime.py            # against the installed wheel

Timings are medians; every figure is printed next to a reference measured in
the same run, because absolute numbers depend on the (shared) machine.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import acl

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
H2D, D2H, D2D = 1, 2, 3


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def cpp_figures():
    """Compile and run bench_runtime.cpp against the same libascendcl the Python side uses."""
    build_dir = os.environ.get("ACL_SIM_BUILD_DIR")
    if build_dir:
        inc, lib = ROOT / "csrc" / "include", Path(build_dir).resolve()
    else:
        import acl_sim
        inc, lib = Path(acl_sim.get_include()), Path(acl_sim.get_library_dir())
    cxx = os.environ.get("CXX") or shutil.which("c++") or "g++"
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "bench_runtime"
        subprocess.run([cxx, "-O2", "-std=c++17", f"-I{inc}", str(HERE / "bench_runtime.cpp"), f"-L{lib}",
                        "-lascendcl", f"-Wl,-rpath,{lib}", "-lpthread", "-o", str(exe)], check=True)
        out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return {name: float(value) for name, value, _ in (line.split() for line in out.strip().splitlines())}


def python_enqueue(n=100000, reps=5):
    s, _ = acl.rt.create_stream()
    d, _ = acl.rt.malloc(32, 0)
    memset_async = acl.rt.memset_async
    enqueue, floor = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        for i in range(n):
            memset_async(d, 32, i & 0xFF, 32, s)
        enqueue.append((time.perf_counter() - t0) / n * 1e6)
        acl.rt.synchronize_stream(s)
        get_run_mode = acl.rt.get_run_mode      # a binding that does no work: the pybind11 floor
        t0 = time.perf_counter()
        for _ in range(n):
            get_run_mode()
        floor.append((time.perf_counter() - t0) / n * 1e6)
    acl.rt.destroy_stream(s)
    acl.rt.free(d)
    return median(enqueue), median(floor)


def memcpy_ratios(size=64 << 20, reps=15):
    src = np.random.default_rng(0).integers(0, 255, size, dtype=np.uint8)
    dst = np.empty_like(src)
    a, _ = acl.rt.malloc(size, 0)
    b, _ = acl.rt.malloc(size, 0)
    for p in (a, b):                      # commit the device pages before timing
        acl.rt.memset(p, size, 0, size)
    np.copyto(dst, src)

    fns = {
        "ref": lambda: np.copyto(dst, src),
        "H2D": lambda: acl.rt.memcpy(a, size, src.ctypes.data, size, H2D),
        "D2H": lambda: acl.rt.memcpy(dst.ctypes.data, size, a, size, D2H),
        "D2D": lambda: acl.rt.memcpy(b, size, a, size, D2D),
    }
    times = {k: [] for k in fns}
    for _ in range(reps):                 # interleaved, so load changes hit all figures alike
        for k, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t0)
    ref = median(times.pop("ref"))
    res = {k: median(v) for k, v in times.items()}
    acl.rt.free(a)
    acl.rt.free(b)
    return ref, res


def main():
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    py_enqueue, py_floor = python_enqueue()
    ref, copies = memcpy_ratios()
    acl.rt.reset_device(0)
    acl.finalize()
    cpp = cpp_figures()
    gbps = lambda t: (64 << 20) / t / 1e9  # noqa: E731
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| what | measured | reference (same run) | target |")
    print("|---|---|---|---|")
    print(f"| async enqueue, 32-B memset_async, C++ | {cpp['cpp_memset_async_enqueue'] / 1000:.2f} µs/call | "
          f"enqueue+drain {cpp['cpp_memset_async_enqueue_plus_drain'] / 1000:.2f} µs/task | ≤ 1 µs |")
    print(f"| async enqueue, 32-B memset_async, Python | {py_enqueue:.2f} µs/call | "
          f"empty pybind11 call {py_floor:.2f} µs | ≤ 3 µs |")
    for k, t in copies.items():
        print(f"| memcpy {k} 64 MiB | {gbps(t):.1f} GB/s, ratio {ref / t:.2f} | numpy.copyto {gbps(ref):.1f} GB/s | ≥ 0.9 |")
    print(f"| cached malloc+free pair, C++ (aclrtMalloc/aclrtFree) | {cpp['cpp_malloc_free_pair']:.0f} ns | "
          f"glibc malloc+free {cpp['ref_glibc_malloc_free_pair']:.0f} ns | ≤ 100 ns |")


if __name__ == "__main__":
    sys.exit(main())
