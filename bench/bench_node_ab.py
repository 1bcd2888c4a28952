"""A/B of an acl_sim setting inside one process, per model node: the two settings alternate run by run.

Settings are environment variables the kernels read per call (ACL_SIM_CONV_DIRECT, ACL_SIM_CONV_PIXEL_MAJOR,
ACL_SIM_CONV_WINOGRAD, ACL_SIM_CONV_DIRECT_PACKED, ...); A and B are space-separated NAME=VALUE lists
("X=1" for no change). Each run starts after a 3 ms pause, as bench_models.py samples; the runs alternate
A, B, B, A, ..., so a drift of the host moves both alike; the profiler's op events give each node's median
over its runs. This is how the conv paths were compared inside the models (docs/perf_history.md).

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_node_ab.py resnet50 \\
        "ACL_SIM_CONV_DIRECT_PACKED=0" "X=1" [--pairs 30] [--nodes] [--precision-mode force_fp16]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))


def _set(setting: str, on: bool) -> None:
    for kv in setting.split():
        k, v = kv.split("=", 1)
        if on:
            os.environ[k] = v
        else:
            os.environ.pop(k, None)


def main() -> None:
    import bench_models as bm

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", choices=bm.ALL + bm.LIGHT_MORE)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--pairs", type=int, default=30)
    ap.add_argument("--nodes", action="store_true", help="print every node, not only the sums by kind")
    ap.add_argument("--precision-mode", help="compile with atc --precision_mode (force_fp16, ...)")
    args = ap.parse_args()
    trace_dir = tempfile.mkdtemp()
    os.environ["ACL_SIM_PROFILE"] = trace_dir  # read at acl.init
    import acl

    acl.init()
    acl.rt.set_device(0)
    path, shape_opt, feeds = bm.model_case(args.model)
    m = bm.AclModel(acl, bm.atc(path, shape_opt, os.path.join(bm.WORK, "om", args.model), args.precision_mode), next(iter(feeds.values())))
    order = ["warm-up", "warm-up"]
    m.infer()
    m.infer()
    for p in range(args.pairs):
        for tag in ("AB" if p % 2 == 0 else "BA"):
            setting = args.a if tag == "A" else args.b
            _set(setting, True)
            time.sleep(0.003)
            m.infer()
            _set(setting, False)
            order.append(tag)
    m.release()
    acl.rt.reset_device(0)
    acl.finalize()
    with open(os.path.join(trace_dir, "trace.json"), encoding="utf-8") as f:
        t = json.load(f)
    shutil.rmtree(trace_dir, ignore_errors=True)
    events = t["traceEvents"] if isinstance(t, dict) else t
    ops = sorted((e for e in events if e.get("ph") == "X" and e.get("cat") == "op"), key=lambda e: e["ts"])
    per_run = len(ops) // len(order)
    times: dict[str, dict[str, list]] = collections.defaultdict(lambda: {"A": [], "B": []})
    meta = {}
    for r, tag in enumerate(order):
        if tag in ("A", "B"):
            for e in ops[r * per_run:(r + 1) * per_run]:
                times[e["name"]][tag].append(e["dur"])
                meta[e["name"]] = (e["args"]["type"], e["args"]["shapes"])
    kinds: dict[str, list] = collections.defaultdict(lambda: [0, 0.0, 0.0])
    total_a = total_b = 0.0
    for name, v in times.items():
        a, b = statistics.median(v["A"]), statistics.median(v["B"])
        total_a += a
        total_b += b
        op, shapes = meta[name]
        kind = op
        if op == "Conv":
            w = shapes.split(";")[1].split("x")
            kind = f"Conv {w[2]}x{w[3]}"
        k = kinds[kind]
        k[0] += 1
        k[1] += a
        k[2] += b
        if args.nodes:
            print(f"{a:9.0f} {b:9.0f} {b / a:5.2f}  {op} {shapes}")
    print(f"A = {args.a!r}, B = {args.b!r}; {args.pairs} pairs; node medians, us")
    for kind, (n, a, b) in sorted(kinds.items()):
        print(f"{kind:20s} nodes {n:3d}  A {a:9.0f}  B {b:9.0f}  B/A {b / max(a, 1e-9):.3f}")
    print(f"{'all nodes':20s}            A {total_a:9.0f}  B {total_b:9.0f}  B/A {total_b / total_a:.3f}")


if __name__ == "__main__":
    main()
