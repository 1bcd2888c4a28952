"""Per node, inside the whole model: acl_sim's node times against onnxruntime's, both from their profilers.

The one-node benchmarks (bench_model_convs.py) see a conv with its weights in L3 and onnxruntime paying layout
reorders; in a model the weights stream from DRAM once per run and onnxruntime's convs chain in its blocked
layout. This runs the model itself on both sides: acl_sim through the public path with ACL_SIM_PROFILE (the
trace's op events), onnxruntime with enable_profiling (its *_kernel_time events), every core on both, each run
after a 3 ms pause as bench_models.py samples; the median per node over the runs after the first. Convs are
paired in graph order (both keep one node per ONNX Conv), then summed by kernel size and input plane.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_model_nodes.py resnet50 [--runs 40] [--all]

Runs are not alternated between the two (each profiler records its own process section), so a host whose
speed drifts moves one side more: read the per-category ratios, repeat, and use bench_node_ab.py for A/B.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

import bench_models as bm  # noqa: E402
import bench_timing as bt  # noqa: E402


def acl_nodes(name: str, runs: int) -> list[tuple[str, str, float]]:
    """[(op type, shapes, median us)] in execution order, from a child process run under the profiler."""
    out = tempfile.mkdtemp()
    code = ("import sys, time; sys.path[:0] = [%r, %r]; import acl, bench_models as bm\n"
            "acl.init(); acl.rt.set_device(0)\n"
            "path, shape_opt, feeds = bm.model_case(%r)\n"
            "om = bm.atc(path, shape_opt, bm.os.path.join(bm.WORK, 'om', %r))\n"
            "m = bm.AclModel(acl, om, next(iter(feeds.values())))\n"
            "for _ in range(%d):\n    time.sleep(0.003); m.infer()\n"
            "m.release(); acl.rt.reset_device(0); acl.finalize()\n"
            % (HERE, os.path.join(os.path.dirname(HERE), "tests"), name, name, runs))
    subprocess.run([sys.executable, "-c", code], env=dict(os.environ, ACL_SIM_PROFILE=out), check=True)
    with open(os.path.join(out, "trace.json"), encoding="utf-8") as f:
        t = json.load(f)
    shutil.rmtree(out, ignore_errors=True)
    events = t["traceEvents"] if isinstance(t, dict) else t
    per: dict[str, list] = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "op":
            per.setdefault(e["name"], []).append((e["dur"], e["args"]["type"], e["args"]["shapes"]))
    return [(v[0][1], v[0][2], statistics.median(d for d, *_ in v[1:])) for v in per.values()]


def ort_nodes(name: str, runs: int) -> list[tuple[str, float]]:
    """[(op type, median us)] in execution order from onnxruntime's profiler, all cores."""
    import onnxruntime as ort

    path, _, feeds = bm.model_case(name)
    so = ort.SessionOptions()
    so.enable_profiling = True
    so.intra_op_num_threads = os.cpu_count() or 1
    ort_dir = tempfile.mkdtemp()
    so.profile_file_prefix = os.path.join(ort_dir, "ort")
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    for _ in range(runs):
        time.sleep(0.003)
        sess.run(None, feeds)
    with open(sess.end_profiling(), encoding="utf-8") as f:
        events = json.load(f)
    shutil.rmtree(ort_dir, ignore_errors=True)
    per: dict[str, list] = {}
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            per.setdefault(e["name"], []).append((e["dur"], e["args"].get("op_name")))
    return [(v[0][1], statistics.median(d for d, _ in v[1:])) for v in per.values()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", choices=bm.ALL + bm.LIGHT_MORE)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--all", action="store_true", help="also print every conv pair")
    args = ap.parse_args()
    print(bt.machine_header())
    acl = acl_nodes(args.model, args.runs)
    ort = ort_nodes(args.model, args.runs)
    print(f"\nnode time summed: acl_sim {sum(u for *_, u in acl) / 1e3:.2f} ms, "
          f"onnxruntime {sum(u for _, u in ort) / 1e3:.2f} ms (medians per node, {args.runs} runs each)\n")
    convs = list(zip([u for t, u in ort if t == "Conv"], [(s, u) for t, s, u in acl if t == "Conv"]))
    cats: dict[str, list] = collections.defaultdict(lambda: [0, 0.0, 0.0])
    rows = []
    for ref, (shapes, ours) in convs:
        x, w = (p.split("x") for p in shapes.split(";")[:2])
        key = f"{w[2]}x{w[3]} conv on {x[2]}x{x[3]}"
        c = cats[key]
        c[0] += 1
        c[1] += ours
        c[2] += ref
        rows.append([shapes, bt.ms(ours / 1e6), bt.ms(ref / 1e6), f"{ours / ref:.2f}x"])
    table = [[k, n, bt.ms(a / 1e6), bt.ms(r / 1e6), f"{a / r:.2f}x", f"{(a - r) / 1e3:+.2f}"]
             for k, (n, a, r) in sorted(cats.items())]
    print(bt.table(["convs", "nodes", "acl_sim ms", "onnxruntime ms", "ratio", "difference ms"], table))
    others = collections.defaultdict(lambda: [0.0, 0.0])
    for t, _, u in acl:
        if t != "Conv":
            others[t][0] += u
    for t, u in ort:
        if t != "Conv":
            others[t][1] += u
    print()
    print(bt.table(["other op type", "acl_sim ms", "onnxruntime ms"],
                   [[t, bt.ms(a / 1e6), bt.ms(r / 1e6)] for t, (a, r) in sorted(others.items())]))
    if args.all:
        print()
        print(bt.table(["conv (X; W; ...)", "acl_sim ms", "onnxruntime ms", "ratio"], rows))


if __name__ == "__main__":
    main()
