"""Dump (aclInit config "dump" section) and `acl-sim compare`."""
import json
import os
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

from obs_helpers import INFER_SCRIPT, compile_tiny


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return compile_tiny(str(tmp_path_factory.mktemp("dump")))


def run_infer(tmp, om, config, runs=1):
    script = os.path.join(tmp, "infer.py")
    with open(script, "w") as f:
        f.write(INFER_SCRIPT)
    y = os.path.join(tmp, "y.npy")
    out = subprocess.run([sys.executable, script, om, config, str(runs), y], capture_output=True, text=True, timeout=300)
    return out, y


def test_dump_round_trip(tiny, tmp_path):
    onnx_path, om = tiny
    dump_dir = tmp_path / "dump"
    cfg = tmp_path / "acl.json"
    cfg.write_text(json.dumps({"dump": {"dump_path": str(dump_dir), "dump_mode": "all"}}))
    out, y_path = run_infer(str(tmp_path), om, str(cfg), runs=2)
    assert out.returncode == 0, out.stderr[-3000:]
    models = os.listdir(dump_dir)
    assert models == ["tiny_cnn"], models
    iters = sorted(os.listdir(dump_dir / "tiny_cnn"))
    assert iters == ["1", "2"]
    it = dump_dir / "tiny_cnn" / "2"
    entries = [json.loads(l) for l in open(it / "manifest.jsonl")]
    kinds = {e["kind"] for e in entries}
    assert kinds == {"input", "output"}
    # The last node's output is the model output.
    last = max((e for e in entries if e["kind"] == "output"), key=lambda e: e["node_index"])
    y = np.load(y_path)
    np.testing.assert_array_equal(np.load(it / last["file"]).reshape(y.shape), y)
    # The first node's input is the model input.
    first = min((e for e in entries if e["kind"] == "input" and e["index"] == 0), key=lambda e: e["node_index"])
    x = np.random.default_rng(0).standard_normal((1, 3, 16, 16)).astype(np.float32)
    np.testing.assert_array_equal(np.load(it / first["file"]), x)


def test_dump_list_filters_layers(tiny, tmp_path):
    _, om = tiny
    dump_dir = tmp_path / "dump"
    cfg = tmp_path / "acl.json"
    cfg.write_text(json.dumps({"dump": {"dump_path": str(dump_dir), "dump_mode": "output",
                                        "dump_list": [{"model_name": "tiny_cnn", "layer": ["fc"]}]}}))
    out, _ = run_infer(str(tmp_path), om, str(cfg))
    assert out.returncode == 0, out.stderr[-3000:]
    entries = [json.loads(l) for l in open(dump_dir / "tiny_cnn" / "1" / "manifest.jsonl")]
    assert {e["node"] for e in entries} == {"fc"}


@pytest.mark.parametrize("bad, code", [
    ({"dump": {"dump_mode": "output"}}, 100009),
    ({"dump": {"dump_path": "/tmp/x", "dump_mode": "sideways"}}, 100009),
    ({"dump": []}, 100009),
    ({"profiler": {"switch": "maybe"}}, 100010),
    ({"max_opqueue_num": -3}, 148048),
])
def test_bad_config_codes(bad, code, tmp_path):
    from acl_sim._core import sim

    assert sim.check_init_config(json.dumps(bad))[0] == code
    cfg = tmp_path / "bad.json"
    cfg.write_text(json.dumps(bad))
    r = subprocess.run([sys.executable, "-c", f"import acl; print(acl.init({str(cfg)!r}))"],
                       capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == str(code), r.stderr[-2000:]


def test_bad_json_config():
    from acl_sim._core import sim

    ret, msg = sim.check_init_config('{"dump": ')
    assert ret == 100006 and msg


def perturb_weight(om_in: str, om_out: str, node_source: str) -> None:
    """Scale the weight of the node built from ONNX node `node_source` by 1.5, fixing the CRC."""
    from acl_sim.compiler.om_reader import read_om

    data = bytearray(open(om_in, "rb").read())
    om = read_om(bytes(data))
    g = om.profile(0)
    node = next(n for n in g["nodes"] if node_source in n.get("sources", [n["name"]]))
    w = next(g["tensors"][i] for i in node["inputs"] if i >= 0 and g["tensors"][i]["kind"] == "weight"
             and len(g["tensors"][i]["shape"]) == 4)
    start = om.weights_offset + w["offset"]
    arr = np.frombuffer(bytes(data[start:start + w["size"]]), dtype=np.float32) * 1.5
    data[start:start + w["size"]] = arr.astype(np.float32).tobytes()
    count = struct.unpack_from("<I", data, 16)[0]
    for i in range(count):
        e = 64 + 32 * i
        kind, _, off, size = struct.unpack_from("<IIQQ", data, e)
        struct.pack_into("<I", data, e + 4, zlib.crc32(bytes(data[off:off + size])) & 0xFFFFFFFF)
    open(om_out, "wb").write(bytes(data))


def test_compare_clean_model_agrees(tiny, tmp_path):
    onnx_path, om = tiny
    r = subprocess.run([sys.executable, "-m", "acl_sim", "compare", f"--model={onnx_path}", f"--om={om}",
                        f"--json={tmp_path / 'r.json'}"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    report = json.load(open(tmp_path / "r.json"))
    assert report["rows"] and report["first_divergence"] is None
    assert all(row["cosine"] > 0.9999 for row in report["rows"])


def test_compare_finds_perturbed_weight(tiny, tmp_path):
    onnx_path, om = tiny
    bad_om = str(tmp_path / "perturbed.om")
    perturb_weight(om, bad_om, "conv2")
    r = subprocess.run([sys.executable, "-m", "acl_sim", "compare", f"--model={onnx_path}", f"--om={bad_om}",
                        f"--json={tmp_path / 'r.json'}"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    report = json.load(open(tmp_path / "r.json"))
    first = report["first_divergence"]
    assert first is not None
    assert "conv2" in first["sources"] or first["node"] == "conv2", first
    assert "first divergence" in r.stdout and "conv2" in r.stdout


def test_compare_missing_file_is_clean(tmp_path):
    r = subprocess.run([sys.executable, "-m", "acl_sim", "compare", "--model=/nope.onnx", "--om=/nope.om"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "Traceback" not in r.stderr
