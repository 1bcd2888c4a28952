"""Same-width stride-1 windows on the implicit-im2col GEMM (IW == OW: pads summing to kernel - 1 along W): each
k row of B is the channel plane read at a constant shift, masked where the tap falls into the padding
(Im2ColSource::pack_shifted). Planes from 3x4 to 14x14, odd and asymmetric pads along H and W, a 1-D conv, a
batch of 2 with 2 groups, and K slices that start inside a channel's taps (ACL_SIM_GEMM_KC=40), with and without
bias, on this host's kernels and on the AVX2 ones, against float64 NumPy."""

import numpy as np
import pytest

from conftest import ON_IM2COL, isa_env, run_check_in_child
from kernel_harness import assert_close_accum, conv_ref, randn, run_op

# (x shape, w shape, pads): every one keeps the output width equal to the input width
CASES = [((1, 24, 7, 7), (40, 24, 3, 3), [1, 1, 1, 1]),      # N = 49: two 24-wide strips and a single column
         ((1, 16, 14, 14), (20, 16, 3, 3), [1, 1, 1, 1]),
         ((1, 8, 3, 4), (12, 8, 3, 3), [1, 1, 1, 1]),        # N = 12: one strip, mostly tail
         ((1, 6, 5, 9), (10, 6, 5, 5), [2, 2, 2, 2]),
         ((1, 6, 6, 10), (9, 6, 3, 3), [0, 1, 2, 1]),        # no top pad, 2 bottom: OH = IH
         ((1, 6, 8, 12), (9, 6, 2, 2), [1, 0, 0, 1]),        # even kernel: pad left 0, right 1
         ((1, 5, 10, 10), (7, 5, 7, 7), [3, 3, 3, 3]),
         ((1, 6, 9, 11), (8, 6, 3, 3), [0, 1, 0, 1]),        # OH = IH - 2 (no pad along H)
         ((1, 12, 25), (10, 12, 5), [2, 2]),                 # 1-D
         ((2, 8, 7, 9), (6, 4, 3, 3), [1, 1, 1, 1])]         # batch 2, group 2


def _check_cases():
    rng = np.random.default_rng(5)
    for xs, ws, pads in CASES:
        group = xs[1] // ws[1]
        x, w = randn(rng, xs), randn(rng, ws)
        for b in (None, randn(rng, (ws[0],))):
            want = conv_ref(x, w, b, pads=pads, group=group)
            assert want.shape[-1] == xs[-1]
            ins = [x, w] if b is None else [x, w, b]
            (y,) = run_op("Conv", ins, [want.shape], [np.float32], {"pads": pads, "group": group})
            assert_close_accum(y, want, np.float32, k=int(np.prod(ws[1:])))


@pytest.mark.parametrize("isa", ["native", "avx2"])
@pytest.mark.parametrize("kc", [None, "40"])
def test_im2col_same_width(isa, kc):
    env = dict(ON_IM2COL, ACL_SIM_GEMM_KC=kc) if kc else ON_IM2COL
    run_check_in_child("test_conv_im2col_shifted", "_check_cases()", **isa_env(isa, **env))
