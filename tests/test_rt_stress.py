"""Stress: 8 threads, each with its own streams, mixing malloc/free, async copies,
cross-stream events and callbacks for a few seconds; every result is checked."""
import random
import threading
import time

import numpy as np

import acl_sim.constants as C

DURATION_S = 2.0


def test_eight_threads_mixed_work(acl, device):
    ctx, _ = acl.rt.get_context()
    report_run = [True]
    callbacks = []

    def report_loop(args):
        acl.rt.set_context(args[0])
        while report_run[0]:
            acl.rt.process_report(20)

    report_tid, ret = acl.util.start_thread(report_loop, [ctx])
    assert ret == 0
    errors = []
    iterations = [0] * 8

    def worker(idx):
        try:
            rng = random.Random(idx)
            assert acl.rt.set_context(ctx) == 0
            s1, _ = acl.rt.create_stream()
            s2, _ = acl.rt.create_stream_with_config(idx % 8, 0)
            assert acl.rt.subscribe_report(report_tid, s2) == 0
            ev, _ = acl.rt.create_event()
            deadline = time.monotonic() + DURATION_S
            while time.monotonic() < deadline:
                n = rng.choice([64, 1000, 4096, 65536, 1 << 20])
                src = np.frombuffer(rng.randbytes(n), dtype=np.uint8)
                out = np.zeros(n, dtype=np.uint8)
                a, r1 = acl.rt.malloc(n, 0)
                b, r2 = acl.rt.malloc(n, 0)
                assert r1 == r2 == 0
                assert acl.rt.memcpy_async(a, n, src.ctypes.data, n, 1, s1) == 0
                assert acl.rt.record_event(ev, s1) == 0
                assert acl.rt.stream_wait_event(s2, ev) == 0
                assert acl.rt.memcpy_async(b, n, a, n, 3, s2) == 0
                assert acl.rt.memcpy_async(out.ctypes.data, n, b, n, 2, s2) == 0
                token = (idx, iterations[idx])
                block = rng.random() < 0.5
                assert acl.rt.launch_callback(callbacks.append, token, int(block), s2) == 0
                assert acl.rt.synchronize_stream(s2) == 0
                if not np.array_equal(out, src):
                    errors.append(f"thread {idx}: data mismatch at size {n}")
                assert acl.rt.free(a) == 0 and acl.rt.free(b) == 0
                iterations[idx] += 1
            assert acl.rt.unsubscribe_report(report_tid, s2) == 0
            for s in (s1, s2):
                assert acl.rt.destroy_stream(s) == 0
            assert acl.rt.destroy_event(ev) == 0
        except AssertionError as e:  # pragma: no cover - reported below
            errors.append(f"thread {idx}: {e!r}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "deadlock: a worker did not finish"
    # no-block callbacks may still be queued: give the report thread a moment
    expected = sum(iterations)
    for _ in range(200):
        if len(callbacks) >= expected:
            break
        time.sleep(0.01)
    report_run[0] = False
    assert acl.util.stop_thread(report_tid) == 0
    assert errors == []
    assert all(n > 0 for n in iterations)
    assert sorted(callbacks) == sorted((i, k) for i in range(8) for k in range(iterations[i]))
