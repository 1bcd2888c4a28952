"""Run a benchmark while another process keeps one CPU busy: a shared or noisy machine, as CI runners often are.

    python bench/busy_neighbour.py [--cpu N] -- python bench/bench_models.py --models resnet50,squeezenet

A child process spins on CPU N (default: the last one this process may use) for as long as the command runs, at
normal priority, so both sides of the benchmark share that CPU with it. The figures are ratios measured under the
same load on both sides; the load is part of what they measure, so they do not compare with idle-host runs.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys


def _spin(cpu: int) -> None:
    os.sched_setaffinity(0, {cpu})
    while True:
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)), help="the CPU to keep busy")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command to run")
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("give the command to run after --")
    if args.cpu not in os.sched_getaffinity(0):
        ap.error(f"CPU {args.cpu} is not one this process may use: {sorted(os.sched_getaffinity(0))}")
    spinner = multiprocessing.Process(target=_spin, args=(args.cpu,), daemon=True)
    spinner.start()
    try:
        print(f"busy neighbour: a spinning process on CPU {args.cpu}", flush=True)
        sys.exit(subprocess.run(command).returncode)
    finally:
        spinner.terminate()
        spinner.join()


if __name__ == "__main__":
    main()
