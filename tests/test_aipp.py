"""AIPP: static (`atc --insert_op_conf`) and dynamic (aclmdlSetInputAIPP) preprocessing in front of a
model, checked against a float64 NumPy reference of CANN's documented formulas, plus bad configs."""
import numpy as np
import pytest

from acl_helpers import from_device, to_device
from acl_sim import constants as C
from acl_sim.compiler import compile_model
from acl_sim.compiler.errors import CompileError
from atc_util import make_model
from onnx import helper

YUV_TO_RGB = (298, 0, 409, 298, -100, -208, 298, 516, 0)  # BT.601 rows R, G, B


def add_model(h, w, c=3):
    node = helper.make_node("Add", ["x", "half"], ["y"])
    return make_model([node], [("x", [1, c, h, w])], [("y", [1, c, h, w])],
                      inits={"half": np.full((1,), 0.5, np.float32)})


def shr8(v):
    return np.floor(v / 256.0)


def reference(raw, fmt, src_w, src_h, *, csc=False, matrix=YUV_TO_RGB, in_bias=(16, 128, 128),
              out_bias=(16, 128, 128), rbuv=False, ax=False, crop=None, pads=(0, 0, 0, 0), pad_value=0.0,
              mean=(0, 0, 0, 0), mn=(0, 0, 0, 0), var=(1, 1, 1, 1), channels=3):
    """float64 AIPP of one image -> [C, H, W] (CANN order: swap, crop, CSC, normalise, pad)."""
    raw = np.asarray(raw, np.float64).reshape(-1)
    if fmt == "YUV420SP_U8":
        y = raw[:src_w * src_h].reshape(src_h, src_w)
        uv = raw[src_w * src_h:].reshape(src_h // 2, src_w // 2, 2)
        u, v = (uv[..., 1], uv[..., 0]) if rbuv else (uv[..., 0], uv[..., 1])
        px = np.stack([y, np.repeat(np.repeat(u, 2, 0), 2, 1), np.repeat(np.repeat(v, 2, 0), 2, 1)])
        yuv = True
    elif fmt in ("RGB888_U8", "XRGB8888_U8"):
        bpp = 3 if fmt == "RGB888_U8" else 4
        img = raw.reshape(src_h, src_w, bpp)
        img = img[..., 1:] if (bpp == 4 and ax) else img[..., :3]
        px = img[..., ::-1].transpose(2, 0, 1) if rbuv else img.transpose(2, 0, 1)
        yuv = False
    else:
        px = raw.reshape(1, src_h, src_w)
        yuv = True
    x0, y0, cw, ch = crop if crop else (0, 0, src_w, src_h)
    px = px[:, y0:y0 + ch, x0:x0 + cw]
    if csc:
        m = np.asarray(matrix, np.float64).reshape(3, 3)
        if yuv:
            px = shr8(np.einsum("ij,jhw->ihw", m, px - np.asarray(in_bias, np.float64)[:, None, None]))
        else:
            px = shr8(np.einsum("ij,jhw->ihw", m, px)) + np.asarray(out_bias, np.float64)[:, None, None]
        px = np.clip(px, 0, 255)
    px = px[:channels]
    f16 = lambda a: np.asarray(a, np.float16).astype(np.float64)[:channels, None, None]  # noqa: E731
    px = (px - np.asarray(mean, np.float64)[:channels, None, None] - f16(mn)) * f16(var)
    t, b, l, r = pads
    out = np.full((channels, ch + t + b, cw + l + r), float(np.float16(pad_value)))
    out[:, t:t + ch, l:l + cw] = px
    return out


def write_cfg(tmp_path, body, name="aipp.cfg"):
    path = tmp_path / name
    path.write_text("aipp_op {\n" + "\n".join(f"  {k}: {v}" for k, v in body.items()) + "\n}\n")
    return str(path)


def run_model(acl, om_path, inputs):
    """Load, feed uint8 buffers `inputs` (list of arrays; None = leave to a setter), execute; returns y."""
    model_id, ret = acl.mdl.load_from_file(om_path)
    assert ret == 0, acl.get_recent_err_msg()
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    ds, frees = acl.mdl.create_dataset(), []
    for i, arr in enumerate(inputs):
        size = acl.mdl.get_input_size_by_index(desc, i)
        if arr is None:
            ptr, ret = acl.rt.malloc(size, 0)
        else:
            assert arr.nbytes == size, (arr.nbytes, size)
            ptr, _ = to_device(acl, arr)
        frees.append(ptr)
        _, ret = acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ptr, size))
        assert ret == 0
    out_size = acl.mdl.get_output_size_by_index(desc, 0)
    out_ptr, _ = acl.rt.malloc(out_size, 0)
    out_ds = acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(out_ptr, out_size))
    return model_id, desc, ds, out_ds, out_ptr, frees


