"""Conv kernels vs an onnxruntime single-op session, same shapes, same thread count, same run.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_conv.py [--reps 20]

Prints ms per call (best of --reps, interleaved) and the ratio ours / onnxruntime (lower is better).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_timing import add_cpu_time_option, apply_cpu_time_option, best, ort_single_op  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from kernel_ref import run_op  # noqa: E402

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
    ap.add_argument("--reps", type=int, default=20)
    add_cpu_time_option(ap)
    args = ap.parse_args()
    apply_cpu_time_option(args)
    threads = int(os.environ.get("ACL_SIM_HOST_THREADS", os.cpu_count()))
    rng = np.random.default_rng(0)
    print(("cpu-time mode, " if args.cpu_time else "wall-clock, ") + f"threads={threads}  (best of {args.reps}, interleaved rounds)")
    print(f"{'case':34s} {'ours ms':>9s} {'ort ms':>9s} {'ratio':>7s}")
    for name, xs, ws, attrs in CASES:
        x = rng.standard_normal(xs).astype(np.float32)
        w = rng.standard_normal(ws).astype(np.float32) * 0.1
        b = rng.standard_normal(ws[0]).astype(np.float32)
        sess, y_shape = ort_single_op("Conv", xs, ws, attrs, threads)
        feeds = {"x": x, "w": w, "b": b}
        ours_t, ort_t = [], []
        for _ in range(3):  # interleave so background load hits both sides alike
            ours_t.append(best(lambda: run_op("Conv", [x, w, b], [y_shape], [np.float32], attrs), args.reps // 3 + 1))
            ort_t.append(best(lambda: sess.run(None, feeds), args.reps // 3 + 1))
        ours, ref = min(ours_t), min(ort_t)
        y = run_op("Conv", [x, w, b], [y_shape], [np.float32], attrs)[0]
        assert np.allclose(y, sess.run(None, feeds)[0], rtol=1e-3, atol=1e-3), name
        print(f"{name:34s} {ours * 1e3:9.3f} {ref * 1e3:9.3f} {ours / ref:7.2f}")

if __name__ == "__main__":
    main()
