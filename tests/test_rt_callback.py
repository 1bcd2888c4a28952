"""Host callbacks: subscribe/process/launch, block vs no-block, timeouts, errors."""
import threading
import time

import numpy as np
import pytest

import acl_sim.constants as C


class ReportThread:
    """The pyACL callback pattern: a util.start_thread thread looping process_report."""

    def __init__(self, acl, ctx, timeout_ms=20):
        self.acl, self.run = acl, True
        self.codes = []
        self.tid, ret = acl.util.start_thread(self._loop, [ctx, timeout_ms])
        assert ret == 0

    def _loop(self, args):
        ctx, timeout = args
        self.acl.rt.set_context(ctx)
        while self.run:
            self.codes.append(self.acl.rt.process_report(timeout))

    def stop(self):
        self.run = False
        assert self.acl.util.stop_thread(self.tid) == 0


def test_callback_runs_in_order_on_subscribed_thread(acl, device):
    ctx, _ = acl.rt.get_context()
    s, _ = acl.rt.create_stream()
    rep = ReportThread(acl, ctx)
    assert acl.rt.subscribe_report(rep.tid, s) == 0
    n = 4096
    d, _ = acl.rt.malloc(n, 0)
    host = np.zeros(n, dtype=np.uint8)
    seen = []

    def cb(user_data):
        seen.append((user_data, threading.get_ident(), int(host[0])))

    for i in range(5):
        acl.rt.memset_async(d, n, i + 1, n, s)
        acl.rt.memcpy_async(host.ctypes.data, n, d, n, 2, s)
        assert acl.rt.launch_callback(cb, {"step": i}, C.ACL_CALLBACK_BLOCK, s) == 0
    assert acl.rt.synchronize_stream(s) == 0
    # fn(user_data) on the report thread, after the copies queued before it
    assert seen == [({"step": i}, rep.tid, i + 1) for i in range(5)]
    assert acl.rt.unsubscribe_report(rep.tid, s) == 0
    rep.stop()
    assert rep.codes.count(0) == 5
    acl.rt.destroy_stream(s)
    acl.rt.free(d)


def test_block_and_no_block(acl, device):
    s, _ = acl.rt.create_stream()
    me = threading.get_ident()
    assert acl.rt.subscribe_report(me, s) == 0
    order = []
    acl.rt.launch_callback(lambda x: order.append(x), "noblock", C.ACL_CALLBACK_NO_BLOCK, s)
    # no-block: the stream does not wait for the callback to run
    assert acl.rt.synchronize_stream_with_timeout(s, 5000) == 0
    assert order == []
    assert acl.rt.process_report(1000) == 0
    assert order == ["noblock"]
    acl.rt.launch_callback(lambda x: order.append(x), "block", C.ACL_CALLBACK_BLOCK, s)
    # block: the stream waits until this thread has processed it
    assert acl.rt.synchronize_stream_with_timeout(s, 50) == C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
    assert acl.rt.process_report(1000) == 0
    assert acl.rt.synchronize_stream(s) == 0
    assert order == ["noblock", "block"]
    assert acl.rt.unsubscribe_report(me, s) == 0
    acl.rt.destroy_stream(s)


def test_process_report_timeout_and_errors(acl, device):
    s, _ = acl.rt.create_stream()
    me = threading.get_ident()
    # nothing subscribed by this thread
    assert acl.rt.process_report(10) == C.ACL_ERROR_RT_THREAD_SUBSCRIBE
    assert acl.rt.process_report(0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.process_report(-5) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.launch_callback(lambda x: None, None, 1, s) == C.ACL_ERROR_RT_STREAM_NO_CB_REG
    assert acl.rt.subscribe_report(me, s) == 0
    t0 = time.monotonic()
    assert acl.rt.process_report(30) == C.ACL_ERROR_WAIT_CALLBACK_TIMEOUT
    assert time.monotonic() - t0 >= 0.025
    assert acl.rt.subscribe_report(me, s) == C.ACL_ERROR_REPEAT_SUBSCRIBE
    assert acl.rt.launch_callback(lambda x: None, None, 2, s) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.unsubscribe_report(me + 1, s) == C.ACL_ERROR_STREAM_NOT_SUBSCRIBE
    assert acl.rt.unsubscribe_report(me, s) == 0
    assert acl.rt.unsubscribe_report(me, s) == C.ACL_ERROR_STREAM_NOT_SUBSCRIBE
    assert acl.rt.subscribe_report(me, 0x4440) == C.ACL_ERROR_RT_PARAM_INVALID
    with pytest.raises(TypeError):
        acl.rt.launch_callback(42, None, 1, s)
    acl.rt.destroy_stream(s)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_callback_exception_does_not_break_stream(acl, device):
    s, _ = acl.rt.create_stream()
    me = threading.get_ident()
    acl.rt.subscribe_report(me, s)

    def bad(_):
        raise RuntimeError("boom")

    acl.rt.launch_callback(bad, None, C.ACL_CALLBACK_BLOCK, s)
    assert acl.rt.process_report(1000) == 0
    assert acl.rt.synchronize_stream(s) == 0
    acl.rt.unsubscribe_report(me, s)
    acl.rt.destroy_stream(s)
