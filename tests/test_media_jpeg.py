"""acl.media JPEG: image information, size prediction, JPEGD against Pillow's libjpeg decode, JPEGE round trips.
Programs in the style of the pyACL DVPP samples; every input is made here with Pillow."""
import io

import numpy as np
import pytest
from PIL import Image

from dvpp_helpers import (NV12, NV21, YUV422SP, YUV444SP, Dvpp, align, jpeg_bytes, make_nv12, nv12_planes,
                          pillow_ycbcr, smooth_rgb)


@pytest.fixture
def dvpp(acl):
    d = Dvpp(acl)
    yield d
    d.close()


def decode(dvpp, data, fmt=NV12, w_align=128):
    acl = dvpp.acl
    w, h, _, ret = acl.media.dvpp_jpeg_get_image_info(acl.util.bytes_to_ptr(data), len(data))
    assert ret == 0
    size, ret = acl.media.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(data), len(data), fmt)
    assert ret == 0
    ws, hs = align(w, w_align), align(h, 16)
    out = dvpp.pic(fmt, w, h, ws, hs, size=size, data=dvpp.alloc(size, 0))
    src = dvpp.upload(data)
    assert acl.media.dvpp_jpeg_decode_async(dvpp.channel, src, len(data), out, dvpp.stream) == 0
    assert dvpp.sync() == 0
    assert acl.media.dvpp_get_pic_desc_ret_code(out) == 0
    return dvpp.read(out), w, h, ws, hs


def test_image_info_and_predicted_sizes(acl):
    m = acl.media
    for sub, css in ((0, 0), (1, 1), (2, 2)):
        data = jpeg_bytes(smooth_rgb(301, 77), subsampling=sub)
        p = acl.util.bytes_to_ptr(data)
        assert m.dvpp_jpeg_get_image_info(p, len(data)) == (301, 77, 3, 0)
        assert m.dvpp_jpeg_get_image_info_v2(p, len(data)) == (301, 77, 3, css, 0)
        assert m.dvpp_jpeg_predict_dec_size(p, len(data), NV12) == (384 * 80 * 3 // 2, 0)
    gray = jpeg_bytes(smooth_rgb(64, 48)[..., 0])
    assert m.dvpp_jpeg_get_image_info_v2(acl.util.bytes_to_ptr(gray), len(gray)) == (64, 48, 1, 3, 0)
    data = jpeg_bytes(smooth_rgb(100, 40), subsampling=1)
    assert m.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(data), len(data), YUV422SP) == (128 * 48 * 2, 0)


