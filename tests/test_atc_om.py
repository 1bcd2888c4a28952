"""The .om container: layout rules of docs/om_format.md, round trip through the Python reader, corruption."""
import struct
import zlib

import numpy as np
import pytest
from onnx import helper

from acl_sim.compiler import compile_model
from acl_sim.compiler.om_reader import OmFormatError, read_om
from atc_util import make_model


@pytest.fixture(scope="module")
def om_bytes(tmp_path_factory):
    w = np.arange(24, dtype=np.float32).reshape(6, 4)
    nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["g"], name="fc"), helper.make_node("Relu", ["g"], ["y"]),
             helper.make_node("Identity", ["w"], ["w_out"])]
    model = make_model(nodes, [("x", ["N", 4])], [("y", None), ("w_out", None)],
                       {"w": w.T.copy(), "b": np.ones(6, np.float32)})
    out = tmp_path_factory.mktemp("om") / "fc"
    report = compile_model(model, str(out), input_shape="x:-1,4", dynamic_batch_size="2,5", cache=False)
    assert report["om_path"].endswith("fc.om")
    with open(report["om_path"], "rb") as f:
        return f.read()


def test_header_and_sections(om_bytes):
    magic, version, header_size, count, flags, total = struct.unpack_from("<8sIIIIQ", om_bytes, 0)
    assert (magic, version, header_size, flags, total) == (b"ACLSIMOM", 1, 64, 0, len(om_bytes))
    assert om_bytes[32:64] == bytes(32)
    kinds = {}
    for i in range(count):
        kind, crc, offset, size, reserved = struct.unpack_from("<IIQQQ", om_bytes, 64 + 32 * i)
        assert reserved == 0 and zlib.crc32(om_bytes[offset:offset + size]) == crc
        kinds[kind] = (offset, size)
    assert set(kinds) == {1, 2, 3, 4, 5}
    assert kinds[4][0] % 64 == 0


def test_round_trip(om_bytes):
    om = read_om(om_bytes)
    io = om.iodesc
    assert [i["name"] for i in io["inputs"]] == ["x", "ascend_mbatch_shape_data"]
    assert io["inputs"][0] == {"name": "x", "dtype": 0, "format": 2, "dims": [-1, 4], "size": 5 * 4 * 4}
    assert io["inputs"][1] == {"name": "ascend_mbatch_shape_data", "dtype": 9, "format": 2, "dims": [1], "size": 8}
    assert io["dynamic"] == {"kind": "batch", "profiles": [[2], [5]], "mbatch_input_index": 1}
    assert io["outputs"][0] == {"name": "y", "dtype": 0, "format": 2, "dims": [5, 6], "size": 120}
    assert len(om.graph["profiles"]) == 2
    for p, batch in enumerate((2, 5)):
        g = om.profile(p)
        ops = [n["op"] for n in g["nodes"]]
        assert ops == ["Gemm", "Identity"]  # Relu fused; the weight output is copied by an Identity
        gemm = g["nodes"][0]
        assert gemm["attrs"]["activation"] == "Relu" and gemm["sources"] == ["fc", "Relu_1"]
        w = g["tensors"][gemm["inputs"][1]]
        assert w["kind"] == "weight" and w["offset"] % 64 == 0
        np.testing.assert_array_equal(om.weight(w), np.arange(24, dtype=np.float32).reshape(6, 4).T)
        y = g["tensors"][gemm["outputs"][0]]
        assert y["kind"] == "output" and y["shape"] == [batch, 6] and y["size"] == batch * 24
        ident = g["nodes"][1]
        assert g["tensors"][ident["outputs"][0]]["kind"] == "output"
        assert g["tensors"][ident["outputs"][0]]["index"] == 1
    # Identical weights across profiles are stored once.
    offsets = {t["offset"] for p in (0, 1) for t in om.profile(p)["tensors"] if t["kind"] == "weight"}
    assert len(offsets) == 2
    assert om.meta["producer"].startswith("acl_sim atc") and om.meta["soc_version"] == "Ascend910B1"


@pytest.mark.parametrize("damage", ["truncate", "magic", "version", "crc", "size", "section_bounds"])
def test_reader_rejects_damage(om_bytes, damage):
    data = bytearray(om_bytes)
    if damage == "truncate":
        data = data[:len(data) // 2]
    elif damage == "magic":
        data[0] = ord("X")
    elif damage == "version":
        struct.pack_into("<I", data, 8, 2)
    elif damage == "crc":
        data[64 + 32 * 5 + 10] ^= 0xFF  # a byte inside the first JSON section
    elif damage == "size":
        struct.pack_into("<Q", data, 24, len(data) + 1)
    elif damage == "section_bounds":
        struct.pack_into("<Q", data, 64 + 16, len(data))  # section 0 size runs past the end
    with pytest.raises(OmFormatError):
        read_om(bytes(data))
