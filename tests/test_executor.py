"""Executor properties, named after pthreadpool's tests, through real kernel
launches: every block runs exactly once, heavy contention, many streams
launching at once, a launch from a stream callback, UB overflow reported,
and serial deterministic runs with ACL_SIM_HOST_THREADS=1.
"""
import os
import threading

import numpy as np
import pytest

from acl_sim import kernel as K
from conftest import run_in_threads, run_python
from test_kernel_api_kernels import (  # noqa: F401  (fixtures)
    RT_AICORE_EXCEPTION,
    Device,
    dev,
    kernel_build_dir,
    recent_error,
    stream,
    test_kernels_so,
)


@pytest.mark.parametrize("block_dim", [1, 2, 47, 48, 49, 1000, 65535])
def test_each_block_once(acl, dev, stream, test_kernels_so, block_dim):
    counts = dev.zeros(block_dim, np.uint32)
    with K.KernelBinary(test_kernels_so) as b:
        b.function("count_blocks")(block_dim, counts, stream=stream)
        assert acl.rt.synchronize_stream(stream) == 0
    c = dev.download(counts, block_dim, np.uint32)
    assert (c == 1).all(), np.flatnonzero(c != 1)[:10]


def test_high_contention(acl, dev, stream, test_kernels_so):
    counter = dev.zeros(1, np.uint64)
    with K.KernelBinary(test_kernels_so) as b:
        f = b.function("contend")
        for _ in range(4):
            f(4096, counter, 50, stream=stream)
        assert acl.rt.synchronize_stream(stream) == 0
    assert dev.download(counter, 1, np.uint64)[0] == 4 * 4096 * 50


def test_many_streams_launching_at_once(acl, device, test_kernels_so):
    """Threads with their own streams launch concurrently; each stream's launches stay in order."""
    n_threads, n_launches, dim = 6, 30, 64
    ctx, ret = acl.rt.get_context()
    assert ret == 0
    d = Device(acl)
    bufs = [d.zeros(dim, np.uint32) for _ in range(n_threads)]
    b = K.KernelBinary(test_kernels_so)
    f = b.function("bump")  # non-atomic increment: overlapping launches of one stream would lose updates

    def worker(buf):
        assert acl.rt.set_context(ctx) == 0
        s, r = acl.rt.create_stream()
        assert r == 0
        for _ in range(n_launches):
            f(dim, buf, stream=s)
        assert acl.rt.synchronize_stream(s) == 0
        assert acl.rt.destroy_stream(s) == 0

    run_in_threads(worker, [(buf,) for buf in bufs])
    for buf in bufs:
        assert (d.download(buf, dim, np.uint32) == n_launches).all()
    b.unload()
    d.close()


def test_launch_from_callback(acl, dev, stream, test_kernels_so):
    """A host callback on one stream launches a kernel on another stream."""
    ctx, _ = acl.rt.get_context()
    other, ret = acl.rt.create_stream()
    assert ret == 0
    buf = dev.zeros(32, np.uint32)
    b = K.KernelBinary(test_kernels_so)
    f = b.function("bump")
    launched = []
    stop = threading.Event()

    def report_loop():
        acl.rt.set_context(ctx)
        while not stop.is_set():
            acl.rt.process_report(20)

    reporter = threading.Thread(target=report_loop)
    reporter.start()
    try:
        assert acl.rt.subscribe_report(reporter.ident, stream) == 0

        def callback(user_data):
            f(32, buf, stream=other)
            launched.append(user_data)

        assert acl.rt.launch_callback(callback, 7, 1, stream) == 0  # ACL_CALLBACK_BLOCK
        assert acl.rt.synchronize_stream(stream) == 0
        assert launched == [7]
        assert acl.rt.synchronize_stream(other) == 0
        assert (dev.download(buf, 32, np.uint32) == 1).all()
        assert acl.rt.unsubscribe_report(reporter.ident, stream) == 0
    finally:
        stop.set()
        reporter.join()
        b.unload()
        acl.rt.destroy_stream(other)


def test_ub_overflow_reported(acl, dev, stream, test_kernels_so):
    x = dev.zeros(8, np.float32)
    with K.KernelBinary(test_kernels_so) as b:
        b.function("ub_hog")(48, x, 64, stream=stream)
        ret = acl.rt.synchronize_stream(stream)
        msg = recent_error(acl)
        assert ret == RT_AICORE_EXCEPTION, (ret, msg)
        assert "kernel 'ub_hog'" in msg and "UB" in msg and "196608" in msg
        # Later work on the stream is unaffected.
        counts = dev.zeros(4, np.uint32)
        b.function("count_blocks")(4, counts, stream=stream)
        assert acl.rt.synchronize_stream(stream) == 0
        assert (dev.download(counts, 4, np.uint32) == 1).all()


def test_serial_with_one_host_thread(test_kernels_so):
    """ACL_SIM_HOST_THREADS=1: blocks run in index order, on one thread, every time."""
    code = f"""
        import numpy as np, acl
        from acl_sim import kernel as K
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        n = 500
        ticket, _ = acl.rt.malloc(4, 0)
        order, _ = acl.rt.malloc(4 * n, 0)
        for run in range(3):
            z = np.zeros(n, np.uint32)
            assert acl.rt.memcpy(ticket, 4, z.ctypes.data, 4, 1) == 0
            b = K.KernelBinary({test_kernels_so!r})
            b.function("record_order")(n, ticket, order)
            assert acl.rt.synchronize_device() == 0
            assert acl.rt.memcpy(z.ctypes.data, 4 * n, order, 4 * n, 2) == 0
            assert (z == np.arange(n)).all(), z[:20]
            b.unload()
        print("SERIAL-OK")
    """
    env = {"ACL_SIM_HOST_THREADS": "1"}
    r = run_python(code, env=env, timeout=120)
    assert r.returncode == 0 and "SERIAL-OK" in r.stdout, r.stdout + r.stderr


def test_launch_recorded_by_profiler(tmp_path, test_kernels_so):
    """ACL_SIM_PROFILE: each launch is one op (kernel name, blockDim) in the trace and the op summary."""
    code = f"""
        import numpy as np, acl
        from acl_sim import kernel as K
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        counts, _ = acl.rt.malloc(4 * 48, 0)
        b = K.KernelBinary({test_kernels_so!r})
        for _ in range(3):
            b.function("count_blocks")(48, counts)
        assert acl.rt.synchronize_device() == 0
        b.unload()
        assert acl.rt.reset_device(0) == 0
        assert acl.finalize() == 0
        print("PROF-OK")
    """
    r = run_python(code, env={"ACL_SIM_PROFILE": str(tmp_path)}, timeout=120)
    assert r.returncode == 0 and "PROF-OK" in r.stdout, r.stdout + r.stderr
    trace = (tmp_path / "trace.json").read_text()
    summary = (tmp_path / "op_summary.csv").read_text()
    assert trace.count('"count_blocks"') >= 3, trace[:2000]
    assert "count_blocks" in summary and "48" in summary, summary
