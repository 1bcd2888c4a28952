"""pyACL-style helpers for the DVPP tests: pictures in DVPP memory, images made with Pillow, and float64
NumPy references for the VPC (bilinear/nearest resize, BT.601 full-range conversion)."""
from __future__ import annotations

import io

import numpy as np
from PIL import Image

H2D, D2H = 1, 2
YUV400, NV12, NV21, YUV422SP, YVU422SP, YUV444SP, YVU444SP = 0, 1, 2, 3, 4, 5, 6
YUYV, RGB888, BGR888, RGBA8888 = 7, 12, 13, 16
INVALID_PARAM, FEATURE_UNSUPPORTED, UNSUPPORTED_JPEG = 100000, 200006, 148052


def align(v: int, a: int) -> int:
    return (v + a - 1) // a * a


class Dvpp:
    """One context, stream and DVPP channel; tracks what it allocates and frees it in close()."""

    def __init__(self, acl):
        self.acl = acl
        assert acl.rt.set_device(0) == 0
        self.ctx, ret = acl.rt.create_context(0)
        assert ret == 0
        self.stream, ret = acl.rt.create_stream()
        assert ret == 0
        self.channel = acl.media.dvpp_create_channel_desc()
        assert acl.media.dvpp_create_channel(self.channel) == 0
        self._mem, self._descs = [], []

    def upload(self, data: bytes) -> int:
        ptr, ret = self.acl.media.dvpp_malloc(len(data))
        assert ret == 0
        self._mem.append(ptr)
        assert self.acl.rt.memcpy(ptr, len(data), self.acl.util.bytes_to_ptr(data), len(data), H2D) == 0
        return ptr

    def download(self, ptr: int, size: int) -> np.ndarray:
        out = bytearray(size)
        assert self.acl.rt.memcpy(self.acl.util.bytes_to_ptr(out), size, ptr, size, D2H) == 0
        return np.frombuffer(bytes(out), np.uint8)

    def alloc(self, size: int, fill: int | None = None) -> int:
        ptr, ret = self.acl.media.dvpp_malloc(size)
        assert ret == 0
        self._mem.append(ptr)
        if fill is not None:
            assert self.acl.rt.memset(ptr, size, fill, size) == 0
        return ptr

    def pic(self, fmt, width, height, wstride, hstride, data=None, size=None) -> int:
        m = self.acl.media
        size = size if size is not None else frame_bytes(fmt, wstride, hstride)
        data = data if data is not None else self.alloc(size, 0)
        d = m.dvpp_create_pic_desc()
        self._descs.append(d)
        for name, v in (("data", data), ("size", size), ("format", fmt), ("width", width), ("height", height),
                        ("width_stride", wstride), ("height_stride", hstride)):
            assert getattr(m, "dvpp_set_pic_desc_" + name)(d, v) == 0
        return d

    def read(self, desc) -> np.ndarray:
        m = self.acl.media
        return self.download(m.dvpp_get_pic_desc_data(desc), m.dvpp_get_pic_desc_size(desc))

    def sync(self) -> int:
        return self.acl.rt.synchronize_stream(self.stream)

    def close(self):
        m = self.acl.media
        for d in self._descs:
            m.dvpp_destroy_pic_desc(d)
        for p in self._mem:
            m.dvpp_free(p)
        m.dvpp_destroy_channel(self.channel)
        m.dvpp_destroy_channel_desc(self.channel)
        self.acl.rt.destroy_stream(self.stream)
        self.acl.rt.destroy_context(self.ctx)


def frame_bytes(fmt, ws, hs) -> int:
    if fmt in (NV12, NV21):
        return ws * hs * 3 // 2
    if fmt in (YUV422SP, YVU422SP):
        return ws * hs * 2
    if fmt in (YUV444SP, YVU444SP):
        return ws * hs * 3
    return ws * hs


