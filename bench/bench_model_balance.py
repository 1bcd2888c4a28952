"""Where a whole-model run spends its wall time besides kernel work: per node, how busy each pool
thread was (the node's own thread and the workers), its serial time outside parallel regions, the
workers' wake-up latency at each fork, and the gaps between nodes.

Per model: `acl-sim atc`, load, 3 warm-up inferences, then `--runs` executes timed without the
profiler (the wall time a user sees), then the same executes under the profiler (acl.prof API),
whose op_summary.csv carries the pool_* columns (docs/observability.md). The profiler adds its
own cost per node and per fork, so the profiled run is a little slower than the plain one; the
"gaps" row compares the profiled execute with the sum of its node spans.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_model_balance.py resnet50 densenet121
    ... --runs 10 --top 12         # more runs, the 12 nodes that lose the most thread time
    ... resnet50 --ab ACL_SIM_POOL_TAIL_SPIN_US=270   # A/B: execute time with that setting / without

--ab runs the model in two child processes, one with the given environment, and alternates single
executes between them (median of per-pair ratios): a pool setting read at start-up can be compared
on a loaded host without the drift of two runs one after the other.

Lost thread time of a node = threads x wall - (caller busy + worker busy): idle workers (waiting
for a fork to open, or at its tail), the node's serial part on its own thread, and wake-ups.
"""
from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench_models as bm  # noqa: E402
import bench_timing as bt  # noqa: E402


