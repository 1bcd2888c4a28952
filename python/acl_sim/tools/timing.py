"""The one timing method of every benchmark in bench/ and of `acl-sim demo`: acl_sim and its
reference side by side (bench/ imports it as `bench_timing`).

`compare(ours, ref)` times both callables by wall clock, with all host cores on both sides (acl_sim's
pool, OpenBLAS and onnxruntime all default to every core), after a warm-up, alternating the two calls
(ours, ref, ref, ours, ...) so background load hits both alike. It returns both medians and the
median of the per-pair ratios ours / ref: the headline figure (lower is better for times).

`machine_header()` names the CPU, its ISA, the kernel ISA acl_sim picked (ACL_SIM_KERNEL_ISA caps it),
the GEMM micro-kernel, the thread counts and the load average, and belongs at the top of every report.

--cpu-time is a labelled DIAGNOSTIC only: it re-executes the script with one thread on each side
(ACL_SIM_HOST_THREADS=1, OPENBLAS_NUM_THREADS=1, onnxruntime intra-op threads 1) and times the calling
thread's CPU time. It hides poor parallel scaling and everything that happens on other threads, so its
figures are never the headline.
"""
from __future__ import annotations

import math
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass

_clock = time.perf_counter
_cpu_time = False


@dataclass
class Comparison:
    ours_s: float    # median seconds per call of ours
    ref_s: float     # median seconds per call of the reference
    ratio: float     # median over pairs of ours / ref
    pairs: int
    inner: int       # calls per timed sample (short calls are batched so a sample lasts >= ~2 ms)

    def row(self, name: str) -> list:
        return [name, ms(self.ours_s), ms(self.ref_s), f"{self.ratio:.2f}x", str(self.pairs)]


def ms(seconds: float) -> str:
    v = seconds * 1e3
    return f"{v:.1f}" if v >= 100 else f"{v:.2f}" if v >= 1 else f"{v:.3f}" if v >= 0.01 else f"{v:.4f}"


def _sample(fn, inner: int) -> float:
    t0 = _clock()
    for _ in range(inner):
        fn()
    return (_clock() - t0) / inner


# OpenBLAS's idle workers spin (sched_yield loop) for 2^28 TSC cycles, about 0.1 s, after every call
# (OPENBLAS_THREAD_TIMEOUT, default 28). Alternated with numpy, acl_sim's pool then shares the cores
# with that spinner: a 1024^3 MatMul measured 1.5x slower right after numpy.matmul than 0.15 s later.
# Comparisons against numpy pass settle=OPENBLAS_SETTLE_S so each side runs with its own threads only,
# as a user timing one library at a time sees it.
OPENBLAS_SETTLE_S = 0.15
# acl_sim's idle pool workers spin about 1.3 ms after the last node of a run (executor/thread_pool.h)
# before they park. Alternated with onnxruntime, that spin would take a core from onnxruntime's next
# sample and flatter acl_sim; model comparisons pass settle=POOL_SETTLE_S so neither side's idle
# threads reach into the other's sample.
POOL_SETTLE_S = 0.003


def _settled_sample(fn, inner: int, settle: float) -> float:
    if settle:
        time.sleep(settle)  # not timed: lets the other side's idle threads stop spinning
        fn()  # not timed either: this side's threads wake up again, as in a run of back-to-back calls
    return _sample(fn, inner)


def compare(ours, ref, *, seconds: float = 2.0, min_pairs: int = 5, max_pairs: int = 200,
            warmup: int = 2, settle: float = 0.0) -> Comparison:
    """Time `ours` against `ref` as described in the module docstring. Pairs are taken until about
    `seconds` have passed (at least `min_pairs`, at most `max_pairs`). settle > 0 sleeps that long
    (untimed) and makes one untimed call before every sample (see OPENBLAS_SETTLE_S); samples then
    batch calls up to settle / 5 rather than 2 ms, so the pauses do not eat the budget."""
    for _ in range(warmup):
        ours()
        ref()
    t_one = max(_sample(ours, 1), _sample(ref, 1), 1e-7)
    inner = max(1, min(1000, math.ceil(max(2e-3, settle / 5) / t_one)))
    o, r, ratios = [], [], []
    start = time.perf_counter()
    while len(ratios) < max_pairs and (len(ratios) < min_pairs or time.perf_counter() - start < seconds):
        if len(ratios) % 2 == 0:
            a = _settled_sample(ours, inner, settle)
            b = _settled_sample(ref, inner, settle)
        else:
            b = _settled_sample(ref, inner, settle)
            a = _settled_sample(ours, inner, settle)
        o.append(a)
        r.append(b)
        ratios.append(a / b)
    return Comparison(statistics.median(o), statistics.median(r), statistics.median(ratios), len(ratios), inner)


def table(headers: list[str], rows: list[list]) -> str:
    """A markdown table, ready to paste into RESULTS.md."""
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


COMPARE_HEADERS = ["case", "acl_sim ms", "ref ms", "ratio (median of pairs)", "pairs"]


def cpu_info() -> dict[str, str]:
    """The first processor's fields in /proc/cpuinfo (empty where the host has none)."""
    info: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                info[key.strip()] = value.strip()
    except OSError:
        pass
    return info


def _cpu_model() -> str:
    return cpu_info().get("model name") or platform.processor() or platform.machine()


def _cpu_isa() -> str:
    flags = cpu_info().get("flags", "").split()
    have = [x for x in ("avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_bf16", "amx_tile")
            if x in flags]
    return " ".join(have) or "?"


def threads() -> int:
    """Threads each side uses: every host core, or 1 under --cpu-time."""
    return 1 if _cpu_time else (os.cpu_count() or 1)


def machine_header() -> str:
    """CPU model, ISA, the kernel ISA acl_sim picked, thread counts, load: one paragraph to paste."""
    from acl_sim._core import testing

    k = testing.kernel_isa()
    try:
        load = "load average %.1f %.1f %.1f" % os.getloadavg()
    except OSError:
        load = "load average ?"
    mode = ("DIAGNOSTIC --cpu-time mode: one thread each side, calling thread's CPU time (not a headline figure)"
            if _cpu_time else
            "wall clock, all cores on both sides, calls alternated, median of per-pair ratios after warm-up")
    isa = k["isa"] + (" (AVX-512 on 256-bit units: Zen 4 conv rules)"
                      if k["isa"] == "avx512" and k["avx512_double_pumped"] else "")
    return (f"CPU: {_cpu_model()}, {os.cpu_count()} cores ({_cpu_isa()}); acl_sim kernel ISA {isa}, "
            f"GEMM micro-kernel {k['gemm_kernel']}, {k['host_threads']} pool threads; {load}; "
            f"CPU 0-1 round trip {round_trip_text(core_round_trip_ns())} ns; "
            f"Python {platform.python_version()}.\nTiming: {mode}.")


def core_round_trip_ns() -> float | None:
    """Cache-line round trip between the process's first two CPUs (reports call them CPU 0-1), in ns (None:
    fewer than two). On VMs it changes under a running process: both vCPUs on one die with a shared L3 (50-65 ns
    on the Zen 4 VM of stops 22-39) or on two (300-350 ns), and a model's time with it (docs/perf_history.md,
    "Stop 39"), so reports print it beside their figures."""
    from acl_sim._core import testing

    ns = testing.core_round_trip_ns()
    return ns if ns > 0 else None


def round_trip_text(ns: float | None) -> str:
    return "?" if ns is None else f"{ns:.0f}"


def add_cpu_time_option(parser) -> None:
    parser.add_argument("--cpu-time", action="store_true",
                        help="DIAGNOSTIC only: one thread on each side, timed by the calling thread's CPU time")


def apply_cpu_time_option(args) -> None:
    global _clock, _cpu_time
    if not args.cpu_time:
        return
    if os.environ.get("ACL_SIM_HOST_THREADS") != "1" or os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        env = dict(os.environ, ACL_SIM_HOST_THREADS="1", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    _clock = time.thread_time
    _cpu_time = True


def ort_session(model_bytes_or_path, threads_: int | None = None):
    """An onnxruntime CPU session with `threads_` intra-op threads (default: threads()), its workers
    not spinning between runs (see below)."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads_ or threads()
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    # onnxruntime's workers spin after every run() by default; alternated with acl_sim on a small host
    # they would take acl_sim's cores (a 1x1 Conv measured 10x slower in alternation). Its own time
    # changes by about 4% without the spin.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(model_bytes_or_path, opts, providers=["CPUExecutionProvider"])


def single_op_model(op: str, xs, ws, attrs: dict):
    """A one-node ONNX model running `op` on input x (and weight w, bias b as initializers when `ws`
    is given, as a compiled model has them). Returns (ModelProto, output shape)."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper, shape_inference

    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, xs)]
    names, inits = ["x"], []
    if ws is not None:
        rng = np.random.default_rng(1)
        inits = [numpy_helper.from_array((rng.standard_normal(ws) * 0.1).astype(np.float32), "w"),
                 numpy_helper.from_array(rng.standard_normal(ws[0]).astype(np.float32), "b")]
        names += ["w", "b"]
    node = helper.make_node(op, names, ["y"], **attrs)
    graph = helper.make_graph([node], "g", ins, [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    inferred = shape_inference.infer_shapes(model)
    y_shape = [d.dim_value for d in inferred.graph.output[0].type.tensor_type.shape.dim]
    model.graph.output[0].CopyFrom(helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape))
    return model, y_shape


def ort_single_op(op: str, xs, ws, attrs: dict, threads_: int | None = None):
    """An onnxruntime session running one `op` on inputs x (and w, b when `ws` is given), all three fed
    at run time as the testing path feeds them. Returns (session, output shape)."""
    from onnx import TensorProto, helper, shape_inference

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
    return ort_session(model.SerializeToString(), threads_), y_shape
