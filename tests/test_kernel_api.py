"""The Ascend C-style kernel API (kernel_operator.h) and its launch paths,
checked against NumPy: the add_custom example (Python launch, the C++ host
program through the CANN binary-load API, and ACLRT_LAUNCH_KERNEL), vector
ops and casts, alignment and UB faults, and the launch API's error codes.
"""
import os
import subprocess

import numpy as np
import pytest

from acl_sim import kernel as K
from test_kernel_api_kernels import (  # noqa: F401  (fixtures)
    ADD_CUSTOM_DIR,
    OPS,
    RT_AICORE_EXCEPTION,
    RT_INVALID_HANDLE,
    RT_KERNEL_LOOKUP,
    RT_PARAM_INVALID,
    add_custom_so,
    dev,
    kernel_build_dir,
    recent_error,
    stream,
    test_kernels_so,
    tiling_bytes,
)

_core_kernel = None


def core():
    global _core_kernel
    if _core_kernel is None:
        from acl_sim._core import kernel as k

        _core_kernel = k
    return _core_kernel


def add_custom_tiling(total, tile_num):
    return tiling_bytes((total, "I"), (tile_num, "I"))


# ------------------------------------------------------------------ add_custom

@pytest.mark.parametrize("block_dim", [8, 48])
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_add_custom_python_launch(acl, dev, stream, add_custom_so, block_dim, dtype):
    rng = np.random.default_rng(block_dim)
    total = block_dim * 2048
    x = rng.uniform(-100, 100, total).astype(dtype)
    y = rng.uniform(-100, 100, total).astype(dtype)
    xd, yd, zd = dev.upload(x), dev.upload(y), dev.zeros(total, dtype)
    td = dev.upload(add_custom_tiling(total, 8))
    name = "add_custom" if dtype == np.float16 else "add_custom_fp32"
    with K.KernelBinary(add_custom_so) as binary:
        binary.function(name)(block_dim, xd, yd, zd, td, stream=stream)
        assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(dev.download(zd, total, dtype), x + y)


@pytest.fixture(scope="module")
def add_custom_programs(kernel_build_dir):
    """The example's host program, built both ways (binary-load API and ACLRT_LAUNCH_KERNEL)."""
    inc, lib = K.include_dir(), K.library_dir()
    base = ["g++", "-std=c++17", "-O1", "-I", inc, "-I", ADD_CUSTOM_DIR]
    link = ["-L", lib, "-lascendcl", f"-Wl,-rpath,{lib}"]
    main = os.path.join(ADD_CUSTOM_DIR, "main.cpp")
    loader = os.path.join(kernel_build_dir, "add_custom_main")
    direct = os.path.join(kernel_build_dir, "add_custom_direct")
    subprocess.run(base + [main, "-o", loader] + link, check=True, capture_output=True, text=True)
    subprocess.run(base + ["-DADD_CUSTOM_DIRECT_LAUNCH=1", main, os.path.join(ADD_CUSTOM_DIR, "add_custom.cpp"), "-o",
                           direct] + link, check=True, capture_output=True, text=True)
    return loader, direct


