"""acl.media bad input: every fault gives CANN's code and a message naming the call and the cause, never a
crash (truncated / corrupt / unsupported images, chip limits, strides, formats, small buffers, dead handles)."""
import numpy as np
import pytest

from conftest import run_python
from dvpp_helpers import (FEATURE_UNSUPPORTED, INVALID_PARAM, NV12, RGB888, UNSUPPORTED_JPEG, Dvpp, align, jpeg_bytes,
                          png_bytes, smooth_rgb)


@pytest.fixture
def dvpp(acl):
    d = Dvpp(acl)
    yield d
    d.close()


def err(acl):
    return acl.get_recent_err_msg()


def jpegd(dvpp, data, out=None):
    m = dvpp.acl.media
    if out is None:
        out = dvpp.pic(NV12, 64, 64, 128, 64)
    src = dvpp.upload(data)
    return m.dvpp_jpeg_decode_async(dvpp.channel, src, len(data), out, dvpp.stream), out


def test_jpeg_header_faults(acl):
    m = acl.media
    good = jpeg_bytes(smooth_rgb(64, 64))
    for bad in (b"not a jpeg at all", good[:20], b"\xff\xd8" + bytes(100)):
        *_, ret = m.dvpp_jpeg_get_image_info(acl.util.bytes_to_ptr(bad), len(bad))
        assert ret == INVALID_PARAM and "acldvppJpegGetImageInfo" in err(acl)
    assert m.dvpp_jpeg_get_image_info(0, 10)[-1] == INVALID_PARAM and "NULL" in err(acl)
    assert m.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(good), len(good), RGB888)[1] == INVALID_PARAM


