"""HCCL collectives over thread ranks (HcclCommInitAll), checked against NumPy.

Matrix: every collective x every data type it supports x every reduce op x rank
counts 1, 2, 3, 8 x sizes (1 element, odd counts on the staged small-message
path and on the direct/ring large-message path), plus a 64 MiB AllReduce over
8 ranks. Ranks are persistent threads (tests/hccl_ranks.py); a failing rank
fails the test with its own message.
"""
from __future__ import annotations

import numpy as np
import pytest

from hccl_ranks import (MOVABLE, NP_DTYPES, REDUCIBLE, RankPool, assert_close, check, make_inputs,
                        reduce_ref)

RANK_COUNTS = [1, 2, 3, 8]
OPS = [0, 1, 2, 3]
# 1 element; odd counts run on one thread; odd counts large enough to be split into pieces on the executor pool.
SIZES = [1, 1001, 70001]


@pytest.fixture(scope="module")
def hccl(acl):
    from acl_sim import hccl as module
    return module


@pytest.fixture(scope="module")
def pools(acl, hccl):
    """get(n): a RankPool of n thread ranks over HcclCommInitAll(n, [0..n-1]), made once per module."""
    made = {}

    def get(n):
        if n not in made:
            devices = list(range(n))
            comms, ret = hccl.comm_init_all(n, devices)
            check(ret, "comm_init_all")
            p = RankPool(acl, comms, devices)
            p.hccl, p.comms = hccl, comms
            made[n] = p
        return made[n]

    yield get
    for p in made.values():
        p.close()
        for c in p.comms:
            assert hccl.comm_destroy(c) == 0


@pytest.fixture(params=RANK_COUNTS, ids=lambda n: f"{n}ranks")
def pool(request, pools):
    return pools(request.param)


def cases(dtypes, ops, sizes):
    return [(dt, op, size, i) for i, (dt, op, size) in
            enumerate((dt, op, size) for dt in dtypes for op in ops for size in sizes)]


def test_all_reduce(pool):
    hccl, n = pool.hccl, pool.n
    for dt, op, size, seed in cases(REDUCIBLE, OPS, SIZES):
        inputs = make_inputs(dt, op, n, size, seed)
        want = reduce_ref(inputs, op)
        in_place = seed % 2 == 1

        def body(ctx):
            send = ctx.upload(inputs[ctx.rank])
            recv = send if in_place else ctx.alloc(want.nbytes)
            check(hccl.all_reduce(send, recv, size, dt, op, ctx.comm, ctx.stream), "all_reduce")
            check(ctx.sync(), "synchronize")
            assert_close(ctx.download(recv, size, want.dtype), want, f"allreduce dt={dt} op={op} size={size}")

        pool.run(body)


def test_broadcast(pool):
    hccl, n = pool.hccl, pool.n
    for dt, root, size, seed in cases(MOVABLE, sorted({0, n - 1}), SIZES):
        inputs = make_inputs(dt, 0, n, size, seed)

        def body(ctx):
            buf = ctx.upload(inputs[ctx.rank])
            check(hccl.broadcast(buf, size, dt, root, ctx.comm, ctx.stream), "broadcast")
            check(ctx.sync(), "synchronize")
            assert_close(ctx.download(buf, size, inputs[0].dtype), inputs[root], f"broadcast dt={dt} root={root}")

        pool.run(body)


def test_all_gather(pool):
    hccl, n = pool.hccl, pool.n
    for dt, _, size, seed in cases(MOVABLE, [0], [1, 1001, 9001]):
        inputs = make_inputs(dt, 0, n, size, seed)
        want = np.concatenate(inputs)

        def body(ctx):
            send = ctx.upload(inputs[ctx.rank])
            recv = ctx.alloc(want.nbytes)
            check(hccl.all_gather(send, recv, size, dt, ctx.comm, ctx.stream), "all_gather")
            check(ctx.sync(), "synchronize")
            assert_close(ctx.download(recv, size * n, want.dtype), want, f"allgather dt={dt} size={size}")

        pool.run(body)


