"""fp32 GEMM (the MatMul op through the testing path) vs numpy.matmul (OpenBLAS), same run.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_gemm.py [--seconds 1.5] [--cpu-time]

Timing: bench_timing.compare (wall clock, all cores both sides, alternated, median of per-pair ratios),
with settle=OPENBLAS_SETTLE_S: OpenBLAS's workers spin ~0.1 s after each call and would otherwise share
the cores with acl_sim's next call. Reported as GFLOP/s from the medians and the time ratio acl_sim /
numpy (lower is better). --cpu-time is a single-thread diagnostic. The shapes are the square reference
points and the GEMMs the models run: resnet50's convolutions as im2col GEMMs (M = output channels,
K = input channels x kernel area, N = output pixels), its FC layer, and BERT-base-sized transformer
MatMuls (sequence 128, d 768, FFN 3072).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_timing as bt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from kernel_harness import bound_op  # noqa: E402

# (M, K, N, what)
SHAPES = [(1024, 1024, 1024, "square"), (512, 512, 512, "square"),
          (64, 147, 12544, "resnet50 stem 7x7/2"), (64, 576, 3136, "resnet50 3x3 64 56x56"),
          (256, 64, 3136, "resnet50 1x1 64->256 56x56"), (128, 1152, 784, "resnet50 3x3 128 28x28"),
          (256, 2304, 196, "resnet50 3x3 256 14x14"), (1024, 256, 196, "resnet50 1x1 256->1024 14x14"),
          (512, 4608, 49, "resnet50 3x3 512 7x7"), (2048, 512, 49, "resnet50 1x1 512->2048 7x7"),
          (1, 2048, 1000, "resnet50 FC"), (128, 768, 768, "transformer QKV/out proj"),
          (128, 768, 3072, "transformer FFN up"), (128, 3072, 768, "transformer FFN down")]


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
    for m, k, n, what in SHAPES:
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = rng.standard_normal((k, n), dtype=np.float32)
        ours = bound_op("MatMul", [a, b], [(m, n)], [np.float32])
        y = ours()[0]
        assert np.allclose(y, a @ b, rtol=1e-3, atol=1e-2 * np.sqrt(k))
        c = bt.compare(ours, lambda: np.matmul(a, b),
                       seconds=args.seconds, settle=bt.OPENBLAS_SETTLE_S)
        flops = 2.0 * m * n * k
        rows.append([f"{m} x {k} x {n}", what, bt.ms(c.ours_s), bt.ms(c.ref_s), f"{flops / c.ours_s / 1e9:.1f}",
                     f"{flops / c.ref_s / 1e9:.1f}", f"{c.ratio:.2f}x", str(c.pairs)])
        print("  ".join(rows[-1]), flush=True)
    print()
    print(bt.table(["M x K x N", "GEMM", "acl_sim ms", "numpy ms", "acl_sim GF/s", "numpy GF/s", "time ratio", "pairs"], rows))


if __name__ == "__main__":
    main()