def read_nodes(directory: str) -> list[dict]:
    with open(os.path.join(directory, "op_summary.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("count", "pool_threads", "pool_forks", "pool_worker_shares", "pool_indices", "pool_index_slots",
                  "pool_caller_sleeps"):
            r[k] = int(r[k])
        for k in ("total_us", "pool_fork_us", "pool_caller_us", "pool_worker_us", "pool_wake_us"):
            r[k] = float(r[k])
    return rows


def profile_runs(acl, m: bm.AclModel, runs: int, out_dir: str) -> list[float]:
    """`runs` executes under the profiler; returns their wall times (s)."""
    assert acl.prof.init(out_dir) == 0
    cfg = acl.prof.create_config([0], 0, 0, 0x2)
    assert acl.prof.start(cfg) == 0
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        m.execute_only()
        times.append(time.perf_counter() - t0)
    assert acl.prof.stop(cfg) == 0
    acl.prof.destroy_config(cfg)
    assert acl.prof.finalize() == 0
    return times


def analyse(name: str, rows: list[dict], runs: int, exec_s: float, exec_prof_s: float, threads: int,
            top: int) -> str:
    us = lambda v: f"{v / runs:.0f}"  # noqa: E731  per-run microseconds
    wall = sum(r["total_us"] for r in rows)
    fork = sum(r["pool_fork_us"] for r in rows)
    caller = sum(r["pool_caller_us"] for r in rows)
    worker = sum(r["pool_worker_us"] for r in rows)
    wake = sum(r["pool_wake_us"] for r in rows)
    forks = sum(r["pool_forks"] for r in rows)
    shares = sum(r["pool_worker_shares"] for r in rows)
    missed = forks * (threads - 1) - shares
    indices = sum(r["pool_indices"] for r in rows)
    slots = sum(r["pool_index_slots"] for r in rows)
    busy = caller + worker
    out = [f"### {name}: {len(rows)} nodes, {runs} runs, {threads} pool threads\n"]
    out.append(bt.table(["per run", "value"], [
        ["execute wall, no profiler (median)", f"{exec_s * 1e3:.2f} ms"],
        ["execute wall under the profiler (median)", f"{exec_prof_s * 1e3:.2f} ms"],
        ["sum of node spans", f"{wall / runs / 1e3:.2f} ms"],
        ["gaps between nodes (profiled execute - node spans)", f"{exec_prof_s * 1e3 - wall / runs / 1e3:.2f} ms"],
        ["parallel efficiency: busy / (threads x node wall)", f"{100 * busy / max(threads * wall, 1e-9):.1f}%"],
        ["node thread: busy in forks / serial outside forks / waiting at fork tails",
         f"{caller / runs / 1e3:.2f} / {(wall - fork) / runs / 1e3:.2f} / {(fork - caller) / runs / 1e3:.2f} ms"],
        ["workers: busy / idle (node wall - busy, summed over workers)",
         f"{worker / runs / 1e3:.2f} / {((threads - 1) * wall - worker) / runs / 1e3:.2f} ms"],
        ["tiles per fork (mean); efficiency bound of equal tiles over the threads",
         f"{indices / max(forks, 1):.1f}; {100 * indices / max(slots, 1):.1f}%"],
        ["forks; worker shares missed (the fork ended before a worker took an index)",
         f"{forks // runs}; {missed // runs}"],
        ["forks whose tail the node's thread slept through (futex wake-up)",
         f"{sum(r['pool_caller_sleeps'] for r in rows) // runs}"],
        ["mean worker wake-up latency per share", f"{wake / max(shares, 1):.1f} us"],
    ]))
    rows = sorted(rows, key=lambda r: -(threads * r["total_us"] - r["pool_caller_us"] - r["pool_worker_us"]))
    table = []
    for r in rows[:top]:
        b = r["pool_caller_us"] + r["pool_worker_us"]
        table.append([r["op_name"][:28], r["op_type"], " ".join(r["shapes"].split(";")[:2]), us(r["total_us"]),
                      f"{100 * b / max(threads * r['total_us'], 1e-9):.0f}%", us(r["total_us"] - r["pool_fork_us"]),
                      us(r["pool_fork_us"] - r["pool_caller_us"]), us(threads * r["total_us"] - b),
                      str(r["pool_forks"] // r["count"]), str(r["pool_indices"] // r["count"]),
                      f"{r['pool_wake_us'] / max(r['pool_worker_shares'], 1):.1f}"])
    out.append(f"\nThe {len(table)} nodes losing the most thread time (us per run):\n")
    out.append(bt.table(["node", "op", "input", "wall", "efficiency", "serial", "caller waits", "lost",
                         "forks", "tiles", "wake us"], table))
    uneven = [r for r in rows if r["pool_index_slots"] and r["pool_indices"] < 0.9 * r["pool_index_slots"]]
    if uneven:
        uneven.sort(key=lambda r: -r["total_us"])
        out.append(f"\nNodes whose tiles cannot split evenly over the threads (equal-tile bound < 90%):\n")
        out.append(bt.table(["node", "op", "input", "wall us", "forks", "tiles", "bound"], [
            [r["op_name"][:28], r["op_type"], " ".join(r["shapes"].split(";")[:2]), us(r["total_us"]),
             str(r["pool_forks"] // r["count"]), str(r["pool_indices"] // r["count"]),
             f"{100 * r['pool_indices'] / r['pool_index_slots']:.0f}%"] for r in uneven[:top]]))
    return "\n".join(out)


AB_CHILD = """
import sys, time
sys.path.insert(0, {here!r})
import acl, bench_models as bm
assert acl.init() in (0, 100002) and acl.rt.set_device(0) == 0
ctx, _ = acl.rt.create_context(0)
path, shape_opt, feeds = bm.model_case({name!r})
m = bm.AclModel(acl, bm.atc(path, shape_opt, {om!r}, {mode!r}), next(iter(feeds.values())))
for _ in range(3):
    m.infer()
print("ready", flush=True)
for line in sys.stdin:
    t0 = time.perf_counter()
    m.execute_only()
    print(time.perf_counter() - t0, flush=True)
"""


def alternate_children(name: str, envs: tuple[dict, dict], seconds: float, settle: float = 0.0,
                       precision_mode: str | None = None) -> tuple[list[float], list[float], list[float]]:
    """The model's execute in two child processes (AB_CHILD, one per environment), single executes alternated
    A B, B A, ... (each after `settle` seconds, untimed) until `seconds` have passed and at least 5 pairs:
    A's times, B's times and the per-pair ratios A / B. The model is compiled with atc --precision_mode when
    given."""
    import subprocess

    om = os.path.join(bm.WORK, "om", name)
    code = AB_CHILD.format(here=HERE, name=name, om=om, mode=precision_mode)
    bm.atc(*bm.model_case(name)[:2], om, precision_mode)  # compile once, before both children look for it
    kids = []
    for env in envs:
        p = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env=env)
        if p.stdout.readline().strip() != "ready":
            raise SystemExit(f"{name}: an A/B child process did not start")
        kids.append(p)

    def once(p):
        if settle:
            time.sleep(settle)
        p.stdin.write("x\n")
        p.stdin.flush()
        return float(p.stdout.readline())

    a, b, ratios = [], [], []
    start = time.perf_counter()
    while len(ratios) < 5 or time.perf_counter() - start < seconds:
        first, second = (kids[0], kids[1]) if len(ratios) % 2 == 0 else (kids[1], kids[0])
        t1, t2 = once(first), once(second)
        ta, tb = (t1, t2) if first is kids[0] else (t2, t1)
        a.append(ta)
        b.append(tb)
        ratios.append(ta / tb)
    for p in kids:
        p.stdin.close()
        p.wait()
    return a, b, ratios


def ab(name: str, setting: str, seconds: float) -> str:
    key, _, value = setting.partition("=")
    envs = (dict(os.environ, **{key: value}), {k: v for k, v in os.environ.items() if k != key})
    a, b, ratios = alternate_children(name, envs, seconds)
    return (f"{name}: execute with {setting} {statistics.median(a) * 1e3:.2f} ms, without "
            f"{statistics.median(b) * 1e3:.2f} ms; with / without = {statistics.median(ratios):.3f} "
            f"(median of {len(ratios)} alternated pairs)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*", default=["resnet50", "densenet121"])
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--ab", metavar="ENV=VALUE", help="A/B the execute time with this setting against without")
    ap.add_argument("--seconds", type=float, default=20.0, help="--ab: time budget per model")
    args = ap.parse_args()
    if args.ab:
        print(bt.machine_header() + "\n", flush=True)
        for name in args.models:
            print(ab(name, args.ab, args.seconds), flush=True)
        return

    import acl

    assert acl.init() in (0, 100002)
    assert acl.rt.set_device(0) == 0
    ctx, ret = acl.rt.create_context(0)
    assert ret == 0
    print(bt.machine_header() + "\n", flush=True)
    threads = bt.threads()
    for name in args.models:
        path, shape_opt, feeds = bm.model_case(name)
        om = bm.atc(path, shape_opt, os.path.join(bm.WORK, "om", name))
        m = bm.AclModel(acl, om, next(iter(feeds.values())))
        for _ in range(3):
            m.infer()
        plain = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            m.execute_only()
            plain.append(time.perf_counter() - t0)
        with tempfile.TemporaryDirectory(prefix="balance_") as d:
            prof = profile_runs(acl, m, args.runs, d)
            rows = read_nodes(d)
        m.release()
        print(analyse(name, rows, args.runs, statistics.median(plain), statistics.median(prof), threads, args.top)
              + "\n", flush=True)
    acl.rt.destroy_context(ctx)
    acl.rt.reset_device(0)
    acl.finalize()


if __name__ == "__main__":
    main()
