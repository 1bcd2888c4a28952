"""The Winograd F(4x4, 3x3) conv path (csrc/kernels/conv_winograd.cpp) against float64 NumPy.

ACL_SIM_CONV_WINOGRAD=all takes it for every 3x3 stride-1 group-1 conv, =0 never, unset the measured
rule (read per call). Covered: channels that are not multiples of the SIMD widths, planes that are not
multiples of the 4x4 tile, pads 0 / 1 / 2 / asymmetric, batch 2, several tile blocks and output-channel
chunks, C over one K slice, bias / Relu / residual epilogues, AVX-512 and AVX2 (subprocess with
ACL_SIM_KERNEL_ISA), and a loaded model's node cache (the transformed weights): two runs and two
concurrent first runs agree bit for bit.

Tolerance: F(4x4, 3x3) in fp32 loses precision in its transforms (constants up to 5 and 1/24): measured
max |ours - ref| / max |ref| is 2e-6 .. 1.2e-5 on these shapes (the direct sum: ~4e-7). The bound is the
model tolerance of tests/test_model_zoo.py, max |ours - ref| <= 1e-4 * max |ref|.
"""

import numpy as np
import pytest
from onnx import helper

from acl_sim._core import testing_model
from acl_sim.compiler import compile_model
from conftest import run_check_in_child, run_in_threads
from atc_util import make_model
from kernel_harness import conv_ref, randn, run_op

WINO_RTOL = 1e-4

# (X shape, M, pads)
CASES = [
    ((1, 16, 20, 20), 16, [1, 1, 1, 1]),     # SIMD-width channels, plane of whole tiles
    ((1, 19, 13, 11), 21, [0, 2, 1, 0]),     # ragged channels, partial tiles, asymmetric pads
    ((2, 7, 9, 30), 13, [0, 0, 0, 0]),       # batch 2, no pads, tile rows spanning vector groups
    ((1, 3, 6, 6), 5, [2, 2, 2, 2]),         # pads wider than the window's reach, 3 channels
    ((2, 32, 40, 40), 100, [1, 1, 1, 1]),    # several tile blocks and output-channel chunks
    ((1, 600, 9, 9), 10, [1, 1, 1, 1]),      # C over one K slice (512)
    ((1, 8, 3, 3), 9, [0, 0, 0, 0]),         # a 1x1 output: one partial tile
    ((1, 24, 57, 5), 70, [1, 0, 1, 2]),      # tall and narrow
    ((1, 20, 28, 28), 24, [1, 1, 1, 1]),     # 49 tiles: the last block takes the 49th (AVX-512: 48 + 1)
    ((2, 12, 28, 28), 16, [1, 1, 1, 1]),     # 98 tiles = 2 x 48 + 2
    ((3, 20, 14, 14), 36, [1, 1, 1, 1]),     # 3 images of 16 tiles: tile-major vectors span images
    ((1, 128, 28, 28), 12, [1, 1, 1, 1]),    # AVX2: blocks of 24 and 25 tiles, the 49th a one-column strip
    ((1, 8, 12, 44), 10, [1, 1, 1, 1]),      # 33 tiles: AVX-512 32 + a one-column strip
]


def close(got, want, what=""):
    err = float(np.abs(np.asarray(got, np.float64) - want).max()) / max(float(np.abs(want).max()), 1e-30)
    assert err <= WINO_RTOL, f"{what}: max |diff| / max |ref| = {err:.2e} > {WINO_RTOL:.0e}"


def _ref(x, w, b, pads):
    return conv_ref(x.astype(np.float64), w.astype(np.float64), None if b is None else b.astype(np.float64),
                    pads=pads)


def _paths_check():
    rng = np.random.default_rng(3)
    for xs, m, pads in CASES:
        x, w, b = randn(rng, xs), randn(rng, (m, xs[1], 3, 3)), randn(rng, (m,))
        want = _ref(x, w, b, pads)
        r = randn(rng, want.shape)
        at = {"pads": pads}
        what = f"X {xs} M {m} pads {pads}"
        (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], at)
        close(y, want, what)
        (y,) = run_op("Conv", [x, w], [want.shape], [np.float32], at)
        close(y, _ref(x, w, None, pads), what + " no bias")
        (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], dict(at, activation="Relu"))
        close(y, np.maximum(want, 0), what + " relu")
        (y,) = run_op("Conv", [x, w, b, r], [want.shape], [np.float32], dict(at, activation="Relu"))
        close(y, np.maximum(want + r, 0), what + " residual relu")
        (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], dict(at, activation="LeakyRelu",
                                                                            activation_alpha=0.1))
        close(y, np.where(want >= 0, want, 0.1 * want), what + " leaky relu")


@pytest.mark.parametrize("mode", ["all", "1", "0"], ids=["winograd", "auto", "off"])
def test_winograd_paths(mode, monkeypatch):
    monkeypatch.setenv("ACL_SIM_CONV_WINOGRAD", mode)
    _paths_check()


