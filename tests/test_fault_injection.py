"""Fault injection (csrc/common/fault_injection.h): each forced failure surfaces as the
documented error, nothing deadlocks, and the runtime stays usable afterwards.

Switches: acl_sim._core.sim.set_fault(name, value) in-process, or ACL_SIM_FAULT_*
environment variables (read when the library loads) in a subprocess.
"""
import time

import numpy as np
import pytest

from conftest import run_python

MEMORY_ALLOCATION = 207001
STREAM_SYNC_TIMEOUT = 507046
H2D, D2H = 1, 2


@pytest.fixture
def sim(acl, device):
    from acl_sim._core import sim as module

    module.clear_faults()
    yield module
    module.clear_faults()


def used(acl):
    free, total, ret = acl.rt.get_mem_info(0)
    assert ret == 0
    return total - free


def test_unknown_switch_is_refused(sim):
    assert sim.set_fault("no_such_fault", 1) is False
    assert sim.set_fault("alloc_fail_at", 0) is True


def test_allocation_fails_at_the_nth_allocation_once(acl, sim):
    base = used(acl)
    assert sim.set_fault("alloc_fail_at", 3)
    results = [acl.rt.malloc(256, 0) for _ in range(5)]
    assert [ret for _, ret in results] == [0, 0, MEMORY_ALLOCATION, 0, 0]
    assert results[2][0] == 0
    msg = acl.get_recent_err_msg()
    assert "aclrtMalloc" in msg and "injected" in msg and str(MEMORY_ALLOCATION) in msg
    for p, ret in results:
        if ret == 0:
            assert acl.rt.free(p) == 0
    assert used(acl) == base
    # usable afterwards: allocate, write, read
    p, ret = acl.rt.malloc(64, 0)
    assert ret == 0
    data = np.arange(16, dtype=np.float32)
    assert acl.rt.memcpy(p, 96, data.ctypes.data, 64, H2D) == 0
    out = np.zeros_like(data)
    assert acl.rt.memcpy(out.ctypes.data, 64, p, 64, D2H) == 0
    assert np.array_equal(out, data) and acl.rt.free(p) == 0


def test_allocation_failure_inside_model_load_leaks_nothing(acl, sim, tmp_path):
    from acl_sim.compiler import compile_model
    from test_leaks import tiny_onnx

    compile_model(tiny_onnx(), str(tmp_path / "m"), cache=False)
    path = str(tmp_path / "m.om")
    base = used(acl)
    failures = 0
    for n in (1, 2, 3):
        assert sim.set_fault("alloc_fail_at", n)
        model_id, ret = acl.mdl.load_from_file(path)
        sim.clear_faults()
        if ret == 0:
            assert acl.mdl.unload(model_id) == 0
        else:
            failures += 1
            assert ret in (MEMORY_ALLOCATION, 200000, 100003), ret  # BAD_ALLOC family, never a crash
        assert used(acl) == base, f"allocation failure {n} leaked device memory"
    assert failures >= 1
    model_id, ret = acl.mdl.load_from_file(path)
    assert ret == 0 and acl.mdl.unload(model_id) == 0


def test_worker_stall_times_out_the_stream_then_completes(acl, sim):
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    p, ret = acl.rt.malloc(4096, 0)
    assert ret == 0
    data = np.arange(1024, dtype=np.float32)
    assert sim.set_fault("stall_task_ms", 1500)
    t0 = time.monotonic()
    assert acl.rt.memcpy_async(p, 4096, data.ctypes.data, 4096, H2D, stream) == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, 100) == STREAM_SYNC_TIMEOUT
    assert acl.rt.synchronize_stream(stream) == 0  # the stalled task still runs, once
    assert time.monotonic() - t0 < 30
    out = np.zeros_like(data)
    assert acl.rt.memcpy(out.ctypes.data, 4096, p, 4096, D2H) == 0
    assert np.array_equal(out, data)
    # the stall was one-shot: the stream is prompt again
    assert acl.rt.memcpy_async(p, 4096, data.ctypes.data, 4096, H2D, stream) == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, 10000) == 0
    assert acl.rt.free(p) == 0 and acl.rt.destroy_stream(stream) == 0


def test_alloc_fail_from_the_environment():
    r = run_python("""
        import acl
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        print([acl.rt.malloc(64, 0)[1] for _ in range(3)])
        print(acl.finalize())
    """, env={"ACL_SIM_FAULT_ALLOC_FAIL_AT": "2"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:2] == ["[0, 207001, 0]", "0"]


HCCL_ABSENT_RANK = """
import threading, numpy as np, acl
from acl_sim import hccl
from acl_sim._core import sim
assert acl.init() == 0
N = 2

def allreduce(comms, results):
    def rank(r):
        assert acl.rt.set_device(r) == 0
        s, _ = acl.rt.create_stream()
        x = np.full(8, r + 1, np.float32)
        p, _ = acl.rt.malloc(32, 0)
        acl.rt.memcpy(p, 32, x.ctypes.data, 32, 1)
        ret = hccl.all_reduce(p, p, 8, hccl.HCCL_DATA_TYPE_FP32, hccl.HCCL_REDUCE_SUM, comms[r], s)
        sync = acl.rt.synchronize_stream(s)
        out = np.zeros(8, np.float32)
        acl.rt.memcpy(out.ctypes.data, 32, p, 32, 2)
        results[r] = (ret, sync, hccl.get_comm_async_error(comms[r])[0], float(out[0]))
        acl.rt.free(p); acl.rt.destroy_stream(s)
    ts = [threading.Thread(target=rank, args=(r,)) for r in range(N)]
    [t.start() for t in ts]
    [t.join(60) for t in ts]
    assert not any(t.is_alive() for t in ts), "deadlock"

comms, ret = hccl.comm_init_all(N, [0, 1])
assert ret == 0
sim.set_fault("hccl_absent_rank", 1)
res = {}
allreduce(comms, res)
print("absent", res[0], res[1])
sim.clear_faults()
for c in comms:
    assert hccl.comm_destroy(c) == 0
comms, ret = hccl.comm_init_all(N, [0, 1])
assert ret == 0
res = {}
allreduce(comms, res)
print("after", res[0], res[1])
for c in comms:
    assert hccl.comm_destroy(c) == 0
print("finalize", acl.finalize())
"""


def test_hccl_rank_that_never_arrives_times_out():
    t0 = time.monotonic()
    r = run_python(HCCL_ABSENT_RANK, env={"HCCL_EXEC_TIMEOUT": "1", "HCCL_CONNECT_TIMEOUT": "1"}, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in r.stdout.strip().split("\n"))
    ret0, sync0, async0, _ = eval(lines["absent"].split(") (")[0] + ")")
    assert (ret0, sync0, async0) == (0, STREAM_SYNC_TIMEOUT, 9)  # HCCL_E_TIMEOUT on the rank left waiting
    assert "HCCL_E_TIMEOUT" in r.stderr or "timed out" in r.stderr
    # usable afterwards: a new communicator reduces correctly on both ranks
    assert lines["after"] == "(0, 0, 0, 3.0) (0, 0, 0, 3.0)"
    assert lines["finalize"] == "0"
    assert time.monotonic() - t0 < 100
