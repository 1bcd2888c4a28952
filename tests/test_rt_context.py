"""Contexts: create makes current, set/get, destroy rules, per-thread binding."""
import threading

import acl_sim.constants as C


def test_create_context_becomes_current(acl, device):
    default_ctx, _ = acl.rt.get_context()
    ctx, ret = acl.rt.create_context(1)
    assert ret == 0 and ctx not in (0, default_ctx)
    assert acl.rt.get_context() == (ctx, 0)
    assert acl.rt.get_device() == (1, 0)          # the context switches the device too
    assert acl.rt.set_context(default_ctx) == 0
    assert acl.rt.get_device() == (0, 0)
    assert acl.rt.destroy_context(ctx) == 0
    assert acl.rt.get_context() == (default_ctx, 0)


def test_context_streams_are_usable_from_another_thread(acl, device):
    import numpy as np
    ctx, _ = acl.rt.create_context(0)
    result = {}

    def worker():
        result["before"] = acl.rt.create_stream()[1]
        assert acl.rt.set_context(ctx) == 0
        s, ret = acl.rt.create_stream()
        p, _ = acl.rt.malloc(256, 0)
        acl.rt.memset_async(p, 256, 7, 256, s)
        host = np.zeros(256, dtype=np.uint8)
        acl.rt.memcpy_async(host.ctypes.data, 256, p, 256, 2, s)
        result["sync"] = acl.rt.synchronize_stream(s)
        result["data"] = int(host.sum())
        acl.rt.destroy_stream(s)
        acl.rt.free(p)

    t = threading.Thread(target=worker)
    t.start(); t.join()
    assert result == {"before": C.ACL_ERROR_RT_CONTEXT_NULL, "sync": 0, "data": 7 * 256}
    assert acl.rt.destroy_context(ctx) == 0


def test_destroy_context_errors(acl, device):
    default_ctx, _ = acl.rt.get_context()
    assert acl.rt.destroy_context(0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.destroy_context(default_ctx) == C.ACL_ERROR_INVALID_PARAM   # the default context
    ctx, _ = acl.rt.create_context(0)
    assert acl.rt.destroy_context(ctx) == 0
    assert acl.rt.destroy_context(ctx) == C.ACL_ERROR_RT_PARAM_INVALID        # destroyed handle
    assert acl.rt.set_context(ctx) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.set_context(0x1234560) == C.ACL_ERROR_RT_PARAM_INVALID      # random handle
    assert acl.rt.set_context(0) == C.ACL_ERROR_INVALID_PARAM
    # destroying the current context leaves the thread without one
    assert acl.rt.get_context()[1] == C.ACL_ERROR_RT_CONTEXT_NULL
    assert acl.rt.set_context(default_ctx) == 0


def test_context_destroyed_on_other_thread(acl, device):
    default_ctx, _ = acl.rt.get_context()
    ctx, _ = acl.rt.create_context(0)
    t = threading.Thread(target=lambda: acl.rt.destroy_context(ctx))
    t.start(); t.join()
    # this thread's binding is now dead: reported as "no context", never a crash
    assert acl.rt.get_context()[1] == C.ACL_ERROR_RT_CONTEXT_NULL
    assert acl.rt.malloc(32, 0)[1] == C.ACL_ERROR_RT_CONTEXT_NULL
    assert acl.rt.set_context(default_ctx) == 0
