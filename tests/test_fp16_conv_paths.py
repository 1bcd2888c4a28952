"""fp16 / bf16 convs write their output themselves, with no narrowing pass after them: the direct conv's kernels
store binary16 (or narrow each finished region) in place (rows without pads), by output rows (the strided stems)
and through the tile buffer (junk columns), with and without packed weights; Winograd widens its input plane by
plane and stores binary16 from its output transform (row mode and tile-major mode); the im2col GEMM stores
binary16 (and reads the residual as binary16) from its micro-kernels; the pixel-major conv stores binary16 from its
transposed tile store.

Each output must be exactly the fp32 conv of the same values, rounded once."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from acl_sim._core import testing_model
from acl_sim.compiler import compile_model
from atc_util import make_model
from conftest import ON_IM2COL, run_check_in_child
from kernel_harness import BF16, randn, run_op

HALF_DTYPES = [np.float16] + ([BF16] if BF16 is not None else [])
DIRECT_ONLY = {"ACL_SIM_CONV_DIRECT": "all", "ACL_SIM_CONV_PIXEL_MAJOR": "0", "ACL_SIM_CONV_WINOGRAD": "0"}
WINOGRAD = {"ACL_SIM_CONV_WINOGRAD": "all"}
PATHS = {"direct": DIRECT_ONLY, "winograd-rows": dict(WINOGRAD, ACL_SIM_WINO_TILE_MAJOR="0"),
         "winograd-tiles": dict(WINOGRAD, ACL_SIM_WINO_TILE_MAJOR="1"), "im2col": ON_IM2COL,
         "pixel-major": {"ACL_SIM_CONV_PIXEL_MAJOR": "all", "ACL_SIM_CONV_WINOGRAD": "0"}}

DIRECT_CASES = [  # X shape, W shape, attributes: each store mode of the direct conv
    ((1, 3, 58, 58), (64, 3, 3, 3), {"strides": [2, 2]}),                   # by output rows (a stem)
    ((1, 64, 20, 20), (16, 64, 1, 1), {}),                                  # in place: no pads, stride 1
    ((2, 24, 9, 9), (40, 24, 3, 3), {"pads": [1, 1, 1, 1]}),                # tile buffer: junk columns
    ((1, 16, 30, 30), (24, 16, 3, 3), {"pads": [1, 1, 1, 1], "group": 1}),  # rows wide enough for by-rows
    ((1, 300, 7, 7), (20, 300, 1, 1), {}),                                  # K past one slice, in place
    ((1, 40, 6, 6), (24, 40, 1, 1), {}),                                    # in place, a masked 48-wide strip
]
WINOGRAD_CASES = [  # 3x3 stride 1: ragged tile edges, batches, no pads
    ((1, 16, 27, 27), (40, 16, 3, 3), {"pads": [1, 1, 1, 1]}),
    ((2, 8, 13, 13), (24, 8, 3, 3), {"pads": [1, 1, 1, 1]}),
    ((1, 32, 18, 18), (16, 32, 3, 3), {}),
]
IM2COL_CASES = [  # windowed or strided convs on the GEMM: X widened, Y and the residual read and written as they lie
    ((1, 24, 9, 9), (40, 24, 3, 3), {"pads": [1, 1, 1, 1]}),
    ((1, 64, 14, 14), (72, 64, 1, 1), {"strides": [2, 2]}),           # 1x1/2: 49 columns, a one-column tail
    ((2, 16, 15, 15), (24, 16, 3, 3), {"strides": [2, 2], "pads": [1, 1, 1, 1]}),  # phase planes
]
PIXEL_MAJOR_CASES = [  # pixel tiles of 14 (AVX-512) / 6 (AVX2), ragged; channels past one 32- or 16-wide panel
    ((1, 32, 14, 14), (40, 32, 3, 3), {"pads": [1, 1, 1, 1]}),
    ((1, 3, 31, 31), (36, 3, 7, 7), {"strides": [2, 2], "pads": [3, 3, 3, 3]}),
    ((2, 64, 7, 7), (20, 64, 1, 1), {}),
]
CASES = {"direct": DIRECT_CASES, "winograd-rows": WINOGRAD_CASES, "winograd-tiles": WINOGRAD_CASES,
         "im2col": IM2COL_CASES, "pixel-major": PIXEL_MAJOR_CASES}
EPILOGUES = [
    (True, False, {"activation": "Relu"}),
    (True, True, {"activation": "Relu"}),
    (False, True, {"activation": "LeakyRelu", "activation_alpha": 0.1}),
    (False, False, {}),
]


def _check_cases(dtype_name: str, path: str) -> None:
    dtype = np.float16 if dtype_name == "float16" else BF16
    rng = np.random.default_rng(7)
    for xs, ws, attrs in CASES[path]:
        x, w, b = randn(rng, xs, dtype), randn(rng, ws, dtype, 0.3), randn(rng, (ws[0],), dtype)
        oh = (xs[2] + sum(attrs.get("pads", [0, 0, 0, 0])[::2]) - ws[2]) // attrs.get("strides", [1, 1])[0] + 1
        out = (xs[0], ws[0], oh, oh)
        r = randn(rng, out, dtype)
        for with_bias, with_res, at in EPILOGUES:
            at = dict(attrs, **at)
            ins = [x, w, b if with_bias else None] + ([r] if with_res else [])
            (want,) = run_op("Conv", [None if a is None else a.astype(np.float32) for a in ins], [out],
                             [np.float32], at)
            (y,) = run_op("Conv", ins, [out], [dtype], at)
            np.testing.assert_array_equal(y.astype(np.float32), want.astype(dtype).astype(np.float32),
                                          err_msg=f"{xs} {ws} {at} bias={with_bias} residual={with_res}")


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=lambda d: np.dtype(d).name)
def test_half_is_the_fp32_conv_rounded_once(dtype, path, monkeypatch):
    for k, v in PATHS[path].items():
        monkeypatch.setenv(k, v)
    _check_cases(np.dtype(dtype).name, path)


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_half_on_other_isas(isa, path):
    run_check_in_child("test_fp16_conv_paths", f"_check_cases('float16', {path!r})", ACL_SIM_KERNEL_ISA=isa,
                       **PATHS[path])


@pytest.mark.parametrize("xs,ws,attrs", DIRECT_CASES[:3], ids=["rows", "in-place", "tile-buffer"])
def test_force_fp16_model_on_packed_weights_is_the_fp32_model_rounded_once(xs, ws, attrs, tmp_path, monkeypatch):
    # In a loaded model the direct conv reads its weights packed (conv_direct_packed.h). With every value already
    # an fp16 one, the force_fp16 model computes the fp32 model's conv and rounds its output once.
    for k, v in DIRECT_ONLY.items():
        monkeypatch.setenv(k, v)
    rng = np.random.default_rng(8)
    w = randn(rng, ws, np.float16, 0.3).astype(np.float32)
    b = randn(rng, (ws[0],), np.float16).astype(np.float32)
    x = randn(rng, xs, np.float16).astype(np.float32)
    oh = (xs[2] + sum(attrs.get("pads", [0, 0, 0, 0])[::2]) - ws[2]) // attrs.get("strides", [1, 1])[0] + 1
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], **attrs), helper.make_node("Relu", ["c"], ["y"])]
    model = make_model(nodes, [("x", list(xs))], [("y", [xs[0], ws[0], oh, oh])], {"w": w, "b": b})
    outs = {}
    for mode in ("force_fp32", "force_fp16"):
        report = compile_model(model, str(tmp_path / mode), precision_mode=mode, cache=False)
        m = testing_model.Model.from_file(report["om_path"])
        (first,) = m.run([x])
        (again,) = m.run([x])  # the second run reads the weights packed on the first
        np.testing.assert_array_equal(first, again)
        outs[mode] = first
    np.testing.assert_array_equal(outs["force_fp16"], outs["force_fp32"].astype(np.float16).astype(np.float32))
