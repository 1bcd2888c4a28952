"""A model compiled by two ATC versions, run alternately on the same kernels: graph-level passes' effect.

The "before" .om comes from the compiler of git revision --before (python/acl_sim/compiler of that
commit over today's package, in a subprocess), the "after" one from the working tree; both run in
this process on the same C++ build (acl_sim._core.testing_model, host memory), calls alternated,
median of per-pair ratios after / before (lower is better). --cpu-time: one host thread
(ACL_SIM_HOST_THREADS=1) timed by thread CPU time, the diagnostic for a loaded machine.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_compiler_ab.py --before e9e6f41 \\
        --models densenet121,ppocr_det,ppocr_rec [--cpu-time] [--pairs 15]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

import bench_models as bm  # noqa: E402


def _overlay(rev: str, where: str) -> str:
    """A copy of today's python/ with python/acl_sim/compiler from `rev`."""
    import shutil

    dst = os.path.join(where, "python")
    shutil.copytree(os.path.join(ROOT, "python"), dst, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(os.path.join(dst, "acl_sim", "compiler"))
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev, "python/acl_sim/compiler"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", where], input=archive, check=True)
    return dst


def _compile(pythonpath: str, onnx_path: str, shape_opt, out_stem: str) -> str:
    code = ("import sys; from acl_sim.compiler import compile_model; "
            "kw = {'input_shape': sys.argv[3]} if sys.argv[3] else {}; "
            "r = compile_model(sys.argv[1], sys.argv[2], cache=False, **kw); "
            "print(r['op_counts']); print(r['memplan'])")
    env = dict(os.environ, PYTHONPATH=pythonpath)
    r = subprocess.run([sys.executable, "-c", code, onnx_path, out_stem, shape_opt or ""], env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1:])
    print("   ", r.stdout.strip().replace("\n", "\n    "))
    return out_stem + ".om"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="git revision of the reference compiler")
    ap.add_argument("--models", default="densenet121,ppocr_det,ppocr_rec")
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--cpu-time", action="store_true")
    args = ap.parse_args()
    if args.cpu_time and os.environ.get("ACL_SIM_HOST_THREADS") != "1":
        env = dict(os.environ, ACL_SIM_HOST_THREADS="1")
        raise SystemExit(subprocess.call([sys.executable] + sys.argv, env=env))
    from acl_sim import _core

    clock = time.thread_time if args.cpu_time else time.perf_counter
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        before_py = _overlay(args.before, tmp)
        for name in args.models.split(","):
            path, shape_opt, feeds = bm.model_case(name)
            print(f"{name}: before ({args.before})")
            om_a = _compile(before_py, path, shape_opt, os.path.join(tmp, f"{name}_before"))
            print(f"{name}: after (working tree)")
            om_b = _compile(os.path.join(ROOT, "python"), path, shape_opt, os.path.join(tmp, f"{name}_after"))
            a, b = _core.testing_model.Model.from_file(om_a), _core.testing_model.Model.from_file(om_b)
            x = list(feeds.values())
            ya, yb = a.run(x), b.run(x)  # warm-up (node caches) and the agreement of the two
            diff = max(float(np.abs(p - q).max() / max(np.abs(p).max(), 1e-30)) for p, q in zip(ya, yb))
            ta, tb = [], []
            for _ in range(args.pairs):
                s = clock(); a.run(x); ta.append(clock() - s)
                s = clock(); b.run(x); tb.append(clock() - s)
            ratio = float(np.median(np.array(tb) / np.array(ta)))
            rows.append([name, f"{np.median(ta) * 1e3:.1f}", f"{np.median(tb) * 1e3:.1f}", f"{ratio:.3f}",
                         str(args.pairs), f"{diff:.1e}"])
    mode = "one thread, thread CPU time" if args.cpu_time else f"{os.cpu_count()} threads, wall clock"
    print(f"\n{mode}; before = compiler of {args.before}\n")
    print("| model | before ms | after ms | after / before (median of pairs) | pairs | max |after - before| / max |before| |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
