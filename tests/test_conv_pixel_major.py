"""The pixel-major direct conv (conv_pixel_major.cpp: pixels as micro-kernel rows, output channels in the
vector lanes, weights packed once per loaded model) against float64 NumPy: every geometry it takes, the
epilogues, batch, both SIMD ISAs and the portable kernels, and a loaded model reusing its packed weights."""

import csv

import numpy as np
import pytest
from onnx import helper

from acl_sim import _core
from conftest import execute_om_in_child, run_check_in_child
from atc_util import compile_and_compare, make_model
from kernel_harness import assert_close_accum, conv_ref, randn, run_op

# (X shape, W shape, attrs), each run with ACL_SIM_CONV_PIXEL_MAJOR=all.
CASES = [
    ((2, 128, 7, 7), (32, 128, 3, 3), {"pads": [1, 1, 1, 1]}),            # densenet 7x7, batch 2
    ((1, 128, 7, 7), (32, 128, 3, 3), {"pads": [1, 1, 1, 1]}),            # one image: rows cut 4 + 3 for 2+ threads
    ((1, 64, 14, 14), (40, 64, 3, 3), {"pads": [1, 1, 1, 1]}),            # ragged last panel (40 = 32 + 8)
    ((1, 16, 15, 31), (70, 16, 3, 3), {"pads": [1, 1, 1, 1]}),            # rows split 16 + 15, 3 panels
    ((1, 24, 9, 9), (33, 24, 3, 3), {"strides": [2, 2], "pads": [1, 1, 1, 1]}),  # 3x3/2: phase planes
    ((1, 20, 12, 11), (48, 20, 1, 1), {"strides": [2, 2]}),                # 1x1/2: one phase plane
    ((1, 3, 30, 30), (16, 3, 7, 7), {"strides": [2, 2], "pads": [3, 3, 3, 3]}),  # stem-like
    ((2, 12, 10, 9), (17, 12, 1, 1), {}),                                  # pointwise, batch 2
    ((1, 6, 14, 11), (7, 6, 3, 3), {"pads": [2, 2, 2, 2], "dilations": [2, 2]}),
    ((1, 6, 10, 9), (5, 6, 4, 3), {"auto_pad": "SAME_LOWER", "strides": [3, 2]}),
    ((1, 8, 3, 2), (9, 8, 2, 2), {"pads": [0, 1, 1, 0]}),                  # tiny plane, 1-2 pixel rows
    ((2, 4, 37), (6, 2, 5), {"group": 2, "pads": [2, 1], "dilations": [2]}),  # 1-D, groups
    ((1, 12, 8, 8), (24, 3, 3, 3), {"group": 4, "pads": [1, 1, 1, 1]}),
    ((1, 300, 5, 16), (100, 300, 1, 1), {}),                               # long K, 100 = 3 x 32 + 4 channels
    ((1, 40, 9, 40), (96, 40, 3, 3), {"pads": [1, 1, 1, 1]}),              # K = 360, rows of 40 = 14 + 13 + 13
    ((1, 20, 11, 75), (40, 20, 3, 3), {"strides": [2, 2], "pads": [1, 0, 0, 1]}),  # stride-2 phases of long rows
    ((1, 40, 7, 7), (64, 40, 3, 3), {"pads": [1, 1, 1, 1]}),               # 7-wide rows in pairs (+ a last one)
    ((2, 24, 10, 12), (40, 24, 3, 3), {"strides": [2, 2], "pads": [1, 1, 1, 1]}),  # 5 x 6 outputs, batch 2
    ((1, 16, 8, 8), (33, 16, 3, 3), {"strides": [2, 2], "pads": [1, 1, 1, 1]}),    # 4 x 4: the narrowest pairs
    ((1, 40, 14, 14), (12, 40, 3, 3), {"pads": [1, 1, 1, 1]}),             # AVX2 tiles of 5 + 5 + 4, 12 channels
]


def _ref(x, w, b, at):
    return conv_ref(x, w, b, strides=at.get("strides"), dilations=at.get("dilations"), pads=at.get("pads"),
                    group=at.get("group", 1), auto_pad=at.get("auto_pad", "NOTSET"))


