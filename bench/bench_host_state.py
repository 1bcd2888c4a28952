"""A model against onnxruntime, split by the host's state: both CPUs on one die or on two.

On a VM the two vCPUs can move between one die (one shared L3) and two, every minute or so, and a model's time
moves with them (docs/perf_history.md, "Stop 39"). This runs windows of alternated pairs in one process
(bench_timing.compare, as bench_models.py does) and tags each window by the CPU 0-1 cache-line round trip
measured before and after it (bench_timing.core_round_trip_ns): one die when both are under --near ns, two
when both are over --far ns; windows that saw a switch are left out. It prints every window, then the median
ratio and both medians per state.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_host_state.py squeezenet --windows 50
    ... python bench/ort_avx2.py -- python bench/bench_host_state.py squeezenet     # every side on AVX2
    ... bench_host_state.py resnet50 --precision-mode force_fp16 [--reference fp32]  # fp16 against onnxruntime
                                                                    # or against acl_sim's own fp32 model
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_models as bm  # noqa: E402
import bench_timing as bt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", choices=[m for m in bm.ALL if m != "matmul1024"] + bm.LIGHT_MORE)
    ap.add_argument("--windows", type=int, default=50)
    ap.add_argument("--pairs", type=int, default=5, help="alternated pairs per window (at least)")
    ap.add_argument("--near", type=float, default=100.0, help="round trip (ns) under which the CPUs share a die")
    ap.add_argument("--far", type=float, default=200.0, help="round trip (ns) over which they do not")
    ap.add_argument("--precision-mode", help="compile acl_sim's model with atc --precision_mode=MODE")
    ap.add_argument("--reference", choices=["onnxruntime", "fp32"], default="onnxruntime",
                    help="the other side: onnxruntime on the source model, or acl_sim's fp32 compile of it")
    args = ap.parse_args()

    import acl

    ctx = bm.open_device(acl)
    print(bt.machine_header(), flush=True)
    path, shape_opt, feeds = bm.model_case(args.model)
    stem = os.path.join(bm.WORK, "om", args.model)
    m = bm.AclModel(acl, bm.atc(path, shape_opt, stem, args.precision_mode), next(iter(feeds.values())))
    if args.reference == "fp32":
        ref = bm.AclModel(acl, bm.atc(path, shape_opt, stem), next(iter(feeds.values())))
        ref_fn, ref_name = ref.infer, "acl_sim fp32"
    else:
        ref = None
        sess = bt.ort_session(path)
        ref_fn, ref_name = (lambda: sess.run(None, feeds)), "onnxruntime"
    states = {"one die": [], "two dies": []}
    try:
        for _ in range(args.windows):
            before = bt.core_round_trip_ns()
            c = bt.compare(m.infer, ref_fn, seconds=0.5, min_pairs=args.pairs, settle=bt.POOL_SETTLE_S)
            after = bt.core_round_trip_ns()
            print(f"round trip {bt.round_trip_text(before)} / {bt.round_trip_text(after)} ns: acl_sim "
                  f"{bt.ms(c.ours_s)} ms, {ref_name} {bt.ms(c.ref_s)} ms, {c.ratio:.3f}x", flush=True)
            if before is None or after is None:
                continue
            if max(before, after) < args.near:
                states["one die"].append(c)
            elif min(before, after) > args.far:
                states["two dies"].append(c)
    finally:
        m.release()
        if ref is not None:
            ref.release()
        bm.close_device(acl, ctx)
    label = bm.LABELS.get(args.model, args.model) + (f", {args.precision_mode}" if args.precision_mode else "")
    rows = [[f"{label}, {state}", str(len(cs)),
             f"{statistics.median(c.ratio for c in cs):.2f}x" if cs else "",
             bt.ms(statistics.median(c.ours_s for c in cs)) if cs else "",
             bt.ms(statistics.median(c.ref_s for c in cs)) if cs else ""] for state, cs in states.items()]
    print()
    print(bt.table(["model, host state", "windows", f"acl_sim / {ref_name} (median of windows)", "acl_sim ms",
                    f"{ref_name} ms"], rows))


if __name__ == "__main__":
    main()
