"""Conv paths side by side on whole models: acl_sim's default conv paths, acl_sim with every conv on the
GEMM (ACL_SIM_CONV_DIRECT=0, the paths before the direct conv existed) and onnxruntime, through the
public path (bench_models.AclModel: atc, load, memcpy + execute + memcpy).

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_conv_paths.py [--models resnet50,vgg19]

Timing: wall clock, all cores on every side, the three calls rotated each round (so background load
hits all alike), medians of the per-round ratios (lower is better). --cpu-time: the single-thread
diagnostic of bench_timing (one thread each side, thread CPU time), steadier on a loaded host. ACL_SIM_CONV_DIRECT is read by the
Conv kernel on every call, so one loaded model serves both acl_sim sides.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

import bench_models as bm  # noqa: E402
import bench_timing as bt  # noqa: E402


def run(acl, name: str, seconds: float) -> list:
    path, shape_opt, feeds = bm.model_case(name)
    om = bm.atc(path, shape_opt, os.path.join(bm.WORK, "om", name))
    (x,) = feeds.values()
    m = bm.AclModel(acl, om, x)
    sess = bt.ort_session(path)
    try:
        def direct():
            os.environ["ACL_SIM_CONV_DIRECT"] = "1"
            m.infer()

        def gemm():
            os.environ["ACL_SIM_CONV_DIRECT"] = "0"
            m.infer()

        def ort():
            sess.run(None, feeds)

        fns = [direct, gemm, ort]
        for f in fns * 2:
            f()
        times = {f: [] for f in fns}
        start, rounds = time.perf_counter(), 0
        while rounds < 3 or (time.perf_counter() - start < seconds and rounds < 200):
            for f in fns[rounds % 3:] + fns[:rounds % 3]:
                t0 = bt._clock()
                f()
                times[f].append(bt._clock() - t0)
            rounds += 1
    finally:
        os.environ.pop("ACL_SIM_CONV_DIRECT", None)
        m.release()

    def ratio(a, b):
        return f"{statistics.median(p / q for p, q in zip(times[a], times[b])):.2f}x"

    return [bm.LABELS.get(name, name), bt.ms(statistics.median(times[direct])), bt.ms(statistics.median(times[gemm])),
            bt.ms(statistics.median(times[ort])), ratio(direct, ort), ratio(gemm, ort), ratio(direct, gemm), rounds]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="resnet50,densenet121,vgg19,ppocr_det,ppocr_rec,ppocr_cls")
    ap.add_argument("--seconds", type=float, default=10.0, help="timing budget per model (at least 3 rounds)")
    bt.add_cpu_time_option(ap)
    args = ap.parse_args()
    bt.apply_cpu_time_option(args)
    import acl

    acl.init()
    acl.rt.set_device(0)
    print(bt.machine_header())
    rows = []
    for name in args.models.split(","):
        rows.append(run(acl, name, args.seconds))
        print("  ".join(map(str, rows[-1])), flush=True)
    print()
    print(bt.table(["model", "default ms", "all-GEMM ms", "onnxruntime ms", "default / ort", "all-GEMM / ort",
                    "default / all-GEMM", "rounds"], rows))
    acl.rt.reset_device(0)
    acl.finalize()


if __name__ == "__main__":
    main()
