"""acl.blas (aclblas*): GEMM / GEMV on device memory against float64 NumPy references,
the handle forms through acl.op.execute_with_handle, and CANN's codes for misuse."""
import numpy as np
import pytest

from acl_helpers import from_device, to_device
from acl_sim import constants as C, dtypes

N, T, NZ, NZ_T = C.ACL_TRANS_N, C.ACL_TRANS_T, C.ACL_TRANS_NZ, C.ACL_TRANS_NZ_T
HIGH = C.ACL_COMPUTE_HIGH_PRECISION
F16, F32, I8, I32 = C.ACL_FLOAT16, C.ACL_FLOAT, C.ACL_INT8, C.ACL_INT32
NP = {value: dt.type for value, dt in dtypes.NUMPY_OF_ACL.items()}  # scalar types: NP[dt](1.5)


class Dev:
    """Device copies of numpy arrays, freed at the end."""

    def __init__(self, acl):
        self.acl, self.ptrs = acl, []

    def put(self, array):
        ptr, _ = to_device(self.acl, array)
        self.ptrs.append(ptr)
        return ptr

    def free(self):
        for p in self.ptrs:
            self.acl.rt.free(p)


@pytest.fixture
def dev(acl, device):
    d = Dev(acl)
    yield d
    d.free()


def rand(rng, dtype, shape):
    if dtype == I8:
        return rng.integers(-128, 128, size=shape).astype(np.int8)
    return rng.standard_normal(shape).astype(NP[dtype])


