"""fp16 / bf16 pointwise convs on the GEMM read their input and residual as they lie and narrow each finished tile
into the output (HalfRowsPanelSource, GemmEpilogue::out_half), without widening and narrowing passes around the op.

Each output must be exactly the fp32 conv of the widened values, rounded once, on every shape the tiles cut
differently (one-column tails, batches, groups, few rows), with every epilogue; and inside a force_fp16 model,
where ATC's memory plan hands a conv the buffer of its residual input, the residual is read before its own
element is overwritten."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from acl_sim._core import testing_model
from acl_sim.compiler import compile_model
from atc_util import make_model, ort_run
from conftest import run_check_in_child
from kernel_harness import BF16, randn, run_op

HALF_DTYPES = [np.float16] + ([BF16] if BF16 is not None else [])

CASES = [  # X shape, W shape, group
    ((1, 24, 14, 14), (40, 24, 1, 1), 1),   # 196 columns: a 4-column tail
    ((2, 64, 7, 7), (72, 64, 1, 1), 1),     # 49 columns: a one-column tail, two images
    ((1, 32, 56, 56), (16, 32, 1, 1), 1),   # long N, many tiles
    ((3, 16, 5, 9), (3, 16, 1, 1), 1),      # three rows: every panel ragged
    ((2, 48, 10, 10), (64, 12, 1, 1), 4),   # grouped: one small GEMM per image and group
    ((1, 520, 8, 8), (24, 520, 1, 1), 1),   # K past one slice
]
EPILOGUES = [  # bias, residual, attributes
    (True, False, {"activation": "Relu"}),
    (True, True, {"activation": "Relu"}),
    (False, True, {"activation": "LeakyRelu", "activation_alpha": 0.1}),
    (False, False, {}),
]


def _check_cases(dtype_name: str) -> None:
    """Every case and epilogue against the fp32 conv rounded once (run here, and in children on other ISAs)."""
    dtype = np.float16 if dtype_name == "float16" else BF16
    rng = np.random.default_rng(41)
    for xs, ws, group in CASES:
        x, w, b = randn(rng, xs, dtype), randn(rng, ws, dtype), randn(rng, (ws[0],), dtype)
        out = (xs[0], ws[0], xs[2], xs[3])
        r = randn(rng, out, dtype)
        for with_bias, with_res, at in EPILOGUES:
            if with_res and group != 1:
                continue
            at = dict(at, group=group)
            ins = [x, w, b if with_bias else None] + ([r] if with_res else [])
            (want,) = run_op("Conv", [None if a is None else a.astype(np.float32) for a in ins], [out],
                             [np.float32], at)
            (y,) = run_op("Conv", ins, [out], [dtype], at)
            assert y.dtype == np.dtype(dtype)
            np.testing.assert_array_equal(y.astype(np.float32), want.astype(dtype).astype(np.float32),
                                          err_msg=f"{xs} {ws} {at} bias={with_bias} residual={with_res}")


@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=lambda d: np.dtype(d).name)
def test_pointwise_half_is_the_fp32_conv_rounded_once(dtype, monkeypatch):
    # Outside a model the direct and pixel-major convs take most 1x1 convs: both off sends them all to the GEMM.
    monkeypatch.setenv("ACL_SIM_CONV_DIRECT", "0")
    monkeypatch.setenv("ACL_SIM_CONV_PIXEL_MAJOR", "0")
    _check_cases(np.dtype(dtype).name)


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_pointwise_half_on_other_isas(isa):
    # The AVX2 and portable kernels store fp16 and widen an fp16 B in their own code (gemm_microkernel.cpp).
    run_check_in_child("test_fp16_pointwise", "_check_cases('float16')", ACL_SIM_KERNEL_ISA=isa,
                       ACL_SIM_CONV_DIRECT="0", ACL_SIM_CONV_PIXEL_MAJOR="0")


def _block_model():
    # x -> 3x3 conv -> a; a -> 1x1 -> Relu -> b; 1x1(b) + a -> Relu: the last conv takes a as its fused residual,
    # a's last use, so the memory plan may give the conv's output a's buffer.
    rng = np.random.default_rng(5)
    c = 32
    inits = {"w0": randn(rng, (c, 8, 3, 3), scale=0.2), "w1": randn(rng, (16, c, 1, 1), scale=0.2),
             "b1": randn(rng, (16,), scale=0.1), "w2": randn(rng, (c, 16, 1, 1), scale=0.2),
             "b2": randn(rng, (c,), scale=0.1)}
    nodes = [
        helper.make_node("Conv", ["x", "w0"], ["a"], pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["a", "w1", "b1"], ["c1"]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"]),
        helper.make_node("Add", ["c2", "a"], ["s"]),
        helper.make_node("Relu", ["s"], ["y"]),
    ]
    return make_model(nodes, [("x", [2, 8, 20, 20])], [("y", [2, c, 20, 20])], inits)


def test_force_fp16_block_with_a_residual_matches_onnxruntime(tmp_path, monkeypatch):
    monkeypatch.setenv("ACL_SIM_CONV_DIRECT", "0")  # the 1x1 convs on the GEMM, as 28x28 and larger planes take it
    monkeypatch.setenv("ACL_SIM_CONV_PIXEL_MAJOR", "0")
    model = _block_model()
    report = compile_model(model, str(tmp_path / "m"), precision_mode="force_fp16", cache=False)
    x = randn(np.random.default_rng(6), (2, 8, 20, 20))
    (want,) = ort_run(model, {"x": x})
    m = testing_model.Model.from_file(report["om_path"])
    (first,) = m.run([x])
    (again,) = m.run([x])
    np.testing.assert_array_equal(first, again)
    np.testing.assert_allclose(first, want, rtol=2e-2, atol=2e-2 * np.abs(want).max())
