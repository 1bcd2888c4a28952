"""Fuzz targets: one function per parser that must never crash.

Each target takes bytes and returns normally for every input; a documented
error (an ACL/HCCL code, CompileError) is a normal return. Anything else --
an unexpected Python exception, or a native crash that kills the process --
is a bug. The same functions replay the kept crashers as regression tests
(tests/test_fuzz_regressions.py), and drive atheris (tests/fuzz/fuzz_main.py).
"""
from __future__ import annotations

import glob
import io
import json
import os
import struct
import tempfile
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CRASHERS = os.path.join(HERE, "crashers")

# --------------------------------------------------------------------------- .om reader

_acl_ready = False


def _acl():
    global _acl_ready
    import acl

    if not _acl_ready:
        assert acl.init() in (0, 100002)
        assert acl.rt.set_device(0) == 0
        _acl_ready = True
    return acl


def om_reader(data: bytes) -> None:
    acl = _acl()
    buf = np.frombuffer(data, dtype=np.uint8) if data else np.zeros(1, np.uint8)
    ptr = buf.ctypes.data
    model_id, ret = acl.mdl.load_from_mem(ptr, len(data))
    if ret == 0:
        assert acl.mdl.unload(model_id) == 0
    else:
        assert ret in (100000, 100003, 100005, 100006, 100012, 100013, 100015, 145002, 145000, 207001, 507000) \
            or ret > 0, ret


def fix_om_crcs(data: bytes) -> bytes:
    """Recompute section CRCs so mutations reach the parsers behind the CRC check."""
    if len(data) < 64 or data[:8] != b"ACLSIMOM":
        return data
    out = bytearray(data)
    (count,) = struct.unpack_from("<I", out, 16)
    for i in range(min(count, 16)):
        entry = 64 + 32 * i
        if entry + 32 > len(out):
            break
        kind, _crc, off, size = struct.unpack_from("<IIQQ", out, entry)
        if off + size <= len(out):
            struct.pack_into("<I", out, entry + 4, zlib.crc32(bytes(out[off:off + size])) & 0xFFFFFFFF)
    struct.pack_into("<Q", out, 24, len(out))
    return bytes(out)


def _tiny_onnx_models() -> list[bytes]:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
    b = numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "b")
    fc = numpy_helper.from_array(rng.standard_normal((4, 5)).astype(np.float32), "fc")
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("GlobalAveragePool", ["r"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flat"),
        helper.make_node("MatMul", ["f", "fc"], ["m"], name="fc"),
        helper.make_node("Softmax", ["m"], ["y"], name="softmax", axis=-1),
    ]
    graph = helper.make_graph(nodes, "tiny_cnn",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5])], [w, b, fc])
    cnn = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    add = helper.make_model(helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["s"], name="add"), helper.make_node("Mul", ["s", "a"], ["y"], name="mul")],
        "add_mul", [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3]),
                    helper.make_tensor_value_info("b", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])]), opset_imports=[helper.make_opsetid("", 13)])
    return [cnn.SerializeToString(), add.SerializeToString()]


def om_seeds() -> list[bytes]:
    from acl_sim.compiler import compile_model

    seeds = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, model in enumerate(_tiny_onnx_models()):
            out = os.path.join(tmp, f"m{i}")
            compile_model(model, out, cache=False)
            with open(out + ".om", "rb") as f:
                seeds.append(f.read())
        dyn = os.path.join(tmp, "dyn")
        compile_model(_tiny_onnx_models()[0], dyn, cache=False, input_shape="x:-1,3,8,8", dynamic_batch_size="1,2")
        with open(dyn + ".om", "rb") as f:
            seeds.append(f.read())
    return seeds

# --------------------------------------------------------------------------- ONNX importer


def onnx_import(data: bytes) -> None:
    from acl_sim.compiler import CompileError, compile_model

    with tempfile.TemporaryDirectory() as tmp:
        try:
            compile_model(data, os.path.join(tmp, "fuzz"), cache=False)
        except CompileError:
            pass


def onnx_seeds() -> list[bytes]:
    import onnx

    seeds = list(_tiny_onnx_models())
    root = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")
    for name in ("test_add", "test_conv_with_strides_padding", "test_maxpool_2d_pads", "test_gemm_default_matrix_bias",
                 "test_reshape_extended_dims", "test_concat_2d_axis_0", "test_softmax_axis_1", "test_transpose_default"):
        path = os.path.join(root, name, "model.onnx")
        if os.path.exists(path):
            with open(path, "rb") as f:
                seeds.append(f.read())
    return seeds

# --------------------------------------------------------------------------- aclInit config


def init_config(data: bytes) -> None:
    from acl_sim._core import sim

    # raw bytes (pybind11 passes them as std::string): invalid UTF-8 must reach the JSON parser
    ret, msg = sim.check_init_config(bytes(data))
    assert ret in (0, 100006, 100009, 100010, 148048), (ret, msg)
    assert ret == 0 or msg


