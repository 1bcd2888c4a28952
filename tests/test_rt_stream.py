"""Streams: ordering, default stream, query, timeouts, priorities, many streams, waits."""
import os
import threading
import time

import numpy as np

import acl_sim.constants as C

H2D, D2H, D2D = 1, 2, 3


def os_threads():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("Threads"))


class BlockedStream:
    """Holds a stream parked on a blocking callback until release() (no thread is held)."""

    def __init__(self, acl, stream):
        self.acl, self.stream = acl, stream
        self.tid = threading.get_ident()
        assert acl.rt.subscribe_report(self.tid, stream) == 0
        assert acl.rt.launch_callback(lambda _: None, None, C.ACL_CALLBACK_BLOCK, stream) == 0

    def release(self):
        assert self.acl.rt.process_report(5000) == 0
        assert self.acl.rt.unsubscribe_report(self.tid, self.stream) == 0


def test_tasks_run_in_order(acl, device):
    s, ret = acl.rt.create_stream()
    assert ret == 0 and s != 0
    n = 1 << 16
    d, _ = acl.rt.malloc(n, 0)
    out = np.zeros(n, dtype=np.uint8)
    for v in range(1, 60):
        assert acl.rt.memset_async(d, n, v, n, s) == 0
    assert acl.rt.memcpy_async(out.ctypes.data, n, d, n, D2H, s) == 0
    assert acl.rt.synchronize_stream(s) == 0
    assert (out == 59).all()
    assert acl.rt.destroy_stream(s) == 0
    acl.rt.free(d)


def test_create_destroy_errors(acl, device):
    assert acl.rt.destroy_stream(0) == C.ACL_ERROR_INVALID_PARAM      # the default stream
    s, _ = acl.rt.create_stream()
    assert acl.rt.destroy_stream(s) == 0
    assert acl.rt.destroy_stream(s) == C.ACL_ERROR_RT_PARAM_INVALID   # destroyed
    assert acl.rt.synchronize_stream(s) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.stream_query(s)[1] == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.synchronize_stream(0x7777000) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.create_stream_with_config(0, 0x80)[1] == C.ACL_ERROR_INVALID_PARAM


def test_stream_query_and_sync_timeout(acl, device):
    s, _ = acl.rt.create_stream()
    assert acl.rt.stream_query(s) == (C.ACL_STREAM_STATUS_COMPLETE, 0)
    blocked = BlockedStream(acl, s)
    assert acl.rt.stream_query(s) == (C.ACL_STREAM_STATUS_NOT_READY, 0)
    t0 = time.monotonic()
    assert acl.rt.synchronize_stream_with_timeout(s, 50) == C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
    assert time.monotonic() - t0 >= 0.045
    assert acl.rt.synchronize_stream_with_timeout(s, 0) == C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
    assert acl.rt.synchronize_stream_with_timeout(s, -2) == C.ACL_ERROR_INVALID_PARAM
    blocked.release()
    assert acl.rt.synchronize_stream_with_timeout(s, -1) == 0
    assert acl.rt.stream_query(s) == (C.ACL_STREAM_STATUS_COMPLETE, 0)
    acl.rt.destroy_stream(s)


def test_priorities(acl, device):
    s0, ret = acl.rt.create_stream_with_config(0, C.ACL_STREAM_FAST_LAUNCH)
    s7, ret7 = acl.rt.create_stream_with_config(7, C.ACL_STREAM_FAST_SYNC)
    s99, ret99 = acl.rt.create_stream_with_config(99, 0)       # clamped
    assert ret == ret7 == ret99 == 0
    d, _ = acl.rt.malloc(64, 0)
    for s in (s0, s7, s99):
        assert acl.rt.memset_async(d, 64, 1, 64, s) == 0
        assert acl.rt.synchronize_stream(s) == 0
        assert acl.rt.destroy_stream(s) == 0
    acl.rt.free(d)


def test_thousand_streams_without_a_thread_each(acl, device):
    before = os_threads()
    streams = []
    for _ in range(1000):
        s, ret = acl.rt.create_stream()
        assert ret == 0
        streams.append(s)
    d, _ = acl.rt.malloc(1000 * 64, 0)
    for i, s in enumerate(streams):
        assert acl.rt.memset_async(d + i * 64, 64, i % 251, 64, s) == 0
    for s in streams:
        assert acl.rt.synchronize_stream(s) == 0
    assert os_threads() - before < 40
    out = np.zeros(1000 * 64, dtype=np.uint8)
    acl.rt.memcpy(out.ctypes.data, out.nbytes, d, out.nbytes, D2H)
    assert all(out[i * 64] == i % 251 for i in range(1000))
    for s in streams:
        assert acl.rt.destroy_stream(s) == 0
    acl.rt.free(d)


def test_stream_wait_event_orders_across_streams(acl, device):
    producer, _ = acl.rt.create_stream()
    consumer, _ = acl.rt.create_stream()
    ev, _ = acl.rt.create_event()
    n = 1 << 20
    src, _ = acl.rt.malloc(n, 0)
    dst, _ = acl.rt.malloc(n, 0)
    acl.rt.memset(src, n, 0, n)
    blocked = BlockedStream(acl, producer)            # producer cannot progress yet
    assert acl.rt.memset_async(src, n, 9, n, producer) == 0
    assert acl.rt.record_event(ev, producer) == 0
    assert acl.rt.stream_wait_event(consumer, ev) == 0
    assert acl.rt.memcpy_async(dst, n, src, n, D2D, consumer) == 0
    time.sleep(0.05)
    assert acl.rt.stream_query(consumer) == (C.ACL_STREAM_STATUS_NOT_READY, 0)   # parked on the event
    blocked.release()
    assert acl.rt.synchronize_stream(consumer) == 0
    out = np.zeros(n, dtype=np.uint8)
    acl.rt.memcpy(out.ctypes.data, n, dst, n, D2H)
    assert (out == 9).all()
    # waiting on a never-recorded event is a no-op
    ev2, _ = acl.rt.create_event()
    assert acl.rt.stream_wait_event(consumer, ev2) == 0
    assert acl.rt.synchronize_stream(consumer) == 0
    assert acl.rt.stream_wait_event(consumer, 0) == C.ACL_ERROR_INVALID_PARAM
    for e in (ev, ev2):
        acl.rt.destroy_event(e)
    assert acl.rt.stream_wait_event(consumer, ev) == C.ACL_ERROR_RT_PARAM_INVALID
    for s in (producer, consumer):
        acl.rt.destroy_stream(s)
    acl.rt.free(src); acl.rt.free(dst)


def test_destroy_stream_waits_for_queued_work(acl, device):
    s, _ = acl.rt.create_stream()
    n = 8 << 20
    d, _ = acl.rt.malloc(n, 0)
    out = np.zeros(n, dtype=np.uint8)
    for v in range(1, 5):
        acl.rt.memset_async(d, n, v, n, s)
    acl.rt.memcpy_async(out.ctypes.data, n, d, n, D2H, s)
    assert acl.rt.destroy_stream(s) == 0
    assert out[0] == 4 and out[-1] == 4
    acl.rt.free(d)
