"""DVPP (acl.media) against Pillow on the same pictures, same run.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_dvpp.py [--seconds 1.0] [--cpu-time]

Cases: JPEGD of a 1920x1080 4:2:0 JPEG (ours: decode task + stream sync from DVPP memory; Pillow: YCbCr
draft decode, the same libjpeg-turbo without colour conversion), VPC resize of a 1920x1080 NV12 frame to
224x224 (Pillow: bilinear resize of the Y and U/V planes), and NV12 -> RGB888 colour conversion (Pillow:
YCbCr -> RGB of full-resolution planes). Timing: bench_timing.compare (wall clock, alternated, median of
per-pair ratios; acl_sim / Pillow, lower is better).
"""
import argparse
import io
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_timing as bt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from dvpp_helpers import NV12, RGB888, Dvpp, jpeg_bytes, smooth_rgb  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0, help="timing budget per case")
    bt.add_cpu_time_option(ap)
    args = ap.parse_args()
    bt.apply_cpu_time_option(args)
    import acl

    assert acl.init() in (0, 100002)
    print(bt.machine_header())
    d = Dvpp(acl)
    m = acl.media
    W, H = 1920, 1080
    rows = []

    data = jpeg_bytes(smooth_rgb(W, H), quality=90)
    src = d.upload(data)
    size, _ = m.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(data), len(data), NV12)
    dec = d.pic(NV12, W, H, 1920, 1088, size=size)

    def ours_jpegd():
        assert m.dvpp_jpeg_decode_async(d.channel, src, len(data), dec, d.stream) == 0 and d.sync() == 0

    def pillow_jpegd():
        im = Image.open(io.BytesIO(data))
        im.draft("YCbCr", im.size)
        im.load()

    rows.append(bt.compare(ours_jpegd, pillow_jpegd, seconds=args.seconds).row("JPEGD 1920x1080 4:2:0"))
    print("  ".join(rows[-1]), flush=True)

    out = d.pic(NV12, 224, 224, 224, 224)
    cfg = m.dvpp_create_resize_config()
    y = Image.fromarray(np.random.default_rng(0).integers(0, 256, (H, W), dtype=np.uint8))
    u = y.resize((W // 2, H // 2))

    def ours_resize():
        assert m.dvpp_vpc_resize_async(d.channel, dec, out, cfg, d.stream) == 0 and d.sync() == 0

    def pillow_resize():
        y.resize((224, 224), Image.BILINEAR)
        u.resize((112, 112), Image.BILINEAR)
        u.resize((112, 112), Image.BILINEAR)

    rows.append(bt.compare(ours_resize, pillow_resize, seconds=args.seconds).row("VPC resize NV12 1920x1080->224"))
    print("  ".join(rows[-1]), flush=True)

    rgb = d.pic(RGB888, W, H, W * 3, H)
    full = [y, y.copy(), y.copy()]

    def ours_convert():
        assert m.dvpp_vpc_convert_color_async(d.channel, dec, rgb, d.stream) == 0 and d.sync() == 0

    def pillow_convert():
        Image.merge("YCbCr", full).convert("RGB")

    rows.append(bt.compare(ours_convert, pillow_convert, seconds=args.seconds).row("NV12->RGB888 1920x1080"))
    print("  ".join(rows[-1]), flush=True)
    m.dvpp_destroy_resize_config(cfg)
    d.close()
    print()
    print(bt.table(["case", "acl_sim ms", "Pillow ms", "ratio", "pairs"], rows))


if __name__ == "__main__":
    main()