def nv12_planes(buf: np.ndarray, w, h, ws, hs, vu=False):
    """(Y, U, V) of an NV12/NV21 frame."""
    y = buf[: ws * hs].reshape(hs, ws)[:h, :w]
    cw, ch = (w + 1) // 2, (h + 1) // 2
    uv = buf[ws * hs: ws * hs + ws * hs // 2].reshape(hs // 2, ws)[:ch, : 2 * cw].reshape(ch, cw, 2)
    u, v = (uv[..., 1], uv[..., 0]) if vu else (uv[..., 0], uv[..., 1])
    return y, u, v


def make_nv12(y, u, v, ws, hs) -> bytes:
    h, w = y.shape
    buf = np.zeros(ws * hs * 3 // 2, np.uint8)
    buf[: ws * hs].reshape(hs, ws)[:h, :w] = y
    uv = buf[ws * hs:].reshape(hs // 2, ws)
    uv[: u.shape[0], 0: 2 * u.shape[1]: 2] = u
    uv[: u.shape[0], 1: 2 * u.shape[1]: 2] = v
    return buf.tobytes()


def smooth_rgb(w, h, seed=0) -> np.ndarray:
    """A smooth random RGB picture (noise blown up), so JPEG round trips stay close."""
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 256, (h // 8 + 2, w // 8 + 2, 3)).astype(np.uint8)
    return np.asarray(Image.fromarray(small).resize((w, h), Image.BILINEAR))


def jpeg_bytes(rgb: np.ndarray, quality=90, subsampling=2, **kw) -> bytes:
    buf = io.BytesIO()
    mode = "L" if rgb.ndim == 2 else "RGB"
    Image.fromarray(rgb, mode).save(buf, "JPEG", quality=quality, subsampling=subsampling, **kw)
    return buf.getvalue()


def png_bytes(img: np.ndarray, mode=None) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(img, mode).save(buf, "PNG")
    return buf.getvalue()


def pillow_ycbcr(data: bytes, size=None) -> np.ndarray:
    """Pillow's (libjpeg's) YCbCr decode, no colour conversion: Y is exactly what JPEGD produces.
    @p size: a DCT-scaled draft decode (libjpeg picks the nearest scale at least that large)."""
    im = Image.open(io.BytesIO(data))
    im.draft("YCbCr", size or im.size)
    assert im.mode == "YCbCr"
    return np.asarray(im)


def resize_ref(src: np.ndarray, ow: int, oh: int, mode: str = "bilinear", scale=None) -> np.ndarray:
    """float64 reference of the VPC's scaling of one channel (OpenCV's pixel-centre mapping, edge clamp).
    @p scale: (x, y) source samples per output sample when not in_size / out_size (chroma of odd pictures)."""
    ih, iw = src.shape
    s = src.astype(np.float64)

    def taps(n_in, n_out, given):
        scale = given or n_in / n_out
        d = np.arange(n_out, dtype=np.float64)
        if mode == "nearest":
            i = np.minimum(np.floor(d * scale).astype(np.int64), n_in - 1)
            return i, i, np.zeros(n_out)
        f = (d + 0.5) * scale - 0.5 if mode == "bilinear" else d * scale
        f = np.maximum(f, 0)
        i0 = np.floor(f).astype(np.int64)
        w = f - i0
        over = i0 >= n_in - 1
        i0[over], w[over] = n_in - 1, 0
        return i0, np.minimum(i0 + 1, n_in - 1), w

    x0, x1, wx = taps(iw, ow, scale and scale[0])
    y0, y1, wy = taps(ih, oh, scale and scale[1])
    rows = s[:, x0] * (1 - wx) + s[:, x1] * wx
    out = rows[y0] * (1 - wy)[:, None] + rows[y1] * wy[:, None]
    return np.clip(np.floor(out + 0.5), 0, 255).astype(np.uint8)


def yuv_to_rgb_ref(y, u, v) -> np.ndarray:
    """BT.601 full range (JFIF), rounded half up: the documented formula."""
    y, u, v = (a.astype(np.float64) for a in (y, u, v))
    r = y + 1.402 * (v - 128)
    g = y - 0.344136 * (u - 128) - 0.714136 * (v - 128)
    b = y + 1.772 * (u - 128)
    return np.clip(np.floor(np.stack([r, g, b], -1) + 0.5), 0, 255).astype(np.uint8)


def rgb_to_yuv_ref(rgb) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r, g, b = (rgb[..., k].astype(np.float64) for k in range(3))
    y = 0.299 * r + 0.587 * g + 0.114 * b
    u = -0.168736 * r - 0.331264 * g + 0.5 * b + 128
    v = 0.5 * r - 0.418688 * g - 0.081312 * b + 128
    return tuple(np.clip(np.floor(c + 0.5), 0, 255).astype(np.uint8) for c in (y, u, v))