def test_reduce_scatter(pool):
    hccl, n = pool.hccl, pool.n
    for dt, op, size, seed in cases(REDUCIBLE, OPS, [1, 333, 5001]):
        inputs = make_inputs(dt, op, n, size * n, seed)
        want = reduce_ref(inputs, op)

        def body(ctx):
            send = ctx.upload(inputs[ctx.rank])
            recv = ctx.alloc(size * want.itemsize)
            check(hccl.reduce_scatter(send, recv, size, dt, op, ctx.comm, ctx.stream), "reduce_scatter")
            check(ctx.sync(), "synchronize")
            assert_close(ctx.download(recv, size, want.dtype), want[ctx.rank * size:(ctx.rank + 1) * size],
                         f"reduce_scatter dt={dt} op={op} size={size}")

        pool.run(body)


def test_reduce(pool):
    hccl, n = pool.hccl, pool.n
    for dt, op, size, seed in cases(REDUCIBLE, OPS, [1, 20001]):
        root = seed % n
        inputs = make_inputs(dt, op, n, size, seed)
        want = reduce_ref(inputs, op)

        def body(ctx):
            send = ctx.upload(inputs[ctx.rank])
            recv = ctx.alloc(want.nbytes) if ctx.rank == root else 0  # recv only matters at the root
            check(hccl.reduce(send, recv, size, dt, op, root, ctx.comm, ctx.stream), "reduce")
            check(ctx.sync(), "synchronize")
            if ctx.rank == root:
                assert_close(ctx.download(recv, size, want.dtype), want, f"reduce dt={dt} op={op} root={root}")

        pool.run(body)


def test_scatter(pool):
    hccl, n = pool.hccl, pool.n
    for dt, root, size, seed in cases([0, 3, 4, 10, 11, 15], sorted({0, n - 1}), [1, 777]):
        data = make_inputs(dt, 0, 1, size * n, seed)[0]

        def body(ctx):
            send = ctx.upload(data) if ctx.rank == root else 0
            recv = ctx.alloc(size * data.itemsize)
            check(hccl.scatter(send, recv, size, dt, root, ctx.comm, ctx.stream), "scatter")
            check(ctx.sync(), "synchronize")
            assert_close(ctx.download(recv, size, data.dtype), data[ctx.rank * size:(ctx.rank + 1) * size], "scatter")

        pool.run(body)


def test_alltoall_and_alltoallv(pool):
    hccl, n = pool.hccl, pool.n
    for dt, _, size, seed in cases([0, 3, 4, 5, 11, 16], [0], [1, 513]):
        inputs = make_inputs(dt, 0, n, size * n, seed)
        # Rank r's output block j is rank j's input block r.
        want = [np.concatenate([inputs[j][r * size:(r + 1) * size] for j in range(n)]) for r in range(n)]

        def body(ctx):
            send = ctx.upload(inputs[ctx.rank])
            recv = ctx.alloc(inputs[0].nbytes)
            check(hccl.alltoall(send, size, dt, recv, size, dt, ctx.comm, ctx.stream), "alltoall")
            check(ctx.sync(), "synchronize")
            assert_close(ctx.download(recv, size * n, inputs[0].dtype), want[ctx.rank], f"alltoall dt={dt}")

        pool.run(body)

    # AlltoAllV with uneven counts: rank s sends (s + d) % 3 + d elements to rank d, packed in order.
    counts = [[(s + d) % 3 + d for d in range(n)] for s in range(n)]
    payload = [np.arange(sum(counts[s]), dtype=np.int32) + 1000 * s for s in range(n)]

    def body_v(ctx):
        r = ctx.rank
        scounts = counts[r]
        sdispls = list(np.cumsum([0] + scounts[:-1]))
        rcounts = [counts[s][r] for s in range(n)]
        rdispls = list(np.cumsum([0] + rcounts[:-1]) + 2)  # a gap of 2 elements at the front
        send = ctx.upload(payload[r])
        total = int(sum(rcounts)) + 2
        recv = ctx.upload(np.full(total, -1, np.int32))
        check(hccl.alltoallv(send, scounts, [int(x) for x in sdispls], 2, recv, rcounts, [int(x) for x in rdispls],
                             2, ctx.comm, ctx.stream), "alltoallv")
        check(ctx.sync(), "synchronize")
        got = ctx.download(recv, total, np.int32)
        assert list(got[:2]) == [-1, -1]
        for s in range(n):
            off = int(np.cumsum([0] + counts[s][:-1])[r])
            expect = payload[s][off:off + counts[s][r]]
            np.testing.assert_array_equal(got[rdispls[s]:rdispls[s] + rcounts[s]], expect)

    pool.run(body_v)


