"""Library against library: one model's execute time under two builds of acl_sim, alternated.

A kernel change measured as the user gets it: two builds (say the branch and the commit before it, built with
`git worktree add /tmp/old <commit>` and cmake into /tmp/old/build), each loaded in a child process of its own
with the same compiled .om and input, and single executes alternated between the two children (A B, B A, ...,
each after a 3 ms pause, as bench_models.py samples) so the host's drift hits both alike. Prints both medians and
the median of the per-pair ratios A / B. Both children import this checkout's Python package; only the native
library differs.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_lib_ab.py resnet50 build/<you> /tmp/old/build \\
        [--seconds 30] [--precision-mode force_fp16]
    ... ACL_SIM_KERNEL_ISA=avx2 python bench/bench_lib_ab.py ...     # both children on the AVX2 kernels

The .om comes from this checkout's compiler (bench_models.atc), so only runtime and kernel changes are compared.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench_model_balance as bmb  # noqa: E402
import bench_timing as bt  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="a bench_models.py model name (resnet50, densenet121, ppocr_det, ...)")
    ap.add_argument("build_a", help="build directory of library A (holds libascendcl.so and _core)")
    ap.add_argument("build_b", help="build directory of library B")
    ap.add_argument("--seconds", type=float, default=30.0, help="time budget (at least 5 pairs)")
    ap.add_argument("--precision-mode", help="compile with atc --precision_mode=MODE (e.g. force_fp16)")
    args = ap.parse_args()
    print(bt.machine_header())
    python_dir = os.path.join(os.path.dirname(HERE), "python")
    envs = tuple(dict(os.environ, ACL_SIM_BUILD_DIR=os.path.abspath(build),
                      PYTHONPATH=os.pathsep.join([python_dir, os.environ.get("PYTHONPATH", "")]))
                 for build in (args.build_a, args.build_b))
    # settle: the other child's idle workers stop spinning before each timed execute
    a, b, ratios = bmb.alternate_children(args.model, envs, args.seconds, settle=bt.POOL_SETTLE_S,
                                          precision_mode=args.precision_mode)
    label = args.model + (f" ({args.precision_mode})" if args.precision_mode else "")
    print(f"{label}: A ({args.build_a}) {statistics.median(a) * 1e3:.2f} ms, B ({args.build_b}) "
          f"{statistics.median(b) * 1e3:.2f} ms; A / B = {statistics.median(ratios):.3f} "
          f"(median of {len(ratios)} alternated pairs, execute only)")


if __name__ == "__main__":
    main()
