"""Elementwise / softmax / layernorm / transpose / reduce kernels (testing path) vs NumPy and
onnxruntime single-op sessions, measured in the same run.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_elementwise.py [--seconds 1] [--cpu-time]

Timing: bench_timing.compare (wall clock, all cores on every side, calls alternated, median of per-pair
ratios; lower is better, < 1 means acl_sim is faster). --cpu-time is a single-thread diagnostic.
"ours" includes the run_op binding's output allocation (see the Identity row).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_timing as bt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from kernel_harness import bound_op  # noqa: E402


def ours(op, inputs, out_shape, out_dtype, **attrs):
    return bound_op(op, list(inputs), [out_shape], [out_dtype], attrs)


def ort_session(op, inputs, out_shape, out_dtype, **attrs):
    try:
        from onnx import TensorProto, helper
    except ImportError:
        return None
    to_proto = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
                np.dtype(np.int64): TensorProto.INT64}
    names = [f"i{k}" for k in range(len(inputs))]
    node = helper.make_node(op, names, ["y"], **attrs)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info(n, to_proto[a.dtype], a.shape) for n, a in zip(names, inputs)],
        [helper.make_tensor_value_info("y", to_proto[np.dtype(out_dtype)], out_shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    sess = bt.ort_session(model.SerializeToString())
    feeds = dict(zip(names, inputs))
    return lambda: sess.run(None, feeds)


def cases(rng):
    f32 = lambda *s: rng.standard_normal(s, dtype=np.float32)  # noqa: E731
    big = f32(4, 1024, 1024)
    row = f32(1024)
    x = f32(256, 4096)
    img = f32(8, 64, 56, 56)
    # The binding allocates and zero-fills each output: this row is the floor under the 4M rows.
    yield "Identity 4M (copy floor)", ("Identity", [big], big.shape, np.float32, {}), lambda: big.copy()
    yield "Add contiguous 4M", ("Add", [big, big], big.shape, np.float32, {}), lambda: big + big
    yield "Add broadcast row 4M", ("Add", [big, row], big.shape, np.float32, {}), lambda: big + row
    yield "Mul fp16 4M", ("Mul", [big.astype(np.float16)] * 2, big.shape, np.float16, {}), None
    yield "Sigmoid 4M", ("Sigmoid", [big], big.shape, np.float32, {}), lambda: 1 / (1 + np.exp(-big))
    yield "Tanh 4M", ("Tanh", [big], big.shape, np.float32, {}), lambda: np.tanh(big)
    yield "Relu 4M", ("Relu", [big], big.shape, np.float32, {}), lambda: np.maximum(big, 0)
    yield "Softmax 256x4096", ("Softmax", [x], x.shape, np.float32, {"axis": -1}), \
        lambda: (lambda e: e / e.sum(-1, keepdims=True))(np.exp(x - x.max(-1, keepdims=True)))
    s, b = f32(4096), f32(4096)
    yield "LayerNorm 256x4096", ("LayerNormalization", [x, s, b], x.shape, np.float32, {"axis": -1}), \
        lambda: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * s + b
    yield "Transpose NCHW->NHWC", ("Transpose", [img], (8, 56, 56, 64), np.float32, {"perm": [0, 2, 3, 1]}), \
        lambda: np.ascontiguousarray(img.transpose(0, 2, 3, 1))
    yield "ReduceSum last axis", ("ReduceSum", [x, np.array([1], np.int64)], (256, 1), np.float32, {}), \
        lambda: x.sum(-1, keepdims=True)
    yield "ReduceMean HW (GAP)", ("ReduceMean", [img], (8, 64, 1, 1), np.float32, {"axes": [2, 3]}), \
        lambda: img.mean((2, 3), keepdims=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0, help="timing budget per case and reference")
    bt.add_cpu_time_option(ap)
    args = ap.parse_args()
    bt.apply_cpu_time_option(args)
    print(bt.machine_header())
    print("Kernels through the testing path (run_op) vs numpy and onnxruntime single-op sessions\n")
    rng = np.random.default_rng(0)
    rows = []
    for name, (op, ins, shape, dt, attrs), np_fn in cases(rng):
        fn = ours(op, ins, shape, dt, **attrs)
        n = bt.compare(fn, np_fn, seconds=args.seconds) if np_fn else None
        sess = ort_session(op, ins, shape, dt, **attrs)
        r = bt.compare(fn, sess, seconds=args.seconds) if sess else None
        mine = (n or r).ours_s
        rows.append([name, bt.ms(mine), bt.ms(n.ref_s) if n else "", bt.ms(r.ref_s) if r else "",
                     f"{n.ratio:.2f}x" if n else "", f"{r.ratio:.2f}x" if r else ""])
        print("  ".join(rows[-1]), flush=True)
    print()
    print(bt.table(["case", "acl_sim ms", "numpy ms", "onnxruntime ms", "acl_sim / numpy", "acl_sim / onnxruntime"],
                   rows))


if __name__ == "__main__":
    main()