def test_send_recv_and_barrier(pool):
    hccl, n = pool.hccl, pool.n
    size = 4099
    inputs = make_inputs(4, 0, n, size, 7)

    def body(ctx):
        r = ctx.rank
        right, left = (r + 1) % n, (r - 1) % n
        send = ctx.upload(inputs[r])
        recv = ctx.alloc(inputs[0].nbytes)
        # Even ranks send first, odd ranks receive first: a ring without deadlock (rendezvous semantics).
        ops = [lambda: hccl.send(send, size, 4, right, ctx.comm, ctx.stream),
               lambda: hccl.recv(recv, size, 4, left, ctx.comm, ctx.stream)]
        for f in (ops if r % 2 == 0 else ops[::-1]):
            check(f(), "send/recv")
        check(hccl.barrier(ctx.comm, ctx.stream), "barrier")
        check(ctx.sync(), "synchronize")
        assert_close(ctx.download(recv, size, np.float32), inputs[left], "send/recv")

    if n % 2 == 1:
        # An odd ring would deadlock the first step with rendezvous send; use a line instead.
        def body(ctx):  # noqa: F811
            r = ctx.rank
            send = ctx.upload(inputs[r])
            recv = ctx.alloc(inputs[0].nbytes)
            if r > 0:
                check(hccl.recv(recv, size, 4, r - 1, ctx.comm, ctx.stream), "recv")
            if r < n - 1:
                check(hccl.send(send, size, 4, r + 1, ctx.comm, ctx.stream), "send")
            check(hccl.barrier(ctx.comm, ctx.stream), "barrier")
            check(ctx.sync(), "synchronize")
            if r > 0:
                assert_close(ctx.download(recv, size, np.float32), inputs[r - 1], "send/recv")

    pool.run(body)


@pytest.mark.parametrize("n", [3, 8])
def test_all_reduce_64mib(pools, n):
    """64 MiB fp32 AllReduce (SUM, in place): the ring path at full size, uneven (3) and 8 ranks."""
    pool = pools(n)
    hccl = pool.hccl
    count = (64 << 20) // 4
    base = np.arange(count, dtype=np.float32) % 1024

    def body(ctx):
        buf = ctx.upload(base + ctx.rank)
        check(hccl.all_reduce(buf, buf, count, 4, 0, ctx.comm, ctx.stream), "all_reduce")
        check(ctx.sync(), "synchronize")
        got = ctx.download(buf, count, np.float32)
        want = base * n + n * (n - 1) / 2
        assert np.array_equal(got, want), f"64 MiB allreduce differs at {np.flatnonzero(got != want)[:5]}"

    pool.run(body)


def test_int128_all_reduce(pool):
    """INT128 has no NumPy type: values go as (lo, hi) uint64 pairs and are checked with Python ints."""
    hccl, n = pool.hccl, pool.n
    mask = (1 << 128) - 1
    vals = [[(r + 1) * (1 << 70) + 12345 * i - (1 << 127) * (i % 2) for i in range(5)] for r in range(n)]

    def pack(xs):
        return np.array([[x & ((1 << 64) - 1), (x & mask) >> 64] for x in xs], dtype=np.uint64).reshape(-1)

    def signed(u):
        return u - (1 << 128) if u >> 127 else u

    for op, fn in [(0, lambda a, b: a + b), (1, lambda a, b: a * b), (2, max), (3, min)]:
        want = []
        for i in range(5):
            acc = vals[0][i]
            for r in range(1, n):
                acc = signed((fn(acc, vals[r][i])) & mask) if op < 2 else fn(acc, vals[r][i])
            want.append(acc & mask)

        def body(ctx):
            buf = ctx.upload(pack(vals[ctx.rank]))
            check(hccl.all_reduce(buf, buf, 5, 12, op, ctx.comm, ctx.stream), "all_reduce int128")
            check(ctx.sync(), "synchronize")
            got = ctx.download(buf, 10, np.uint64).reshape(5, 2)
            assert [int(lo) | (int(hi) << 64) for lo, hi in got] == want, f"int128 op={op}"

        pool.run(body)
