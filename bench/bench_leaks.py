"""Leak bench: 10,000 cycles of model load/execute/unload and of stream+event create/destroy.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<name> python bench/bench_leaks.py [--cycles 10000]

Prints, per workload: cycles, seconds, RSS before/after (after a warm-up) and the
growth in percent, and the device pool's used bytes before/after (must be equal).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from test_leaks import compiled_tiny_om, handle_cycle, model_cycle, rss_bytes, tiny_reference, used  # noqa: E402


def measure(name, fn, cycles, warmup, acl):
    for _ in range(warmup):
        fn()
    base_used, before, t0 = used(acl), rss_bytes(), time.perf_counter()
    for _ in range(cycles):
        fn()
    secs, after = time.perf_counter() - t0, rss_bytes()
    growth = 100.0 * (after - before) / before
    print(f"| {name} | {cycles} | {secs:.1f} | {before / 2**20:.1f} | {after / 2**20:.1f} | {growth:+.3f}% | "
          f"{base_used} -> {used(acl)} |", flush=True)
    return growth, used(acl) - base_used


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cycles", type=int, default=10000)
    a = ap.parse_args()
    import acl

    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    x = np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32)
    expected = tiny_reference(x)
    with tempfile.TemporaryDirectory() as tmp:
        om = compiled_tiny_om(tmp)
    print("| workload | cycles | seconds | RSS before (MiB) | RSS after (MiB) | RSS growth | device bytes used |")
    print("|---|---|---|---|---|---|---|")
    g1, d1 = measure("model load/execute/unload", lambda: model_cycle(acl, om, x, expected), a.cycles, 200, acl)
    g2, d2 = measure("stream+event create/record/destroy", lambda: handle_cycle(acl), a.cycles, 200, acl)
    assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
    return 0 if max(g1, g2) < 1.0 and d1 == d2 == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
