"""`acl-sim prof`: profile a command, or summarise a profile.

    acl-sim prof --output=DIR -- python app.py ...   # run with ACL_SIM_PROFILE=DIR
    acl-sim prof summary DIR [--top N] [--plot FILE]  # top ops, and a PNG of time per op type

The run writes DIR/trace.json (Chrome trace events: open in Perfetto or
chrome://tracing) and DIR/op_summary.csv (per-op times with roofline
estimates of the NPU time on the profiled SoC).
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys
from collections import defaultdict


def read_summary(directory: str) -> list[dict]:
    path = os.path.join(directory, "op_summary.csv")
    if not os.path.exists(path):
        raise SystemExit(f"acl-sim prof: no op_summary.csv in {directory}")
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("count",):
            r[k] = int(r[k])
        for k in ("total_us", "mean_us", "max_us", "flops", "bytes", "est_npu_us", "est_npu_total_us"):
            r[k] = float(r[k])
    return rows


def by_type(rows: list[dict]) -> dict[str, dict]:
    agg: dict[str, dict] = defaultdict(lambda: {"count": 0, "total_us": 0.0, "est_npu_total_us": 0.0})
    for r in rows:
        a = agg[r["op_type"]]
        a["count"] += r["count"]
        a["total_us"] += r["total_us"]
        a["est_npu_total_us"] += r["est_npu_total_us"]
    return dict(sorted(agg.items(), key=lambda kv: -kv[1]["total_us"]))


def plot(types: dict[str, dict], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(types)[:20][::-1]
    cpu = [types[n]["total_us"] / 1000 for n in names]
    npu = [types[n]["est_npu_total_us"] / 1000 for n in names]
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(names) + 1.5))
    y = range(len(names))
    ax.barh([i + 0.2 for i in y], cpu, height=0.4, label="acl_sim (CPU) ms")
    ax.barh([i - 0.2 for i in y], npu, height=0.4, label="estimated NPU ms")
    ax.set_yticks(list(y))
    ax.set_yticklabels(names)
    ax.set_xscale("log")  # CPU and estimated NPU times differ by orders of magnitude
    ax.set_xlabel("time per op type (ms, log scale)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def summary(directory: str, top: int = 15, plot_path: str | None = None) -> str:
    rows = read_summary(directory)
    total = sum(r["total_us"] for r in rows) or 1.0
    lines = [f"{'op_name':<40} {'op_type':<18} {'count':>6} {'total_us':>11} {'mean_us':>10} {'%':>6} {'est_npu_us':>11}"]
    for r in sorted(rows, key=lambda r: -r["total_us"])[:top]:
        lines.append(f"{r['op_name'][:40]:<40} {r['op_type'][:18]:<18} {r['count']:>6} {r['total_us']:>11.1f}"
                     f" {r['mean_us']:>10.1f} {100 * r['total_us'] / total:>6.1f} {r['est_npu_us']:>11.2f}")
    types = by_type(rows)
    lines.append("")
    lines.append(f"{'op_type':<24} {'count':>6} {'total_us':>12} {'%':>6} {'est_npu_total_us':>17}")
    for name, a in types.items():
        lines.append(f"{name[:24]:<24} {a['count']:>6} {a['total_us']:>12.1f} {100 * a['total_us'] / total:>6.1f}"
                     f" {a['est_npu_total_us']:>17.2f}")
    if plot_path is None:
        plot_path = os.path.join(directory, "op_types.png")
    try:
        plot(types, plot_path)
        lines.append(f"\nplot: {plot_path}")
    except ImportError:
        lines.append("\nplot: matplotlib is not installed (pip install matplotlib)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(argv or [])
    if argv and argv[0] == "summary":
        import argparse

        p = argparse.ArgumentParser(prog="acl-sim prof summary")
        p.add_argument("directory")
        p.add_argument("--top", type=int, default=15)
        p.add_argument("--plot", default=None)
        a = p.parse_args(argv[1:])
        print(summary(a.directory, a.top, a.plot))
        return 0
    output = None
    cmd: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            cmd = argv[i + 1:]
            break
        if arg.startswith("--output="):
            output = arg.split("=", 1)[1]
        elif arg == "--output" and i + 1 < len(argv):
            i += 1
            output = argv[i]
        else:
            print(f"acl-sim prof: unexpected argument '{arg}' (usage: acl-sim prof --output=DIR -- cmd ...)",
                  file=sys.stderr)
            return 2
        i += 1
    if not output or not cmd:
        print("acl-sim prof: usage: acl-sim prof --output=DIR -- <command...> | acl-sim prof summary DIR",
              file=sys.stderr)
        return 2
    env = dict(os.environ, ACL_SIM_PROFILE=os.path.abspath(output))
    try:
        rc = subprocess.call(cmd, env=env)
    except OSError as exc:
        print(f"acl-sim prof: cannot run {cmd[0]}: {exc}", file=sys.stderr)
        return 2
    if os.path.exists(os.path.join(output, "op_summary.csv")):
        print(summary(output), file=sys.stderr)
    else:
        print(f"acl-sim prof: the command wrote no profile into {output} (did it call acl.init?)", file=sys.stderr)
    return rc