def to_nz(mat, c0):
    """R x C row-major -> FRACTAL_NZ {ceil(C/c0), ceil(R/16), 16, c0} (zero padded)."""
    r, c = mat.shape
    rp, cp = -(-r // 16) * 16, -(-c // c0) * c0
    pad = np.zeros((rp, cp), mat.dtype)
    pad[:r, :c] = mat
    return np.ascontiguousarray(pad.reshape(rp // 16, 16, cp // c0, c0).transpose(2, 0, 1, 3))


def from_nz(nz, rows, cols):
    c1, r1, _, c0 = nz.shape
    return nz.transpose(1, 2, 0, 3).reshape(r1 * 16, c1 * c0)[:rows, :cols]


def reference(a, b, c, alpha, beta, out_dtype):
    ref = float(alpha) * (a.astype(np.float64) @ b.astype(np.float64)) + float(beta) * c.astype(np.float64)
    if out_dtype == I32:
        return (ref.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
    return ref


def check(out, ref, dtype, k):
    if dtype == I32:
        np.testing.assert_array_equal(out, ref)
    elif dtype == F16:
        np.testing.assert_allclose(out.astype(np.float64), ref, rtol=2e-3, atol=2e-3 * np.sqrt(k))
    else:
        np.testing.assert_allclose(out.astype(np.float64), ref, rtol=1e-5, atol=1e-4 * np.sqrt(k))


def stored(mat, trans, dtype, operand):
    if trans == T:
        return np.ascontiguousarray(mat.T)
    if trans == NZ:
        if operand == "b" and dtype == I8:  # FRACTAL_Z: the NZ layout of B's transpose
            return to_nz(np.ascontiguousarray(mat.T), 32)
        return to_nz(mat, 32 if dtype == I8 else 16)
    return mat


CASES = [
    (F16, F16, N, N, 33, 17, 40),
    (F16, F16, N, N, 70, 130, 300),  # B's fp16 rows widened while packed: whole strips and a ragged one
    (F16, F32, T, N, 20, 31, 64),
    (F16, F16, N, T, 16, 16, 16),
    (F16, F32, T, T, 7, 5, 300),
    (I8, I32, N, N, 19, 23, 37),
    (I8, I32, T, T, 8, 9, 2500),   # K > 1024: exact int32 over several fp32 slices
    (I8, F32, N, T, 12, 10, 50),
    (F16, F16, NZ, NZ, 20, 18, 40),
    (I8, I32, NZ, NZ, 17, 20, 70),
]


@pytest.mark.parametrize("dab,dc,ta,tb,m,n,k", CASES)
def test_gemm_ex_matches_float64(acl, dev, dab, dc, ta, tb, m, n, k):
    rng = np.random.default_rng(m * 131 + n * 7 + k)
    a, b, c = rand(rng, dab, (m, k)), rand(rng, dab, (k, n)), rand(rng, dc, (m, n))
    if dc == I32:
        c = rng.integers(-1000, 1000, size=(m, n)).astype(np.int32)
        alpha, beta = np.int32(3), np.int32(-2)
    else:
        alpha, beta = NP[dc](1.5), NP[dc](0.5)
    pa, pb, pc = dev.put(stored(a, ta, dab, "a")), dev.put(stored(b, tb, dab, "b")), dev.put(c)
    pal, pbe = dev.put(np.array([alpha])), dev.put(np.array([beta]))
    s, ret = acl.rt.create_stream()
    assert ret == 0
    ret = acl.blas.gemm_ex(ta, tb, N, m, n, k, pal, pa, -1, dab, pb, -1, dab, pbe, pc, -1, dc, HIGH, s)
    assert ret == 0, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(s) == 0
    out = from_device(acl, pc, (m, n), NP[dc])
    check(out, reference(a, b, c, alpha, beta, dc), dc, k)
    assert acl.rt.destroy_stream(s) == 0


def test_hgemm_nz_output(acl, dev):
    m, n, k = 20, 24, 32
    rng = np.random.default_rng(5)
    a, b, c = rand(rng, F16, (m, k)), rand(rng, F16, (k, n)), rand(rng, F16, (m, n))
    pa, pb, pc = dev.put(a), dev.put(b), dev.put(to_nz(c, 16))
    one, half = dev.put(np.array([1.0], np.float16)), dev.put(np.array([0.5], np.float16))
    ret = acl.blas.hgemm(N, N, NZ, m, n, k, one, pa, -1, pb, -1, half, pc, -1, HIGH, 0)
    assert ret == 0, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(0) == 0
    nz = from_device(acl, pc, (-(-n // 16), -(-m // 16), 16, 16), np.float16)
    check(from_nz(nz, m, n), reference(a, b, c, 1.0, 0.5, F16), F16, k)


def test_s8gemm_and_beta_zero_ignores_c(acl, dev):
    m, n, k = 9, 11, 13
    rng = np.random.default_rng(9)
    a, b = rand(rng, I8, (m, k)), rand(rng, I8, (k, n))
    pa, pb = dev.put(a), dev.put(b)
    pc = dev.put(np.full((m, n), 12345, np.int32))
    al, be = dev.put(np.array([2], np.int32)), dev.put(np.array([0], np.int32))
    assert acl.blas.s8gemm(N, N, N, m, n, k, al, pa, -1, pb, -1, be, pc, -1, HIGH, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    np.testing.assert_array_equal(from_device(acl, pc, (m, n), np.int32),
                                  2 * (a.astype(np.int64) @ b.astype(np.int64)))


@pytest.mark.parametrize("ta", [N, T])
def test_gemv_forms(acl, dev, ta):
    m, n = 37, 29
    rng = np.random.default_rng(ta + 1)
    a16, x16, y16 = rand(rng, F16, (m, n)), rand(rng, F16, (n,)), rand(rng, F16, (m,))
    a_st = np.ascontiguousarray(a16.T) if ta == T else a16
    pa, px, py = dev.put(a_st), dev.put(x16), dev.put(y16)
    al, be = dev.put(np.array([2.0], np.float16)), dev.put(np.array([-1.0], np.float16))
    assert acl.blas.hgemv(ta, m, n, al, pa, -1, px, -1, be, py, -1, HIGH, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    ref = 2.0 * (a16.astype(np.float64) @ x16.astype(np.float64)) - y16.astype(np.float64)
    check(from_device(acl, py, (m,), np.float16), ref, F16, n)

    a8, x8 = rand(rng, I8, (m, n)), rand(rng, I8, (n,))
    y32 = rng.integers(-50, 50, size=m).astype(np.int32)
    pa8 = dev.put(np.ascontiguousarray(a8.T) if ta == T else a8)
    px8, py32 = dev.put(x8), dev.put(y32)
    al32, be32 = dev.put(np.array([1], np.int32)), dev.put(np.array([3], np.int32))
    assert acl.blas.s8gemv(ta, m, n, al32, pa8, -1, px8, -1, be32, py32, -1, HIGH, 0) == 0
    # gemv_ex: int8 in, float32 out
    yf = rand(rng, F32, (m,))
    pyf = dev.put(yf)
    alf, bef = dev.put(np.array([0.25], np.float32)), dev.put(np.array([1.0], np.float32))
    assert acl.blas.gemv_ex(ta, m, n, alf, pa8, -1, I8, px8, -1, I8, bef, pyf, -1, F32, HIGH, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    prod = a8.astype(np.int64) @ x8.astype(np.int64)
    np.testing.assert_array_equal(from_device(acl, py32, (m,), np.int32), prod + 3 * y32)
    check(from_device(acl, pyf, (m,), np.float32), 0.25 * prod + yf.astype(np.float64), F32, n)


def test_handles_run_with_execute_with_handle(acl, dev):
    m, n, k = 12, 10, 24
    rng = np.random.default_rng(3)
    a, b, c = rand(rng, F16, (m, k)), rand(rng, F16, (k, n)), rand(rng, F32, (m, n))
    h, ret = acl.blas.create_handle_for_gemm_ex(N, T, N, m, n, k, F16, F16, F32, HIGH)
    assert ret == 0 and h != 0, acl.get_recent_err_msg()
    ptrs = [dev.put(a), dev.put(np.ascontiguousarray(b.T)), dev.put(c), dev.put(np.array([2.0], np.float32)),
            dev.put(np.array([1.0], np.float32))]
    sizes = [a.nbytes, b.nbytes, c.nbytes, 4, 4]
    bufs = [acl.create_data_buffer(p, s) for p, s in zip(ptrs, sizes)]
    out = acl.create_data_buffer(ptrs[2], c.nbytes)
    assert acl.op.execute_with_handle(h, bufs, [out], 0) == 0, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(0) == 0
    check(from_device(acl, ptrs[2], (m, n), np.float32), reference(a, b, c, 2.0, 1.0, F32), F32, k)
    for bf in bufs + [out]:
        acl.destroy_data_buffer(bf)
    acl.op.destroy_handle(h)
    for make in (lambda: acl.blas.create_handle_for_hgemm(N, N, N, 4, 4, 4, HIGH),
                 lambda: acl.blas.create_handle_for_s8gemm(T, N, N, 4, 4, 4, HIGH),
                 lambda: acl.blas.create_handle_for_gemv_ex(N, 4, 4, I8, I8, F32, HIGH),
                 lambda: acl.blas.create_handle_for_hgemv(T, 4, 4, HIGH),
                 lambda: acl.blas.create_handle_for_s8gemv(N, 4, 4, HIGH)):
        h, ret = make()
        assert ret == 0 and h != 0
        acl.op.destroy_handle(h)


def test_misuse_gets_cann_codes(acl, dev):
    a = dev.put(np.ones((4, 4), np.float16))
    one = dev.put(np.ones(1, np.float16))
    host = np.ones((4, 4), np.float16)

    def hgemm(ta=N, tb=N, tc=N, m=4, n=4, k=4, alpha=one, pa=a, lda=-1, beta=one, ldc=-1, typ=HIGH):
        return acl.blas.hgemm(ta, tb, tc, m, n, k, alpha, pa, lda, a, -1, beta, a, ldc, typ, 0)

    cases = {
        "lda": (dict(lda=4), "must be -1"),
        "ldc": (dict(ldc=0), "must be -1"),
        "null": (dict(alpha=0), "alpha is NULL"),
        "m": (dict(m=0), "must be > 0"),
        "trans": (dict(ta=NZ_T), "transA"),
        "trans_enum": (dict(tb=7), "transA/transB"),
        "transC": (dict(tc=T), "transC"),
        "low": (dict(typ=C.ACL_COMPUTE_LOW_PRECISION), "ACL_COMPUTE_HIGH_PRECISION"),
        "host": (dict(pa=host.ctypes.data), "not device memory"),
        "small": (dict(m=64), "must hold"),
    }
    for name, (kwargs, text) in cases.items():
        ret = hgemm(**kwargs)
        assert ret == C.ACL_ERROR_INVALID_PARAM, (name, ret)
        msg = acl.get_recent_err_msg()
        assert "aclblasHgemm" in msg and text in msg, (name, msg)
    ret = acl.blas.gemm_ex(N, N, N, 4, 4, 4, one, a, -1, F16, a, -1, I8, one, a, -1, F16, HIGH, 0)
    assert ret == C.ACL_ERROR_UNSUPPORTED_DATA_TYPE
    ret = acl.blas.gemm_ex(N, N, N, 4, 4, 4, one, a, -1, F32, a, -1, F32, one, a, -1, F32, HIGH, 0)
    assert ret == C.ACL_ERROR_UNSUPPORTED_DATA_TYPE
    assert "not supported" in acl.get_recent_err_msg()
    h, ret = acl.blas.create_handle_for_gemm_ex(N, N, N, -1, 4, 4, F16, F16, F16, HIGH)
    assert (h, ret) == (0, C.ACL_ERROR_INVALID_PARAM)
    assert acl.blas.hgemv(N, 4, 4, one, a, -1, a, 1, one, a, -1, HIGH, 0) == C.ACL_ERROR_INVALID_PARAM
    assert "incx" in acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(0) == 0


def test_gemm_single_op_model_is_honoured(acl, dev, tmp_path):
    """CANN's gemm sample compiles GEMM with `atc --singleop` and calls aclopSetModelDir; a call
    whose signature is not in the loaded models then fails like CANN (op not found)."""
    import json
    import subprocess
    import sys

    from conftest import subprocess_env

    desc = lambda shape: {"format": "ND", "shape": shape, "type": "float16"}  # noqa: E731
    op = [{"op": "GEMM", "input_desc": [desc([16, 16])] * 3 + [desc([])] * 2, "output_desc": [desc([16, 16])],
           "attr": [{"name": "transpose_a", "type": "bool", "value": False},
                    {"name": "transpose_b", "type": "bool", "value": False}]}]
    (tmp_path / "gemm.json").write_text(json.dumps(op))
    script = f"""
import numpy as np, acl, sys
sys.path.insert(0, {str(tmp_path.parent)!r})
acl.init(); acl.rt.set_device(0)
assert acl.op.set_model_dir({str(tmp_path / 'op_models')!r}) == 0
def put(x):
    p, _ = acl.rt.malloc(x.nbytes, 0); acl.rt.memcpy(p, x.nbytes, x.ctypes.data, x.nbytes, 1); return p
rng = np.random.default_rng(0)
a, b, c = (rng.random((16, 16)).astype(np.float16) for _ in range(3))
pa, pb, pc = put(a), put(b), put(c)
al, be = put(np.array([2.0], np.float16)), put(np.array([1.0], np.float16))
assert acl.blas.hgemm(0, 0, 0, 16, 16, 16, al, pa, -1, pb, -1, be, pc, -1, 0, 0) == 0
assert acl.rt.synchronize_stream(0) == 0
out = np.empty((16, 16), np.float16); acl.rt.memcpy(out.ctypes.data, out.nbytes, pc, out.nbytes, 2)
ref = 2 * (a.astype(np.float64) @ b.astype(np.float64)) + c
assert np.allclose(out, ref, rtol=2e-3, atol=1e-2), abs(out - ref).max()
ret = acl.blas.hgemm(1, 0, 0, 16, 16, 16, al, pa, -1, pb, -1, be, pc, -1, 0, 0)
assert ret == 100024, ret
print("ok")
"""
    env = subprocess_env()
    r = subprocess.run([sys.executable, "-m", "acl_sim", "atc", f"--singleop={tmp_path / 'gemm.json'}",
                        f"--output={tmp_path / 'op_models'}", "--soc_version=Ascend310P3"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr
