"""acl.media VPC: resize / crop / crop-and-paste / batch crop / colour conversion against float64 NumPy
references (bilinear with OpenCV's pixel-centre mapping, nearest, BT.601 full range)."""
import numpy as np
import pytest

from dvpp_helpers import (BGR888, NV12, NV21, RGB888, RGBA8888, YUV400, Dvpp, align, make_nv12, nv12_planes,
                          resize_ref, rgb_to_yuv_ref, yuv_to_rgb_ref)


@pytest.fixture
def dvpp(acl):
    d = Dvpp(acl)
    yield d
    d.close()


def random_nv12(w, h, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 256, (h, w), dtype=np.uint8)
    u = rng.integers(0, 256, ((h + 1) // 2, (w + 1) // 2), dtype=np.uint8)
    v = rng.integers(0, 256, ((h + 1) // 2, (w + 1) // 2), dtype=np.uint8)
    return y, u, v


def nv12_input(dvpp, y, u, v, fmt=NV12):
    h, w = y.shape
    ws, hs = align(w, 16), align(h, 2)
    frame = make_nv12(y, v, u, ws, hs) if fmt == NV21 else make_nv12(y, u, v, ws, hs)
    return dvpp.pic(fmt, w, h, ws, hs, data=dvpp.upload(frame), size=len(frame))


def out_planes(dvpp, desc, w, h, fmt=NV12):
    return nv12_planes(dvpp.read(desc), w, h, align(w, 16), align(h, 2), vu=fmt == NV21)


def assert_close(got, want, tol=1):
    assert got.shape == want.shape
    assert np.abs(got.astype(int) - want.astype(int)).max() <= tol


@pytest.mark.parametrize("iw,ih,ow,oh", [(640, 480, 224, 224), (100, 60, 416, 416), (333, 201, 97, 63)])
def test_resize_matches_bilinear_reference(dvpp, iw, ih, ow, oh):
    m = dvpp.acl.media
    y, u, v = random_nv12(iw, ih, seed=iw)
    src = nv12_input(dvpp, y, u, v)
    dst = dvpp.pic(NV12, ow, oh, align(ow, 16), align(oh, 2))
    cfg = m.dvpp_create_resize_config()
    assert m.dvpp_vpc_resize_async(dvpp.channel, src, dst, cfg, dvpp.stream) == 0
    assert dvpp.sync() == 0 and m.dvpp_get_pic_desc_ret_code(dst) == 0
    gy, gu, gv = out_planes(dvpp, dst, ow, oh)
    assert_close(gy, resize_ref(y, ow, oh))
    # chroma is scaled in its own grid with the luma ratio
    cw, ch = (ow + 1) // 2, (oh + 1) // 2
    assert_close(gu, resize_ref(u, cw, ch, scale=(iw / ow, ih / oh)))
    assert_close(gv, resize_ref(v, cw, ch, scale=(iw / ow, ih / oh)))
    assert m.dvpp_destroy_resize_config(cfg) == 0


@pytest.mark.parametrize("interp,mode", [(2, "nearest"), (3, "bilinear_tf"), (4, "nearest")])
def test_resize_interpolations(dvpp, interp, mode):
    m = dvpp.acl.media
    y, u, v = random_nv12(128, 96, seed=interp)
    src = nv12_input(dvpp, y, u, v)
    dst = dvpp.pic(NV12, 80, 50, 80, 50)
    cfg = m.dvpp_create_resize_config()
    assert m.dvpp_set_resize_config_interpolation(cfg, interp) == 0
    assert m.dvpp_get_resize_config_interpolation(cfg) == interp
    assert m.dvpp_vpc_resize_async(dvpp.channel, src, dst, cfg, dvpp.stream) == 0
    assert dvpp.sync() == 0
    gy, gu, _ = out_planes(dvpp, dst, 80, 50)
    assert_close(gy, resize_ref(y, 80, 50, mode), tol=0 if mode == "nearest" else 1)
    assert_close(gu, resize_ref(u, 40, 25, mode), tol=0 if mode == "nearest" else 1)
    m.dvpp_destroy_resize_config(cfg)


def test_crop_scales_the_area_to_the_output(dvpp):
    m = dvpp.acl.media
    y, u, v = random_nv12(256, 192, seed=7)
    src = nv12_input(dvpp, y, u, v)
    dst = dvpp.pic(NV21, 64, 48, 64, 48)
    roi = m.dvpp_create_roi_config(32, 159, 16, 111)  # 128 x 96
    assert m.dvpp_vpc_crop_async(dvpp.channel, src, dst, roi, dvpp.stream) == 0
    assert dvpp.sync() == 0
    gy, gu, gv = out_planes(dvpp, dst, 64, 48, NV21)
    assert_close(gy, resize_ref(y[16:112, 32:160], 64, 48))
    assert_close(gu, resize_ref(u[8:56, 16:80], 32, 24))
    assert_close(gv, resize_ref(v[8:56, 16:80], 32, 24))
    assert m.dvpp_destroy_roi_config(roi) == 0


def test_crop_and_paste_leaves_the_rest_of_the_canvas(dvpp):
    m = dvpp.acl.media
    y, u, v = random_nv12(200, 100, seed=8)
    src = nv12_input(dvpp, y, u, v)
    W, H = 224, 224
    canvas = dvpp.alloc(W * H * 3 // 2, 7)
    dst = dvpp.pic(NV12, W, H, W, H, data=canvas, size=W * H * 3 // 2)
    crop = m.dvpp_create_roi_config(0, 199, 0, 99)
    paste = m.dvpp_create_roi_config(16, 127, 32, 87)  # 112 x 56 at (16, 32)
    assert m.dvpp_vpc_crop_and_paste_async(dvpp.channel, src, dst, crop, paste, dvpp.stream) == 0
    assert dvpp.sync() == 0
    gy, gu, _ = out_planes(dvpp, dst, W, H)
    assert_close(gy[32:88, 16:128], resize_ref(y, 112, 56))
    assert_close(gu[16:44, 8:64], resize_ref(u, 56, 28))
    mask = np.ones_like(gy, bool)
    mask[32:88, 16:128] = False
    assert (gy[mask] == 7).all()
    for r in (crop, paste):
        m.dvpp_destroy_roi_config(r)


def test_batch_crop_and_batch_crop_paste(dvpp):
    m = dvpp.acl.media
    y, u, v = random_nv12(128, 64, seed=9)
    ws, hs = 128, 64
    frame = make_nv12(y, u, v, ws, hs)
    src_batch = m.dvpp_create_batch_pic_desc(1)
    d0 = m.dvpp_get_pic_desc(src_batch, 0)
    data = dvpp.upload(frame)
    for name, val in (("data", data), ("size", len(frame)), ("format", NV12), ("width", 128), ("height", 64),
                      ("width_stride", ws), ("height_stride", hs)):
        assert getattr(m, "dvpp_set_pic_desc_" + name)(d0, val) == 0
    dst_batch = m.dvpp_create_batch_pic_desc(2)
    for i in range(2):
        d = m.dvpp_get_pic_desc(dst_batch, i)
        buf = dvpp.alloc(32 * 32 * 3 // 2, 0)
        for name, val in (("data", buf), ("size", 32 * 32 * 3 // 2), ("format", NV12), ("width", 32), ("height", 32),
                          ("width_stride", 32), ("height_stride", 32)):
            getattr(m, "dvpp_set_pic_desc_" + name)(d, val)
    rois = [m.dvpp_create_roi_config(0, 63, 0, 63), m.dvpp_create_roi_config(64, 127, 0, 31)]
    out, ret = m.dvpp_vpc_batch_crop_async(dvpp.channel, src_batch, [2], dst_batch, rois, dvpp.stream)
    assert ret == 0 and out == dst_batch
    assert dvpp.sync() == 0
    g0 = nv12_planes(dvpp.read(m.dvpp_get_pic_desc(dst_batch, 0)), 32, 32, 32, 32)[0]
    g1 = nv12_planes(dvpp.read(m.dvpp_get_pic_desc(dst_batch, 1)), 32, 32, 32, 32)[0]
    assert_close(g0, resize_ref(y[:64, :64], 32, 32))
    assert_close(g1, resize_ref(y[:32, 64:128], 32, 32))
    pastes = [m.dvpp_create_roi_config(16, 31, 0, 15)] * 2
    out, ret = m.dvpp_vpc_batch_crop_and_paste_async(dvpp.channel, src_batch, [2], dst_batch, rois, pastes,
                                                     dvpp.stream)
    assert ret == 0 and dvpp.sync() == 0
    g1 = nv12_planes(dvpp.read(m.dvpp_get_pic_desc(dst_batch, 1)), 32, 32, 32, 32)[0]
    assert_close(g1[:16, 16:32], resize_ref(y[:32, 64:128], 16, 16))
    for r in rois + pastes[:1]:
        m.dvpp_destroy_roi_config(r)
    assert m.dvpp_destroy_batch_pic_desc(src_batch) == 0 and m.dvpp_destroy_batch_pic_desc(dst_batch) == 0


def test_convert_nv12_to_rgb_and_bgr_follows_bt601_full_range(dvpp):
    m = dvpp.acl.media
    w, h = 64, 48
    y, u, v = random_nv12(w, h, seed=10)
    src = nv12_input(dvpp, y, u, v)
    # reference: chroma brought to full resolution with the same bilinear scaling, then the formula
    uf = resize_ref(u, w, h)
    vf = resize_ref(v, w, h)
    want = yuv_to_rgb_ref(y, uf, vf)
    for fmt, order in ((RGB888, [0, 1, 2]), (BGR888, [2, 1, 0])):
        dst = dvpp.pic(fmt, 0, 0, 0, 0, data=dvpp.alloc(w * 3 * h), size=w * 3 * h)  # 0: as the input
        assert m.dvpp_vpc_convert_color_async(dvpp.channel, src, dst, dvpp.stream) == 0
        assert dvpp.sync() == 0
        got = dvpp.read(dst)[: w * 3 * h].reshape(h, w, 3)
        assert_close(got, want[..., order])
    dst = dvpp.pic(RGBA8888, w, h, w * 4, h)
    assert m.dvpp_vpc_convert_color_async(dvpp.channel, src, dst, dvpp.stream) == 0 and dvpp.sync() == 0
    got = dvpp.read(dst).reshape(h, w, 4)
    assert_close(got[..., :3], want)
    assert (got[..., 3] == 255).all()


def test_convert_rgb_to_nv12_and_yuv400(dvpp):
    m = dvpp.acl.media
    w, h = 48, 32
    rgb = np.random.default_rng(11).integers(0, 256, (h, w, 3), dtype=np.uint8)
    src = dvpp.pic(RGB888, w, h, w * 3, h, data=dvpp.upload(rgb.tobytes()), size=rgb.nbytes)
    dst = dvpp.pic(NV12, w, h, w, h)
    assert m.dvpp_vpc_convert_color_async(dvpp.channel, src, dst, dvpp.stream) == 0 and dvpp.sync() == 0
    gy, gu, gv = out_planes(dvpp, dst, w, h)
    ry, ru, rv = rgb_to_yuv_ref(rgb)
    assert_close(gy, ry)
    assert_close(gu, resize_ref(ru, w // 2, h // 2))
    assert_close(gv, resize_ref(rv, w // 2, h // 2))
    gray = dvpp.pic(YUV400, w, h, w, h)
    assert m.dvpp_vpc_convert_color_async(dvpp.channel, src, gray, dvpp.stream) == 0 and dvpp.sync() == 0
    assert_close(dvpp.read(gray)[: w * h].reshape(h, w), ry)


def test_rgb_resize_stays_rgb(dvpp):
    m = dvpp.acl.media
    rgb = np.random.default_rng(12).integers(0, 256, (40, 60, 3), dtype=np.uint8)
    src = dvpp.pic(RGB888, 60, 40, align(180, 16), 40)
    frame = np.zeros((40, align(180, 16)), np.uint8)
    frame[:, :180] = rgb.reshape(40, 180)
    assert dvpp.acl.rt.memcpy(m.dvpp_get_pic_desc_data(src), frame.nbytes, dvpp.acl.util.bytes_to_ptr(
        frame.tobytes()), frame.nbytes, 1) == 0
    dst = dvpp.pic(RGB888, 30, 20, 96, 20)
    cfg = m.dvpp_create_resize_config()
    assert m.dvpp_vpc_resize_async(dvpp.channel, src, dst, cfg, dvpp.stream) == 0 and dvpp.sync() == 0
    got = dvpp.read(dst).reshape(20, 96)[:, :90].reshape(20, 30, 3)
    for c in range(3):
        assert_close(got[..., c], resize_ref(rgb[..., c], 30, 20))
    m.dvpp_destroy_resize_config(cfg)