def init_config_seeds() -> list[bytes]:
    return [s.encode() for s in (
        "{}", "",
        json.dumps({"dump": {"dump_path": "/tmp/acl_dump", "dump_mode": "output",
                             "dump_list": [{"model_name": "resnet50", "layer": ["conv1", "fc"]}]}}),
        json.dumps({"profiler": {"switch": "on", "output": "/tmp/prof", "aic_metrics": "PipeUtilization"}}),
        json.dumps({"max_opqueue_num": "10000", "err_msg_mode": "1"}),
    )]

# --------------------------------------------------------------------------- rank table


def rank_table(data: bytes) -> None:
    from acl_sim import hccl

    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as f:
        f.write(data)
        path = f.name
    try:
        for rank in (0, 1):
            ret, msg = hccl.check_rank_table(path, rank)
            assert ret in (0, 1, 10), (ret, msg)  # HCCL_SUCCESS, HCCL_E_PARA, HCCL_E_OPEN_FILE_FAILURE
            assert ret == 0 or msg
    finally:
        os.unlink(path)


def rank_table_seeds() -> list[bytes]:
    def table(n):
        return {"version": "1.0", "server_count": "1", "status": "completed",
                "server_list": [{"server_id": "127.0.0.1",
                                 "device": [{"device_id": str(i), "device_ip": f"192.168.1.{i}", "rank_id": str(i)}
                                            for i in range(n)]}]}
    return [json.dumps(table(n)).encode() for n in (1, 2, 8)]

# --------------------------------------------------------------------------- DVPP image decoders

_dvpp = {}


def _dvpp_state():
    """One stream and open DVPP channel for the process (the decoders are stream tasks)."""
    if not _dvpp:
        acl = _acl()
        _dvpp["stream"], ret = acl.rt.create_stream()
        assert ret == 0
        _dvpp["channel"] = acl.media.dvpp_create_channel_desc()
        assert acl.media.dvpp_create_channel(_dvpp["channel"]) == 0
    return _acl(), _dvpp["stream"], _dvpp["channel"]


def dvpp_image(data: bytes) -> None:
    """JPEG / PNG header parsing, size prediction and (for small images) a full decode through device memory:
    every outcome is a code (100000 bad data, 148052 unsupported JPEG, 200006 no codec library), never a crash."""
    acl, stream, channel = _dvpp_state()
    m = acl.media
    codes = (0, 100000, 148052, 200006)
    host = np.frombuffer(data, np.uint8) if data else np.zeros(1, np.uint8)
    size = len(data)
    is_png = data[:4] == b"\x89PNG"
    w, h, _, ret = (m.dvpp_png_get_image_info if is_png else m.dvpp_jpeg_get_image_info)(host.ctypes.data, size)
    assert ret in codes, ret
    fmt = 12 if is_png else 1
    need, ret2 = (m.dvpp_png_predict_dec_size if is_png else m.dvpp_jpeg_predict_dec_size)(host.ctypes.data, size, fmt)
    assert ret2 in codes, ret2
    if ret or ret2 or size == 0 or w * h > 512 * 512:
        return
    src, r = m.dvpp_malloc(size)
    out, r2 = m.dvpp_malloc(need)
    assert r == 0 and r2 == 0
    try:
        assert acl.rt.memcpy(src, size, host.ctypes.data, size, 1) == 0
        desc = m.dvpp_create_pic_desc()
        ws = (w * 3 + 127) // 128 * 128 if is_png else (w + 127) // 128 * 128
        for name, v in (("data", out), ("size", need), ("format", fmt), ("width", w), ("height", h),
                        ("width_stride", ws), ("height_stride", (h + 15) // 16 * 16)):
            getattr(m, "dvpp_set_pic_desc_" + name)(desc, v)
        ret = (m.dvpp_png_decode_async if is_png else m.dvpp_jpeg_decode_async)(channel, src, size, desc, stream)
        assert ret in codes, ret
        assert acl.rt.synchronize_stream(stream) in codes
        m.dvpp_destroy_pic_desc(desc)
    finally:
        m.dvpp_free(src)
        m.dvpp_free(out)


def dvpp_image_seeds() -> list[bytes]:
    from PIL import Image

    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
    seeds = []
    for kw in ({"subsampling": 2}, {"subsampling": 0}, {"subsampling": 1}, {"progressive": True}):
        buf = io.BytesIO()
        Image.fromarray(rgb).save(buf, "JPEG", quality=80, **kw)
        seeds.append(buf.getvalue())
    for img in (Image.fromarray(rgb), Image.fromarray(rgb).convert("P"), Image.fromarray(rgb[..., 0])):
        buf = io.BytesIO()
        img.save(buf, "PNG")
        seeds.append(buf.getvalue())
    return seeds

# --------------------------------------------------------------------------- registry


TARGETS = {
    "om_reader": (om_reader, om_seeds),
    "onnx_import": (onnx_import, onnx_seeds),
    "init_config": (init_config, init_config_seeds),
    "rank_table": (rank_table, rank_table_seeds),
    "dvpp_image": (dvpp_image, dvpp_image_seeds),
}


def crashers(target: str) -> list[str]:
    return sorted(glob.glob(os.path.join(CRASHERS, target, "*")))