def _check_cases():
    rng = np.random.default_rng(17)
    for xs, ws, at in CASES:
        x, w, b = randn(rng, xs), randn(rng, ws), randn(rng, (ws[0],))
        k = int(np.prod(ws[1:]))
        want = _ref(x, w, b, at)
        (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], at)
        assert_close_accum(y, want, np.float32, k)
        (y,) = run_op("Conv", [x, w], [want.shape], [np.float32], dict(at, activation="Relu"))
        assert_close_accum(y, np.maximum(_ref(x, w, None, at), 0), np.float32, k)
        if at.get("group", 1) == 1:  # residual epilogue
            r = randn(rng, want.shape)
            (y,) = run_op("Conv", [x, w, b, r], [want.shape], [np.float32], dict(at, activation="Relu"))
            assert_close_accum(y, np.maximum(want + r, 0), np.float32, k)
            # An activation the tile store does not apply in registers (stored, then the epilogue pass).
            (y,) = run_op("Conv", [x, w, b, r], [want.shape], [np.float32],
                          dict(at, activation="LeakyRelu", activation_alpha=0.2))
            assert_close_accum(y, np.where(want + r >= 0, want + r, 0.2 * (want + r)), np.float32, k)


def test_pixel_major_geometries(monkeypatch):
    monkeypatch.setenv("ACL_SIM_CONV_PIXEL_MAJOR", "all")
    _check_cases()


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_pixel_major_other_isas(isa):
    run_check_in_child("test_conv_pixel_major", "_check_cases()", ACL_SIM_KERNEL_ISA=isa, ACL_SIM_CONV_PIXEL_MAJOR="all")


@pytest.mark.parametrize("mode", ["1", "all"], ids=["auto", "forced"])
def test_pixel_major_in_a_model_reuses_packed_weights(tmp_path, monkeypatch, mode):
    """Densenet's 3x3 128->32 at 7x7 takes the path by default; the model packs its weights on the first
    run (node cache) and every later run, batch 2, reads them."""
    monkeypatch.setenv("ACL_SIM_CONV_PIXEL_MAJOR", mode)
    rng = np.random.default_rng(23)
    w, b = randn(rng, (32, 128, 3, 3), scale=0.1), randn(rng, (32,))
    w2 = randn(rng, (32, 32, 3, 3), scale=0.1)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("Conv", ["r", "w2"], ["y"], pads=[1, 1, 1, 1], strides=[2, 2])]
    model = make_model(nodes, [("x", [2, 128, 7, 7])], [("y", [2, 32, 4, 4])], {"w": w, "b": b, "w2": w2})
    x0 = randn(rng, (2, 128, 7, 7))
    report, _ = compile_and_compare(model, tmp_path, [{"x": x0}])
    m = _core.testing_model.Model.from_file(report["om_path"])
    for _ in range(3):
        x = randn(rng, (2, 128, 7, 7))
        (y,) = m.run([x])
        want = conv_ref(np.maximum(conv_ref(x, w, b, pads=[1, 1, 1, 1]), 0), w2, None, pads=[1, 1, 1, 1],
                        strides=[2, 2])
        assert_close_accum(np.asarray(y), want, np.float32, 2 * 128 * 9)



@pytest.mark.parametrize("plane", [28, 14, 7])
def test_pixel_major_one_panel_conv_shares_its_tiles(tmp_path, plane):
    """Densenet121's 3x3 128->32 convs have one 32-channel weight panel, so only their output rows can be split
    over the pool threads. The profiler's op summary counts each node's parallel regions: one prepares the padded
    input, one runs the tiles. Until stop 28 the tile grid's unit (82 blocks) exceeded the conv's 4-56 blocks: the
    tiles made one job and ran on the calling thread alone, and the node had only the first region."""
    from acl_sim.compiler import compile_model

    rng = np.random.default_rng(5)
    w, b = randn(rng, (32, 128, 3, 3), scale=0.1), randn(rng, (32,))
    model = make_model([helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])],
                       [("x", [1, 128, plane, plane])], [("y", [1, 32, plane, plane])], {"w": w, "b": b})
    report = compile_model(model, str(tmp_path / "conv"), cache=False)
    runs = 3
    prof = tmp_path / "prof"
    execute_om_in_child(report["om_path"], runs, (1, 128, plane, plane), tmp_path, ACL_SIM_PROFILE=str(prof),
                        ACL_SIM_HOST_THREADS="2")
    with open(prof / "op_summary.csv", newline="") as f:
        (row,) = [x for x in csv.DictReader(f) if x["op_type"] == "Conv"]
    assert int(row["count"]) == runs
    assert int(row["pool_forks"]) == 2 * runs, row
    assert int(row["pool_indices"]) >= int(row["pool_forks"]) + runs  # the tiles' region has >= 2 jobs
