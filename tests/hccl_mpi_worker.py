"""One MPI process = one HCCL rank. Run as `mpiexec -n N python hccl_mpi_worker.py`.

Rank 0 makes the root info and mpi4py broadcasts it; every process then calls
comm_init_root_info(N, root_info, rank) and runs each collective over a matrix
of data types, ops and sizes, checking against NumPy (every process can
recompute every rank's input from the seeds). Prints "RANK r OK" on success;
any failure raises (non-zero exit).
"""
from __future__ import annotations

import os
import sys

import numpy as np
from mpi4py import MPI  # initialises MPI (MPI_THREAD_MULTIPLE) before acl_sim uses it

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import acl  # noqa: E402
from acl_sim import hccl  # noqa: E402
from hccl_ranks import MOVABLE, REDUCIBLE, RankContext, assert_close, check, make_inputs, reduce_ref  # noqa: E402


def main():
    world = MPI.COMM_WORLD
    rank, n = world.Get_rank(), world.Get_size()
    ret = acl.init()
    assert ret in (0, 100002), ret
    root_info = None
    if rank == 0:
        root_info, ret = hccl.get_root_info()
        check(ret, "get_root_info")
    root_info = world.bcast(root_info, root=0)
    ctx = RankContext(acl, rank, 0, 0)  # each process simulates its own device 0
    # HCCL rank order need not follow MPI rank order: reverse it.
    hrank = n - 1 - rank
    ctx.comm, ret = hccl.comm_init_root_info(n, root_info, hrank)
    check(ret, "comm_init_root_info")
    ctx.rank = hrank
    assert hccl.get_rank_size(ctx.comm) == (n, 0)
    assert hccl.get_rank_id(ctx.comm) == (hrank, 0)
    c, s = ctx.comm, ctx.stream

    def run(what, issue):
        check(issue(), what)
        check(ctx.sync(), f"synchronize after {what}")

    seed = 0
    for dt in REDUCIBLE:
        for op in (0, 1, 2, 3):
            for size in (1, 1001, 40001):  # direct path, then ring for >64 KiB
                seed += 1
                inputs = make_inputs(dt, op, n, size, seed)
                want = reduce_ref(inputs, op)
                send = ctx.upload(inputs[hrank])
                recv = ctx.alloc(want.nbytes)
                run("all_reduce", lambda: hccl.all_reduce(send, recv, size, dt, op, c, s))
                # The ring reduces in a different order than NumPy: floats compare with tolerance.
                assert_close(ctx.download(recv, size, want.dtype), want, f"allreduce dt={dt} op={op} size={size}")
                ctx.free_all()
    for dt in MOVABLE:
        seed += 1
        size = 3001
        inputs = make_inputs(dt, 0, n, size, seed)
        buf = ctx.upload(inputs[hrank])
        run("broadcast", lambda: hccl.broadcast(buf, size, dt, n - 1, c, s))
        assert_close(ctx.download(buf, size, inputs[0].dtype), inputs[n - 1], f"broadcast dt={dt}")
        send = ctx.upload(inputs[hrank])
        recv = ctx.alloc(inputs[0].nbytes * n)
        run("all_gather", lambda: hccl.all_gather(send, recv, size, dt, c, s))
        assert_close(ctx.download(recv, size * n, inputs[0].dtype), np.concatenate(inputs), f"allgather dt={dt}")
        ctx.free_all()
    for dt, op in [(4, 0), (3, 2), (11, 0), (2, 1), (10, 3)]:
        seed += 1
        size = 777
        inputs = make_inputs(dt, op, n, size * n, seed)
        want = reduce_ref(inputs, op)
        send = ctx.upload(inputs[hrank])
        recv = ctx.alloc(want.nbytes)
        run("reduce_scatter", lambda: hccl.reduce_scatter(send, recv, size, dt, op, c, s))
        assert_close(ctx.download(recv, size, want.dtype), want[hrank * size:(hrank + 1) * size], "reduce_scatter")
        root = seed % n
        run("reduce", lambda: hccl.reduce(send, recv, size * n, dt, op, root, c, s))
        if hrank == root:
            assert_close(ctx.download(recv, size * n, want.dtype), want, "reduce")
        ctx.free_all()
    # scatter, alltoall, send/recv, barrier
    data = np.arange(100 * n, dtype=np.float32)
    send = ctx.upload(data)
    recv = ctx.alloc(data.nbytes)
    run("scatter", lambda: hccl.scatter(send, recv, 100, 4, 0, c, s))
    assert_close(ctx.download(recv, 100, np.float32), data[hrank * 100:(hrank + 1) * 100], "scatter")
    mine = np.arange(10 * n, dtype=np.int64) + 1000 * hrank
    send = ctx.upload(mine)
    recv = ctx.alloc(mine.nbytes)
    run("alltoall", lambda: hccl.alltoall(send, 10, 5, recv, 10, 5, c, s))
    want = np.concatenate([np.arange(10 * n, dtype=np.int64)[hrank * 10:(hrank + 1) * 10] + 1000 * j
                           for j in range(n)])
    assert_close(ctx.download(recv, 10 * n, np.int64), want, "alltoall")
    counts = [[(a + b) % 3 + 1 for b in range(n)] for a in range(n)]
    scounts = counts[hrank]
    rcounts = [counts[j][hrank] for j in range(n)]
    sd = [int(x) for x in np.cumsum([0] + scounts[:-1])]
    rd = [int(x) for x in np.cumsum([0] + rcounts[:-1])]
    payload = np.arange(sum(scounts), dtype=np.int32) + 100 * hrank
    send = ctx.upload(payload)
    recv = ctx.alloc(4 * sum(rcounts))
    run("alltoallv", lambda: hccl.alltoallv(send, scounts, sd, 2, recv, rcounts, rd, 2, c, s))
    got = ctx.download(recv, sum(rcounts), np.int32)
    for j in range(n):
        off = int(np.cumsum([0] + counts[j][:-1])[hrank])
        np.testing.assert_array_equal(got[rd[j]:rd[j] + rcounts[j]], np.arange(off, off + counts[j][hrank]) + 100 * j)
    ctx.free_all()
    msg = np.full(5000, hrank, dtype=np.float64)
    send = ctx.upload(msg)
    recv = ctx.alloc(msg.nbytes)
    right, left = (hrank + 1) % n, (hrank - 1) % n
    if hrank % 2 == 0:
        check(hccl.send(send, 5000, 10, right, c, s))
        check(hccl.recv(recv, 5000, 10, left, c, s))
    else:
        check(hccl.recv(recv, 5000, 10, left, c, s))
        check(hccl.send(send, 5000, 10, right, c, s))
    run("barrier", lambda: hccl.barrier(c, s))
    assert (ctx.download(recv, 5000, np.float64) == left).all(), "send/recv"
    # A detectable mismatch fails on every rank with HCCL_E_PARA, and the communicator stays usable.
    buf = ctx.alloc(4096)
    check(hccl.all_reduce(buf, buf, 16 + (hrank == 0), 4, 0, c, s))
    assert ctx.sync() != 0, "mismatched counts were not detected"
    assert hccl.get_comm_async_error(c) == (hccl.HCCL_E_PARA, 0)
    run("all_reduce after mismatch", lambda: hccl.all_reduce(buf, buf, 16, 4, 0, c, s))
    ctx.free_all()
    # The last rank leaves (destroys its communicator); the others' next collective, which it never
    # issued, fails at once with HCCL_E_REMOTE (a leave notice), not after HCCL_EXEC_TIMEOUT.
    if hrank == n - 1:
        check(hccl.comm_destroy(c), "comm_destroy")
    else:
        buf = ctx.alloc(64)
        check(hccl.all_reduce(buf, buf, 16, 4, 0, c, s))
        # 507899 (failed), not 507046 (timed out); the async error still reports the earlier mismatch.
        assert ctx.sync() == 507899, "the collective the leaver never issued did not fail at once"
        assert "HCCL_E_REMOTE" in acl.get_recent_err_msg()
        ctx.free_all()
        check(hccl.comm_destroy(c), "comm_destroy")
    ctx.close()
    print(f"RANK {hrank} OK", flush=True)


if __name__ == "__main__":
    main()
