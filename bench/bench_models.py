"""Models through the public path, as a user runs them, against onnxruntime (and numpy.matmul).

acl_sim side, per model: `acl-sim atc` (run as `python -m acl_sim atc`, compile cache on), then
`acl.mdl.load_from_file`, device buffers from `acl.rt.malloc`, and per timed call exactly what a user
does per inference: `acl.rt.memcpy` host->device, `acl.mdl.execute`, `acl.rt.memcpy` device->host.
Reference: an onnxruntime session with every core (intra_op_num_threads = host cores) running the
same ONNX file on the same input (`session.run`), or numpy.matmul for the one-node MatMul model (timed
against `acl.mdl.execute` alone on device buffers already in place, as numpy works on memory it has).
Timing: bench_timing.compare (wall clock, all cores on both sides, calls alternated, warm-up; both
medians and the median of per-pair ratios acl_sim / reference, lower is better). Each sample starts
after a 3 ms pause and one untimed call (POOL_SETTLE_S), so acl_sim's idle workers, which spin ~1.3 ms
after a run, never share the cores with onnxruntime's sample. Each row also gives the CPU 0-1 cache-line
round trip before and after it (bench_timing.core_round_trip_ns): on a VM that moves its vCPUs between one
die and two (50-65 against 300-350 ns on the Zen 4 VM of stops 22-39), both sides lose much of their second
core's speed-up on two dies, acl_sim more (docs/perf_history.md, "Stop 39").

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_models.py            # ~2-3 min
    ... bench_models.py --models resnet50,matmul1024 --seconds 3
    ... bench_models.py --prof     # adds a per-model op-type table from the profiler (op_summary.csv)
    ... bench_models.py --precision-mode force_fp16   # acl_sim compiled to fp16; onnxruntime stays on fp32

With the wheel installed, drop PYTHONPATH and ACL_SIM_BUILD_DIR.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

import bench_timing as bt  # noqa: E402
import models  # noqa: E402
import model_zoo_random as zoo  # noqa: E402

ALL = ["resnet50", "densenet121", "vgg19", "ppocr_det", "ppocr_rec", "ppocr_cls", "transformer",
       "matmul1024", "conv3x3_64", "conv3x3_512"]
# The onnx wheel's other light_* models: not in the list, but what a user tries next (--models light).
LIGHT_MORE = ["bvlc_alexnet", "inception_v1", "inception_v2", "shufflenet", "squeezenet", "zfnet512"]
PPOCR_SHAPES = {"det": [1, 3, 640, 640], "rec": [1, 3, 48, 320], "cls": [8, 3, 48, 192]}
LABELS = {"resnet50": "light_resnet50 (random weights)", "densenet121": "light_densenet121 (random weights)",
          "vgg19": "light_vgg19 (random weights)", "ppocr_det": "PP-OCRv4 det 1x3x640x640",
          "ppocr_rec": "PP-OCRv4 rec 1x3x48x320", "ppocr_cls": "PP-OCR cls 8x3x48x192",
          "transformer": "transformer encoder (2 layers, d=64, seq 16)",
          "matmul1024": "one-node MatMul 1024^3, execute only (ref: numpy.matmul)",
          "conv3x3_64": "one-node Conv 3x3 64->64 56x56", "conv3x3_512": "one-node Conv 3x3 512->512 7x7"}
LABELS.update({name: f"light_{name} (random weights)" for name in LIGHT_MORE})
WORK = os.path.join(models.MODELS_CACHE, "bench_models")
ACL_MEM_MALLOC_HUGE_FIRST, H2D, D2H = 0, 1, 2
PROFILED_RUNS = 10
PROFILE_WARMUP = 2


# One-node convs (input, weight shapes, attributes): bench_models.py times the first two against onnxruntime,
# bench_model_path.py all of them against the kernel alone; between them they take every conv path (Winograd, the
# pixel-major conv, the direct conv, the strided im2col GEMM, the plain GEMM).
ONE_NODE_CONVS = {
    "conv3x3_64": ([1, 64, 56, 56], [64, 64, 3, 3], {"pads": [1, 1, 1, 1]}),
    "conv3x3_512": ([1, 512, 7, 7], [512, 512, 3, 3], {"pads": [1, 1, 1, 1]}),
    "conv7x7s2_stem": ([1, 3, 224, 224], [64, 3, 7, 7], {"pads": [3, 3, 3, 3], "strides": [2, 2]}),
    "conv3x3s2_128": ([1, 128, 56, 56], [128, 128, 3, 3], {"pads": [1, 1, 1, 1], "strides": [2, 2]}),
    "conv1x1_64_256": ([1, 64, 56, 56], [256, 64, 1, 1], {}),
}


def _one_node_path(name: str) -> str:
    """ONNX file of a one-node model (weights as initializers, like a real model's)."""
    import onnx
    from onnx import TensorProto, helper

    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, f"{name}.onnx")
    if os.path.exists(path):
        return path
    if name == "relu16":  # no compute to speak of: what a model execute costs on its own
        g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [16])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [16])])
        model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
    elif name == "matmul1024":
        w = np.random.default_rng(1).standard_normal((1024, 1024)).astype(np.float32)
        from onnx import numpy_helper

        g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1024, 1024])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1024, 1024])],
                              initializer=[numpy_helper.from_array(w, "w")])
        model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
    elif name in ONE_NODE_CONVS:
        xs, ws, attrs = ONE_NODE_CONVS[name]
        model, _ = bt.single_op_model("Conv", xs, ws, attrs)
    else:
        raise SystemExit(f"unknown one-node model {name}")
    fd, tmp = tempfile.mkstemp(dir=WORK, suffix=".part")
    os.close(fd)
    onnx.save(model, tmp)
    os.replace(tmp, path)
    return path