def execute(acl, model_id, ds, out_ds, out_ptr, shape):
    ret = acl.mdl.execute(model_id, ds, out_ds)
    assert ret == 0, acl.get_recent_err_msg()
    return from_device(acl, out_ptr, shape, np.float32)


def cleanup(acl, model_id, desc, ds, out_ds, out_ptr, frees):
    for d in (ds, out_ds):
        for i in range(acl.mdl.get_dataset_num_buffers(d)):
            acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(d, i))
        acl.mdl.destroy_dataset(d)
    for p in frees + [out_ptr]:
        acl.rt.free(p)
    acl.mdl.destroy_desc(desc)
    assert acl.mdl.unload(model_id) == 0


STATIC = [
    ("yuv_csc_crop_pad", 24, 20, "YUV420SP_U8", 32, 30,
     dict(csc=True, crop=(4, 6, 18, 20), pads=(2, 2, 1, 1), pad_value=-1.0, mean=(10, 20, 30, 0),
          mn=(0.5, 1.5, 2.5, 0), var=(0.0078125, 0.01, 0.02, 1))),
    ("bgr_swap_norm", 16, 12, "RGB888_U8", 12, 16, dict(rbuv=True, mean=(104, 117, 123, 0), var=(0.017, 0.017, 0.017, 1))),
    ("xrgb_ax_csc_to_yuv", 8, 10, "XRGB8888_U8", 10, 8,
     dict(ax=True, csc=True, matrix=(66, 129, 25, -38, -74, 112, 112, -94, -18), out_bias=(16, 128, 128))),
    ("nv21_full", 8, 8, "YUV420SP_U8", 8, 8, dict(csc=True, rbuv=True)),
]


def cfg_of(fmt, src_w, src_h, p):
    body = {"aipp_mode": "static", "input_format": fmt, "src_image_size_w": src_w, "src_image_size_h": src_h}
    if p.get("csc"):
        body["csc_switch"] = "true"
        for i, v in enumerate(p.get("matrix", YUV_TO_RGB)):
            body[f"matrix_r{i // 3}c{i % 3}"] = v
        for i in range(3):
            body[f"input_bias_{i}"] = p.get("in_bias", (16, 128, 128))[i]
            body[f"output_bias_{i}"] = p.get("out_bias", (16, 128, 128))[i]
    if p.get("rbuv"):
        body["rbuv_swap_switch"] = "true"
    if p.get("ax"):
        body["ax_swap_switch"] = "true"
    if p.get("crop"):
        x0, y0, cw, ch = p["crop"]
        body.update(crop="true", load_start_pos_w=x0, load_start_pos_h=y0, crop_size_w=cw, crop_size_h=ch)
    if p.get("pads"):
        t, b, l, r = p["pads"]
        body.update(padding="true", top_padding_size=t, bottom_padding_size=b, left_padding_size=l,
                    right_padding_size=r, padding_value=p.get("pad_value", 0.0))
    for i in range(4):
        body[f"mean_chn_{i}"] = p.get("mean", (0,) * 4)[i]
        body[f"min_chn_{i}"] = p.get("mn", (0,) * 4)[i]
        body[f"var_reci_chn_{i}"] = p.get("var", (1,) * 4)[i]
    return body