def test_winograd_fp16_io(monkeypatch):
    # fp16 tensors are widened to fp32 and the result narrowed: the fp16 rounding dominates.
    monkeypatch.setenv("ACL_SIM_CONV_WINOGRAD", "all")
    rng = np.random.default_rng(4)
    x, w, b = randn(rng, (1, 12, 10, 10)), randn(rng, (10, 12, 3, 3)), randn(rng, (10,))
    x16, w16, b16 = x.astype(np.float16), w.astype(np.float16), b.astype(np.float16)
    want = _ref(x16.astype(np.float32), w16.astype(np.float32), b16.astype(np.float32), [1, 1, 1, 1])
    (y,) = run_op("Conv", [x16, w16, b16], [want.shape], [np.float16], {"pads": [1, 1, 1, 1]})
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=2e-3, atol=2e-3 * np.abs(want).max())


def test_winograd_strided_and_grouped_convs_take_other_paths(monkeypatch):
    # =all only takes the convs Winograd supports: stride 2, dilation 2 and group 2 still compute right.
    monkeypatch.setenv("ACL_SIM_CONV_WINOGRAD", "all")
    rng = np.random.default_rng(5)
    x = randn(rng, (1, 8, 12, 12))
    for at, ws in (({"strides": [2, 2], "pads": [1, 1, 1, 1]}, (6, 8, 3, 3)),
                   ({"dilations": [2, 2], "pads": [2, 2, 2, 2]}, (6, 8, 3, 3)),
                   ({"group": 2, "pads": [1, 1, 1, 1]}, (6, 4, 3, 3))):
        w = randn(rng, ws)
        want = conv_ref(x.astype(np.float64), w.astype(np.float64), None, strides=at.get("strides"),
                        dilations=at.get("dilations"), pads=at["pads"], group=at.get("group", 1))
        (y,) = run_op("Conv", [x, w], [want.shape], [np.float32], at)
        np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_winograd_other_isas(isa):
    # AVX2 runs its own Winograd kernels; the scalar ISA has none (=all falls back to the other paths).
    run_check_in_child("test_conv_winograd", "_paths_check()", ACL_SIM_KERNEL_ISA=isa, ACL_SIM_CONV_WINOGRAD="all")


@pytest.mark.parametrize("isa", ["avx512", "avx2"])
@pytest.mark.parametrize("layout", ["0", "1"], ids=["row", "tile_major"])
def test_winograd_prepared_layouts(isa, layout):
    # Both prepared-input layouts on every case, whichever the rule would pick: row mode (a vector holds tiles
    # of one tile row) and tile-major (vectors span tile rows and images; outputs stored per tile row).
    run_check_in_child("test_conv_winograd", "_paths_check()", ACL_SIM_KERNEL_ISA=isa, ACL_SIM_CONV_WINOGRAD="all",
                       ACL_SIM_WINO_TILE_MAJOR=layout)


def _residual_model(tmp_path, name):
    """x -> Conv 3x3 (pads 1) -> + x -> Relu, which ATC fuses into one Conv with a residual and Relu."""
    rng = np.random.default_rng(6)
    c = 24
    w, b = (randn(rng, (c, c, 3, 3)) * 0.2).astype(np.float32), randn(rng, (c,))
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["y0"], pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["y0", "x"], ["y1"]), helper.make_node("Relu", ["y1"], ["y"])]
    shape = [2, c, 22, 19]
    model = make_model(nodes, [("x", shape)], [("y", shape)], {"w": w, "b": b})
    report = compile_model(model, str(tmp_path / name), cache=False)
    assert report["op_counts"] == {"Conv": 1}, report["op_counts"]
    x = randn(rng, shape)
    want = np.maximum(_ref(x, w, b, [1, 1, 1, 1]) + x, 0)
    return report["om_path"], x, want


def test_winograd_in_a_model_uses_the_node_cache(tmp_path, monkeypatch):
    om, x, want = _residual_model(tmp_path, "wino")
    model = testing_model.Model.from_file(om)
    monkeypatch.setenv("ACL_SIM_CONV_WINOGRAD", "all")
    (first,) = model.run([x])
    (second,) = model.run([x])  # the transformed weights now come from the cache
    close(first, want, "model run 1")
    np.testing.assert_array_equal(first, second)
    monkeypatch.setenv("ACL_SIM_CONV_WINOGRAD", "0")  # same loaded model, the direct path: a different sum
    (direct,) = model.run([x])
    np.testing.assert_allclose(direct, want, rtol=1e-4, atol=1e-4)
    assert not np.array_equal(direct, first)
    monkeypatch.setenv("ACL_SIM_CONV_WINOGRAD", "all")
    (third,) = model.run([x])
    np.testing.assert_array_equal(first, third)
    # Threaded first runs on a fresh load: two workspaces race to build the cache; both see one result.
    fresh = testing_model.Model.from_file(om)
    for out in run_in_threads(lambda: fresh.run([x])[0], [(), ()]):
        np.testing.assert_array_equal(out, first)
