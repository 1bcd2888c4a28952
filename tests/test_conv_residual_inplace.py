"""A Conv with a fused residual that writes its output over the residual (memory_plan.py's in-place rule).

ATC's memory plan gives the output of `Conv(c) + a` the buffer of `a` when that is a's last use; every conv
path must then add the residual where it lies: the paths that finish element by element read it before
writing (Winograd, the pixel-major store, the direct conv's tile copy-out), the paths that keep partial sums
in the output accumulate their first K slice onto it (the in-place direct conv, its by-row tiles, the
GEMM with beta 1). Each is forced through the per-call ACL_SIM_CONV_* settings on one loaded model and
checked against float64 NumPy; K over one slice (256) and junk columns are among the shapes.
"""
import numpy as np
import pytest
from onnx import helper

from acl_sim._core import testing_model
from acl_sim.compiler import compile_model
from atc_util import make_model
from conftest import ON_IM2COL, run_check_in_child
from kernel_harness import conv_ref, randn

# (X channels, Y channels, plane, kernel, pads, activation)
CASES = [
    (16, 24, (9, 11), 3, [1, 1, 1, 1], "Relu"),        # 3x3: Winograd / pixel-major / direct with junk columns
    (300, 40, (7, 9), 1, [0, 0, 0, 0], "Relu"),        # 1x1 over K = 300: two K slices in place
    (40, 32, (6, 60), 3, [1, 1, 1, 1], "LeakyRelu"),   # rows >= 48: the direct conv's by-row tiles
    (24, 48, (14, 14), 1, [0, 0, 0, 0], None),         # 196 = 4 x 49: the packed strips, no activation
    (1, 16, (10, 10), 3, [1, 1, 1, 1], "Relu"),        # one input channel (group 1 = C: not the depthwise path)
]

PATHS = [
    {},
    dict(ON_IM2COL),  # GEMM
    dict(ON_IM2COL, ACL_SIM_CONV_GEMM_PACKED="all"),  # GEMM on A packed once
    {"ACL_SIM_CONV_DIRECT": "all", "ACL_SIM_CONV_PIXEL_MAJOR": "0", "ACL_SIM_CONV_WINOGRAD": "0"},
    {"ACL_SIM_CONV_DIRECT": "all", "ACL_SIM_CONV_DIRECT_PACKED": "0", "ACL_SIM_CONV_PIXEL_MAJOR": "0",
     "ACL_SIM_CONV_WINOGRAD": "0"},
    {"ACL_SIM_CONV_PIXEL_MAJOR": "all", "ACL_SIM_CONV_WINOGRAD": "0"},
    {"ACL_SIM_CONV_WINOGRAD": "all"},
]


def _model(tmp, cin, cout, plane, k, pads, act, rng):
    """a = Conv1x1(x); c = Conv1x1(x); r = act(Conv_k(c) + a); y = Conv1x1(r): a's last use is the residual
    (and r is not a graph output, which would live in the caller's buffer)."""
    wa, wc = randn(rng, (cout, 8, 1, 1)) * 0.3, randn(rng, (cin, 8, 1, 1)) * 0.3
    wd = randn(rng, (4, cout, 1, 1)) * 0.3
    wb, bb = randn(rng, (cout, cin, k, k)) * 0.1, randn(rng, (cout,))
    nodes = [helper.make_node("Conv", ["x", "wa"], ["a"]), helper.make_node("Conv", ["x", "wc"], ["c"]),
             helper.make_node("Conv", ["c", "wb", "bb"], ["b"], pads=pads),
             helper.make_node("Add", ["b", "a"], ["s"])]
    if act == "Relu":
        nodes.append(helper.make_node("Relu", ["s"], ["r"]))
    elif act == "LeakyRelu":
        nodes.append(helper.make_node("LeakyRelu", ["s"], ["r"], alpha=0.1))
    else:
        nodes[-1] = helper.make_node("Add", ["b", "a"], ["r"])
    nodes.append(helper.make_node("Conv", ["r", "wd"], ["y"]))
    xs = [1, 8, *plane]
    oh = plane[0] + pads[0] + pads[2] - k + 1
    ow = plane[1] + pads[1] + pads[3] - k + 1
    model = make_model(nodes, [("x", xs)], [("y", [1, 4, oh, ow])], {"wa": wa, "wc": wc, "wb": wb, "bb": bb, "wd": wd})
    report = compile_model(model, str(tmp), cache=False)
    x = randn(rng, xs)
    x64 = x.astype(np.float64)
    a = conv_ref(x64, wa.astype(np.float64), None)
    c = conv_ref(x64, wc.astype(np.float64), None)
    s = conv_ref(c, wb.astype(np.float64), bb.astype(np.float64), pads=pads) + a
    r = {"Relu": np.maximum(s, 0), "LeakyRelu": np.where(s >= 0, s, 0.1 * s), None: s}[act]
    want = conv_ref(r, wd.astype(np.float64), None)
    return report, x, want


def _check(tmp_dir):
    import os
    import pathlib
    rng = np.random.default_rng(11)
    for i, (cin, cout, plane, k, pads, act) in enumerate(CASES):
        report, x, want = _model(pathlib.Path(tmp_dir) / f"res{i}", cin, cout, plane, k, pads, act, rng)
        assert report["op_counts"].get("Conv") == 4 and "Add" not in report["op_counts"], report["op_counts"]
        assert report["memplan"][0]["inplace_count"] >= 1, report["memplan"]
        model = testing_model.Model.from_file(report["om_path"])
        for env in PATHS:
            for key in {k for p in PATHS for k in p}:
                os.environ.pop(key, None)
            os.environ.update(env)
            try:
                (y,) = model.run([x])
            finally:
                for key in env:
                    os.environ.pop(key, None)
            # The model tolerance (Winograd's transforms included); a residual added twice or lost is O(1).
            err = float(np.abs(y - want).max() / np.abs(want).max())
            assert err <= 1e-4, f"case {i} {env}: max |diff| / max |ref| = {err:.2e}"


def test_conv_writes_over_its_residual(tmp_path):
    _check(str(tmp_path))


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_conv_writes_over_its_residual_other_isas(isa, tmp_path):
    run_check_in_child("test_conv_residual_inplace", f"_check({str(tmp_path)!r})", ACL_SIM_KERNEL_ISA=isa)
