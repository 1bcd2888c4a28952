"""Single-op models: `acl-sim atc --singleop` (CANN's op.json), acl.op.set_model_dir, and the
acl_execute_add.py conformance program. Loading single-op models is process-wide (as on CANN)
and restricts later calls of the same op types, so programs that load them run in their own
interpreter."""
import json
import os
import subprocess
import sys

import pytest

from conftest import subprocess_env

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

OP_JSON = [{
    "op": "Add",
    "input_desc": [{"format": "ND", "shape": [8, 16], "type": "int32"},
                   {"format": "ND", "shape": [8, 16], "type": "int32"}],
    "output_desc": [{"format": "ND", "shape": [8, 16], "type": "int32"}],
}, {
    "op": "MatMul",
    "input_desc": [{"format": "ND", "shape": [4, 3], "type": "float"},
                   {"format": "ND", "shape": [5, 3], "type": "float"}],
    "output_desc": [{"format": "ND", "shape": [4, 5], "type": "float"}],
    "attr": [{"name": "transpose_x1", "type": "bool", "value": False},
             {"name": "transpose_x2", "type": "bool", "value": True}],
}]


def _env():
    return subprocess_env(os.path.join(REPO, "tests"))


def run(args, cwd=None):
    return subprocess.run([sys.executable] + args, capture_output=True, text=True, env=_env(), cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def op_models(tmp_path_factory):
    d = tmp_path_factory.mktemp("singleop")
    (d / "op.json").write_text(json.dumps(OP_JSON))
    proc = run(["-m", "acl_sim", "atc", f"--singleop={d / 'op.json'}", "--soc_version=Ascend910B1",
                f"--output={d / 'op_models'}"])
    assert proc.returncode == 0, proc.stderr
    names = sorted(os.listdir(d / "op_models"))
    assert names == ["0_Add_3_2_8_16_3_2_8_16_3_2_8_16.om", "1_MatMul_0_2_4_3_0_2_5_3_0_2_4_5.om"]
    return d / "op_models"


def test_singleop_cli_errors(tmp_path):
    (tmp_path / "bad.json").write_text(json.dumps([{"op": "Frobnicate", "output_desc": []}]))
    proc = run(["-m", "acl_sim", "atc", f"--singleop={tmp_path / 'bad.json'}", f"--output={tmp_path / 'o'}"])
    assert proc.returncode == 1 and "Frobnicate" in proc.stderr
    (tmp_path / "bad2.json").write_text("{not json")
    proc = run(["-m", "acl_sim", "atc", f"--singleop={tmp_path / 'bad2.json'}", f"--output={tmp_path / 'o'}"])
    assert proc.returncode == 1 and "not valid JSON" in proc.stderr


def test_acl_execute_add_program(op_models):
    proc = run([os.path.join(REPO, "examples", "pyacl_op_add", "acl_execute_add.py"), str(op_models)])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "[Add] result matches: True" in proc.stdout


LOADED_RULES = r"""
import sys
import numpy as np

from conftest import subprocess_env
import acl
from acl_helpers import from_device, to_device

model_dir = sys.argv[1]
assert acl.init() == 0 and acl.rt.set_device(0) == 0
assert acl.op.set_model_dir(model_dir) == 0
x = np.random.default_rng(2).standard_normal((4, 3)).astype(np.float32)
w = np.random.default_rng(3).standard_normal((5, 3)).astype(np.float32)
dx, dw, dy = (acl.create_tensor_desc(0, s, 2) for s in ([4, 3], [5, 3], [4, 5]))
px, nx = to_device(acl, x)
pw, nw = to_device(acl, w)
py, _ = acl.rt.malloc(80, 0)
bx, bw, by = acl.create_data_buffer(px, nx), acl.create_data_buffer(pw, nw), acl.create_data_buffer(py, 80)
attr = acl.op.create_attr()
acl.op.set_attr_bool(attr, "transpose_x1", 0)
acl.op.set_attr_bool(attr, "transpose_x2", 1)
h, ret = acl.op.create_handle("MatMul", [dx, dw], [dy], attr)
assert ret == 0, ret
assert acl.op.execute_with_handle(h, [bx, bw], [by], 0) == 0
assert acl.rt.synchronize_stream(0) == 0
np.testing.assert_allclose(from_device(acl, py, (4, 5), np.float32), x @ w.T, rtol=1e-5, atol=1e-5)
# MatMul now has a loaded model: calls must match a compiled signature, as on CANN
empty = acl.op.create_attr()
assert acl.op.create_handle("MatMul", [dx, dw], [dy], empty)[1] == 100024
assert "no loaded single-op model matches" in acl.get_recent_err_msg()
d8 = acl.create_tensor_desc(3, [4, 16], 2)
assert acl.op.execute_v2("Add", [d8, d8], [bx, bx], [d8], [by], 0, 0) == 100024
# an op type without loaded models still compiles on the fly
assert acl.op.execute_v2("Relu", [dx], [bx], [dx], [by], 0, 0) == 0
assert acl.rt.synchronize_stream(0) == 0
np.testing.assert_allclose(from_device(acl, py, (4, 3), np.float32), np.maximum(x, 0))
acl.op.destroy_handle(h)
print("RULES OK")
"""


def test_loaded_models_pin_signatures(op_models, tmp_path):
    script = tmp_path / "rules.py"
    script.write_text(LOADED_RULES)
    proc = run([str(script), str(op_models)])
    assert proc.returncode == 0 and "RULES OK" in proc.stdout, proc.stdout + proc.stderr


def test_set_model_dir_errors(acl, device, tmp_path):
    assert acl.op.set_model_dir(str(tmp_path / "missing")) == 100000
    (tmp_path / "x.om").write_bytes(b"garbage")
    assert acl.op.set_model_dir(str(tmp_path)) == 100013
    (tmp_path / "x.om").write_bytes(b'ACLSIMOP{"version": 1, "op": "Add"}')
    assert acl.op.set_model_dir(str(tmp_path)) == 100013
    assert acl.op.set_model_dir("") == 100000
