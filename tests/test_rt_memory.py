"""Device and host memory: the caching pool, copies, sets, validation."""
import numpy as np
import pytest

from conftest import run_python

import acl_sim.constants as C

H2D, D2H, D2D, H2H, DEFAULT = 1, 2, 3, 0, 4


def to_device(acl, arr):
    p, ret = acl.rt.malloc(arr.nbytes, 0)
    assert ret == 0
    assert acl.rt.memcpy(p, arr.nbytes, arr.ctypes.data, arr.nbytes, H2D) == 0
    return p


def from_device(acl, p, like):
    out = np.empty_like(like)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, p, out.nbytes, D2H) == 0
    return out


def test_malloc_alignment_and_padding(acl, device):
    ptrs = [acl.rt.malloc(n, 0) for n in (1, 33, 64, 1000)]
    assert all(ret == 0 and p % 128 == 0 for p, ret in ptrs)  # ggml-cann requires 128-byte alignment
    a, _ = acl.rt.malloc(64, 0)
    c, _ = acl.rt.malloc_align32(64, 0)
    # the 32-byte padding is usable, one byte more is not
    assert acl.rt.memset(a, 96, 1, 96) == 0
    assert acl.rt.memset(a, 97, 1, 97) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memset(c, 64, 1, 64) == 0
    assert acl.rt.memset(c, 65, 1, 65) == C.ACL_ERROR_RT_PARAM_INVALID
    for p in [p for p, _ in ptrs] + [a, c]:
        assert acl.rt.free(p) == 0


