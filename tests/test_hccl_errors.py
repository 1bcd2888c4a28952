"""HCCL failure behaviour: argument errors (synchronous HcclResult codes), cross-rank
mismatches (HCCL_E_PARA, asynchronous), timeouts (HCCL_E_TIMEOUT, never a hang),
and the other ways to build a communicator (root info from threads, rank table)."""
from __future__ import annotations

import json
import os
import threading
import time

import numpy as np
import pytest

from hccl_ranks import RankPool, check

STREAM_SYNC_TIMEOUT = 507046  # what a stream holding a timed-out collective reports


@pytest.fixture(scope="module")
def hccl(acl):
    from acl_sim import hccl as module
    return module


@pytest.fixture
def exec_timeout(monkeypatch):
    """HCCL_EXEC_TIMEOUT is read when a communicator is created: keep it short for these tests."""
    monkeypatch.setenv("HCCL_EXEC_TIMEOUT", "1")
    monkeypatch.setenv("HCCL_CONNECT_TIMEOUT", "1")


def make_pool(acl, hccl, n):
    comms, ret = hccl.comm_init_all(n, list(range(n)))
    check(ret, "comm_init_all")
    p = RankPool(acl, comms, list(range(n)), timeout=60)
    p.comms = comms
    return p


def destroy(hccl, pool):
    pool.close()
    for c in pool.comms:
        assert hccl.comm_destroy(c) == 0


def test_constants_and_strings(hccl):
    assert (hccl.HCCL_DATA_TYPE_FP32, hccl.HCCL_DATA_TYPE_BFP16, hccl.HCCL_DATA_TYPE_FP8E8M0) == (4, 11, 17)
    assert (hccl.HCCL_REDUCE_SUM, hccl.HCCL_REDUCE_MIN) == (0, 3)
    assert (hccl.HCCL_E_PARA, hccl.HCCL_E_TIMEOUT, hccl.HCCL_E_OOM) == (1, 9, 24)
    assert hccl.get_error_string(hccl.HCCL_E_TIMEOUT) == "timeout"
    info, ret = hccl.get_root_info()
    assert ret == 0 and isinstance(info, bytes) and len(info) == 4108


def test_argument_errors(acl, hccl):
    pool = make_pool(acl, hccl, 2)
    try:
        def body(ctx):
            c, s = ctx.comm, ctx.stream
            buf = ctx.alloc(64)
            assert hccl.all_reduce(buf, buf, 16, 4, 0, 0, s) == hccl.HCCL_E_PTR          # NULL comm
            assert hccl.all_reduce(buf, buf, 16, 4, 0, 12345678, s) == hccl.HCCL_E_PARA  # unknown comm
            assert hccl.all_reduce(buf, buf, 16, 99, 0, c, s) == hccl.HCCL_E_PARA        # bad dtype
            assert hccl.all_reduce(buf, buf, 16, 4, 9, c, s) == hccl.HCCL_E_PARA         # bad op
            assert hccl.all_reduce(buf, buf, 16, 15, 0, c, s) == hccl.HCCL_E_NOT_SUPPORT  # fp8 cannot reduce
            assert hccl.all_reduce(0, buf, 16, 4, 0, c, s) == hccl.HCCL_E_PTR
            assert hccl.all_reduce(buf, buf, 64, 4, 0, c, s) == hccl.HCCL_E_PARA         # 256 bytes > buffer
            host = np.zeros(16, np.float32)
            assert hccl.all_reduce(host.ctypes.data, buf, 16, 4, 0, c, s) == hccl.HCCL_E_PARA  # host memory
            assert hccl.broadcast(buf, 16, 4, 2, c, s) == hccl.HCCL_E_PARA               # root out of range
            assert hccl.send(buf, 16, 4, ctx.rank, c, s) == hccl.HCCL_E_PARA             # send to self
            assert hccl.recv(buf, 16, 4, 5, c, s) == hccl.HCCL_E_PARA
            assert hccl.all_gather(buf, buf, 16, 4, c, s) == hccl.HCCL_E_PARA             # recv too small for 2x
            assert hccl.alltoall(buf, 4, 4, buf, 4, 2, c, s) == hccl.HCCL_E_PARA          # type mismatch
            assert hccl.alltoallv(buf, [1], [0], 4, buf, [1], [0], 4, c, s) == hccl.HCCL_E_PARA  # 1 entry, 2 ranks
            assert hccl.all_reduce(buf, buf, 16, 4, 0, c, 987654321) == hccl.HCCL_E_PARA  # bad stream
            assert "HcclAllReduce" in (acl.get_recent_err_msg() or "")
            n, ret = hccl.get_rank_size(c)
            assert (n, ret) == (2, 0)
            r, ret = hccl.get_rank_id(c)
            assert (r, ret) == (ctx.rank, 0)
            err, ret = hccl.get_comm_async_error(c)
            assert (err, ret) == (0, 0)
            check(ctx.sync(), "synchronize")  # nothing was queued by the failed calls

        pool.run(body)
    finally:
        destroy(hccl, pool)
    assert hccl.comm_destroy(pool.comms[0]) == hccl.HCCL_E_PARA  # already destroyed
    assert hccl.comm_destroy(0) == hccl.HCCL_E_PTR
    assert hccl.get_rank_size(pool.comms[0])[1] == hccl.HCCL_E_PARA
    assert hccl.comm_init_all(2, [0, 0])[1] == hccl.HCCL_E_PARA      # one rank per device
    assert hccl.comm_init_all(0, [])[1] == hccl.HCCL_E_PARA
    assert hccl.comm_init_all(1, [4096])[1] == hccl.HCCL_E_PARA      # no such device
    assert hccl.comm_init_root_info(2, b"x" * 4108, 0)[1] == hccl.HCCL_E_PARA  # not a root info
    assert hccl.comm_init_root_info(2, b"short", 0)[1] == hccl.HCCL_E_PARA
    info, _ = hccl.get_root_info()
    assert hccl.comm_init_root_info(2, info, 2)[1] == hccl.HCCL_E_PARA  # rank out of range


