"""Pooling and depthwise-conv kernels (testing path) vs onnxruntime single-op sessions, same run.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_pool.py [--seconds 1.0] [--cpu-time]

Shapes are the slow nodes found by the model benchmark (resnet50 stem MaxPool, PP-OCR cls MaxPool and
5x5 depthwise convs). Timing: bench_timing.compare (wall clock, all cores both sides, alternated, median
of per-pair ratios; acl_sim / onnxruntime, lower is better). --cpu-time is a single-thread diagnostic.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_timing as bt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from kernel_harness import bound_op  # noqa: E402

# name, op, X shape, W shape (Conv only), attrs
CASES = [
    ("MaxPool 3x3/2 p1 1x64x112x112", "MaxPool", (1, 64, 112, 112), None,
     {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    # light_squeezenet's three (unpadded, odd planes).
    ("MaxPool 3x3/2 1x64x111x111", "MaxPool", (1, 64, 111, 111), None, {"kernel_shape": [3, 3], "strides": [2, 2]}),
    ("MaxPool 3x3/2 1x128x55x55", "MaxPool", (1, 128, 55, 55), None, {"kernel_shape": [3, 3], "strides": [2, 2]}),
    ("MaxPool 3x3/2 1x256x27x27", "MaxPool", (1, 256, 27, 27), None, {"kernel_shape": [3, 3], "strides": [2, 2]}),
    ("MaxPool 2x2/2 8x200x2x96", "MaxPool", (8, 200, 2, 96), None, {"kernel_shape": [2, 2], "strides": [2, 2]}),
    ("MaxPool 2x2/2 1x64x112x112", "MaxPool", (1, 64, 112, 112), None, {"kernel_shape": [2, 2], "strides": [2, 2]}),
    ("AvgPool 3x3/1 p1 1x128x28x28", "AveragePool", (1, 128, 28, 28), None,
     {"kernel_shape": [3, 3], "strides": [1, 1], "pads": [1, 1, 1, 1]}),
    ("AvgPool 2x2/2 1x256x56x56", "AveragePool", (1, 256, 56, 56), None, {"kernel_shape": [2, 2], "strides": [2, 2]}),
    # inception_v1 / v2's pool branches on small planes, and shufflenet's strided average pools.
    ("AvgPool 3x3/1 p1 1x576x14x14", "AveragePool", (1, 576, 14, 14), None,
     {"kernel_shape": [3, 3], "strides": [1, 1], "pads": [1, 1, 1, 1]}),
    ("MaxPool 3x3/1 p1 1x1024x7x7", "MaxPool", (1, 1024, 7, 7), None,
     {"kernel_shape": [3, 3], "strides": [1, 1], "pads": [1, 1, 1, 1]}),
    ("AvgPool 3x3/2 p1 1x240x28x28", "AveragePool", (1, 240, 28, 28), None,
     {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ("AvgPool 3x3/2 p1 1x960x7x7", "AveragePool", (1, 960, 7, 7), None,
     {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ("dw 5x5 88 8x88x3x96", "Conv", (8, 88, 3, 96), (88, 1, 5, 5), {"pads": [2, 2, 2, 2], "group": 88}),
    ("dw 5x5 200 8x200x2x96", "Conv", (8, 200, 2, 96), (200, 1, 5, 5), {"pads": [2, 2, 2, 2], "group": 200}),
    ("dw 3x3 96 80x80 (PP-OCR)", "Conv", (1, 96, 80, 80), (96, 1, 3, 3), {"pads": [1, 1, 1, 1], "group": 96}),
    ("dw 5x5/2 120 40x40", "Conv", (1, 120, 40, 40), (120, 1, 5, 5),
     {"pads": [2, 2, 2, 2], "group": 120, "strides": [2, 2]}),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0, help="timing budget per case")
    bt.add_cpu_time_option(ap)
    args = ap.parse_args()
    bt.apply_cpu_time_option(args)
    print(bt.machine_header())
    print("Pooling / depthwise conv through the testing path (run_op) vs onnxruntime single-op sessions\n")
    rng = np.random.default_rng(0)
    rows = []
    for name, op, xs, ws, attrs in CASES:
        x = rng.standard_normal(xs).astype(np.float32)
        inputs, feeds = [x], {"x": x}
        if ws is not None:
            w = rng.standard_normal(ws).astype(np.float32) * 0.1
            b = rng.standard_normal(ws[0]).astype(np.float32)
            inputs += [w, b]
            feeds.update(w=w, b=b)
        sess, y_shape = bt.ort_single_op(op, xs, ws, attrs)
        ours = bound_op(op, inputs, [y_shape], [np.float32], attrs)
        y = ours()[0]
        assert np.allclose(y, sess.run(None, feeds)[0], rtol=1e-4, atol=1e-4), name
        c = bt.compare(ours, lambda: sess.run(None, feeds),
                       seconds=args.seconds)
        rows.append(c.row(name))
        print("  ".join(rows[-1]), flush=True)
    print()
    print(bt.table(["case", "acl_sim ms", "onnxruntime ms", "ratio", "pairs"], rows))


if __name__ == "__main__":
    main()
