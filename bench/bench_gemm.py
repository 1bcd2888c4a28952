"""fp32 GEMM (the MatMul op through the testing path) vs numpy.matmul (OpenBLAS), same run.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_gemm.py [--seconds 1.5] [--cpu-time]

Timing: bench_timing.compare (wall clock, all cores both sides, alternated, median of per-pair ratios).
Reported as GFLOP/s from the medians and the time ratio acl_sim / numpy (lower is better).
--cpu-time is a single-thread diagnostic.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_timing as bt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from kernel_harness import run_op  # noqa: E402

# (M, K, N)
SHAPES = [(1024, 1024, 1024), (4096, 1024, 4096), (512, 512, 512), (256, 2304, 196), (64, 576, 3136),
          (1, 2048, 1000), (128, 768, 3072)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.5, help="timing budget per shape")
    bt.add_cpu_time_option(ap)
    args = ap.parse_args()
    bt.apply_cpu_time_option(args)
    print(bt.machine_header())
    print("MatMul through the testing path (run_op) vs numpy.matmul\n")
    rng = np.random.default_rng(0)
    rows = []
    for m, k, n in SHAPES:
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = rng.standard_normal((k, n), dtype=np.float32)
        y = run_op("MatMul", [a, b], [(m, n)], [np.float32])[0]
        assert np.allclose(y, a @ b, rtol=1e-3, atol=1e-2 * np.sqrt(k))
        c = bt.compare(lambda: run_op("MatMul", [a, b], [(m, n)], [np.float32]), lambda: np.matmul(a, b),
                       seconds=args.seconds)
        flops = 2.0 * m * n * k
        rows.append([f"{m} x {k} x {n}", bt.ms(c.ours_s), bt.ms(c.ref_s), f"{flops / c.ours_s / 1e9:.1f}",
                     f"{flops / c.ref_s / 1e9:.1f}", f"{c.ratio:.2f}x", str(c.pairs)])
        print("  ".join(rows[-1]), flush=True)
    print()
    print(bt.table(["M x K x N", "acl_sim ms", "numpy ms", "acl_sim GF/s", "numpy GF/s", "time ratio", "pairs"], rows))


if __name__ == "__main__":
    main()
