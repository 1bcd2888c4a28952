"""Shared by the kernel benchmarks: best-of-N timing, a --cpu-time mode, and the onnxruntime
single-op session they compare against.

--cpu-time runs one thread on each side (ACL_SIM_HOST_THREADS=1, OPENBLAS_NUM_THREADS=1, set by
re-executing the script, since thread counts are fixed when NumPy and the pool start) and times
the calling thread's CPU time, which other processes competing for the cores cannot distort.
"""
from __future__ import annotations

import os
import sys
import time

_clock = time.perf_counter


def add_cpu_time_option(parser) -> None:
    parser.add_argument("--cpu-time", action="store_true",
                        help="one thread on each side, timed by the calling thread's CPU time (use on a busy host)")


def apply_cpu_time_option(args) -> None:
    global _clock
    if not args.cpu_time:
        return
    if os.environ.get("ACL_SIM_HOST_THREADS") != "1" or os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        env = dict(os.environ, ACL_SIM_HOST_THREADS="1", OPENBLAS_NUM_THREADS="1")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    _clock = time.thread_time


def best(fn, reps: int) -> float:
    """Seconds of the fastest of @reps calls, after one warm-up call."""
    fn()
    times = []
    for _ in range(reps):
        t0 = _clock()
        fn()
        times.append(_clock() - t0)
    return min(times)


def ort_single_op(op: str, xs, ws, attrs: dict, threads: int):
    """An onnxruntime session running one `op` on input x (and weight w, bias b when `ws` is given),
    with `threads` intra-op threads. Returns (session, output shape from ONNX shape inference)."""
    from onnx import TensorProto, helper, shape_inference
    import onnxruntime as ort

    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, xs)]
    names = ["x"]
    if ws is not None:
        ins += [helper.make_tensor_value_info("w", TensorProto.FLOAT, ws),
                helper.make_tensor_value_info("b", TensorProto.FLOAT, [ws[0]])]
        names += ["w", "b"]
    node = helper.make_node(op, names, ["y"], **attrs)
    graph = helper.make_graph([node], "g", ins, [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    inferred = shape_inference.infer_shapes(model)
    y_shape = [d.dim_value for d in inferred.graph.output[0].type.tensor_type.shape.dim]
    if not y_shape:
        y_shape = [d.dim_value for d in inferred.graph.value_info[0].type.tensor_type.shape.dim]
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"]), y_shape
