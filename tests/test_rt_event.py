"""Events: record/query (both numberings), synchronize, reset, elapsed time."""
import threading
import time

import acl_sim.constants as C

from test_rt_stream import BlockedStream


def test_record_query_both_enums(acl, device):
    s, _ = acl.rt.create_stream()
    e, ret = acl.rt.create_event()
    assert ret == 0
    # never recorded
    assert acl.rt.query_event_status(e) == (C.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)
    assert acl.rt.query_event(e) == (C.ACL_EVENT_STATUS_NOT_READY, 0)
    blocked = BlockedStream(acl, s)
    assert acl.rt.record_event(e, s) == 0
    assert acl.rt.query_event_status(e) == (0, 0)     # NOT_READY = 0 in the recorded enum
    assert acl.rt.query_event(e) == (1, 0)            # NOT_READY = 1 in the old enum
    blocked.release()
    assert acl.rt.synchronize_event(e) == 0
    assert acl.rt.query_event_status(e) == (1, 0)     # COMPLETE = 1
    assert acl.rt.query_event(e) == (0, 0)            # COMPLETE = 0
    # reset in stream order: back to not recorded
    assert acl.rt.reset_event(e, s) == 0
    assert acl.rt.synchronize_stream(s) == 0
    assert acl.rt.query_event_status(e) == (C.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)
    assert acl.rt.destroy_event(e) == 0
    acl.rt.destroy_stream(s)


def test_event_errors(acl, device):
    e, _ = acl.rt.create_event()
    assert acl.rt.destroy_event(e) == 0
    assert acl.rt.destroy_event(e) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.record_event(e, 0) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.query_event_status(e)[1] == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.synchronize_event(e) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.record_event(0, 0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.destroy_event(0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.create_event_with_flag(0x100)[1] == C.ACL_ERROR_INVALID_PARAM
    e2, ret = acl.rt.create_event_with_flag(C.ACL_EVENT_TIME_LINE)
    assert ret == 0
    assert acl.rt.record_event(e2, 0x5550) == C.ACL_ERROR_RT_PARAM_INVALID    # bad stream
    assert acl.rt.synchronize_event(e2) == 0                                 # never recorded: returns at once
    acl.rt.destroy_event(e2)
    out = []
    t = threading.Thread(target=lambda: out.append(acl.rt.create_event()))
    t.start(); t.join()
    assert out[0][1] == C.ACL_ERROR_RT_CONTEXT_NULL


def test_elapsed_time(acl, device):
    s, _ = acl.rt.create_stream()
    start, _ = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    assert acl.rt.event_elapsed_time(start, end)[1] == C.ACL_ERROR_RT_PARAM_INVALID   # not recorded
    blocked = BlockedStream(acl, s)
    acl.rt.record_event(start, s)
    # a 30 ms gap inside the stream: the blocking callback is held by this thread
    acl.rt.launch_callback(lambda _: time.sleep(0.03), None, C.ACL_CALLBACK_BLOCK, s)
    acl.rt.record_event(end, s)
    assert acl.rt.event_elapsed_time(start, end)[1] == C.ACL_ERROR_RT_EVENT_NOT_COMPLETE
    blocked.release()
    assert acl.rt.process_report(5000) == 0        # runs the sleeping callback
    assert acl.rt.synchronize_stream(s) == 0
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0
    assert 25.0 <= ms < 2000.0
    assert ms * 1000 == round(ms * 1000, 0) or abs(ms * 1000 - round(ms * 1000)) < 1e-2   # microsecond resolution
    assert acl.rt.event_elapsed_time(start, 0)[1] == C.ACL_ERROR_INVALID_PARAM
    for e in (start, end):
        acl.rt.destroy_event(e)
    acl.rt.destroy_stream(s)


def test_synchronize_event_from_another_thread(acl, device):
    s, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    blocked = BlockedStream(acl, s)
    acl.rt.record_event(e, s)
    done = []
    t = threading.Thread(target=lambda: done.append(acl.rt.synchronize_event(e)))
    t.start()
    time.sleep(0.05)
    assert done == []
    blocked.release()
    t.join(5)
    assert done == [0]
    acl.rt.destroy_event(e)
    acl.rt.destroy_stream(s)
