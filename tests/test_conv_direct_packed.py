"""The direct conv on weights packed once per loaded model (conv_direct_packed.cpp): 48-column strips with
1-2 extra columns folded in, so 7x7 and 14x14 planes have no narrow last strip. Only a loaded model has the
packed weights (node cache), so every case runs as a compiled one-node model, against float64 NumPy: ragged
panels (M % 8), K slices, batch, groups, residual and activation epilogues, and a windowed conv whose
padded-pitch positions split that way; under AVX2 (no packed kernels) the same models must still agree."""

import numpy as np
import pytest
from onnx import helper

from acl_sim import _core
from conftest import run_check_in_child
from atc_util import compile_and_compare, make_model
from kernel_harness import assert_close_accum, conv_ref, randn

# (X shape, W shape, conv attrs, what follows: True = residual Add + Relu, False = Relu, or an op name / None)
CASES = [
    ((2, 48, 7, 7), (20, 48, 1, 1), {}, False),                          # 49 = 48 + 1, panels 8 + 8 + 4, batch 2
    ((1, 2100, 14, 14), (64, 2100, 1, 1), {}, True),                     # 196 = 4 x 49, K = 2100 in two slices
    ((1, 64, 10, 5), (40, 64, 1, 1), {}, True),                          # 50 = 48 + 2
    ((1, 32, 9, 11), (16, 32, 1, 1), {}, False),                         # 99 = 48 + 1 + 48 + 2
    ((1, 64, 7, 7), (32, 32, 1, 1), {"group": 2}, False),                # groups: one packed block each
    ((1, 16, 9, 47), (24, 16, 3, 3), {"pads": [1, 1, 1, 1]}, True),      # pitch 49: 439 positions = 9 x 48 + 7
    ((1, 40, 7, 7), (24, 40, 1, 1), {}, "Sigmoid"),                       # an activation the kernel leaves to the epilogue pass
    ((1, 40, 14, 14), (16, 40, 1, 1), {}, None),                          # no activation at all
]


def _model(xs, ws, at, residual, rng):
    w, b = randn(rng, ws, scale=0.1), randn(rng, (ws[0],))
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], **at)]
    inits = {"w": w, "b": b}
    y_shape = conv_ref(np.zeros(xs, np.float32), w, b, pads=at.get("pads"), group=at.get("group", 1)).shape
    if residual is True:
        r = randn(rng, y_shape)
        inits["r"] = r
        nodes += [helper.make_node("Add", ["c", "r"], ["s"]), helper.make_node("Relu", ["s"], ["y"])]
    elif residual is None:
        nodes[0].output[0] = "y"
    else:
        nodes += [helper.make_node("Relu" if residual is False else residual, ["c"], ["y"])]
    model = make_model(nodes, [("x", list(xs))], [("y", list(y_shape))], inits)

    def ref(x):
        out = conv_ref(x, w, b, pads=at.get("pads"), group=at.get("group", 1))
        if residual is None:
            return out
        if residual == "Sigmoid":
            return 1 / (1 + np.exp(-out))
        return np.maximum(out + (inits["r"] if residual is True else 0), 0)

    return model, ref


def _check_cases(tmp_path):
    rng = np.random.default_rng(29)
    for i, (xs, ws, at, residual) in enumerate(CASES):
        model, ref = _model(xs, ws, at, residual, rng)
        report, _ = compile_and_compare(model, tmp_path, [{"x": randn(rng, xs)}], name=f"m{i}")
        m = _core.testing_model.Model.from_file(report["om_path"])
        for _ in range(2):  # the first run packs the weights, the second reads them from the node cache
            x = randn(rng, xs)
            (y,) = m.run([x])
            assert_close_accum(np.asarray(y), ref(x), np.float32, int(np.prod(ws[1:])))


def test_direct_packed_strips(tmp_path):
    _check_cases(tmp_path)


@pytest.mark.parametrize("threads", ["1", "avx2"])
def test_direct_packed_one_thread_and_avx2(tmp_path, threads):
    setting = {"ACL_SIM_KERNEL_ISA": "avx2"} if threads == "avx2" else {"ACL_SIM_HOST_THREADS": "1"}
    run_check_in_child("test_conv_direct_packed", f"_check_cases(__import__('pathlib').Path({str(tmp_path)!r}))", **setting)
