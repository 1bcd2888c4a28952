"""Elementwise / softmax / layernorm / transpose / reduce kernels vs NumPy and
onnxruntime single-op sessions, measured in the same run.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_elementwise.py [--reps 7] [--out FILE]

Default mode is one thread on every side timed by the calling thread's CPU time
(ACL_SIM_HOST_THREADS=1, onnxruntime intra_op_num_threads=1), which is immune to
other processes on a busy host; --wall uses wall-clock time and all cores.
Prints ms per call (best of --reps) and the ratios ours/numpy and ours/onnxruntime
(lower is better; < 1 means acl_sim is faster).
"""
import argparse
import os
import platform
import sys
import time

import numpy as np

from acl_sim._core import testing as T

ACL = {np.dtype(np.float32): 0, np.dtype(np.float16): 1, np.dtype(np.int64): 9}


def ours(op, inputs, out_shape, out_dtype, **attrs):
    return lambda: T.run_op(op, list(inputs), [list(out_shape)], [ACL[np.dtype(out_dtype)]], attrs)


def ort_session(op, inputs, out_shape, out_dtype, threads, **attrs):
    try:
        import onnx
        import onnxruntime as ort
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
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
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


def best(fn, reps, clock):
    fn()
    t = []
    for _ in range(reps):
        t0 = clock()
        fn()
        t.append(clock() - t0)
    return min(t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--wall", action="store_true", help="wall-clock time, all cores")
    ap.add_argument("--out", help="write a markdown table here")
    args = ap.parse_args()
    if not args.wall and os.environ.get("ACL_SIM_HOST_THREADS") != "1":
        env = dict(os.environ, ACL_SIM_HOST_THREADS="1", OPENBLAS_NUM_THREADS="1")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    clock = time.perf_counter if args.wall else time.thread_time
    threads = os.cpu_count() if args.wall else 1
    rng = np.random.default_rng(0)
    rows = []
    for name, (op, ins, shape, dt, attrs), np_fn in cases(rng):
        o = best(ours(op, ins, shape, dt, **attrs), args.reps, clock)
        n = best(np_fn, args.reps, clock) if np_fn else None
        sess = ort_session(op, ins, shape, dt, threads, **attrs)
        r = best(sess, args.reps, clock) if sess else None
        rows.append((name, o, n, r))
        fmt = lambda v: f"{v * 1e3:8.2f}" if v is not None else "     n/a"  # noqa: E731
        rat = lambda v: f"{o / v:6.2f}" if v else "   n/a"  # noqa: E731
        print(f"{name:24s} ours {fmt(o)} ms  numpy {fmt(n)} ms  ort {fmt(r)} ms  ours/numpy {rat(n)}  ours/ort {rat(r)}",
              flush=True)
    if args.out:
        mode = "wall-clock, all cores" if args.wall else "1 thread each, calling thread's CPU time"
        with open(args.out, "w") as f:
            f.write("## Elementwise, softmax, layernorm, transpose, reduce kernels (kernb)\n\n")
            f.write("Reproduce: `PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_elementwise.py "
                    f"{'--wall ' if args.wall else ''}--out bench/results/kernb.md`\n\n")
            f.write(f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
                    f"{mode}; best of {args.reps}. Ratios are time ours / reference (< 1: acl_sim faster). "
                    "ours includes the run_op binding's output allocation and zero-fill (see the Identity row).\n\n")
            f.write("| case | ours ms | numpy ms | onnxruntime ms | ours/numpy | ours/onnxruntime |\n|---|---|---|---|---|---|\n")
            for name, o, n, r in rows:
                f.write(f"| {name} | {o * 1e3:.2f} | {'' if n is None else f'{n * 1e3:.2f}'} | "
                        f"{'' if r is None else f'{r * 1e3:.2f}'} | {'' if n is None else f'{o / n:.2f}'} | "
                        f"{'' if r is None else f'{o / r:.2f}'} |\n")


if __name__ == "__main__":
    main()
