"""fp32 GEMM (the MatMul op on the packed GEMM) vs numpy.matmul (OpenBLAS), same run, same thread count.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_gemm.py [--reps 5]

ACL_SIM_HOST_THREADS and OPENBLAS_NUM_THREADS both default to the host's cores; set both to
compare at another count. Prints GFLOPS (best of --reps, interleaved rounds) and ours / numpy.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_timing import add_cpu_time_option, apply_cpu_time_option, best  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from kernel_ref import run_op  # noqa: E402

# (M, K, N)
SHAPES = [(1024, 1024, 1024), (4096, 1024, 4096), (512, 512, 512), (256, 2304, 196), (64, 576, 3136),
          (1, 2048, 1000), (128, 768, 3072)]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    add_cpu_time_option(ap)
    args = ap.parse_args()
    apply_cpu_time_option(args)
    threads = int(os.environ.get("ACL_SIM_HOST_THREADS", os.cpu_count()))

    print(("cpu-time mode, " if args.cpu_time else "wall-clock, ") + f"threads={threads}  (best of {args.reps} per round, 3 interleaved rounds)")
    print(f"{'M x K x N':22s} {'ours GF/s':>10s} {'numpy GF/s':>11s} {'ratio':>7s}")
    rng = np.random.default_rng(0)
    for m, k, n in SHAPES:
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = rng.standard_normal((k, n), dtype=np.float32)
        reps = max(1, args.reps if m * n * k < 1e10 else args.reps // 2)
        ours_t, np_t = [], []
        for _ in range(3):  # interleave so background load hits both sides alike
            ours_t.append(best(lambda: run_op("MatMul", [a, b], [(m, n)], [np.float32]), reps))
            np_t.append(best(lambda: np.matmul(a, b), reps))
        y = run_op("MatMul", [a, b], [(m, n)], [np.float32])[0]
        assert np.allclose(y, a @ b, rtol=1e-3, atol=1e-2 * np.sqrt(k))
        flops = 2.0 * m * n * k
        ours, ref = flops / min(ours_t) / 1e9, flops / min(np_t) / 1e9
        print(f"{f'{m} x {k} x {n}':22s} {ours:10.1f} {ref:11.1f} {ours / ref:7.2f}")

if __name__ == "__main__":
    main()