def model_case(name):
    """(onnx path, atc --input_shape or None, {input name: array})."""
    import onnx

    shape_opt = None
    if name in ("resnet50", "densenet121", "vgg19") or name in LIGHT_MORE:
        path = zoo.light_random_path(name)
        (inp, shape, dtype), = zoo.graph_inputs(onnx.load(path, load_external_data=False))
    elif name.startswith("ppocr_"):
        kind = name.split("_")[1]
        path = models.ppocr_models()[kind]
        (inp, _, dtype), = zoo.graph_inputs(onnx.load(path))
        shape = PPOCR_SHAPES[kind]
        shape_opt = f"{inp}:{','.join(map(str, shape))}"
    elif name == "transformer":
        path = models.transformer_encoder_path()
        inp, shape, dtype = "x", [1, 16, 64], np.float32
    elif name in ("matmul1024", "relu16") or name in ONE_NODE_CONVS:
        path = _one_node_path(name)
        (inp, shape, dtype), = zoo.graph_inputs(onnx.load(path))
    else:
        raise SystemExit(f"unknown model {name}; choose from {ALL}")
    x = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    return path, shape_opt, {inp: x}


def atc(onnx_path: str, shape_opt: str | None, out_stem: str, precision_mode: str | None = None) -> str:
    """`acl-sim atc` as a user types it (with --precision_mode when given); returns the .om path."""
    if precision_mode:
        out_stem += f"_{precision_mode}"
    cmd = [sys.executable, "-m", "acl_sim", "atc", f"--model={onnx_path}", "--framework=5",
           f"--output={out_stem}", "--soc_version=Ascend910B1"]
    if shape_opt:
        cmd.append(f"--input_shape={shape_opt}")
    if precision_mode:
        cmd.append(f"--precision_mode={precision_mode}")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"atc failed: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
    return out_stem + ".om"


