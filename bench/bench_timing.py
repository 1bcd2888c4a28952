"""Timing shared by the kernel benchmarks: best-of-N, and a --cpu-time mode.

--cpu-time runs one thread on each side (ACL_SIM_HOST_THREADS=1, OPENBLAS_NUM_THREADS=1, set by
re-executing the script, since thread counts are fixed when NumPy and the pool start) and times
the calling thread's CPU time, which other processes competing for the cores cannot distort.
"""
from __future__ import annotations

import os
import sys
import time

_clock = time.perf_counter


def add_cpu_time_option(parser) -> None:
    parser.add_argument("--cpu-time", action="store_true",
                        help="one thread on each side, timed by the calling thread's CPU time (use on a busy host)")


def apply_cpu_time_option(args) -> None:
    global _clock
    if not args.cpu_time:
        return
    if os.environ.get("ACL_SIM_HOST_THREADS") != "1" or os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        env = dict(os.environ, ACL_SIM_HOST_THREADS="1", OPENBLAS_NUM_THREADS="1")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    _clock = time.thread_time


def best(fn, reps: int) -> float:
    """Seconds of the fastest of @reps calls, after one warm-up call."""
    fn()
    times = []
    for _ in range(reps):
        t0 = _clock()
        fn()
        times.append(_clock() - t0)
    return min(times)