def test_decode_420_luma_is_libjpeg_exact(dvpp):
    data = jpeg_bytes(smooth_rgb(203, 101, seed=1), quality=85)
    buf, w, h, ws, hs = decode(dvpp, data)
    y, u, v = nv12_planes(buf, w, h, ws, hs)
    ref = pillow_ycbcr(data)
    np.testing.assert_array_equal(y, ref[..., 0])
    # Full-size decodes interpolate chroma ("fancy" upsampling); a half-size draft decode (DCT scaling) gives the
    # coded 4:2:0 chroma samples themselves, which is what JPEGD writes
    half = pillow_ycbcr(data, (w // 2, h // 2))
    assert half.shape[:2] == u.shape
    np.testing.assert_array_equal(u, half[..., 1])
    np.testing.assert_array_equal(v, half[..., 2])


def test_decode_444_to_nv12_averages_chroma(dvpp):
    data = jpeg_bytes(smooth_rgb(160, 96, seed=2), subsampling=0)
    buf, w, h, ws, hs = decode(dvpp, data)
    y, u, v = nv12_planes(buf, w, h, ws, hs)
    ref = pillow_ycbcr(data).astype(np.float64)
    np.testing.assert_array_equal(y, ref[..., 0])
    box = ref.reshape(h // 2, 2, w // 2, 2, 3).mean(axis=(1, 3))
    assert np.abs(u - box[..., 1]).max() <= 1 and np.abs(v - box[..., 2]).max() <= 1


def test_decode_444_to_yuv444sp_is_exact(dvpp):
    data = jpeg_bytes(smooth_rgb(64, 40, seed=3), subsampling=0)
    buf, w, h, ws, hs = decode(dvpp, data, fmt=YUV444SP)
    ref = pillow_ycbcr(data)
    np.testing.assert_array_equal(buf[: ws * hs].reshape(hs, ws)[:h, :w], ref[..., 0])
    uv = buf[ws * hs: 3 * ws * hs].reshape(hs, 2 * ws)[:h, : 2 * w].reshape(h, w, 2)
    np.testing.assert_array_equal(uv, ref[..., 1:])


def test_nv21_swaps_chroma_and_gray_fills_128(dvpp):
    data = jpeg_bytes(smooth_rgb(96, 64, seed=4))
    a, w, h, ws, hs = decode(dvpp, data, NV12)
    b, *_ = decode(dvpp, data, NV21)
    ya, ua, va = nv12_planes(a, w, h, ws, hs)
    yb, ub, vb = nv12_planes(b, w, h, ws, hs, vu=True)
    np.testing.assert_array_equal(ya, yb)
    np.testing.assert_array_equal(ua, ub)
    np.testing.assert_array_equal(va, vb)
    gray = jpeg_bytes(smooth_rgb(96, 64)[..., 1])
    g, w, h, ws, hs = decode(dvpp, gray, NV12, w_align=64)
    y, u, v = nv12_planes(g, w, h, ws, hs)
    np.testing.assert_array_equal(y, np.asarray(Image.open(io.BytesIO(gray))))
    assert (u == 128).all() and (v == 128).all()


def test_decode_sets_the_image_size_in_the_output_desc(dvpp):
    acl = dvpp.acl
    data = jpeg_bytes(smooth_rgb(130, 50))
    out = dvpp.pic(NV12, 2, 2, 256, 64)  # placeholder width/height, as ACLLite on 310P
    src = dvpp.upload(data)
    assert acl.media.dvpp_jpeg_decode_async(dvpp.channel, src, len(data), out, dvpp.stream) == 0
    assert dvpp.sync() == 0
    assert (acl.media.dvpp_get_pic_desc_width(out), acl.media.dvpp_get_pic_desc_height(out)) == (130, 50)


@pytest.mark.parametrize("w,h,hs_align", [(224, 224, 2), (640, 360, 16)])
def test_encode_round_trip(dvpp, w, h, hs_align):
    acl, m = dvpp.acl, dvpp.acl.media
    rgb = smooth_rgb(w, h, seed=5)
    ycc = np.asarray(Image.fromarray(rgb).convert("YCbCr"))
    y = ycc[..., 0]
    u = ycc[..., 1].reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3)).round().astype(np.uint8)
    v = ycc[..., 2].reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3)).round().astype(np.uint8)
    ws, hs = align(w, 16), align(h, hs_align)
    frame = make_nv12(y, u, v, ws, hs)
    src = dvpp.pic(NV12, w, h, ws, hs, data=dvpp.upload(frame), size=len(frame))
    cfg = m.dvpp_create_jpege_config()
    assert m.dvpp_set_jpege_config_level(cfg, 95) == 0 and m.dvpp_get_jpege_config_level(cfg) == 95
    cap, ret = m.dvpp_jpeg_predict_enc_size(src, cfg)
    assert ret == 0 and cap > 0
    out = dvpp.alloc(cap)
    size = np.array([cap], np.uint32).tobytes()
    assert m.dvpp_jpeg_encode_async(dvpp.channel, src, out, acl.util.bytes_to_ptr(size), cfg, dvpp.stream) == 0
    assert dvpp.sync() == 0
    n = int(np.frombuffer(size, np.uint32)[0])
    assert 0 < n <= cap
    jpeg = dvpp.download(out, n).tobytes()
    assert jpeg[:2] == b"\xff\xd8" and jpeg[-2:] == b"\xff\xd9"
    back = pillow_ycbcr(jpeg)
    assert back.shape[:2] == (h, w)
    assert np.abs(back[..., 0].astype(int) - y).mean() < 1.5
    assert m.dvpp_destroy_jpege_config(cfg) == 0
