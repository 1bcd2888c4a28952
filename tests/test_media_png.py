"""acl.media PNG: image information, size prediction and PNGD against Pillow (libpng) for every colour type."""
import io

import numpy as np
import pytest
from PIL import Image

from dvpp_helpers import RGB888, RGBA8888, Dvpp, align, png_bytes


@pytest.fixture
def dvpp(acl):
    d = Dvpp(acl)
    yield d
    d.close()


def decode(dvpp, data, fmt):
    acl, m = dvpp.acl, dvpp.acl.media
    w, h, comps, ret = m.dvpp_png_get_image_info(acl.util.bytes_to_ptr(data), len(data))
    assert ret == 0
    size, ret = m.dvpp_png_predict_dec_size(acl.util.bytes_to_ptr(data), len(data), fmt)
    bpp = 3 if fmt == RGB888 else 4
    ws, hs = align(w * bpp, 128), align(h, 16)
    assert ret == 0 and size == ws * hs
    out = dvpp.pic(fmt, w, h, ws, hs, size=size)
    src = dvpp.upload(data)
    assert m.dvpp_png_decode_async(dvpp.channel, src, len(data), out, dvpp.stream) == 0
    assert dvpp.sync() == 0 and m.dvpp_get_pic_desc_ret_code(out) == 0
    return dvpp.read(out).reshape(hs, ws)[:h, : w * bpp].reshape(h, w, bpp), comps


def test_rgb_and_rgba(dvpp):
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, (50, 77, 3), dtype=np.uint8)
    got, comps = decode(dvpp, png_bytes(rgb), RGB888)
    assert comps == 3
    np.testing.assert_array_equal(got, rgb)
    rgba = rng.integers(0, 256, (40, 33, 4), dtype=np.uint8)
    got, comps = decode(dvpp, png_bytes(rgba), RGBA8888)
    assert comps == 4
    np.testing.assert_array_equal(got, rgba)


@pytest.mark.parametrize("mode", ["L", "P", "LA"])
def test_other_colour_types_expand_like_pillow(dvpp, mode):
    rng = np.random.default_rng(1)
    img = Image.fromarray(rng.integers(0, 256, (36, 40, 3), dtype=np.uint8)).convert(mode)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    data = buf.getvalue()
    got, comps = decode(dvpp, data, RGB888)
    assert comps == {"L": 1, "P": 3, "LA": 2}[mode]
    ref = Image.open(io.BytesIO(data))
    if mode == "LA":  # RGB output of a grey+alpha PNG: libpng composes onto black
        la = np.asarray(ref).astype(np.float64)
        want = np.floor(la[..., 0] * la[..., 1] / 255 + 0.5)
        assert np.abs(got[..., 0] - want).max() <= 1
    else:
        np.testing.assert_array_equal(got, np.asarray(ref.convert("RGB")))
