"""Devices: set/reset/get, counts, run mode, synchronize, threads without a context."""
import threading

from conftest import run_python

import acl_sim.constants as C


def test_set_get_device(acl, device):
    assert acl.rt.get_device() == (0, 0)
    assert acl.rt.set_device(1) == 0
    assert acl.rt.get_device() == (1, 0)
    assert acl.rt.set_device(0) == 0
    assert acl.rt.get_device() == (0, 0)


def test_device_count_and_invalid_ids(acl):
    n, ret = acl.rt.get_device_count()
    assert (n, ret) == (8, 0)
    assert acl.rt.set_device(8) == C.ACL_ERROR_RT_INVALID_DEVICEID
    assert acl.rt.set_device(-1) == C.ACL_ERROR_RT_INVALID_DEVICEID
    assert acl.rt.reset_device(8) == C.ACL_ERROR_RT_INVALID_DEVICEID
    assert acl.rt.create_context(100)[1] == C.ACL_ERROR_RT_INVALID_DEVICEID


def test_run_mode_is_host(acl):
    assert acl.rt.get_run_mode() == (C.ACL_HOST, 0)


def test_thread_without_context(acl, device):
    out = {}

    def body():
        out["dev"] = acl.rt.get_device()
        out["ctx"] = acl.rt.get_context()
        out["malloc"] = acl.rt.malloc(64, 0)
        out["stream"] = acl.rt.create_stream()
        out["sync"] = acl.rt.synchronize_stream(0)
        out["syncdev"] = acl.rt.synchronize_device()
        out["set"] = acl.rt.set_device(0)
        out["dev2"] = acl.rt.get_device()

    t = threading.Thread(target=body)
    t.start(); t.join()
    assert out["dev"][1] == C.ACL_ERROR_RT_CONTEXT_NULL
    assert out["ctx"][1] == C.ACL_ERROR_RT_CONTEXT_NULL
    assert out["malloc"] == (0, C.ACL_ERROR_RT_CONTEXT_NULL)
    assert out["stream"][1] == C.ACL_ERROR_RT_CONTEXT_NULL
    assert out["sync"] == C.ACL_ERROR_RT_CONTEXT_NULL
    assert out["syncdev"] == C.ACL_ERROR_RT_CONTEXT_NULL
    assert out["set"] == 0 and out["dev2"] == (0, 0)


def test_threads_share_the_default_context(acl, device):
    main_ctx, ret = acl.rt.get_context()
    assert ret == 0
    seen = []

    def body():
        acl.rt.set_device(0)
        seen.append(acl.rt.get_context())

    t = threading.Thread(target=body)
    t.start(); t.join()
    assert seen == [(main_ctx, 0)]


def test_synchronize_device_waits_for_all_streams(acl, device):
    import numpy as np
    streams = [acl.rt.create_stream()[0] for _ in range(4)]
    n = 1 << 20
    p, _ = acl.rt.malloc(n * 4, 0)
    for i, s in enumerate(streams):
        assert acl.rt.memset_async(p + i * n, n, i + 1, n, s) == 0
    assert acl.rt.synchronize_device() == 0
    host = np.empty(n * 4, dtype=np.uint8)
    assert acl.rt.memcpy(host.ctypes.data, host.nbytes, p, host.nbytes, 2) == 0
    assert [int(host[i * n]) for i in range(4)] == [1, 2, 3, 4]
    assert acl.rt.synchronize_device_with_timeout(1000) == 0
    for s in streams:
        assert acl.rt.destroy_stream(s) == 0
    acl.rt.free(p)


def test_reset_device_releases_default_context():
    r = run_python("""
        import acl
        acl.init()
        print(acl.rt.set_device(3), acl.rt.get_device())
        print(acl.rt.reset_device(3), acl.rt.get_device()[1])
        print(acl.rt.reset_device(5))        # never set: nothing to do
        print(acl.rt.set_device(3), acl.rt.get_device(), acl.finalize())
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:4] == ["0 (3, 0)", "0 107002", "0", "0 (3, 0) 0"]


def test_device_count_from_env():
    r = run_python("""
        import acl
        acl.init(); print(acl.rt.get_device_count(), acl.rt.set_device(2))
    """, env={"ACL_SIM_DEVICE_COUNT": "2"})
    assert r.stdout.strip() == "(2, 0) 107001"