class AclModel:
    """One loaded .om with device input/output buffers and host staging buffers (pyACL calls only)."""

    def __init__(self, acl, om_path: str, x: np.ndarray):
        self.acl = acl
        self.model_id, ret = acl.mdl.load_from_file(om_path)
        self._check(ret, "mdl.load_from_file")
        self.desc = acl.mdl.create_desc()
        self._check(acl.mdl.get_desc(self.desc, self.model_id), "mdl.get_desc")
        self.host_in = bytearray(np.ascontiguousarray(x).tobytes())
        self.in_size = acl.mdl.get_input_size_by_index(self.desc, 0)
        assert self.in_size == len(self.host_in), (self.in_size, len(self.host_in))
        self.in_ptr = acl.util.bytes_to_ptr(self.host_in)
        self.in_dev, ret = acl.rt.malloc(self.in_size, ACL_MEM_MALLOC_HUGE_FIRST)
        self._check(ret, "rt.malloc")
        self.bufs = [acl.create_data_buffer(self.in_dev, self.in_size)]
        self.in_ds = acl.mdl.create_dataset()
        acl.mdl.add_dataset_buffer(self.in_ds, self.bufs[0])
        self.out_ds = acl.mdl.create_dataset()
        self.outs = []  # (device ptr, size, host bytearray, host ptr)
        for i in range(acl.mdl.get_num_outputs(self.desc)):
            size = acl.mdl.get_output_size_by_index(self.desc, i)
            dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            self._check(ret, "rt.malloc")
            buf = acl.create_data_buffer(dev, size)
            self.bufs.append(buf)
            acl.mdl.add_dataset_buffer(self.out_ds, buf)
            host = bytearray(size)
            self.outs.append((dev, size, host, acl.util.bytes_to_ptr(host)))

    def _check(self, ret, what):
        if ret != 0:
            raise RuntimeError(f"acl.{what} failed: {ret} ({self.acl.get_recent_err_msg()})")

    def infer(self) -> None:
        """One inference as a user writes it: copy in, execute, copy out."""
        acl = self.acl
        self._check(acl.rt.memcpy(self.in_dev, self.in_size, self.in_ptr, self.in_size, H2D), "rt.memcpy")
        self._check(acl.mdl.execute(self.model_id, self.in_ds, self.out_ds), "mdl.execute")
        for dev, size, _host, ptr in self.outs:
            self._check(acl.rt.memcpy(ptr, size, dev, size, D2H), "rt.memcpy")

    def execute_only(self) -> None:
        self._check(self.acl.mdl.execute(self.model_id, self.in_ds, self.out_ds), "mdl.execute")

    def output(self, i: int) -> np.ndarray:
        dims = self.acl.mdl.get_cur_output_dims(self.desc, i)[0]["dims"]
        n = int(np.prod(dims))
        return np.frombuffer(self.outs[i][2], dtype=np.float32, count=n).reshape(dims)

    def release(self) -> None:
        acl = self.acl
        for buf in self.bufs:
            acl.destroy_data_buffer(buf)
        acl.mdl.destroy_dataset(self.in_ds)
        acl.mdl.destroy_dataset(self.out_ds)
        for dev, *_ in self.outs:
            acl.rt.free(dev)
        acl.rt.free(self.in_dev)
        acl.mdl.destroy_desc(self.desc)
        acl.mdl.unload(self.model_id)


def open_device(acl):
    """acl.init, device 0 and a context on it, as every model benchmark starts; returns the context."""
    assert acl.init() in (0, 100002)
    assert acl.rt.set_device(0) == 0
    ctx, ret = acl.rt.create_context(0)
    assert ret == 0
    return ctx


def close_device(acl, ctx) -> None:
    acl.rt.destroy_context(ctx)
    acl.rt.reset_device(0)
    acl.finalize()


def bench(acl, name: str, seconds: float, precision_mode: str | None = None) -> dict:
    path, shape_opt, feeds = model_case(name)
    om = atc(path, shape_opt, os.path.join(WORK, "om", name), precision_mode)
    (x,) = feeds.values()
    m = AclModel(acl, om, x)
    try:
        if name == "matmul1024":
            w = np.random.default_rng(1).standard_normal((1024, 1024)).astype(np.float32)
            ref_fn = lambda: np.matmul(x, w)  # noqa: E731
            want = [ref_fn()]
        else:
            sess = bt.ort_session(path)
            ref_fn = lambda: sess.run(None, feeds)  # noqa: E731
            want = ref_fn()
        m.infer()
        err = max(float(np.max(np.abs(m.output(i) - np.asarray(w_, np.float32))) / max(np.max(np.abs(w_)), 1e-30))
                  if w_.size else 0.0 for i, w_ in enumerate(want))
        if name == "matmul1024":
            # numpy.matmul reads and writes host memory it already has; the fair acl_sim counterpart is
            # an execute on device buffers already in place (the memcpy in and out is not a GEMM cost).
            # settle: OpenBLAS's workers spin ~0.1 s after each call (bench_timing.OPENBLAS_SETTLE_S).
            c = bt.compare(m.execute_only, ref_fn, seconds=seconds, min_pairs=3, settle=bt.OPENBLAS_SETTLE_S)
        else:
            c = bt.compare(m.infer, ref_fn, seconds=seconds, min_pairs=3, settle=bt.POOL_SETTLE_S)
    finally:
        m.release()
    return {"name": name, "cmp": c, "err": err}


