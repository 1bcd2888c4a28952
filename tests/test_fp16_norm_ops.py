"""fp16 normalisation, softmax and reduction ops, which force_fp16 now runs in fp16 (CANN: an op that supports both
dtypes takes float16): each output must be exactly the fp32 op on the widened input, rounded once. BatchNormalization
has its own binary16 kernel (channel_affine_half: widened as loaded, rounded as stored), the others widen into this
thread's staging; both run on every ISA here (AVX2 and the portable build in child processes)."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import run_check_in_child
from kernel_harness import randn, run_op

BN_SHAPES = [(1, 5, 7, 7), (2, 3, 14, 14), (1, 4, 56, 56), (1, 6, 1, 7), (3, 2, 5)]  # tails of 1..15 lanes


def _rounded_once(op, ins, out_shapes, attrs, n_out=1):
    want = run_op(op, [a.astype(np.float32) if a.dtype == np.float16 else a for a in ins], out_shapes,
                  [np.float32] * n_out, attrs)
    got = run_op(op, ins, out_shapes, [np.float16] * n_out, attrs)
    for w, y in zip(want, got):
        assert y.dtype == np.float16
        np.testing.assert_array_equal(y.astype(np.float32), w.astype(np.float16).astype(np.float32),
                                      err_msg=f"{op} {ins[0].shape} {attrs}")


def _check_all() -> None:
    rng = np.random.default_rng(3)
    for xs in BN_SHAPES:
        c = xs[1]
        x = randn(rng, xs, np.float16)
        x.reshape(-1)[::97] = np.nan
        params = [randn(rng, (c,), np.float16), randn(rng, (c,), np.float16), randn(rng, (c,), np.float16),
                  (np.abs(randn(rng, (c,), np.float32)) + 0.5).astype(np.float16)]
        for attrs in ({}, {"activation": "Relu"}, {"activation": "LeakyRelu", "activation_alpha": 0.2}):
            _rounded_once("BatchNormalization", [x] + params, [xs], dict(attrs, epsilon=1e-3))
    x = randn(rng, (2, 16, 64), np.float16)
    _rounded_once("LayerNormalization", [x, randn(rng, (64,), np.float16), randn(rng, (64,), np.float16)],
                  [(2, 16, 64)], {"axis": -1, "epsilon": 1e-5})
    x = randn(rng, (1, 4, 16, 16), np.float16, 3.0)
    _rounded_once("Softmax", [x], [(1, 4, 16, 16)], {"axis": -1})
    _rounded_once("LogSoftmax", [x], [(1, 4, 16, 16)], {"axis": 1})
    _rounded_once("ReduceMean", [x], [(1, 4, 1, 16)], {"axes": [2]})
    _rounded_once("ReduceSum", [x, np.array([1, 3], np.int64)], [(1, 1, 16, 1)], {})
    _rounded_once("InstanceNormalization", [x, randn(rng, (4,), np.float16), randn(rng, (4,), np.float16)],
                  [(1, 4, 16, 16)], {})
    _rounded_once("LRN", [x], [(1, 4, 16, 16)], {"size": 3})


def test_fp16_norm_ops_are_the_fp32_ops_rounded_once():
    _check_all()


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_fp16_norm_ops_on_other_isas(isa):
    run_check_in_child("test_fp16_norm_ops", "_check_all()", ACL_SIM_KERNEL_ISA=isa)
