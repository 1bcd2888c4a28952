"""Conv kernels (testing path: acl_sim._core.testing.run_op) vs an onnxruntime single-op session.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_conv.py [--seconds 1.5] [--cpu-time]

Timing: bench_timing.compare (wall clock, all cores both sides, alternated, median of per-pair ratios;
ratio = acl_sim / onnxruntime time, lower is better). --cpu-time is a single-thread diagnostic.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_timing as bt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from kernel_harness import bound_op  # noqa: E402

# name, X shape, W shape, attrs: resnet50 / vgg / densenet / PP-OCR shapes, batch 1
CASES = [
    ("3x3 64->64 56x56 (target)", (1, 64, 56, 56), (64, 64, 3, 3), {"pads": [1, 1, 1, 1]}),
    ("7x7/2 3->64 224 (resnet stem)", (1, 3, 224, 224), (64, 3, 7, 7), {"strides": [2, 2], "pads": [3, 3, 3, 3]}),
    ("1x1 256->64 56x56", (1, 256, 56, 56), (64, 256, 1, 1), {}),
    ("1x1 64->256 56x56", (1, 64, 56, 56), (256, 64, 1, 1), {}),
    ("3x3 128->128 28x28", (1, 128, 28, 28), (128, 128, 3, 3), {"pads": [1, 1, 1, 1]}),
    ("3x3/2 256->256 14x14", (1, 256, 28, 28), (256, 256, 3, 3), {"pads": [1, 1, 1, 1], "strides": [2, 2]}),
    ("3x3 512->512 7x7", (1, 512, 7, 7), (512, 512, 3, 3), {"pads": [1, 1, 1, 1]}),
    ("dw 3x3 96 80x80 (PP-OCR)", (1, 96, 80, 80), (96, 1, 3, 3), {"pads": [1, 1, 1, 1], "group": 96}),
    ("dw 5x5/2 120 40x40", (1, 120, 40, 40), (120, 1, 5, 5), {"pads": [2, 2, 2, 2], "group": 120, "strides": [2, 2]}),
    ("3x3 64->64 56x56 batch 4", (4, 64, 56, 56), (64, 64, 3, 3), {"pads": [1, 1, 1, 1]}),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.5, help="timing budget per case")
    ap.add_argument("--cases", help="comma-separated substrings of case names to run")
    bt.add_cpu_time_option(ap)
    args = ap.parse_args()
    bt.apply_cpu_time_option(args)
    print(bt.machine_header())
    print("Conv through the testing path (run_op) vs an onnxruntime single-op session\n")
    rng = np.random.default_rng(0)
    rows = []
    for name, xs, ws, attrs in CASES:
        if args.cases and not any(c in name for c in args.cases.split(",")):
            continue
        x = rng.standard_normal(xs).astype(np.float32)
        w = rng.standard_normal(ws).astype(np.float32) * 0.1
        b = rng.standard_normal(ws[0]).astype(np.float32)
        sess, y_shape = bt.ort_single_op("Conv", xs, ws, attrs)
        feeds = {"x": x, "w": w, "b": b}
        ours = bound_op("Conv", [x, w, b], [y_shape], [np.float32], attrs)
        y = ours()[0]
        assert np.allclose(y, sess.run(None, feeds)[0], rtol=1e-3, atol=1e-3), name
        c = bt.compare(ours,
                       lambda: sess.run(None, feeds), seconds=args.seconds)
        rows.append(c.row(name))
        print("  ".join(rows[-1]), flush=True)
    print()
    print(bt.table(["case", "acl_sim ms", "onnxruntime ms", "ratio", "pairs"], rows))


if __name__ == "__main__":
    main()