def test_block_layout_on_a_fresh_device():
    # ALIGN_UP(64,32)+32 = 96 -> 128-byte blocks for malloc; 64 -> 128 for malloc_align32 and HUGE1G (128-byte starts)
    r = run_python("""
        import acl
        acl.init(); acl.rt.set_device(0)
        a, _ = acl.rt.malloc(64, 0); b, _ = acl.rt.malloc(64, 0)
        c, _ = acl.rt.malloc_align32(64, 0); d, _ = acl.rt.malloc_align32(64, 0)
        e, _ = acl.rt.malloc(64, 6); f, _ = acl.rt.malloc(64, 6)
        g, _ = acl.rt.malloc(1, 0); h, _ = acl.rt.malloc(1, 0)
        print(b - a, d - c, f - e, h - g, a % 128)
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["128", "128", "128", "128", "0"]


def test_malloc_errors(acl, device):
    assert acl.rt.malloc(0, 0) == (0, C.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.malloc(64, 99)[1] == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.malloc(1 << 50, 0)[1] == C.ACL_ERROR_RT_MEMORY_ALLOCATION
    p, ret = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST | C.ACL_MEM_TYPE_HIGH_BAND_WIDTH)
    assert ret == 0 and acl.rt.free(p) == 0
    p, ret = acl.rt.malloc_cached(64, 0)
    assert ret == 0 and acl.rt.free(p) == 0


def test_free_errors(acl, device):
    p, _ = acl.rt.malloc(256, 0)
    assert acl.rt.free(p + 64) == C.ACL_ERROR_RT_PARAM_INVALID      # interior pointer
    assert acl.rt.free(p) == 0
    assert acl.rt.free(p) == C.ACL_ERROR_RT_PARAM_INVALID           # double free
    assert "double free" in acl.get_recent_err_msg()
    assert acl.rt.free(0) == C.ACL_ERROR_INVALID_PARAM
    host = np.zeros(4)
    assert acl.rt.free(host.ctypes.data) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.free(0x10) == C.ACL_ERROR_RT_PARAM_INVALID


def test_cached_block_reuse(acl, device):
    p, _ = acl.rt.malloc(4096, 0)
    acl.rt.free(p)
    q, _ = acl.rt.malloc(4096, 0)
    assert q == p          # the freed block is served again from the cache
    acl.rt.free(q)


def test_memcpy_all_directions_roundtrip(acl, device):
    a = np.random.default_rng(0).standard_normal(10000).astype(np.float32)
    d1 = to_device(acl, a)
    d2, _ = acl.rt.malloc(a.nbytes, 0)
    assert acl.rt.memcpy(d2, a.nbytes, d1, a.nbytes, D2D) == 0
    np.testing.assert_array_equal(from_device(acl, d2, a), a)
    # DEFAULT infers the direction; H2H is a plain copy
    b = np.zeros_like(a)
    assert acl.rt.memcpy(b.ctypes.data, b.nbytes, d2, b.nbytes, DEFAULT) == 0
    np.testing.assert_array_equal(b, a)
    c = np.zeros_like(a)
    assert acl.rt.memcpy(c.ctypes.data, c.nbytes, a.ctypes.data, a.nbytes, H2H) == 0
    np.testing.assert_array_equal(c, a)
    # across devices
    acl.rt.set_device(1)
    d3, _ = acl.rt.malloc(a.nbytes, 0)
    assert acl.rt.memcpy(d3, a.nbytes, d1, a.nbytes, C.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) == 0
    assert acl.rt.memcpy(d3, a.nbytes, d1, a.nbytes, C.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) == C.ACL_ERROR_RT_PARAM_INVALID
    np.testing.assert_array_equal(from_device(acl, d3, a), a)
    acl.rt.free(d3)
    acl.rt.set_device(0)
    acl.rt.free(d1); acl.rt.free(d2)


def test_memcpy_validation(acl, device):
    a = np.arange(64, dtype=np.uint8)
    d, _ = acl.rt.malloc(64, 0)
    acl.rt.memset(d, 64, 0xAB, 64)
    # count > destMax: rejected, and nothing was copied
    assert acl.rt.memcpy(d, 32, a.ctypes.data, 64, H2D) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "destMax" in acl.get_recent_err_msg()
    assert (from_device(acl, d, a) == 0xAB).all()
    # wrong kinds
    host = np.zeros(64, dtype=np.uint8)
    assert acl.rt.memcpy(host.ctypes.data, 64, a.ctypes.data, 64, H2D) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memcpy(d, 64, a.ctypes.data, 64, D2H) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memcpy(d, 64, a.ctypes.data, 64, D2D) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memcpy(d, 64, a.ctypes.data, 64, H2H) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memcpy(d, 64, a.ctypes.data, 64, 42) == C.ACL_ERROR_INVALID_PARAM
    # NULLs, size 0
    assert acl.rt.memcpy(0, 64, a.ctypes.data, 64, H2D) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.memcpy(d, 64, 0, 64, H2D) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.memcpy(d, 64, a.ctypes.data, 0, H2D) == 0
    # device ranges: past the end of the allocation (64 + 32 padding = 96 usable)
    big = np.zeros(200, dtype=np.uint8)
    assert acl.rt.memcpy(d, 200, big.ctypes.data, 200, H2D) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memcpy(d + 32, 96, big.ctypes.data, 80, H2D) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memcpy(d + 32, 64, big.ctypes.data, 64, H2D) == 0
    # use after free
    acl.rt.free(d)
    assert acl.rt.memcpy(d, 64, a.ctypes.data, 64, H2D) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memcpy(host.ctypes.data, 64, d, 64, D2H) == C.ACL_ERROR_RT_PARAM_INVALID


def test_memset(acl, device):
    d, _ = acl.rt.malloc(1000, 0)
    assert acl.rt.memset(d, 1000, 0x1FF, 1000) == 0     # byte-wise: value & 0xFF
    out = from_device(acl, d, np.zeros(1000, dtype=np.uint8))
    assert (out == 0xFF).all()
    assert acl.rt.memset(d, 10, 0, 20) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memset(0, 10, 0, 10) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.memset(d, 0, 0, 0) == 0
    acl.rt.free(d)
    assert acl.rt.memset(d, 1000, 0, 1000) == C.ACL_ERROR_RT_PARAM_INVALID
    host, _ = acl.rt.malloc_host(128)
    assert acl.rt.memset(host, 128, 5, 128) == 0
    assert acl.util.ptr_to_bytes(host, 128) == b"\x05" * 128
    # pageable host memory (not from aclrtMallocHost) is refused, as is a range past a host block
    plain = np.full(256, 3, dtype=np.uint8)
    assert acl.rt.memset(plain.ctypes.data, 256, 0, 256) == C.ACL_ERROR_RT_PARAM_INVALID
    assert (plain == 3).all()
    assert acl.rt.memset(host + 64, 128, 5, 128) == C.ACL_ERROR_RT_PARAM_INVALID
    acl.rt.free_host(host)


def test_async_copies_and_sets(acl, device):
    s, _ = acl.rt.create_stream()
    a = np.arange(4096, dtype=np.int32)
    d, _ = acl.rt.malloc(a.nbytes, 0)
    out = np.zeros_like(a)
    assert acl.rt.memcpy_async(d, a.nbytes, a.ctypes.data, a.nbytes, H2D, s) == 0
    assert acl.rt.memset_async(d, a.nbytes, 0, 16, s) == 0
    assert acl.rt.memcpy_async(out.ctypes.data, out.nbytes, d, a.nbytes, D2H, s) == 0
    assert acl.rt.synchronize_stream(s) == 0
    expect = a.copy(); expect[:4] = 0
    np.testing.assert_array_equal(out, expect)
    # async host-to-host is not supported; count > destMax rejected before queuing
    assert acl.rt.memcpy_async(out.ctypes.data, out.nbytes, a.ctypes.data, a.nbytes, H2H, s) == \
        C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert acl.rt.memcpy_async(d, 8, a.ctypes.data, 16, H2D, s) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memset_async(d, 8, 0, 16, s) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memset_async(d, 8, 0, 8, 0xDEAD0) == C.ACL_ERROR_RT_PARAM_INVALID   # bad stream
    # stream 0 is the default stream
    assert acl.rt.memset_async(d, a.nbytes, 1, 4, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    assert from_device(acl, d, a)[0] == 0x01010101
    acl.rt.destroy_stream(s)
    acl.rt.free(d)


def test_malloc_host(acl, device):
    p, ret = acl.rt.malloc_host(1000)
    assert ret == 0 and p % 64 == 0
    assert acl.rt.free_host(p) == 0
    assert acl.rt.free_host(p) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.malloc_host(0)[1] == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.free_host(0) == C.ACL_ERROR_INVALID_PARAM


def test_get_mem_info_tracks_allocations(acl, device):
    free0, total, ret = acl.rt.get_mem_info(C.ACL_HBM_MEM)
    assert ret == 0 and total == 64 << 30
    p, _ = acl.rt.malloc(100 << 20, 0)
    free1, _, _ = acl.rt.get_mem_info(C.ACL_DDR_MEM)
    assert free0 - free1 >= 100 << 20
    acl.rt.free(p)
    assert acl.rt.get_mem_info(1)[0] == free0
    assert acl.rt.get_mem_info(99)[2] == C.ACL_ERROR_INVALID_PARAM


def test_large_device_costs_no_ram_until_touched(acl, device):
    def rss():
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) * 1024
    before = rss()
    p, ret = acl.rt.malloc(16 << 30, 0)
    assert ret == 0
    assert rss() - before < 64 << 20
    assert acl.rt.memset(p + (8 << 30), 4096, 1, 4096) == 0     # touch one page in the middle
    assert rss() - before < 64 << 20
    assert acl.rt.free(p) == 0


def test_out_of_memory_then_still_usable():
    r = run_python("""
        import acl
        acl.init(); acl.rt.set_device(0)
        print(acl.rt.get_mem_info(1))
        ps = []
        while True:
            p, ret = acl.rt.malloc(3 << 20, 0)
            if ret: break
            ps.append(p)
        print(ret, len(ps))
        for p in ps[::2]: acl.rt.free(p)          # fragment: 3 MiB holes
        print(acl.rt.malloc(5 << 20, 0)[1])       # no hole fits: still out of memory
        for p in ps[1::2]: acl.rt.free(p)
        p, ret = acl.rt.malloc(40 << 20, 0)       # releases cached blocks, coalesces, retries
        print(ret, acl.rt.free(p), acl.finalize())
    """, env={"ACL_SIM_DEVICE_MEMORY": "64M"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")
    assert lines[0] == str((64 << 20, 64 << 20, 0))
    ret, count = lines[1].split()
    assert ret == str(C.ACL_ERROR_RT_MEMORY_ALLOCATION) and int(count) >= 16
    assert lines[2] == str(C.ACL_ERROR_RT_MEMORY_ALLOCATION)
    assert lines[3] == "0 0 0"


def test_data_buffers(acl, device):
    p, _ = acl.rt.malloc(128, 0)
    buf = acl.create_data_buffer(p, 128)
    assert buf != 0
    assert acl.get_data_buffer_addr(buf) == p
    assert acl.get_data_buffer_size(buf) == 128
    assert acl.get_data_buffer_size_v2(buf) == 128
    assert acl.update_data_buffer(buf, 0, 0) == 0
    assert (acl.get_data_buffer_addr(buf), acl.get_data_buffer_size_v2(buf)) == (0, 0)
    assert acl.destroy_data_buffer(buf) == 0
    assert acl.destroy_data_buffer(buf) == C.ACL_ERROR_INVALID_PARAM
    assert acl.get_data_buffer_addr(buf) == 0
    assert acl.get_data_buffer_size_v2(buf) == 0
    assert acl.update_data_buffer(buf, p, 1) == C.ACL_ERROR_INVALID_PARAM
    assert acl.destroy_data_buffer(0) == C.ACL_ERROR_INVALID_PARAM
    empty = acl.create_data_buffer(0, 0)
    assert empty != 0 and acl.destroy_data_buffer(empty) == 0
    acl.rt.free(p)


@pytest.mark.parametrize("dt,size", [(C.ACL_FLOAT, 4), (C.ACL_FLOAT16, 2), (C.ACL_INT8, 1), (C.ACL_INT64, 8),
                                     (C.ACL_DOUBLE, 8), (C.ACL_BOOL, 1), (C.ACL_BF16, 2), (C.ACL_COMPLEX128, 16),
                                     (C.ACL_INT4, 0), (C.ACL_DT_UNDEFINED, 0), (5, 0)])
def test_data_type_size(acl, dt, size):
    assert acl.data_type_size(dt) == size
