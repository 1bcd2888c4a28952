"""Library against library: one model's execute time under two builds of acl_sim, alternated.

A kernel change measured as the user gets it: two builds (say the branch and the commit before it, built with
`git worktree add /tmp/old <commit>` and cmake into /tmp/old/build), each loaded in a child process of its own
with the same compiled .om and input, and single executes alternated between the two children (A B, B A, ...,
each after a 3 ms pause, as bench_models.py samples) so the host's drift hits both alike. Prints both medians and
the median of the per-pair ratios A / B. Both children import this checkout's Python package; only the native
library differs.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_lib_ab.py resnet50 build/<you> /tmp/old/build \\
        [--seconds 30]
    ... ACL_SIM_KERNEL_ISA=avx2 python bench/bench_lib_ab.py ...     # both children on the AVX2 kernels

The .om comes from this checkout's compiler (bench_models.atc), so only runtime and kernel changes are compared.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench_model_balance as bmb  # noqa: E402
import bench_models as bm  # noqa: E402
import bench_timing as bt  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="a bench_models.py model name (resnet50, densenet121, ppocr_det, ...)")
    ap.add_argument("build_a", help="build directory of library A (holds libascendcl.so and _core)")
    ap.add_argument("build_b", help="build directory of library B")
    ap.add_argument("--seconds", type=float, default=30.0, help="time budget (at least 5 pairs)")
    args = ap.parse_args()
    print(bt.machine_header())
    om = os.path.join(bm.WORK, "om", args.model)
    bm.atc(*bm.model_case(args.model)[:2], om)  # compiled once, before the children look for it
    code = bmb.AB_CHILD.format(here=HERE, name=args.model, om=om)
    python_dir = os.path.join(os.path.dirname(HERE), "python")
    kids = []
    for build in (args.build_a, args.build_b):
        env = dict(os.environ, ACL_SIM_BUILD_DIR=os.path.abspath(build),
                   PYTHONPATH=os.pathsep.join([python_dir, os.environ.get("PYTHONPATH", "")]))
        p = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env=env)
        if p.stdout.readline().strip() != "ready":
            raise SystemExit(f"bench_lib_ab: the child for {build} did not start")
        kids.append(p)

    def once(p) -> float:
        time.sleep(bt.POOL_SETTLE_S)  # untimed: the other child's idle workers stop spinning
        p.stdin.write("x\n")
        p.stdin.flush()
        return float(p.stdout.readline())

    a, b, ratios = [], [], []
    start = time.perf_counter()
    while len(ratios) < 5 or time.perf_counter() - start < args.seconds:
        order = (0, 1) if len(ratios) % 2 == 0 else (1, 0)
        t = {i: once(kids[i]) for i in order}
        a.append(t[0])
        b.append(t[1])
        ratios.append(t[0] / t[1])
    for p in kids:
        p.stdin.close()
        p.wait()
    print(f"{args.model}: A ({args.build_a}) {statistics.median(a) * 1e3:.2f} ms, B ({args.build_b}) "
          f"{statistics.median(b) * 1e3:.2f} ms; A / B = {statistics.median(ratios):.3f} "
          f"(median of {len(ratios)} alternated pairs, execute only)")


if __name__ == "__main__":
    main()
