"""HCCL collectives over thread ranks: AllReduce, AllGather, Broadcast with 2, 4
and 8 ranks, 1 KiB .. 256 MiB; time, algbw and busbw as nccl-tests defines them
(S = bytes of one rank's result: for AllGather the whole gathered buffer):

    algbw = S / t,  busbw = algbw * factor,
    factor = 2(n-1)/n (AllReduce), (n-1)/n (AllGather), 1 (Broadcast).

Reference measured in the same run (host NumPy, one thread):
  AllReduce: sum the n ranks' buffers (np.add into an accumulator) plus one copy of
             the result back to each rank -- the issue's reference;
  AllGather: each rank's block copied into every rank's output (n x n blocks: the send and
             receive buffers are separate, so a rank's own block is copied too);
  Broadcast: n-1 copies of the root's buffer.
Timing: every rank issues `iters` collectives on its own stream and
synchronises; t = (last rank done - first rank start) / iters.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_hccl.py [--write bench/results/hccl.md]
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time

import numpy as np

import acl
from acl_sim import hccl

FACTORS = {"AllReduce": lambda n: 2 * (n - 1) / n, "AllGather": lambda n: (n - 1) / n, "Broadcast": lambda n: 1.0}


def sizes(lo, hi):
    s = lo
    while s <= hi:
        yield s
        s *= 4


class Ranks:
    """n persistent rank threads (device r, own stream); run(fn) runs fn(rank, stream) on all at once."""

    def __init__(self, n):
        self.n = n
        self.comms, ret = hccl.comm_init_all(n, list(range(n)))
        assert ret == 0, ret
        self.streams = [None] * n
        self.bufs = [dict() for _ in range(n)]
        self.run(self._setup)

    def _setup(self, r):
        self.streams[r], ret = acl.rt.create_stream()
        assert ret == 0

    def run(self, fn):
        errors, results = [], [None] * self.n

        def worker(r):
            try:
                assert acl.rt.set_device(r) == 0  # a fresh thread has no current context
                results[r] = fn(r)
            except BaseException as e:  # noqa: BLE001
                errors.append(f"rank {r}: {e!r}")

        threads = [threading.Thread(target=worker, args=(r,)) for r in range(self.n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise RuntimeError(errors[0])
        return results

    def alloc(self, r, key, nbytes):
        old = self.bufs[r].get(key)
        if old and old[1] >= nbytes:
            return old[0]
        if old:
            acl.rt.free(old[0])
        ptr, ret = acl.rt.malloc(nbytes, 0)
        assert ret == 0, ret
        acl.rt.memset(ptr, nbytes, 0, nbytes)
        self.bufs[r][key] = (ptr, nbytes)
        return ptr

    def free_buffers(self):
        def free(r):
            for ptr, _ in self.bufs[r].values():
                acl.rt.free(ptr)
            self.bufs[r].clear()
        self.run(free)

    def release(self):
        def free(r):
            for ptr, _ in self.bufs[r].values():
                acl.rt.free(ptr)
            self.bufs[r].clear()
            acl.rt.destroy_stream(self.streams[r])
        self.run(free)
        for c in self.comms:
            hccl.comm_destroy(c)


def issue(op, ranks, r, nbytes):
    """Enqueue one collective of result size nbytes (fp32) on rank r."""
    n, comm, s = ranks.n, ranks.comms[r], ranks.streams[r]
    if op == "AllReduce":  # in place, like the reference (and half the memory at 256 MiB x 8 ranks)
        buf = ranks.alloc(r, "a", nbytes)
        return hccl.all_reduce(buf, buf, nbytes // 4, 4, 0, comm, s)
    if op == "AllGather":
        block = nbytes // n // 4
        send = ranks.alloc(r, "a", block * 4)
        recv = ranks.alloc(r, "b", block * 4 * n)
        return hccl.all_gather(send, recv, block, 4, comm, s)
    buf = ranks.alloc(r, "a", nbytes)
    return hccl.broadcast(buf, nbytes // 4, 4, 0, comm, s)


def time_collective(op, ranks, nbytes, iters):
    start = threading.Barrier(ranks.n)

    def body(r):
        start.wait()
        t0 = time.perf_counter()
        for _ in range(iters):
            assert issue(op, ranks, r, nbytes) == 0
        assert acl.rt.synchronize_stream(ranks.streams[r]) == 0
        return t0, time.perf_counter()

    spans = ranks.run(body)
    return (max(e for _, e in spans) - min(s for s, _ in spans)) / iters


def time_reference(op, n, nbytes, iters):
    count = nbytes // 4
    if op == "AllReduce":
        bufs = [np.zeros(count, np.float32) for r in range(n)]  # zeros: repeated runs cannot overflow
        acc = np.empty(count, np.float32)

        def once():
            np.copyto(acc, bufs[0])
            for b in bufs[1:]:
                np.add(acc, b, out=acc)
            for b in bufs:
                np.copyto(b, acc)
    elif op == "AllGather":
        block = count // n
        outs = [np.zeros(block * n, np.float32) for _ in range(n)]
        ins = [np.full(block, r, np.float32) for r in range(n)]

        def once():  # every rank's output holds all n blocks, its own included (separate send and recv buffers)
            for r in range(n):
                for j in range(n):
                    np.copyto(outs[r][j * block:(j + 1) * block], ins[j])
    else:
        # Filled, not np.zeros: an untouched calloc'd root reads the kernel's zero page, which stays in cache
        # (until stop 34 the reference copy read almost nothing, and the 64-256 MiB rows read 1.3-2.9x).
        bufs = [np.full(count, r + 1, np.float32) for r in range(n)]

        def once():
            for b in bufs[1:]:
                np.copyto(b, bufs[0])
    once()
    t0 = time.perf_counter()
    for _ in range(iters):
        once()
    return (time.perf_counter() - t0) / iters


def fmt_size(b):
    return f"{b >> 20} MiB" if b >= 1 << 20 else f"{b >> 10} KiB"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranks", default="2,4,8")
    ap.add_argument("--ops", default="AllReduce,AllGather,Broadcast")
    ap.add_argument("--min-bytes", type=int, default=1 << 10)
    ap.add_argument("--max-bytes", type=int, default=256 << 20)
    ap.add_argument("--budget", type=float, default=0.25, help="seconds per measurement")
    ap.add_argument("--write", help="write the markdown report here")
    args = ap.parse_args()
    assert acl.init() in (0, 100002)
    rows = []
    for n in [int(x) for x in args.ranks.split(",")]:
        ranks = Ranks(n)
        for op in args.ops.split(","):
            for nbytes in sizes(args.min_bytes, args.max_bytes):
                if nbytes // n // 4 == 0:
                    continue
                # The first call of a size allocates and first-touches its buffers (after the previous op freed
                # 256 MiB ones: up to ~1 ms), so it warms up only; the estimate that sizes the timed loop comes
                # after it. Until stop 34 one call did both, and a slow first 1 KiB call left 3 timed iterations
                # whose thread start-up showed as 43-224 us per collective (the 1 KiB Broadcast and AllGather rows).
                time_collective(op, ranks, nbytes, 1)
                once = time_collective(op, ranks, nbytes, 3 if nbytes <= 1 << 24 else 1)
                iters = int(min(2000, max(3, args.budget / max(once, 1e-7))))
                t = time_collective(op, ranks, nbytes, iters)
                ref = time_reference(op, n, nbytes, max(2, min(iters, int(args.budget / 2 / max(t, 1e-7)))))
                algbw = nbytes / t / 1e9
                rows.append((op, n, nbytes, t, algbw, algbw * FACTORS[op](n), ref, t / ref))
                r = rows[-1]
                print(f"{op:9s} n={n} {fmt_size(nbytes):>8s}  t={t * 1e6:10.1f} us  algbw={r[4]:7.2f} GB/s  "
                      f"busbw={r[5]:7.2f} GB/s  ref={ref * 1e6:10.1f} us  t/ref={r[7]:6.2f}", flush=True)
            ranks.free_buffers()
        ranks.release()
    if args.write:
        write_report(args.write, rows)


def write_report(path, rows):
    lines = ["## HCCL (thread ranks)", "",
             "Reproduce: `PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_hccl.py "
             "--write bench/results/hccl.md` (fp32, SUM; " + f"{os.cpu_count()} host cores, load average "
             f"{os.getloadavg()[0]:.1f}).", "",
             "t = per collective, every rank on its own stream; algbw = S/t, busbw per nccl-tests "
             "(AllReduce 2(n-1)/n, AllGather (n-1)/n, Broadcast 1). ref = host NumPy doing the same data "
             "movement single-threaded (AllReduce: sum of the n buffers + one copy back to each rank).", ""]
    ar = {(n, b): (t, ref) for op, n, b, t, _, _, ref, _ in rows if op == "AllReduce"}
    if (8, 64 << 20) in ar:
        t, ref = ar[(8, 64 << 20)]
        lines.append(f"- **AllReduce 64 MiB, 8 ranks: time/reference = {t / ref:.2f}** (target <= 1.2)")
    if (8, 1 << 10) in ar:
        lines.append(f"- **AllReduce 1 KiB, 8 ranks: {ar[(8, 1 << 10)][0] * 1e6:.1f} us** (target <= 20 us)")
    lines += ["", "| op | ranks | size | time (us) | algbw (GB/s) | busbw (GB/s) | ref (us) | time/ref |",
              "|---|---|---|---|---|---|---|---|"]
    for op, n, b, t, algbw, busbw, ref, ratio in rows:
        lines.append(f"| {op} | {n} | {fmt_size(b)} | {t * 1e6:.1f} | {algbw:.2f} | {busbw:.2f} | "
                     f"{ref * 1e6:.1f} | {ratio:.2f} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
