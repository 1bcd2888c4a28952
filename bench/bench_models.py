"""Model latency: acl_sim (C++ Model/GraphExecutor) vs onnxruntime, same process, same inputs.

Both use every host core (onnxruntime intra_op_num_threads = os.cpu_count(); acl_sim's
pool defaults to the host cores). Reports median latency per model and the ratio
acl_sim / onnxruntime (issue 5 §6: target <= 1.5x, goal <= 1.0x), plus the slowest
op types of each model measured through the per-node hook.

    PYTHONPATH=python:tests ACL_SIM_BUILD_DIR=build/<you> python bench/bench_models.py \
        [--models resnet50,densenet121,...] [--repeats 10] [--markdown bench/results/model.md]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

import models  # noqa: E402
import model_zoo_random as zoo  # noqa: E402

ALL = ["resnet50", "densenet121", "vgg19", "ppocr_det", "ppocr_rec", "ppocr_cls", "transformer"]
PPOCR_SHAPES = {"det": [1, 3, 640, 640], "rec": [1, 3, 48, 320], "cls": [8, 3, 48, 192]}
OM_DIR = os.path.join(models.MODELS_CACHE, "om")


def model_case(name):
    """(onnx path, om tag, atc options, feeds builder)."""
    import onnx

    if name in models.LIGHT_NAMES:
        path = zoo.light_random_path(name)
        tag, opts = f"light_{name}_seed0", {}
        (inp, shape, dtype), = zoo.graph_inputs(onnx.load(path, load_external_data=False))
    elif name.startswith("ppocr_"):
        kind = name.split("_")[1]
        path = models.ppocr_models()[kind]
        (inp, _, dtype), = zoo.graph_inputs(onnx.load(path))
        shape = PPOCR_SHAPES[kind]
        tag = f"ppocr_{kind}_{'x'.join(map(str, shape))}"
        opts = {"input_shape": f"{inp}:{','.join(map(str, shape))}"}
    elif name == "transformer":
        path = models.transformer_encoder_path()
        inp, shape, dtype, tag, opts = "x", [1, 16, 64], np.float32, "transformer_encoder", {}
    else:
        raise SystemExit(f"unknown model {name}; choose from {ALL}")
    x = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    return path, tag, opts, {inp: x}


def timed(fn, repeats, warmup=2):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def bench(name, repeats):
    import onnxruntime as ort

    from acl_sim import _core
    from acl_sim.compiler import compile_model

    path, tag, opts, feeds = model_case(name)
    om = compile_model(path, os.path.join(OM_DIR, tag), **opts)["om_path"]
    model = _core.testing_model.Model.from_file(om)
    inputs = [feeds[d["name"]] for d in model.inputs()]
    so = ort.SessionOptions()
    so.intra_op_num_threads = os.cpu_count() or 1
    so.log_severity_level = 3
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    t_ort = timed(lambda: sess.run(None, feeds), repeats)
    t_sim = timed(lambda: model.run(inputs), repeats)
    per_op = {}
    for _node, op, sec in model.node_times(inputs, repeats=max(1, repeats // 3)):
        per_op[op] = per_op.get(op, 0.0) + sec
    total = sum(per_op.values()) or 1.0
    top = sorted(per_op.items(), key=lambda kv: -kv[1])[:4]
    hot = ", ".join(f"{op} {100 * s / total:.0f}%" for op, s in top)
    return {"model": name, "ort_ms": 1e3 * t_ort, "sim_ms": 1e3 * t_sim, "ratio": t_sim / t_ort,
            "nodes": model.node_count(0), "hot": hot}


def _ms(v):
    return f"{v:.1f}" if v >= 10 else f"{v:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(ALL))
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--markdown", help="write the results table to this file")
    args = ap.parse_args()
    rows = []
    for name in args.models.split(","):
        try:
            row = bench(name, args.repeats)
        except Exception as exc:  # report and continue: one missing kernel must not hide the rest
            row = {"model": name, "error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"}
        rows.append(row)
        print(row, flush=True)
    lines = ["| model | onnxruntime ms | acl_sim ms | ratio | nodes | time by op type (acl_sim) |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['model']} | | | failed | | {r['error']} |")
        else:
            lines.append(f"| {r['model']} | {_ms(r['ort_ms'])} | {_ms(r['sim_ms'])} | {r['ratio']:.2f}x | "
                         f"{r['nodes']} | {r['hot']} |")
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("## Model latency (acl_sim vs onnxruntime)\n\n")
            f.write(f"Host: {os.cpu_count()} cores; both runtimes use all of them; median of {args.repeats} runs "
                    "after 2 warm-ups, same process, same inputs.\n\n")
            f.write("```\nPYTHONPATH=python:tests ACL_SIM_BUILD_DIR=build/model python bench/bench_models.py "
                    f"--repeats {args.repeats} --markdown bench/results/model.md\n```\n\n")
            f.write(table + "\n")


if __name__ == "__main__":
    main()
