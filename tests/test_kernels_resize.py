"""Resize / Upsample built-in kernels against the ONNX reference implementation
(onnx.reference, written in NumPy), over modes, coordinate transformations,
nearest rounding modes, scales vs sizes, and dtypes."""
import numpy as np
import pytest

from kernel_harness import assert_close, expect_error, rand, run

onnx = pytest.importorskip("onnx")
from onnx import helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402


def reference(x, scales=None, sizes=None, roi=None, **attrs):
    names = ["X", "roi" if roi is not None else "", "scales" if scales is not None else "",
             "sizes" if sizes is not None else ""]
    while names and names[-1] == "":
        names.pop()
    node = helper.make_node("Resize", names, ["Y"], **attrs)
    feeds = {"X": x}
    if roi is not None:
        feeds["roi"] = roi
    if scales is not None:
        feeds["scales"] = scales
    if sizes is not None:
        feeds["sizes"] = sizes
    return ReferenceEvaluator(node).run(None, feeds)[0]


def resize(x, out_shape, scales=None, sizes=None, roi=None, dtype=np.float32, **attrs):
    return run("Resize", [x, roi, scales, sizes], out_shape, dtype, **attrs)


COORDS = ["half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "half_pixel_symmetric"]


@pytest.mark.parametrize("coord", COORDS)
@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_resize_scales(coord, mode):
    rng = np.random.default_rng(1)
    x = rand(rng, (2, 3, 5, 7), np.float32)
    for sc in ([1, 1, 2, 2], [1, 1, 0.6, 1.5], [1, 1, 3, 0.5]):
        scales = np.array(sc, np.float32)
        if coord in ("align_corners", "half_pixel_symmetric"):
            # These use the output length; onnx.reference takes it as in*scale (fractional) where
            # onnxruntime (and acl_sim) use the integer output size, so compare through `sizes`.
            sizes = np.floor(np.array(x.shape) * scales).astype(np.int64)
            want = reference(x, sizes=sizes, mode=mode, coordinate_transformation_mode=coord)
            got = resize(x, want.shape, sizes=sizes, mode=mode, coordinate_transformation_mode=coord)
        else:
            want = reference(x, scales=scales, mode=mode, coordinate_transformation_mode=coord)
            got = resize(x, want.shape, scales=scales, mode=mode, coordinate_transformation_mode=coord)
        assert_close(got, want, np.float32, 4.0)


@pytest.mark.parametrize("nearest_mode", ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"])
def test_resize_nearest_modes(nearest_mode):
    x = np.arange(2 * 9, dtype=np.float32).reshape(1, 2, 9)
    for coord in ("asymmetric", "half_pixel", "align_corners"):
        sizes = np.array([1, 2, 13], np.int64)
        want = reference(x, sizes=sizes, mode="nearest", nearest_mode=nearest_mode, coordinate_transformation_mode=coord)
        got = resize(x, want.shape, sizes=sizes, mode="nearest", nearest_mode=nearest_mode,
                     coordinate_transformation_mode=coord)
        np.testing.assert_array_equal(got, want)


def test_resize_sizes_linear_and_cubic_exclude_outside():
    rng = np.random.default_rng(2)
    x = rand(rng, (1, 2, 8, 8), np.float32)
    sizes = np.array([1, 2, 5, 11], np.int64)
    for mode, extra in (("linear", {}), ("cubic", {"exclude_outside": 1, "cubic_coeff_a": -0.5})):
        want = reference(x, sizes=sizes, mode=mode, **extra)
        assert_close(resize(x, want.shape, sizes=sizes, mode=mode, **extra), want, np.float32, 4.0)


def test_resize_tf_crop_and_resize():
    rng = np.random.default_rng(3)
    x = rand(rng, (1, 1, 6, 6), np.float32)
    roi = np.array([0, 0, 0.2, 0.4, 1, 1, 0.6, 1.2], np.float32)
    sizes = np.array([1, 1, 3, 4], np.int64)
    for mode in ("linear", "nearest"):
        want = reference(x, roi=roi, sizes=sizes, mode=mode, coordinate_transformation_mode="tf_crop_and_resize",
                         extrapolation_value=-5.0)
        got = resize(x, want.shape, roi=roi, sizes=sizes, mode=mode, coordinate_transformation_mode="tf_crop_and_resize",
                     extrapolation_value=-5.0)
        assert_close(got, want, np.float32, 4.0)


@pytest.mark.parametrize("dtype", [np.float16, np.uint8, np.int64, np.float64], ids=lambda d: np.dtype(d).name)
def test_resize_dtypes(dtype):
    rng = np.random.default_rng(4)
    x = rand(rng, (1, 2, 4, 6), dtype) if dtype != np.uint8 else rng.integers(0, 255, (1, 2, 4, 6)).astype(np.uint8)
    scales = np.array([1, 1, 2, 1.5], np.float32)
    want = reference(x, scales=scales, mode="nearest")
    np.testing.assert_array_equal(resize(x, want.shape, scales=scales, dtype=dtype, mode="nearest"), want)
    if dtype in (np.float16, np.float64):
        want = reference(x.astype(np.float32), scales=scales, mode="linear")
        # Interpolation runs in float32 for every float dtype (docs/op_coverage.md).
        tol_dtype = np.float32 if dtype == np.float64 else dtype
        assert_close(resize(x, want.shape, scales=scales, dtype=dtype, mode="linear"), want, tol_dtype, 4.0)


def test_resize_large_bilinear():
    rng = np.random.default_rng(5)
    x = rand(rng, (1, 8, 64, 80), np.float32)
    sizes = np.array([1, 8, 160, 200], np.int64)
    want = reference(x, sizes=sizes, mode="linear")
    assert_close(resize(x, want.shape, sizes=sizes, mode="linear"), want, np.float32, 4.0)


def test_upsample_and_resize10():
    x = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)
    scales = np.array([1, 1, 2, 3], np.float32)
    want = np.repeat(np.repeat(x, 2, axis=2), 3, axis=3)
    np.testing.assert_array_equal(run("Upsample", [x, scales], want.shape, np.float32, mode="nearest"), want)
    # Resize-10: (X, scales), asymmetric; downsampling rounds up like onnxruntime.
    got = run("Resize", [x, np.array([1, 1, 0.6, 0.6], np.float32)], (1, 1, 1, 2), np.float32, mode="nearest")
    np.testing.assert_array_equal(got, [[[[0, 2]]]])
    lin = run("Upsample", [x, scales], want.shape, np.float32, mode="linear")
    ref = reference(x, scales=scales, mode="linear", coordinate_transformation_mode="asymmetric")
    assert_close(lin, ref, np.float32, 4.0)


def test_resize_errors():
    x = np.zeros((1, 1, 2, 2), np.float32)
    expect_error(lambda: resize(x, (1, 1, 4, 4), scales=np.array([1, 1, 2, 2], np.float32), mode="area"), 100023)
    expect_error(lambda: resize(x, (1, 1, 4, 4), scales=np.array([2, 2], np.float32)), 100021)


@pytest.mark.parametrize("coord", ["half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel"])
@pytest.mark.parametrize("mode", ["linear", "cubic"])
def test_resize_antialias(coord, mode):
    """antialias=1: downscaled axes use the widened filter, upscaled ones the plain one (ONNX reference)."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3, 20, 24)).astype(np.float32)
    # scale * size integral: align_corners then means the same in every implementation
    for scales, exclude in ((np.array([1, 1, 0.6, 0.375], np.float32), 0), (np.array([1, 1, 0.25, 1.5], np.float32), 1),
                            (np.array([1, 1, 0.8, 0.5], np.float32), 0)):
        want = reference(x, scales=scales, mode=mode, antialias=1, coordinate_transformation_mode=coord,
                         exclude_outside=exclude)
        got = resize(x, want.shape, scales=scales, mode=mode, antialias=1, coordinate_transformation_mode=coord,
                     exclude_outside=exclude)
        assert_close(got, want, np.float32, 8.0)
    sizes = np.array([2, 3, 5, 7], np.int64)
    want = reference(x, sizes=sizes, mode=mode, antialias=1)
    assert_close(resize(x, want.shape, sizes=sizes, mode=mode, antialias=1), want, np.float32, 8.0)
    # nearest ignores antialias
    scales = np.array([1, 1, 0.5, 0.5], np.float32)
    want = reference(x, scales=scales, mode="nearest")
    np.testing.assert_array_equal(resize(x, want.shape, scales=scales, mode="nearest", antialias=1), want)
