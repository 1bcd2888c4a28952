"""Stride-2 windows on the implicit-im2col GEMM: the packing gathers every other input column of each output row
(stride2_gather.h, vectorised from 16 columns, with a masked tail on AVX-512). Output rows of 7 to 40 columns,
odd and even input widths, with and without padding, on this host's kernels and on the AVX2 ones, against
float64 NumPy. Strided windows with output rows under 16 columns pack from the padded, phase-split input instead
(PhasePlaneIm2ColSource): the widths 7, 14 and 15 below, and the geometries of PHASE_CASES."""

import numpy as np
import pytest

from conftest import ON_IM2COL, isa_env, run_check_in_child
from kernel_harness import assert_close_accum, conv_ref, randn, run_op

# (input H, W, kernel, pads): output widths 7, 14, 15, 16, 17, 28, 31, 33, 40
CASES = [(14, 14, 3, [1, 1, 1, 1]), (28, 28, 3, [1, 1, 1, 1]), (30, 30, 3, [0, 0, 1, 1]), (31, 32, 3, [1, 1, 0, 0]),
         (33, 34, 3, [1, 1, 1, 1]), (56, 56, 3, [1, 1, 1, 1]), (20, 62, 3, [1, 1, 1, 1]), (9, 66, 2, [0, 0, 0, 0]),
         (12, 80, 1, [0, 0, 0, 0])]


def _check_cases():
    rng = np.random.default_rng(7)
    for h, w_in, k, pads in CASES:
        x = randn(rng, (1, 24, h, w_in))
        w = randn(rng, (20, 24, k, k))
        want = conv_ref(x, w, strides=[2, 2], pads=pads)
        (y,) = run_op("Conv", [x, w], [want.shape], [np.float32], {"strides": [2, 2], "pads": pads,
                                                                   "kernel_shape": [k, k]})
        assert_close_accum(y, want, np.float32, k=24 * k * k)


@pytest.mark.parametrize("isa", ["native", "avx2"])
def test_im2col_stride2(isa):
    run_check_in_child("test_conv_im2col_stride2", "_check_cases()", **isa_env(isa, **ON_IM2COL))


# Strided windows with output rows under 16 columns (the phase-plane im2col): strides along one axis only, stride
# 3, dilation, asymmetric pads, a 1-D conv, a batch of 2 and 2 groups (one GEMM per image and group).
# (x shape, w shape, attributes)
PHASE_CASES = [((1, 8, 11, 9), (6, 8, 3, 3), {"strides": [2, 1], "pads": [1, 0, 0, 1]}),
               ((1, 8, 9, 23), (6, 8, 3, 3), {"strides": [1, 2], "pads": [0, 1, 1, 0]}),
               ((1, 5, 20, 31), (7, 5, 3, 3), {"strides": [3, 3], "pads": [1, 1, 1, 1]}),
               ((1, 6, 17, 19), (4, 6, 3, 3), {"strides": [2, 2], "dilations": [2, 2], "pads": [2, 2, 2, 2]}),
               ((1, 6, 17, 19), (4, 6, 1, 3), {"strides": [2, 2], "pads": [0, 1, 0, 1]}),
               ((1, 12, 25), (10, 12, 5), {"strides": [2], "pads": [2, 1]}),
               ((2, 8, 13, 13), (6, 4, 3, 3), {"strides": [2, 2], "pads": [1, 1, 1, 1], "group": 2})]


def _check_phase_cases():
    rng = np.random.default_rng(11)
    for xs, ws, attrs in PHASE_CASES:
        x, w, b = randn(rng, xs), randn(rng, ws), randn(rng, (ws[0],))
        want = conv_ref(x, w, b, strides=attrs["strides"], dilations=attrs.get("dilations"), pads=attrs["pads"],
                        group=attrs.get("group", 1))
        assert want.shape[-1] < 16
        (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], attrs)
        assert_close_accum(y, want, np.float32, k=int(np.prod(ws[1:])))


@pytest.mark.parametrize("isa", ["native", "avx2"])
def test_im2col_phase_planes(isa):
    run_check_in_child("test_conv_im2col_stride2", "_check_phase_cases()", **isa_env(isa, **ON_IM2COL))