def test_truncated_and_corrupt_jpeg_fail_at_sync_with_ret_code(dvpp):
    acl = dvpp.acl
    good = jpeg_bytes(smooth_rgb(64, 64))
    ret, out = jpegd(dvpp, good[: len(good) // 2])
    assert ret == 0  # the header is fine: the fault is found by the decode task
    assert dvpp.sync() == INVALID_PARAM and "corrupt JPEG data" in err(acl)
    assert acl.media.dvpp_get_pic_desc_ret_code(out) == INVALID_PARAM
    damaged = bytearray(good)
    damaged[len(good) // 2: len(good) // 2 + 64] = bytes(range(64))
    ret, out = jpegd(dvpp, bytes(damaged))
    assert ret in (0, INVALID_PARAM)
    if ret == 0:
        assert dvpp.sync() == INVALID_PARAM
    ret, out = jpegd(dvpp, good)  # the stream and channel still work afterwards
    assert ret == 0 and dvpp.sync() == 0 and acl.media.dvpp_get_pic_desc_ret_code(out) == 0


def test_unsupported_jpegs(dvpp):
    acl = dvpp.acl
    ret, _ = jpegd(dvpp, jpeg_bytes(smooth_rgb(64, 64), progressive=True))
    assert ret == UNSUPPORTED_JPEG and "progressive" in err(acl)
    ret, _ = jpegd(dvpp, jpeg_bytes(smooth_rgb(8200, 32)))
    assert ret == UNSUPPORTED_JPEG and "8192" in err(acl)
    ret, _ = jpegd(dvpp, jpeg_bytes(smooth_rgb(31, 64)))
    assert ret == UNSUPPORTED_JPEG and "32x32" in err(acl)


def test_jpegd_output_rules(dvpp):
    acl = dvpp.acl
    data = jpeg_bytes(smooth_rgb(100, 50))
    cases = [
        (dvpp.pic(NV12, 100, 50, 112, 64), "multiple of 64"),          # width stride not 64/128-aligned
        (dvpp.pic(NV12, 100, 50, 128, 50), "multiple of 16"),          # height stride not 16-aligned
        (dvpp.pic(RGB888, 100, 50, 384, 64), "JPEGD writes"),          # wrong format
        (dvpp.pic(NV12, 100, 50, 128, 64, size=1000), "too small"),    # buffer too small
    ]
    for out, why in cases:
        ret, _ = jpegd(dvpp, data, out)
        assert ret == INVALID_PARAM and why in err(acl), (why, err(acl))
    host = acl.util.bytes_to_ptr(data)  # JPEGD reads device memory
    out = dvpp.pic(NV12, 100, 50, 128, 64)
    assert acl.media.dvpp_jpeg_decode_async(dvpp.channel, host, len(data), out, dvpp.stream) == INVALID_PARAM
    assert "not device memory" in err(acl)


def test_vpc_stride_format_size_and_roi_rules(dvpp):
    acl, m = dvpp.acl, dvpp.acl.media
    src = dvpp.pic(NV12, 64, 64, 64, 64)
    cfg = m.dvpp_create_resize_config()
    bad_outputs = [
        (dvpp.pic(NV12, 50, 50, 50, 50), "widthStride 50 must be a multiple of 16"),
        (dvpp.pic(NV12, 48, 47, 48, 47), "must be even"),
        (dvpp.pic(NV12, 48, 48, 48, 48, size=100), "too small"),
        (dvpp.pic(18, 48, 48, 96, 48), "does not process"),          # 10-bit
        (dvpp.pic(NV12, 8000, 48, 8000, 48, size=48), "VPC takes"),  # over the output limit
        (dvpp.pic(NV12, 4, 4, 32, 6), "VPC takes"),                  # under 10x6
    ]
    for out, why in bad_outputs:
        assert m.dvpp_vpc_resize_async(dvpp.channel, src, out, cfg, dvpp.stream) == INVALID_PARAM
        assert why in err(acl), (why, err(acl))
    out = dvpp.pic(NV12, 32, 32, 32, 32)
    for roi, why in (((1, 31, 0, 31), "left and top must be even"), ((0, 30, 0, 31), "right and bottom odd"),
                     ((0, 127, 0, 31), "does not lie inside"), ((0, 7, 0, 7), "smallest area")):
        r = m.dvpp_create_roi_config(*roi)
        assert m.dvpp_vpc_crop_async(dvpp.channel, src, out, r, dvpp.stream) == INVALID_PARAM
        assert why in err(acl), (why, err(acl))
        m.dvpp_destroy_roi_config(r)
    crop, paste = m.dvpp_create_roi_config(0, 63, 0, 63), m.dvpp_create_roi_config(8, 31, 0, 31)
    assert m.dvpp_vpc_crop_and_paste_async(dvpp.channel, src, out, crop, paste, dvpp.stream) == INVALID_PARAM
    assert "multiple of 16" in err(acl)
    big = dvpp.pic(NV12, 2048, 64, 2048, 64)
    assert m.dvpp_vpc_resize_async(dvpp.channel, src, big, cfg, dvpp.stream) == INVALID_PARAM
    assert "[1/32, 16]" in err(acl)
    assert m.dvpp_set_resize_config_interpolation(cfg, 5) == FEATURE_UNSUPPORTED
    assert m.dvpp_set_resize_config_interpolation(cfg, 9) == INVALID_PARAM
    host = dvpp.pic(NV12, 64, 64, 64, 64, data=acl.util.bytes_to_ptr(bytes(64 * 96)))
    assert m.dvpp_vpc_resize_async(dvpp.channel, host, out, cfg, dvpp.stream) == INVALID_PARAM
    assert "not device memory" in err(acl)
    for h in (crop, paste):
        m.dvpp_destroy_roi_config(h)
    m.dvpp_destroy_resize_config(cfg)
    assert dvpp.sync() == 0


def test_dead_handles_and_channels(dvpp):
    acl, m = dvpp.acl, dvpp.acl.media
    src, out = dvpp.pic(NV12, 64, 64, 64, 64), dvpp.pic(NV12, 32, 32, 32, 32)
    cfg = m.dvpp_create_resize_config()
    ch = m.dvpp_create_channel_desc()
    assert m.dvpp_vpc_resize_async(ch, src, out, cfg, dvpp.stream) == INVALID_PARAM
    assert "acldvppCreateChannel first" in err(acl)
    assert m.dvpp_create_channel(ch) == 0 and m.dvpp_get_channel_desc_channel_id(ch) > 0
    assert m.dvpp_create_channel(ch) == INVALID_PARAM
    assert m.dvpp_destroy_channel(ch) == 0 and m.dvpp_destroy_channel(ch) == INVALID_PARAM
    assert m.dvpp_vpc_resize_async(ch, src, out, cfg, dvpp.stream) == INVALID_PARAM
    assert m.dvpp_destroy_channel_desc(ch) == 0
    assert m.dvpp_vpc_resize_async(ch, src, out, cfg, dvpp.stream) == INVALID_PARAM and "not a live" in err(acl)
    assert m.dvpp_destroy_channel_desc(ch) == INVALID_PARAM
    jd = m.dvpp_create_channel_desc()  # a JPEGD-only channel refuses VPC work
    assert m.dvpp_set_channel_desc_mode(jd, 2) == 0 and m.dvpp_create_channel(jd) == 0
    assert m.dvpp_vpc_resize_async(jd, src, out, cfg, dvpp.stream) == INVALID_PARAM and "VPC" in err(acl)
    m.dvpp_destroy_channel(jd)
    m.dvpp_destroy_channel_desc(jd)
    pd = m.dvpp_create_pic_desc()
    assert m.dvpp_destroy_pic_desc(pd) == 0
    assert m.dvpp_set_pic_desc_width(pd, 3) == INVALID_PARAM and m.dvpp_get_pic_desc_width(pd) == 0
    assert m.dvpp_vpc_resize_async(dvpp.channel, pd, out, cfg, dvpp.stream) == INVALID_PARAM
    assert m.dvpp_set_pic_desc_format(src, 99999) == INVALID_PARAM
    assert m.dvpp_vpc_resize_async(dvpp.channel, src, out, 0, dvpp.stream) == INVALID_PARAM
    assert m.dvpp_destroy_resize_config(cfg) == 0 and m.dvpp_destroy_resize_config(cfg) == INVALID_PARAM
    batch = m.dvpp_create_batch_pic_desc(2)
    assert m.dvpp_get_pic_desc(batch, 2) == 0
    member = m.dvpp_get_pic_desc(batch, 0)
    assert m.dvpp_destroy_pic_desc(member) == 0  # as the public sample does; the batch still goes cleanly
    assert m.dvpp_destroy_batch_pic_desc(batch) == 0 and m.dvpp_destroy_batch_pic_desc(batch) == INVALID_PARAM
    assert m.dvpp_create_batch_pic_desc(0) == 0


def test_batch_argument_faults(dvpp):
    m = dvpp.acl.media
    src, dst = m.dvpp_create_batch_pic_desc(1), m.dvpp_create_batch_pic_desc(1)
    roi = m.dvpp_create_roi_config(0, 31, 0, 31)
    assert m.dvpp_vpc_batch_crop_async(dvpp.channel, src, [2], dst, [roi, roi], dvpp.stream)[1] == INVALID_PARAM
    assert m.dvpp_vpc_batch_crop_async(dvpp.channel, src, [1], dst, [roi], dvpp.stream)[1] == INVALID_PARAM
    assert "source 0, region 0: inputDesc is 0x0" in dvpp.acl.get_recent_err_msg()
    assert m.dvpp_vpc_batch_crop_and_paste_async(dvpp.channel, src, [1], dst, [roi], [], dvpp.stream)[1] \
        == INVALID_PARAM
    for h in (src, dst):
        m.dvpp_destroy_batch_pic_desc(h)
    m.dvpp_destroy_roi_config(roi)


def test_png_faults(dvpp):
    acl, m = dvpp.acl, dvpp.acl.media
    good = png_bytes(np.zeros((40, 40, 3), np.uint8) + 9)
    for bad in (b"\x89PNG\r\n\x1a\n" + bytes(30), b"GIF89a" + bytes(40)):
        *_, ret = m.dvpp_png_get_image_info(acl.util.bytes_to_ptr(bad), len(bad))
        assert ret == INVALID_PARAM
    noisy = png_bytes(np.random.default_rng(0).integers(0, 256, (64, 64, 3), dtype=np.uint8))
    out = dvpp.pic(RGB888, 64, 64, 256, 64)
    src = dvpp.upload(noisy[: len(noisy) - 300])
    assert m.dvpp_png_decode_async(dvpp.channel, src, len(noisy) - 300, out, dvpp.stream) == 0
    assert dvpp.sync() == INVALID_PARAM and "corrupt PNG data" in err(acl)
    assert m.dvpp_get_pic_desc_ret_code(out) == INVALID_PARAM
    src = dvpp.upload(good)
    assert m.dvpp_png_decode_async(dvpp.channel, src, len(good), dvpp.pic(NV12, 40, 40, 128, 48),
                                   dvpp.stream) == INVALID_PARAM
    assert m.dvpp_png_decode_async(dvpp.channel, src, len(good), dvpp.pic(RGB888, 40, 40, 120, 48),
                                   dvpp.stream) == INVALID_PARAM and "multiple of 128" in err(acl)
    small = png_bytes(np.zeros((16, 16, 3), np.uint8))
    src = dvpp.upload(small)
    assert m.dvpp_png_decode_async(dvpp.channel, src, len(small), dvpp.pic(RGB888, 16, 16, 128, 16),
                                   dvpp.stream) == INVALID_PARAM and "PNGD decodes 32x32" in err(acl)


def test_memory_faults(dvpp):
    acl, m = dvpp.acl, dvpp.acl.media
    p, ret = m.dvpp_malloc(1000)
    assert ret == 0 and p % 128 == 0
    assert m.dvpp_free(p) == 0 and m.dvpp_free(p) == INVALID_PARAM and "acldvppMalloc" in err(acl)
    assert m.dvpp_malloc(0)[1] == INVALID_PARAM
    q, ret = acl.rt.malloc(256, 0)
    assert m.dvpp_free(q) == INVALID_PARAM and "aclrtFree" in err(acl)
    assert acl.rt.free(q) == 0


def test_jpege_faults(dvpp):
    acl, m = dvpp.acl, dvpp.acl.media
    cfg = m.dvpp_create_jpege_config()
    assert m.dvpp_set_jpege_config_level(cfg, 101) == INVALID_PARAM
    rgb = dvpp.pic(RGB888, 64, 64, 192, 64)
    assert m.dvpp_jpeg_predict_enc_size(rgb, cfg)[1] == INVALID_PARAM and "JPEGE does not take" in err(acl)
    tiny = dvpp.pic(NV12, 16, 16, 16, 16)
    assert m.dvpp_jpeg_predict_enc_size(tiny, cfg)[1] == INVALID_PARAM
    src = dvpp.pic(NV12, 64, 64, 64, 64)
    out = dvpp.alloc(64)
    size = np.array([64], np.uint32).tobytes()
    assert m.dvpp_jpeg_encode_async(dvpp.channel, src, out, acl.util.bytes_to_ptr(size), cfg, dvpp.stream) == 0
    assert dvpp.sync() == INVALID_PARAM and "output buffer has 64" in err(acl)
    m.dvpp_destroy_jpege_config(cfg)


def test_missing_codec_library_is_reported(tmp_path):
    code = """
        import acl, io, numpy as np
        from PIL import Image
        buf = io.BytesIO(); Image.fromarray(np.zeros((40, 40, 3), np.uint8)).save(buf, "JPEG")
        data = buf.getvalue()
        acl.init()
        print(acl.media.dvpp_jpeg_get_image_info(acl.util.bytes_to_ptr(data), len(data))[-1])
        print(acl.get_recent_err_msg())
    """
    r = run_python(code, env={"ACL_SIM_LIBJPEG": str(tmp_path / "libjpeg-missing.so")})
    assert r.returncode == 0, r.stderr
    ret, msg = r.stdout.splitlines()[:2]
    assert int(ret) == FEATURE_UNSUPPORTED and "JPEG codec library not found" in msg and "pillow" in msg
