"""aclblas through the public API (acl.blas.hgemm / s8gemm on device memory, stream sync) vs numpy,
same run.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_blas.py [--seconds 1.5]

Timing: bench_timing.compare (wall clock, all cores both sides, alternated, median of per-pair ratios).
The reference is what a CPU user would write: numpy.matmul on float32 copies for fp16 (then the
alpha/beta epilogue and the cast back), and int64 matmul for int8 -> int32 (numpy has no int8 GEMM
with int32 accumulation; int64 is the exact equivalent). The acl_sim side includes the per-call
validation, the single-op resolve, the stream task and the fp16/int8 widening.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_timing as bt  # noqa: E402

SHAPES = [(256, 256, 256), (1024, 1024, 1024), (64, 4096, 1024), (2048, 512, 128)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.5, help="timing budget per case")
    args = ap.parse_args()
    import acl

    print(bt.machine_header())
    print("aclblas (hgemm fp16->fp16, s8gemm int8->int32) vs numpy\n")
    assert acl.init() in (0, 100002)
    assert acl.rt.set_device(0) == 0
    rng = np.random.default_rng(0)

    def put(x):
        p, ret = acl.rt.malloc(x.nbytes, 0)
        assert ret == 0
        assert acl.rt.memcpy(p, x.nbytes, x.ctypes.data, x.nbytes, 1) == 0
        return p

    rows, frees = [], []
    for m, k, n in SHAPES:
        for kind in ("hgemm", "s8gemm"):
            if kind == "hgemm":
                a, b, c = (rng.standard_normal(s).astype(np.float16) for s in ((m, k), (k, n), (m, n)))
                al, be = put(np.array([1.0], np.float16)), put(np.array([0.5], np.float16))
            else:
                a, b = (rng.integers(-128, 128, s).astype(np.int8) for s in ((m, k), (k, n)))
                c = np.zeros((m, n), np.int32)
                al, be = put(np.array([1], np.int32)), put(np.array([0], np.int32))
            pa, pb, pc = put(a), put(b), put(c)
            frees += [pa, pb, pc, al, be]
            fn = acl.blas.hgemm if kind == "hgemm" else acl.blas.s8gemm

            def ours():
                assert fn(0, 0, 0, m, n, k, al, pa, -1, pb, -1, be, pc, -1, 0, 0) == 0
                assert acl.rt.synchronize_stream(0) == 0

            a32, b32, c32 = a.astype(np.float32), b.astype(np.float32), c.astype(np.float32)
            a64, b64 = a.astype(np.int64), b.astype(np.int64)

            def ref():
                if kind == "hgemm":
                    return (np.matmul(a32, b32) + np.float32(0.5) * c32).astype(np.float16)
                return np.matmul(a64, b64).astype(np.int32)

            cmp = bt.compare(ours, ref, seconds=args.seconds, settle=bt.OPENBLAS_SETTLE_S)
            flops = 2.0 * m * n * k
            rows.append([kind, f"{m} x {k} x {n}", bt.ms(cmp.ours_s), bt.ms(cmp.ref_s),
                         f"{flops / cmp.ours_s / 1e9:.1f}", f"{cmp.ratio:.2f}x", str(cmp.pairs)])
            print("  ".join(rows[-1]), flush=True)
    for p in frees:
        acl.rt.free(p)
    print()
    print(bt.table(["call", "M x K x N", "acl_sim ms", "numpy ms", "acl_sim GF/s", "time ratio", "pairs"], rows))


if __name__ == "__main__":
    main()