def test_count_and_dtype_mismatch_is_para(acl, hccl):
    pool = make_pool(acl, hccl, 2)
    try:
        def body(ctx):
            buf = ctx.alloc(1024)
            count = 16 if ctx.rank == 0 else 17
            check(hccl.all_reduce(buf, buf, count, 4, 0, ctx.comm, ctx.stream), "enqueue")
            assert ctx.sync() != 0
            assert hccl.get_comm_async_error(ctx.comm) == (hccl.HCCL_E_PARA, 0)
            # A validated mismatch leaves the communicator usable.
            check(hccl.all_reduce(buf, buf, 16, 4, 0, ctx.comm, ctx.stream), "enqueue")
            check(ctx.sync(), "synchronize after mismatch")
            dt = 4 if ctx.rank == 0 else 2
            check(hccl.broadcast(buf, 8, dt, 0, ctx.comm, ctx.stream), "enqueue")
            assert ctx.sync() != 0
            # send/recv count mismatch fails on both sides
            if ctx.rank == 0:
                check(hccl.send(buf, 8, 4, 1, ctx.comm, ctx.stream), "send")
            else:
                check(hccl.recv(buf, 9, 4, 0, ctx.comm, ctx.stream), "recv")
            assert ctx.sync() != 0

        pool.run(body)
    finally:
        destroy(hccl, pool)


def test_missing_rank_times_out(acl, hccl, exec_timeout):
    """Rank 1 never calls the collective: rank 0 fails with HCCL_E_TIMEOUT after HCCL_EXEC_TIMEOUT."""
    pool = make_pool(acl, hccl, 2)
    try:
        def body(ctx):
            if ctx.rank == 1:
                return
            buf = ctx.alloc(64)
            t0 = time.monotonic()
            check(hccl.all_reduce(buf, buf, 16, 4, 0, ctx.comm, ctx.stream), "enqueue")
            assert ctx.sync() == STREAM_SYNC_TIMEOUT
            elapsed = time.monotonic() - t0
            assert 0.9 <= elapsed < 20, elapsed
            assert hccl.get_comm_async_error(ctx.comm) == (hccl.HCCL_E_TIMEOUT, 0)
            # The communicator is now broken: later collectives fail at once with the same code.
            assert hccl.all_reduce(buf, buf, 16, 4, 0, ctx.comm, ctx.stream) == hccl.HCCL_E_TIMEOUT

        pool.run(body)

        def late(ctx):  # the late rank joins the broken group and fails instead of hanging
            if ctx.rank == 1:
                buf = ctx.alloc(64)
                check(hccl.all_reduce(buf, buf, 16, 4, 0, ctx.comm, ctx.stream), "enqueue")
                assert ctx.sync() != 0

        pool.run(late)
    finally:
        destroy(hccl, pool)


def test_destroyed_peer_fails_at_once(acl, hccl, monkeypatch):
    """Rank 1 destroys its communicator: rank 0's next collective, which rank 1 never issued, fails at
    once with HCCL_E_REMOTE (HCCL_EXEC_TIMEOUT is 10 minutes here; RankPool gives up after 60 s)."""
    monkeypatch.setenv("HCCL_EXEC_TIMEOUT", "600")
    pool = make_pool(acl, hccl, 2)
    try:
        def body(ctx):
            buf = ctx.alloc(64)
            check(hccl.all_reduce(buf, buf, 16, 4, 0, ctx.comm, ctx.stream), "enqueue")
            check(ctx.sync(), "the collective both ranks issued")
            if ctx.rank == 1:
                check(hccl.comm_destroy(ctx.comm), "comm_destroy")
                return
            check(hccl.all_reduce(buf, buf, 16, 4, 0, ctx.comm, ctx.stream), "enqueue")
            assert ctx.sync() == 507899  # ACL_ERROR_RT_DRV_INTERNAL_ERROR: failed, not timed out
            assert hccl.get_comm_async_error(ctx.comm) == (hccl.HCCL_E_REMOTE, 0)

        pool.run(body)
    finally:
        pool.close()
        assert hccl.comm_destroy(pool.comms[0]) == 0


def test_recv_without_send_times_out(acl, hccl, exec_timeout):
    pool = make_pool(acl, hccl, 2)
    try:
        def body(ctx):
            if ctx.rank == 0:
                buf = ctx.alloc(64)
                check(hccl.recv(buf, 16, 4, 1, ctx.comm, ctx.stream), "recv")
                assert ctx.sync() == STREAM_SYNC_TIMEOUT
                assert hccl.get_comm_async_error(ctx.comm)[0] == hccl.HCCL_E_TIMEOUT

        pool.run(body)
    finally:
        destroy(hccl, pool)


def test_root_info_connect_timeout(acl, hccl, exec_timeout):
    """Only 1 of 2 ranks joins: HcclCommInitRootInfo returns HCCL_E_TIMEOUT after HCCL_CONNECT_TIMEOUT."""
    check(acl.rt.set_device(0), "set_device")
    info, ret = hccl.get_root_info()
    check(ret)
    t0 = time.monotonic()
    comm, ret = hccl.comm_init_root_info(2, info, 0)
    assert ret == hccl.HCCL_E_TIMEOUT and comm == 0
    assert 0.9 <= time.monotonic() - t0 < 20
    assert "join" in (acl.get_recent_err_msg() or "")


def _init_from_threads(acl, n, init):
    """Run init(rank) on n threads (each with its device set); returns the comms in rank order."""
    comms, errors = [None] * n, []

    def worker(r):
        try:
            check(acl.rt.set_device(r), "set_device")
            comm, ret = init(r)
            check(ret, f"init rank {r}")
            comms[r] = comm
        except BaseException as e:  # noqa: BLE001
            errors.append(f"rank {r}: {e}")

    threads = [threading.Thread(target=worker, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return comms


def _allreduce_check(acl, hccl, comms):
    n = len(comms)
    pool = RankPool(acl, comms, list(range(n)))
    try:
        def body(ctx):
            buf = ctx.upload(np.full(33, ctx.rank + 1, np.int32))
            check(hccl.all_reduce(buf, buf, 33, 2, 0, ctx.comm, ctx.stream), "all_reduce")
            check(ctx.sync(), "synchronize")
            assert (ctx.download(buf, 33, np.int32) == n * (n + 1) // 2).all()
            assert hccl.get_rank_id(ctx.comm) == (ctx.rank, 0)

        pool.run(body)
    finally:
        pool.close()
        for c in comms:
            assert hccl.comm_destroy(c) == 0


def test_root_info_from_threads(acl, hccl):
    info, ret = hccl.get_root_info()
    check(ret)
    comms = _init_from_threads(acl, 3, lambda r: hccl.comm_init_root_info(3, info, r))
    _allreduce_check(acl, hccl, comms)


def test_cluster_info_rank_table(acl, hccl, tmp_path):
    table = {"status": "completed", "version": "1.0", "server_count": "1", "server_list": [
        {"server_id": "127.0.0.1", "device": [
            {"device_id": str(d), "device_ip": f"192.168.100.{d}", "rank_id": str(d)} for d in range(4)]}]}
    path = tmp_path / "rank_table.json"
    path.write_text(json.dumps(table))
    comms = _init_from_threads(acl, 4, lambda r: hccl.comm_init_cluster_info(str(path), r))
    _allreduce_check(acl, hccl, comms)
    assert hccl.comm_init_cluster_info(str(path), 9)[1] == hccl.HCCL_E_PARA
    assert hccl.comm_init_cluster_info(str(tmp_path / "missing.json"), 0)[1] == hccl.HCCL_E_OPEN_FILE_FAILURE
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert hccl.comm_init_cluster_info(str(bad), 0)[1] == hccl.HCCL_E_PARA