@pytest.mark.parametrize("program", ["binary_load", "launch_macro"])
@pytest.mark.parametrize("block_dim,dtype", [(8, np.float16), (48, np.float16), (8, np.float32), (48, np.float32)])
def test_add_custom_host_program(tmp_path, add_custom_so, add_custom_programs, program, block_dim, dtype):
    rng = np.random.default_rng(7)
    total = block_dim * 2048
    x = rng.uniform(-10, 10, total).astype(dtype)
    y = rng.uniform(-10, 10, total).astype(dtype)
    x.tofile(tmp_path / "input_x.bin")
    y.tofile(tmp_path / "input_y.bin")
    exe = add_custom_programs[0 if program == "binary_load" else 1]
    kind = "fp16" if dtype == np.float16 else "fp32"
    r = subprocess.run([exe, str(tmp_path), add_custom_so, str(block_dim), kind], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    z = np.fromfile(tmp_path / "output_z.bin", dtype=dtype)
    np.testing.assert_array_equal(z, x + y)


# ------------------------------------------------------------------ vector ops vs NumPy

def _run_vec(acl, dev, stream, so, dtype, op, x, y, tile, count, block_dim, scalar=0.0):
    xd, yd = dev.upload(x), dev.upload(y)
    zd = dev.zeros(x.size, dtype)
    td = dev.upload(tiling_bytes((tile, "I"), (count, "I"), (OPS[op], "I"), (scalar, "f")))
    with K.KernelBinary(so) as b:
        b.function("vec_f32" if dtype == np.float32 else "vec_f16")(block_dim, xd, yd, zd, td, stream=stream)
        assert acl.rt.synchronize_stream(stream) == 0, recent_error(acl)
    return dev.download(zd, x.size, dtype).reshape(block_dim, tile)


def _reference(op, x, y, scalar, dtype):
    s = dtype(scalar)
    f = {
        "Add": lambda: x + y, "Sub": lambda: x - y, "Mul": lambda: x * y, "Div": lambda: x / y,
        "Max": lambda: np.maximum(x, y), "Min": lambda: np.minimum(x, y), "Muls": lambda: x * s,
        "Adds": lambda: x + s, "Exp": lambda: np.exp(x), "Relu": lambda: np.maximum(x, dtype(0)),
        "Abs": lambda: np.abs(x), "Duplicate": lambda: np.full_like(x, s),
    }[op]
    return f().astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("op", ["Add", "Sub", "Mul", "Div", "Max", "Min", "Muls", "Adds", "Exp", "Relu", "Abs",
                                "Duplicate"])
@pytest.mark.parametrize("tile,count,block_dim", [(16, 16, 1), (64, 1, 3), (256, 13, 5), (4096, 4096, 48)])
def test_vector_op_matches_numpy(acl, dev, stream, test_kernels_so, dtype, op, tile, count, block_dim):
    rng = np.random.default_rng(hash((op, tile, count)) % 2**32)
    lo = -4 if op == "Exp" else -50
    hi = 4 if op == "Exp" else 50
    x = rng.uniform(lo, hi, block_dim * tile).astype(dtype)
    y = rng.uniform(lo, hi, block_dim * tile).astype(dtype)
    if op == "Div":
        y = np.where(np.abs(y) < 0.5, dtype(1.5), y).astype(dtype)
    scalar = 2.75
    z = _run_vec(acl, dev, stream, test_kernels_so, dtype, op, x, y, tile, count, block_dim, scalar)
    ref = _reference(op, x.reshape(block_dim, tile), y.reshape(block_dim, tile), scalar, dtype)
    got = z[:, :count]
    want = ref[:, :count]
    if op == "Exp":  # libm vs NumPy exp may differ in the last place (and then once more in the fp16 rounding)
        np.testing.assert_allclose(got, want, rtol=2e-3 if dtype == np.float16 else 2e-6)
    else:
        np.testing.assert_array_equal(got, want)
    assert not z[:, count:].any(), "the op wrote past count"


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("tile,count,block_dim", [(16, 1, 1), (256, 255, 4), (8192, 8192, 2)])
def test_reduce_sum_matches_numpy(acl, dev, stream, test_kernels_so, dtype, tile, count, block_dim):
    rng = np.random.default_rng(count)
    x = rng.uniform(-1, 1, block_dim * tile).astype(dtype)
    z = _run_vec(acl, dev, stream, test_kernels_so, dtype, "ReduceSum", x, x, tile, count, block_dim)
    want = x.reshape(block_dim, tile)[:, :count].astype(np.float64).sum(axis=1)
    tol = 1e-3 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(z[:, 0].astype(np.float64), want, rtol=tol, atol=tol * count)
    assert not z[:, 1:].any()


def _run_cast(acl, dev, stream, so, name, x, out_dtype, tile, mode):
    block_dim = x.size // tile
    xd = dev.upload(x)
    zd = dev.zeros(x.size, out_dtype)
    td = dev.upload(tiling_bytes((tile, "I"), (tile, "I"), (mode, "I"), (0.0, "f")))
    with K.KernelBinary(so) as b:
        b.function(name)(block_dim, xd, zd, td, stream=stream)
        assert acl.rt.synchronize_stream(stream) == 0, recent_error(acl)
    return dev.download(zd, x.size, out_dtype)


def test_cast_f16_to_f32_exact(acl, dev, stream, test_kernels_so):
    # Every finite and special fp16 value.
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    x = bits.view(np.float16)
    z = _run_cast(acl, dev, stream, test_kernels_so, "cast_f16_f32", x, np.float32, 4096, 0)
    want = x.astype(np.float32)
    np.testing.assert_array_equal(np.isnan(z), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(z[ok].view(np.uint32), want[ok].view(np.uint32))


def test_cast_f32_to_f16_rint_matches_numpy(acl, dev, stream, test_kernels_so):
    rng = np.random.default_rng(3)
    x = np.concatenate([
        rng.uniform(-70000, 70000, 4096), rng.uniform(-1, 1, 4096) * 1e-5,  # overflow, subnormals
        rng.standard_normal(4096 * 2), np.array([0.0, -0.0, np.inf, -np.inf, 65504, 65520, 2**-25, 2**-24] * 512),
    ]).astype(np.float32)
    z = _run_cast(acl, dev, stream, test_kernels_so, "cast_f32_f16", x, np.float16, 4096, 1)  # CAST_RINT
    with np.errstate(over="ignore"):  # NumPy warns on the values that overflow to inf, as intended here
        want = x.astype(np.float16)
    np.testing.assert_array_equal(z.view(np.uint16), want.view(np.uint16))


@pytest.mark.parametrize("mode,fn", [(2, np.floor), (3, np.ceil), (5, np.trunc)])
def test_cast_f32_to_f16_directed_rounding(acl, dev, stream, test_kernels_so, mode, fn):
    rng = np.random.default_rng(mode)
    x = (rng.standard_normal(4096) * 100).astype(np.float32)
    z = _run_cast(acl, dev, stream, test_kernels_so, "cast_f32_f16", x, np.float16, 4096, mode)
    zf = z.astype(np.float64)
    xf = x.astype(np.float64)
    if fn is np.floor:
        assert (zf <= xf).all()
    elif fn is np.ceil:
        assert (zf >= xf).all()
    else:
        assert (np.abs(zf) <= np.abs(xf)).all()
    # ... and within one fp16 ulp of the exact value.
    ulp = np.spacing(np.abs(x).astype(np.float16)).astype(np.float64)
    assert (np.abs(zf - xf) <= ulp * 1.0001).all()


def test_block_idx_and_num(acl, dev, stream, test_kernels_so):
    for n in (1, 7, 48, 300):
        out = dev.zeros(2 * n, np.uint32)
        with K.KernelBinary(test_kernels_so) as b:
            b.function("block_info")(n, out, stream=stream)
            assert acl.rt.synchronize_stream(stream) == 0
        o = dev.download(out, (n, 2), np.uint32)
        np.testing.assert_array_equal(o[:, 0], np.arange(n))
        assert (o[:, 1] == n).all()


# ------------------------------------------------------------------ faults reported at synchronize

def _launch_expect_fault(acl, stream, so, name, args, block_dim=4):
    with K.KernelBinary(so) as b:
        b.function(name)(block_dim, *args, stream=stream)  # the launch itself succeeds ...
        ret = acl.rt.synchronize_stream(stream)            # ... the fault surfaces here
    msg = recent_error(acl)
    assert ret == RT_AICORE_EXCEPTION, (ret, msg)
    assert f"kernel '{name}'" in msg, msg
    return msg


def test_datacopy_length_not_multiple_of_32_bytes(acl, dev, stream, test_kernels_so):
    x, z = dev.zeros(256, np.float32), dev.zeros(256, np.float32)
    msg = _launch_expect_fault(acl, stream, test_kernels_so, "copy_n", [x, z, 7])
    assert "7 elements (28 bytes)" in msg and "32 bytes" in msg


def test_datacopy_ub_start_not_32_byte_aligned(acl, dev, stream, test_kernels_so):
    x, z = dev.zeros(256, np.float32), dev.zeros(256, np.float32)
    msg = _launch_expect_fault(acl, stream, test_kernels_so, "copy_at", [x, z, 3])
    assert "UB offset 12" in msg


def test_aligned_datacopy_succeeds(acl, dev, stream, test_kernels_so):
    x = dev.upload(np.arange(256, dtype=np.float32))
    z = dev.zeros(256, np.float32)
    with K.KernelBinary(test_kernels_so) as b:
        b.function("copy_n")(1, x, z, 64, stream=stream)
        b.function("copy_at")(1, x, z, 8, stream=stream)
        assert acl.rt.synchronize_stream(stream) == 0, recent_error(acl)
    out = dev.download(z, 256, np.float32)
    np.testing.assert_array_equal(out[:64], np.arange(64))
    assert not out[64:].any()


def test_vector_operand_misaligned(acl, dev, stream, test_kernels_so):
    x = dev.zeros(8, np.float32)
    msg = _launch_expect_fault(acl, stream, test_kernels_so, "add_at", [x, 1])
    assert "Add" in msg and "UB offset 4" in msg


def test_ub_overflow_names_kernel_and_sizes(acl, dev, stream, test_kernels_so):
    x = dev.zeros(8, np.float32)
    msg = _launch_expect_fault(acl, stream, test_kernels_so, "ub_hog", [x, 64])
    assert "262144" in msg and "196608" in msg and "Ascend910B1" in msg
    # 2 x 2 x 40 KiB fits in 192 KiB; the stream is usable again after the fault.
    with K.KernelBinary(test_kernels_so) as b:
        b.function("ub_hog")(48, x, 40, stream=stream)
        assert acl.rt.synchronize_stream(stream) == 0, recent_error(acl)


def test_deque_on_empty_queue(acl, dev, stream, test_kernels_so):
    msg = _launch_expect_fault(acl, stream, test_kernels_so, "deque_empty", [dev.zeros(8, np.float32)])
    assert "empty queue" in msg


def test_gm_access_past_set_global_buffer(acl, dev, stream, test_kernels_so):
    msg = _launch_expect_fault(acl, stream, test_kernels_so, "gm_out_of_bounds", [dev.zeros(16, np.float32)])
    assert "16 elements" in msg


@pytest.mark.parametrize("n,rows,left", [(1, 1, 0), (7, 3, 0), (13, 5, 0), (100, 2, 0), (5, 4, 2)])
def test_datacopy_pad_unaligned_rows(acl, dev, stream, test_kernels_so, n, rows, left):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n * rows).astype(np.float32)
    row = (left * 4 + n * 4 + 31) // 32 * 8
    xd, zd = dev.upload(x), dev.zeros(n * rows, np.float32)
    ubd = dev.zeros(row * rows, np.float32)
    with K.KernelBinary(test_kernels_so) as b:
        b.function("pad_roundtrip")(1, xd, zd, ubd, n, rows, left, stream=stream)
        assert acl.rt.synchronize_stream(stream) == 0, recent_error(acl)
    ub = dev.download(ubd, (rows, row), np.float32)
    want = np.full((rows, row), 9.0, np.float32)
    want[:, left:left + n] = x.reshape(rows, n)
    np.testing.assert_array_equal(ub, want)
    if left == 0:
        np.testing.assert_array_equal(dev.download(zd, n * rows, np.float32), x + np.float32(1))


# ------------------------------------------------------------------ launch API errors

def test_launch_api_error_codes(acl, dev, stream, test_kernels_so, tmp_path):
    k = core()
    b, ret = k.load(test_kernels_so)
    assert ret == 0 and b
    f, ret = k.get_function(b, "block_info")
    assert ret == 0 and f
    assert k.get_function(b, "block_info") == (f, 0)  # same handle again
    assert k.get_function_name(f) == ("block_info", 0)
    out = dev.zeros(2, np.uint32)
    assert k.launch(f, 0, [out], stream) == RT_PARAM_INVALID
    assert k.launch(f, 65536, [out], stream) == RT_PARAM_INVALID
    assert k.launch(f, 1, [out] * 33, stream) == RT_PARAM_INVALID
    assert k.launch(f, 65535, [dev.zeros(2 * 65535, np.uint32)], stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    # Unknown kernel names, including symbols of the .so's dependencies.
    assert k.get_function(b, "no_such_kernel")[1] == RT_KERNEL_LOOKUP
    assert "no_such_kernel" in recent_error(acl)
    assert k.get_function(b, "memcpy")[1] == RT_KERNEL_LOOKUP
    # Bad and stale handles.
    assert k.get_function(12345678, "block_info")[1] == RT_INVALID_HANDLE
    assert k.launch(87654321, 1, [out], stream) == RT_INVALID_HANDLE
    assert k.unload(b) == 0
    assert k.unload(b) == RT_INVALID_HANDLE
    assert k.get_function(b, "block_info")[1] == RT_INVALID_HANDLE
    assert k.launch(f, 1, [out], stream) == RT_INVALID_HANDLE
    # Files that are not kernel binaries.
    assert k.load(str(tmp_path / "missing.so"))[1] == RT_PARAM_INVALID
    bogus = tmp_path / "bogus.so"
    bogus.write_text("not an ELF file")
    assert k.load(str(bogus))[1] == RT_PARAM_INVALID
    assert "bogus.so" in recent_error(acl)


def test_unload_waits_for_queued_launches(acl, dev, stream, test_kernels_so):
    k = core()
    b, _ = k.load(test_kernels_so)
    f, _ = k.get_function(b, "count_blocks")
    counts = dev.zeros(1000, np.uint32)
    for _ in range(20):
        assert k.launch(f, 1000, [counts], stream) == 0
    assert k.unload(b) == 0  # launches still queued keep the module loaded
    assert acl.rt.synchronize_stream(stream) == 0
    assert (dev.download(counts, 1000, np.uint32) == 20).all()


def test_two_binaries_same_kernel_names(acl, dev, stream, kernel_build_dir):
    src = ('#include "kernel_operator.h"\n'
           'extern "C" __global__ __aicore__ void which(GM_ADDR o) { *(uint32_t*)o = VALUE; }\n')
    paths = []
    for v in (1, 2):
        p = os.path.join(kernel_build_dir, f"which{v}.cpp")
        with open(p, "w") as fh:
            fh.write(src)
        paths.append(K.compile_kernel(p, os.path.join(kernel_build_dir, f"which{v}.so"), defines=[f"VALUE={v}"]))
    out = dev.zeros(1, np.uint32)
    for v, p in zip((1, 2), paths):
        with K.KernelBinary(p) as b:
            b.function("which")(1, out, stream=stream)
            assert acl.rt.synchronize_stream(stream) == 0
        assert dev.download(out, 1, np.uint32)[0] == v