def raw_image(rng, fmt, w, h):
    n = {"YUV420SP_U8": w * h * 3 // 2, "RGB888_U8": w * h * 3, "XRGB8888_U8": w * h * 4, "YUV400_U8": w * h}[fmt]
    return rng.integers(0, 256, size=n, dtype=np.uint8)


@pytest.mark.parametrize("name,h,w,fmt,src_w,src_h,p", STATIC, ids=[s[0] for s in STATIC])
def test_static_aipp_matches_reference(acl, device, tmp_path, name, h, w, fmt, src_w, src_h, p):
    cfg = write_cfg(tmp_path, cfg_of(fmt, src_w, src_h, p))
    report = compile_model(add_model(h, w), str(tmp_path / name), soc_version="Ascend310P3", insert_op_conf=cfg,
                           cache=False)
    rng = np.random.default_rng(len(name))
    raw = raw_image(rng, fmt, src_w, src_h)
    handles = run_model(acl, report["om_path"], [raw])
    model_id, desc = handles[0], handles[1]
    try:
        dims, ret = acl.mdl.get_input_dims(desc, 0)
        assert ret == 0 and dims["dims"][1:3] == [src_h, src_w]
        v2, _ = acl.mdl.get_input_dims_v2(desc, 0)
        assert int(np.prod(v2["dims"])) == acl.mdl.get_input_size_by_index(desc, 0) == raw.nbytes
        assert acl.mdl.get_input_data_type(desc, 0) == C.ACL_UINT8
        typ, attached, ret = acl.mdl.get_aipp_type(model_id, 0)
        assert (typ, ret) == (1, 0)  # ACL_DATA_WITH_STATIC_AIPP
        info, ret = acl.mdl.get_first_aipp_info(model_id, 0)
        assert ret == 0 and info["srcImageSizeW"] == src_w and info["cscSwitch"] == int(bool(p.get("csc")))
        assert info["outDims"][0]["aippOutdims"]["dims"] == [1, 3, h, w]
        got = execute(acl, *handles[:1], handles[2], handles[3], handles[4], (1, 3, h, w))
    finally:
        cleanup(acl, *handles)
    ref = reference(raw, fmt, src_w, src_h, **p) + 0.5
    np.testing.assert_allclose(got[0].astype(np.float64), ref, rtol=1e-5, atol=1e-5)


def run_single(acl, om_path, raw, shape, dtype=np.float32):
    handles = run_model(acl, om_path, [raw])
    try:
        ret = acl.mdl.execute(handles[0], handles[2], handles[3])
        assert ret == 0, acl.get_recent_err_msg()
        return from_device(acl, handles[4], shape, dtype)
    finally:
        cleanup(acl, *handles)


def test_gray_inputs_nhwc_and_fp16_models(acl, device, tmp_path):
    from onnx import TensorProto

    rng = np.random.default_rng(11)
    # YUV400 into a 1-channel model
    cfg = write_cfg(tmp_path, cfg_of("YUV400_U8", 6, 5, {"mean": (7, 0, 0, 0), "var": (0.25, 1, 1, 1)}), "g.cfg")
    om = compile_model(add_model(5, 6, c=1), str(tmp_path / "gray"), soc_version="Ascend310P3", insert_op_conf=cfg,
                       cache=False)["om_path"]
    raw = raw_image(rng, "YUV400_U8", 6, 5)
    got = run_single(acl, om, raw, (1, 1, 5, 6))
    ref = reference(raw, "YUV400_U8", 6, 5, mean=(7, 0, 0, 0), var=(0.25, 1, 1, 1), channels=1) + 0.5
    np.testing.assert_allclose(got[0], ref, rtol=1e-6, atol=1e-6)
    # RGB -> gray through CSC (row 0 of the matrix) into a 1-channel model
    gray = (77, 150, 29, 0, 0, 0, 0, 0, 0)
    cfg = write_cfg(tmp_path, cfg_of("RGB888_U8", 6, 5, {"csc": True, "matrix": gray, "out_bias": (0, 0, 0)}),
                    "rg.cfg")
    om = compile_model(add_model(5, 6, c=1), str(tmp_path / "rgb_gray"), soc_version="Ascend310P3",
                       insert_op_conf=cfg, cache=False)["om_path"]
    raw = raw_image(rng, "RGB888_U8", 6, 5)
    got = run_single(acl, om, raw, (1, 1, 5, 6))
    ref = reference(raw, "RGB888_U8", 6, 5, csc=True, matrix=gray, out_bias=(0, 0, 0), channels=1) + 0.5
    np.testing.assert_allclose(got[0], ref, rtol=1e-6, atol=1e-6)
    # an NHWC model (--input_format=NHWC) gets NHWC output from AIPP
    node = helper.make_node("Add", ["x", "half"], ["y"])
    nhwc = make_model([node], [("x", [1, 4, 6, 3])], [("y", [1, 4, 6, 3])],
                      inits={"half": np.full((1,), 0.5, np.float32)})
    cfg = write_cfg(tmp_path, cfg_of("RGB888_U8", 6, 4, {"rbuv": True}), "n.cfg")
    om = compile_model(nhwc, str(tmp_path / "nhwc"), soc_version="Ascend310P3", insert_op_conf=cfg,
                       input_format="NHWC", cache=False)["om_path"]
    raw = raw_image(rng, "RGB888_U8", 6, 4)
    got = run_single(acl, om, raw, (1, 4, 6, 3))
    ref = reference(raw, "RGB888_U8", 6, 4, rbuv=True).transpose(1, 2, 0) + 0.5
    np.testing.assert_allclose(got[0], ref, rtol=1e-6, atol=1e-6)
    # an fp16 model input: AIPP writes fp16
    node = helper.make_node("Add", ["x", "half"], ["y"])
    f16 = make_model([node], [("x", [1, 3, 4, 6], TensorProto.FLOAT16)], [("y", [1, 3, 4, 6], TensorProto.FLOAT16)],
                     inits={"half": np.full((1,), 0.5, np.float16)})
    cfg = write_cfg(tmp_path, cfg_of("RGB888_U8", 6, 4, {"mean": (100, 100, 100, 0), "var": (0.01, 0.02, 0.03, 1)}),
                    "h.cfg")
    om = compile_model(f16, str(tmp_path / "f16"), soc_version="Ascend310P3", insert_op_conf=cfg,
                       cache=False)["om_path"]
    got = run_single(acl, om, raw, (1, 3, 4, 6), np.float16)
    ref = reference(raw, "RGB888_U8", 6, 4, mean=(100, 100, 100, 0), var=(0.01, 0.02, 0.03, 1)) + 0.5
    np.testing.assert_allclose(got[0].astype(np.float64), ref, rtol=2e-3, atol=2e-3)


def test_two_inputs_each_with_its_own_aipp(acl, device, tmp_path):
    """Two aipp_op blocks: one by related_input_name (static RGB), one by related_input_rank (static NV12)."""
    node = helper.make_node("Add", ["a", "b"], ["y"])
    model = make_model([node], [("a", [1, 3, 4, 6]), ("b", [1, 3, 4, 6])], [("y", [1, 3, 4, 6])])
    rgb = cfg_of("RGB888_U8", 6, 4, {"mean": (1, 2, 3, 0)})
    rgb["related_input_name"] = '"b"'
    nv12 = cfg_of("YUV420SP_U8", 6, 4, {"csc": True})
    nv12["related_input_rank"] = 0
    path = tmp_path / "two.cfg"
    path.write_text("".join("aipp_op {\n" + "\n".join(f"  {k}: {v}" for k, v in b.items()) + "\n}\n"
                            for b in (rgb, nv12)))
    om = compile_model(model, str(tmp_path / "two"), soc_version="Ascend310P3", insert_op_conf=str(path),
                       cache=False)["om_path"]
    dup = tmp_path / "dup.cfg"
    dup.write_text(path.read_text().replace('related_input_name: "b"', "related_input_rank: 0"))
    with pytest.raises(CompileError, match="already has an aipp_op block"):
        compile_model(model, str(tmp_path / "dup"), soc_version="Ascend310P3", insert_op_conf=str(dup), cache=False)
    rng = np.random.default_rng(5)
    ra, rb = raw_image(rng, "YUV420SP_U8", 6, 4), raw_image(rng, "RGB888_U8", 6, 4)
    handles = run_model(acl, om, [ra, rb])
    try:
        assert [acl.mdl.get_aipp_type(handles[0], i)[0] for i in (0, 1)] == [1, 1]
        got = execute(acl, handles[0], handles[2], handles[3], handles[4], (1, 3, 4, 6))
    finally:
        cleanup(acl, *handles)
    ref = reference(ra, "YUV420SP_U8", 6, 4, csc=True) + reference(rb, "RGB888_U8", 6, 4, mean=(1, 2, 3, 0))
    np.testing.assert_allclose(got[0], ref, rtol=1e-6, atol=1e-6)


def test_static_aipp_with_dynamic_batch(acl, device, tmp_path):
    h, w = 6, 8
    node = helper.make_node("Add", ["x", "half"], ["y"])
    model = make_model([node], [("x", ["n", 3, h, w])], [("y", ["n", 3, h, w])],
                       inits={"half": np.full((1,), 0.5, np.float32)})
    cfg = write_cfg(tmp_path, cfg_of("YUV420SP_U8", w, h, {"csc": True, "mean": (5, 6, 7, 0)}))
    om = compile_model(model, str(tmp_path / "db"), soc_version="Ascend310P3", insert_op_conf=cfg,
                       input_shape=f"x:-1,3,{h},{w}", dynamic_batch_size="1,2", cache=False)["om_path"]
    rng = np.random.default_rng(8)
    imgs = [raw_image(rng, "YUV420SP_U8", w, h) for _ in range(2)]
    handles = run_model(acl, om, [np.concatenate(imgs), None])
    model_id, desc, ds = handles[0], handles[1], handles[2]
    try:
        dims, _ = acl.mdl.get_input_dims(desc, 0)
        assert dims["dims"] == [-1, h, w, 3]
        assert acl.mdl.get_input_size_by_index(desc, 0) == 2 * w * h * 3 // 2
        idx, ret = acl.mdl.get_input_index_by_name(desc, C.ACL_DYNAMIC_TENSOR_NAME)
        assert ret == 0 and acl.mdl.set_dynamic_batch_size(model_id, ds, idx, 2) == 0
        info, ret = acl.mdl.get_first_aipp_info(model_id, 0)
        assert ret == 0 and info["outDims"][0]["aippOutSize"] == 2 * 3 * h * w * 4
        got = execute(acl, model_id, ds, handles[3], handles[4], (2, 3, h, w))
    finally:
        cleanup(acl, *handles)
    for b in range(2):
        ref = reference(imgs[b], "YUV420SP_U8", w, h, csc=True, mean=(5, 6, 7, 0)) + 0.5
        np.testing.assert_allclose(got[b], ref, rtol=1e-6, atol=1e-6)


def test_dynamic_aipp_setters_and_execute(acl, device, tmp_path):
    h, w = 12, 10
    cfg = write_cfg(tmp_path, {"aipp_mode": "dynamic", "max_src_image_size": 64 * 64 * 3})
    report = compile_model(add_model(h, w), str(tmp_path / "dyn"), soc_version="Ascend310P3", insert_op_conf=cfg,
                           cache=False)
    src_w, src_h = 16, 20
    rng = np.random.default_rng(1)
    raw = np.zeros(64 * 64 * 3, np.uint8)
    img = raw_image(rng, "YUV420SP_U8", src_w, src_h)
    raw[:img.size] = img
    handles = run_model(acl, report["om_path"], [raw, None])
    model_id, desc, ds = handles[0], handles[1], handles[2]
    try:
        idx, ret = acl.mdl.get_input_index_by_name(desc, C.ACL_DYNAMIC_AIPP_NAME)
        assert (idx, ret) == (1, 0)
        size, ret = acl.mdl.get_aipp_data_size(1)
        assert ret == 0 and size == acl.mdl.get_input_size_by_index(desc, idx) == 64 + 96
        assert acl.mdl.get_aipp_type(model_id, 0) == (2, 1, 0)  # ACL_DATA_WITH_DYNAMIC_AIPP, attached at 1
        assert acl.mdl.get_aipp_type(model_id, 1)[0] == 3       # ACL_DYNAMIC_AIPP_NODE
        assert acl.mdl.get_first_aipp_info(model_id, 0)[1] == C.ACL_ERROR_NOT_STATIC_AIPP
        a = acl.mdl.create_aipp(1)
        assert a != 0
        assert acl.mdl.set_aipp_input_format(a, 1) == 0
        assert acl.mdl.set_aipp_src_image_size(a, src_w, src_h) == 0
        assert acl.mdl.set_aipp_csc_params(a, 1, *YUV_TO_RGB, 16, 128, 128, 16, 128, 128) == 0
        assert acl.mdl.set_aipp_rbuv_swap_switch(a, 0) == 0
        assert acl.mdl.set_aipp_ax_swap_switch(a, 0) == 0
        assert acl.mdl.set_aipp_scf_params(a, 0, 0, 0, 0, 0, 0) == 0
        assert acl.mdl.set_aipp_crop_params(a, 1, 2, 4, w - 2, h, 0) == 0
        assert acl.mdl.set_aipp_padding_params(a, 1, 0, 0, 1, 1, 0) == 0
        assert acl.mdl.set_aipp_dtc_pixel_mean(a, 1, 2, 3, 0, 0) == 0
        assert acl.mdl.set_aipp_dtc_pixel_min(a, 0.5, 0.25, 0.0, 0.0, 0) == 0
        assert acl.mdl.set_aipp_pixel_var_reci(a, 0.5, 0.25, 2.0, 1.0, 0) == 0
        assert acl.mdl.set_input_aipp(model_id, ds, idx, a) == 0, acl.get_recent_err_msg()
        got = execute(acl, model_id, ds, handles[3], handles[4], (1, 3, h, w))
        ref = reference(img, "YUV420SP_U8", src_w, src_h, csc=True, crop=(2, 4, w - 2, h), pads=(0, 0, 1, 1),
                        mean=(1, 2, 3, 0), mn=(0.5, 0.25, 0, 0), var=(0.5, 0.25, 2.0, 1.0)) + 0.5
        np.testing.assert_allclose(got[0].astype(np.float64), ref, rtol=1e-5, atol=1e-5)

        # misuse: CANN's codes and a message naming the function
        assert acl.mdl.set_aipp_crop_params(a, 1, 0, 0, w - 2, h, 3) == C.ACL_ERROR_INVALID_PARAM  # batch index
        assert acl.mdl.set_aipp_input_format(a, 9) == C.ACL_ERROR_INVALID_PARAM
        assert acl.mdl.set_aipp_scf_params(a, 1, 16, 20, 10, 12, 0) == C.ACL_ERROR_FEATURE_UNSUPPORTED
        assert acl.mdl.set_aipp_crop_params(a, 1, 10, 4, w - 2, h, 0) == 0   # window now outside the source
        assert acl.mdl.set_input_aipp(model_id, ds, idx, a) == C.ACL_ERROR_INVALID_PARAM
        assert "outside" in acl.get_recent_err_msg() and "aclmdlSetInputAIPP" in acl.get_recent_err_msg()
        assert acl.mdl.set_input_aipp(model_id, ds, 0, a) == C.ACL_ERROR_INVALID_PARAM   # not the aipp data input
        two = acl.mdl.create_aipp(2)
        assert acl.mdl.set_aipp_by_input_index(model_id, ds, 0, two) == C.ACL_ERROR_INVALID_PARAM  # batch mismatch
        assert acl.mdl.create_aipp(0) == 0
        assert acl.mdl.destroy_aipp(two) == 0 and acl.mdl.destroy_aipp(a) == 0
        assert acl.mdl.destroy_aipp(a) == C.ACL_ERROR_INVALID_PARAM
    finally:
        cleanup(acl, *handles)


BAD = [
    ({"aipp_mode": "static", "input_format": "RGB888_U8", "colour": 1}, "unknown AIPP parameter 'colour'"),
    ({"aipp_mode": "static"}, "needs input_format"),
    ({"aipp_mode": "static", "input_format": "YUV422SP_U8"}, "not supported"),
    ({"aipp_mode": "static", "input_format": "BGR"}, "unknown input_format"),
    ({"aipp_mode": "sometimes", "input_format": "RGB888_U8"}, "aipp_mode"),
    ({"aipp_mode": "static", "input_format": "RGB888_U8", "mean_chn_0": 300}, "out of range"),
    ({"aipp_mode": "static", "input_format": "RGB888_U8", "src_image_size_w": 16, "src_image_size_h": 16,
      "crop": "true", "load_start_pos_w": 10, "crop_size_w": 8, "crop_size_h": 8}, "outside"),
    ({"aipp_mode": "static", "input_format": "RGB888_U8", "src_image_size_w": 20, "src_image_size_h": 20},
     "the model input is 8x8"),
    ({"aipp_mode": "static", "input_format": "YUV420SP_U8", "src_image_size_w": 9, "src_image_size_h": 8}, "even"),
    ({"aipp_mode": "static", "input_format": "RGB888_U8", "resize": "true"}, "reserved"),
    ({"aipp_mode": "dynamic"}, "max_src_image_size"),
    ({"aipp_mode": "static", "input_format": "RGB888_U8", "related_input_rank": 3}, "out of range"),
    ({"aipp_mode": "static", "input_format": "RGB888_U8", "related_input_name": '"nope"'}, "not a model input"),
]


@pytest.mark.parametrize("body,text", BAD, ids=[b[1][:20] for b in BAD])
def test_bad_configs_are_rejected(tmp_path, body, text):
    cfg = write_cfg(tmp_path, body)
    with pytest.raises(CompileError) as e:
        compile_model(add_model(8, 8), str(tmp_path / "bad"), soc_version="Ascend310P3", insert_op_conf=cfg,
                      cache=False)
    assert text in str(e.value)


def test_atc_cli_exit_code_and_syntax_errors(tmp_path):
    import subprocess
    import sys

    import onnx
    from conftest import subprocess_env

    onnx.save(add_model(8, 8), str(tmp_path / "m.onnx"))
    (tmp_path / "broken.cfg").write_text("aipp_op {\n  aipp_mode: static\n  input_format RGB888_U8\n")
    r = subprocess.run([sys.executable, "-m", "acl_sim", "atc", f"--model={tmp_path / 'm.onnx'}", "--framework=5",
                        f"--output={tmp_path / 'out'}", "--soc_version=Ascend310P3",
                        f"--insert_op_conf={tmp_path / 'broken.cfg'}"],
                       capture_output=True, text=True, env=subprocess_env(), timeout=120)
    assert r.returncode == 1 and "ATC run failed" in (r.stdout + r.stderr)
    assert not (tmp_path / "out.om").exists()
