"""Bounded fuzzing for CI: python tests/fuzz/run_all.py [--seconds 60] [--targets a,b]

Each target runs under atheris for the given time on a corpus seeded from
real files. A crash writes its input to tests/fuzz/crashers/<target>/ (kept
as a regression test) and makes this script exit non-zero. Prints the number
of inputs tried per target.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import targets  # noqa: E402


def run(name: str, seconds: int, workdir: str) -> tuple[int, int]:
    corpus = os.path.join(workdir, name)
    os.makedirs(corpus, exist_ok=True)
    _, seeds = targets.TARGETS[name]
    for i, seed in enumerate(seeds()):
        with open(os.path.join(corpus, f"seed{i}"), "wb") as f:
            f.write(seed)
    crash_dir = os.path.join(targets.CRASHERS, name)
    os.makedirs(crash_dir, exist_ok=True)
    cmd = [sys.executable, os.path.join(HERE, "fuzz_main.py"), name, f"-max_total_time={seconds}",
           "-print_final_stats=1", "-rss_limit_mb=4096", "-timeout=30", "-max_len=1048576",
           f"-artifact_prefix={crash_dir}/", corpus]
    env = dict(os.environ, HCCL_CONNECT_TIMEOUT="1", HCCL_EXEC_TIMEOUT="1", ASCEND_GLOBAL_LOG_LEVEL="4")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=seconds * 3 + 120)
    m = re.search(r"stat::number_of_executed_units:\s*(\d+)", proc.stderr)
    execs = int(m.group(1)) if m else 0
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
    return proc.returncode, execs


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=int, default=60)
    p.add_argument("--targets", default=",".join(targets.TARGETS))
    a = p.parse_args()
    failed = 0
    total = 0
    with tempfile.TemporaryDirectory() as work:
        for name in a.targets.split(","):
            rc, execs = run(name, a.seconds, work)
            total += execs
            print(f"fuzz {name}: {execs} inputs in {a.seconds}s, {'CRASH' if rc else 'no crash'}", flush=True)
            failed |= rc != 0
    print(f"fuzz total: {total} inputs")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
