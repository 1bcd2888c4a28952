"""The GEMM micro-kernel paths against float64 NumPy, on every ISA this host can run.

A is read in place (row-major, alpha 1: conv weights, MatMul) or packed (transA, alpha != 1);
ragged right edges go to the 8-wide AVX-512 tail kernel (N = 56 -> 48 + 8) or to narrower
full-vector kernels (57 -> 48 + 16; AVX2: 4x24 strips, then 4x16 or the 4x8 edge kernel with two
accumulator sets); a last single column (N = 49 -> 48 + 1, AVX2 25 -> 24 + 1) to the column kernel
(dot products along k, scalar for packed A); ragged bottom edges (M not a multiple of the kernel
height) clamp the in-place row reads. The ISA is fixed per process, so each runs in a fresh interpreter.
With several M blocks each tile packs its own copy of the B slice its rows need; ACL_SIM_GEMM_MC
forces that split whatever the host's core count.
"""
import os
import subprocess
import sys
import textwrap

import pytest

from kernel_harness import testing  # noqa: F401  (the build under test must import)
from acl_sim.tools.timing import cpu_info

CHECKS = textwrap.dedent("""
    import numpy as np
    from kernel_harness import assert_close_accum, conv_ref, randn, run_op
    rng = np.random.default_rng(7)
    f64 = lambda a: a.astype(np.float64)
    # M edges around 4, 6 and 8 rows, N edges around 8 / 16 / 24 / 48, K across the 256 slice (odd slice
    # depths reach the AVX2 4x8 edge kernel's odd-k step); last 2-4 columns of a block as one-column strips
    # (50, 99, 196, 100; 3 and 26 with no whole strip before them on AVX-512 / AVX2).
    for m, k, n in [(1, 3, 49), (5, 40, 8), (7, 300, 9), (9, 257, 49), (13, 64, 57), (15, 513, 56),
                    (23, 31, 200), (8, 600, 47), (64, 576, 196), (3, 70, 100), (6, 129, 25), (10, 255, 40),
                    (18, 33, 23), (14, 7, 31), (16, 1000, 97), (33, 130, 73), (4, 5, 1), (9, 17, 145),
                    (11, 90, 50), (17, 300, 99), (12, 260, 3), (5, 33, 26)]:
        a, b = randn(rng, (m, k)), randn(rng, (k, n))
        (y,) = run_op("MatMul", [a, b], [(m, n)], [np.float32])
        assert_close_accum(y, f64(a) @ f64(b), np.float32, k)
        # Packed A: transposed and scaled.
        at, c = np.ascontiguousarray(a.T), randn(rng, (n,))
        (y,) = run_op("Gemm", [at, b, c], [(m, n)], [np.float32], {"transA": 1, "alpha": 0.75, "beta": 0.5})
        assert_close_accum(y, 0.75 * (f64(a) @ f64(b)) + 0.5 * f64(c), np.float32, k)
        # In-place A with beta accumulation into C and a Relu epilogue.
        c2 = randn(rng, (m, n))
        (y,) = run_op("Gemm", [a, b, c2], [(m, n)], [np.float32], {"beta": 1.0, "activation": "Relu"})
        assert_close_accum(y, np.maximum(f64(a) @ f64(b) + f64(c2), 0), np.float32, k)
    # Deep-layer convolutions: few output pixels (7x7 = 49, 5x3), many channels, strides, dilation, groups.
    for xs, ws, attrs in [((1, 40, 7, 7), (36, 40, 3, 3), {"pads": [1, 1, 1, 1]}),
                          ((2, 24, 14, 13), (20, 24, 3, 3), {"pads": [1, 0, 1, 2], "strides": [2, 2]}),
                          ((1, 16, 9, 7), (13, 16, 3, 3), {"pads": [2, 2, 2, 2], "dilations": [2, 2]}),
                          ((1, 32, 7, 7), (50, 32, 1, 1), {}),
                          ((1, 12, 10, 6), (18, 4, 3, 1), {"pads": [1, 0, 1, 0], "group": 3})]:
        x, w, bias = randn(rng, xs), randn(rng, ws), randn(rng, (ws[0],))
        want = conv_ref(x, w, bias, **{k: v for k, v in attrs.items()})
        (y,) = run_op("Conv", [x, w, bias], [want.shape], [np.float32], attrs)
        assert_close_accum(y, want, np.float32, int(np.prod(ws[1:])))
    print("ok")
""")

# A large product (K x N > 2M floats: many N blocks) with a Relu epilogue.
REGIONS = textwrap.dedent("""
    import numpy as np
    from kernel_harness import assert_close_accum, randn, run_op
    rng = np.random.default_rng(3)
    a, b = randn(rng, (40, 1100)), randn(rng, (1100, 2001))
    (y,) = run_op("MatMul", [a, b], [(40, 2001)], [np.float32], {"activation": "Relu"})
    assert_close_accum(y, np.maximum(a.astype(np.float64) @ b, 0), np.float32, 1100)
    print("ok")
""")


def _isas():
    import acl_sim._core as core  # noqa: F401
    out = ["scalar", "avx2"]
    if "avx512f" in cpu_info().get("flags", "").split():
        out.append("avx512")
    return out


@pytest.mark.parametrize("isa", _isas())
def test_gemm_paths_on_isa(isa):
    env = dict(os.environ, ACL_SIM_KERNEL_ISA=isa)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    r = subprocess.run([sys.executable, "-c", CHECKS], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]


def test_packed_a_forced_matches():
    """ACL_SIM_GEMM_PACK_A=1 (benchmark switch) takes the packing path for the same inputs."""
    env = dict(os.environ, ACL_SIM_GEMM_PACK_A="1")
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    r = subprocess.run([sys.executable, "-c", CHECKS], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]


@pytest.mark.parametrize("isa", _isas())
def test_m_split_tiles(isa):
    """Tiles of 16 rows on 3 pool threads: the tiles of one N block each pack the B slices they read."""
    env = dict(os.environ, ACL_SIM_KERNEL_ISA=isa, ACL_SIM_GEMM_MC="16", ACL_SIM_HOST_THREADS="3")
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    r = subprocess.run([sys.executable, "-c", CHECKS + REGIONS], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]