def profile_table(acl, name: str, top: int = 6, precision_mode: str | None = None) -> str:
    """Op-type summary of one model from the profiler's op_summary.csv (acl.prof API): PROFILED_RUNS inferences
    after PROFILE_WARMUP unprofiled ones, so the first run's one-time work (weights packed into the node cache)
    is not in it."""
    from acl_sim.tools.prof import by_type, read_summary

    path, shape_opt, feeds = model_case(name)
    om = atc(path, shape_opt, os.path.join(WORK, "om", name), precision_mode)
    m = AclModel(acl, om, next(iter(feeds.values())))
    out_dir = tempfile.mkdtemp(prefix=f"prof_{name}_")
    try:
        for _ in range(PROFILE_WARMUP):
            m.infer()
        assert acl.prof.init(out_dir) == 0
        cfg = acl.prof.create_config([0], 0, 0, 0x2)
        assert acl.prof.start(cfg) == 0
        for _ in range(PROFILED_RUNS):
            m.infer()
        assert acl.prof.stop(cfg) == 0
        acl.prof.destroy_config(cfg)
        assert acl.prof.finalize() == 0
        types = by_type(read_summary(out_dir))
    finally:
        m.release()
        shutil.rmtree(out_dir, ignore_errors=True)
    total = sum(a["total_us"] for a in types.values()) or 1.0
    rows = [[op, a["count"] // PROFILED_RUNS, bt.ms(a["total_us"] / 1e6 / PROFILED_RUNS),
             f"{100 * a['total_us'] / total:.0f}%"] for op, a in list(types.items())[:top]]
    return bt.table(["op type", "nodes", "ms per run", "share"], rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(ALL))
    ap.add_argument("--seconds", type=float, default=4.0, help="timing budget per model (at least 3 pairs)")
    ap.add_argument("--prof", action="store_true", help="also print an op-type table per model (acl-sim prof)")
    ap.add_argument("--markdown", help="also write the report (header, table, op tables) to this file")
    ap.add_argument("--precision-mode", help="compile with atc --precision_mode=MODE (e.g. force_fp16); the "
                    "reference stays onnxruntime (or numpy) on the fp32 source")
    args = ap.parse_args()
    mode = args.precision_mode

    import acl

    ctx = open_device(acl)
    names = [m for n in args.models.split(",") for m in (LIGHT_MORE if n == "light" else [n])]
    header = bt.machine_header()
    print(header, flush=True)
    rows = []
    label = lambda name: LABELS.get(name, name) + (f", {mode}" if mode else "")  # noqa: E731
    for name in names:
        before = bt.core_round_trip_ns()
        try:
            r = bench(acl, name, args.seconds, mode)
            c = r["cmp"]
            ref = "numpy" if name == "matmul1024" else "onnxruntime"
            trip = f"{bt.round_trip_text(before)} / {bt.round_trip_text(bt.core_round_trip_ns())}"
            rows.append([label(name), bt.ms(c.ours_s), f"{bt.ms(c.ref_s)} ({ref})", f"{c.ratio:.2f}x",
                         str(c.pairs), f"{r['err']:.1e}", trip])
        except Exception as exc:  # report and continue: one failing model must not hide the rest
            rows.append([label(name), "", "", f"failed: {type(exc).__name__}: {str(exc)[:120]}", "", "",
                         ""])
        print("  ".join(rows[-1]), flush=True)
    report = [bt.table(["model (public path: atc, load, memcpy + execute + memcpy)", "acl_sim ms", "reference ms",
                        "acl_sim / reference", "pairs", "max |diff| / max |ref|",
                        "CPU 0-1 round trip ns, before / after"], rows)]
    print()
    print(report[0])
    if args.prof:
        for name in names:
            title = (f"{label(name)}: acl_sim time by op type (profiler op_summary.csv, "
                     f"{PROFILED_RUNS} runs after {PROFILE_WARMUP} warm-up)")
            report += [f"\n{title}\n", profile_table(acl, name, precision_mode=mode)]
            print("\n".join(report[-2:]), flush=True)
    close_device(acl, ctx)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            flag = f" --precision-mode {mode}" if mode else ""
            f.write(f"## Models through the public path (acl_sim{flag and ' ' + mode} vs onnxruntime)\n\n")
            f.write("Reproduce (about 3 minutes; `--prof` adds the op-type tables):\n\n```\n"
                    f"PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_models.py --prof{flag}\n```\n\n")
            f.write(header + "\n\n")
            f.write("\n".join(report) + "\n")


if __name__ == "__main__":
    main()
