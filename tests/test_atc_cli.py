"""`acl-sim atc` command line: success path, --log=info report, compile cache, one-line user errors."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from onnx import helper

import models
from acl_sim.compiler import CompileError, compile_model
from acl_sim.compiler.cli import main
from acl_sim.compiler.om_reader import read_om
from atc_util import make_model

PASSES = ["normalize", "const_fold", "shape_infer", "simplify", "dce", "matmul_add_to_gemm", "fold_bn", "softmax_pattern",
          "layernorm_pattern", "fuse_activation", "precision", "memory_plan"]


@pytest.fixture
def tiny(tmp_path):
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv"), helper.make_node("Relu", ["c"], ["y"])]
    model = make_model(nodes, [("x", ["N", 2, 4, 4])], [("y", None)],
                       {"w": np.ones((3, 2, 1, 1), np.float32)})
    path = tmp_path / "tiny.onnx"
    path.write_bytes(model.SerializeToString())
    return str(path)


def atc(*args):
    return main(list(args))


def test_cli_success_and_info_report(tmp_path, tiny, capsys, monkeypatch):
    monkeypatch.setenv("ACL_SIM_ATC_CACHE", "0")
    rc = atc(f"--model={tiny}", "--framework=5", f"--output={tmp_path / 'out'}", "--soc_version=Ascend310P3",
             "--input_shape=x:-1,2,4,4", "--dynamic_batch_size=1,2,4", "--log=info")
    out = capsys.readouterr().out
    assert rc == 0 and "ATC run success" in out
    for name in PASSES:
        assert f"ATC pass {name}" in out, name
    assert "memory plan [profile 2]" in out
    om = read_om(str(tmp_path / "out.om"))
    assert om.meta["soc_version"] == "Ascend310P3"
    assert om.iodesc["dynamic"]["profiles"] == [[1], [2], [4]]


def test_python_m_entry_point(tmp_path, tiny):
    env = dict(os.environ, ACL_SIM_ATC_CACHE="0")
    proc = subprocess.run([sys.executable, "-m", "acl_sim", "atc", f"--model={tiny}", "--framework=5",
                           f"--output={tmp_path / 'm'}", "--soc_version=Ascend910B1", "--input_shape=x:2,2,4,4"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert os.path.getsize(tmp_path / "m.om") > 64


def test_compile_cache(tmp_path, tiny, monkeypatch):
    monkeypatch.setenv("ACL_SIM_ATC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ACL_SIM_ATC_CACHE", "1")
    first = compile_model(tiny, str(tmp_path / "a"), input_shape="x:1,2,4,4")
    second = compile_model(tiny, str(tmp_path / "b"), input_shape="x:1,2,4,4")
    assert not first["cached"] and second["cached"]
    assert (tmp_path / "a.om").read_bytes() == (tmp_path / "b.om").read_bytes()
    other = compile_model(tiny, str(tmp_path / "c"), input_shape="x:2,2,4,4")
    assert not other["cached"]  # options are part of the key
    monkeypatch.setenv("ACL_SIM_ATC_CACHE", "0")
    assert not compile_model(tiny, str(tmp_path / "d"), input_shape="x:1,2,4,4")["cached"]


def _unsupported_model(tmp_path):
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("RoiAlign", ["r", "s", "bi"], ["y"], name="roi_1")]
    model = make_model(nodes, [("x", [1, 1, 4, 4]), ("s", [1, 4])], [("y", None)],
                       {"bi": np.zeros(1, np.int64)}, opset=13)
    path = tmp_path / "roi.onnx"
    path.write_bytes(model.SerializeToString())
    return str(path)


ERRORS = [
    (lambda t, m: [f"--model={t / 'missing.onnx'}"], "model file not found"),
    (lambda t, m: [f"--model={m}", "--framework=3"], "--framework=3 (TensorFlow) is not supported"),
    (lambda t, m: [f"--model={m}", "--soc_version=Ascend999"], "unknown --soc_version 'Ascend999'"),
    (lambda t, m: [f"--model={m}", "--input_shape=x:1,2,four,4"], "bad --input_shape"),
    (lambda t, m: [f"--model={m}", "--input_shape=x1,2,4,4"], "bad --input_shape"),
    (lambda t, m: [f"--model={m}", "--input_shape=q:1,2,4,4"], "'q', which is not a model input"),
    (lambda t, m: [f"--model={m}"], "has dynamic dims"),
    (lambda t, m: [f"--model={m}", "--input_shape=x:-1,2,4,4"], "add --dynamic_batch_size"),
    (lambda t, m: [f"--model={m}", "--input_shape=x:-1,2,4,4", "--dynamic_batch_size=1,2",
                   "--dynamic_dims=1;2"], "mutually exclusive"),
    (lambda t, m: [f"--model={m}", "--input_shape=x:-1,2,4,4", "--dynamic_batch_size=4"], "2 to 100 profiles"),
    (lambda t, m: [f"--model={m}", "--input_shape=x:-1,2,4,4", "--dynamic_batch_size=1,4096"], "1..2048"),
    (lambda t, m: [f"--model={m}", "--input_shape=x:-1,2,4,4", "--dynamic_batch_size=" +
                   ",".join(map(str, range(1, 103)))], "2 to 100 profiles"),
    (lambda t, m: [f"--model={m}", "--input_shape=x:1,2,-1,-1", "--dynamic_image_size=4,4;8,8",
                   "--input_format=ND"], "needs --input_format=NCHW or NHWC"),
    (lambda t, m: [f"--model={m}", "--input_shape=x:1,2,4,4", "--precision_mode=force_fp16",
                   "--precision_mode_v2=fp16"], "mutually exclusive"),
    (lambda t, m: [f"--model={m}", "--input_shape=x:1,2,4,4", "--modify_mixlist=/no/such.json",
                   "--precision_mode=allow_mix_precision"], "--modify_mixlist file not found"),
    (lambda t, m: [f"--model={m}", "--input_shape=x:1,2,4,4", "--bogus=1"], "unknown option --bogus"),
    (lambda t, m: [f"--model={_unsupported_model(t)}"],
     "node 'roi_1' (RoiAlign, opset 13, dtypes float32/float32/int64): op is not supported"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_cli_user_errors(tmp_path, tiny, capsys, case):
    make_args, message = ERRORS[case]
    args = make_args(tmp_path, tiny)
    base = {"--framework": "--framework=5", "--soc_version": "--soc_version=Ascend910B1",
            "--output": f"--output={tmp_path / 'out'}"}
    for key, default in base.items():
        if not any(a.startswith(key + "=") for a in args):
            args.append(default)
    rc = atc(*args)
    err = capsys.readouterr().err
    assert rc == 1
    assert message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_garbage_model_and_missing_soc(tmp_path, capsys):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07garbage" * 10)
    assert atc(f"--model={bad}", "--framework=5", f"--output={tmp_path / 'o'}", "--soc_version=Ascend910B1") == 1
    assert "not a valid ONNX model" in capsys.readouterr().err
    assert atc(f"--model={bad}", "--framework=5", f"--output={tmp_path / 'o'}") == 1
    assert "--soc_version is required" in capsys.readouterr().err


def test_python_api_errors_are_compile_errors(tmp_path):
    with pytest.raises(CompileError, match=r"node 'roi_1' \(RoiAlign, opset 13"):
        compile_model(_unsupported_model(tmp_path), str(tmp_path / "x"), cache=False)


def _many_unsupported_model(tmp_path):
    """Four nodes ATC cannot compile, each for another reason, around supported ones."""
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("LSTM", ["q", "W", "R"], ["z"], name="lstm_l1", hidden_size=2, layout=1),
             helper.make_node("RoiAlign", ["x", "s", "bi"], ["n"], name="roi"),
             helper.make_node("LinearRegressor", ["r"], ["b"], name="bin", domain="ai.onnx.ml"),
             helper.make_node("Cast", ["r"], ["c"], name="to_string", to=8),
             helper.make_node("Sigmoid", ["r"], ["y"], name="sig")]
    model = make_model(nodes, [("x", [1, 1, 4, 4]), ("q", [2, 3, 4]), ("s", [1, 4])],
                       [("y", None), ("z", None), ("n", None), ("b", None)],
                       {"W": np.zeros((1, 8, 4), np.float32), "R": np.zeros((1, 8, 2), np.float32),
                        "bi": np.zeros(1, np.int64)}, opset=19)
    model.opset_import.append(helper.make_opsetid("ai.onnx.ml", 3))
    path = tmp_path / "many.onnx"
    path.write_bytes(model.SerializeToString())
    return str(path)


def test_unsupported_node_error_names_node_op_opset_dtype_and_attribute(tmp_path, capsys):
    rc = atc(f"--model={_many_unsupported_model(tmp_path)}", "--framework=5", f"--output={tmp_path / 'o'}",
             "--soc_version=Ascend910B1")
    err = capsys.readouterr().err
    assert rc == 1 and err.count("\n") == 1, err
    assert "ATC run failed: node 'lstm_l1' (LSTM, opset 19, dtypes float32/float32/float32): " \
           "attribute layout=1 is not supported" in err
    assert "(+3 more unsupported nodes; `acl-sim atc --check` lists them)" in err
    assert not (tmp_path / "o.om").exists()


def test_check_lists_every_unsupported_node_without_compiling(tmp_path, capsys, tiny):
    rc = atc("--check", f"--model={_many_unsupported_model(tmp_path)}")
    out = capsys.readouterr().out.splitlines()
    assert rc == 1
    assert out == [
        "[ERROR] node 'lstm_l1' (LSTM, opset 19, dtypes float32/float32/float32): attribute layout=1 is not supported",
        "[ERROR] node 'roi' (RoiAlign, opset 19, dtypes float32/float32/int64): op is not supported",
        "[ERROR] node 'bin' (ai.onnx.ml.LinearRegressor, opset 3, dtypes float32): op is not supported "
        "(ai.onnx.ml supports ArrayFeatureExtractor, Binarizer, TreeEnsemble)",
        "[ERROR] node 'to_string' (Cast, opset 19, dtypes float32): dtype string is not supported",
        "ATC check failed: 4 unsupported of 6 nodes"]
    assert list(tmp_path.glob("*.om")) == []
    assert atc("--check", f"--model={tiny}") == 0
    assert capsys.readouterr().out.strip() == "ATC check passed: all 2 nodes are supported"
    # a function op is checked through its body
    nodes = [helper.make_node("Swish", ["x"], ["y"], name="sw")]
    fn_ok = make_model(nodes, [("x", [2, 3])], [("y", None)], opset=24)
    path = tmp_path / "fn.onnx"
    path.write_bytes(fn_ok.SerializeToString())
    assert atc("--check", f"--model={path}") == 0
    capsys.readouterr()
    from acl_sim.compiler.node_check import op_problem

    assert op_problem("Swish", 24) is None
    assert op_problem("RoiAlign", 21) == "op is not supported"
    # a function whose body ATC can resolve passes (LinearAttention's body is a Scan, unrolled);
    # one whose body uses an op ATC lacks is named with that op
    nodes = [helper.make_node("LinearAttention", ["q", "k", "v"], ["o"], name="la", q_num_heads=2, kv_num_heads=2)]
    la = make_model(nodes, [("q", [1, 3, 8]), ("k", [1, 3, 8]), ("v", [1, 3, 8])], [("o", None)], opset=27)
    path.write_bytes(la.SerializeToString())
    assert atc("--check", f"--model={path}") == 0
    capsys.readouterr()
    nodes = [helper.make_node("Bernoulli", ["x"], ["y"], name="coin")]
    path.write_bytes(make_model(nodes, [("x", [4])], [("y", None)], opset=22).SerializeToString())
    assert atc("--check", f"--model={path}") == 1
    assert "node 'coin' (Bernoulli, opset 22, dtypes float32): op is not supported " \
           "(its ONNX function uses RandomUniformLike)" in capsys.readouterr().out
    assert atc("--check", f"--model={tmp_path / 'missing.onnx'}") == 1
    assert "model file not found" in capsys.readouterr().err


def test_modify_mixlist_validation(tmp_path, tiny):
    mix = tmp_path / "mix.json"
    mix.write_text(json.dumps({"purple-list": {"to-add": ["Conv2D"]}}))
    with pytest.raises(CompileError, match="unknown list 'purple-list'"):
        compile_model(tiny, str(tmp_path / "x"), input_shape="x:1,2,4,4", precision_mode="allow_mix_precision",
                      modify_mixlist=str(mix), cache=False)


def test_cache_eviction(tmp_path, tiny, monkeypatch):
    monkeypatch.setenv("ACL_SIM_ATC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ACL_SIM_ATC_CACHE", "1")
    monkeypatch.setenv("ACL_SIM_ATC_CACHE_MAX_MB", "0")  # a zero cap keeps nothing
    compile_model(tiny, str(tmp_path / "a"), input_shape="x:1,2,4,4")
    assert not list((tmp_path / "cache").glob("*.om"))
    assert not compile_model(tiny, str(tmp_path / "b"), input_shape="x:1,2,4,4")["cached"]


def test_log_debug_prints_the_graph(tmp_path, tiny, capsys, monkeypatch):
    monkeypatch.setenv("ACL_SIM_ATC_CACHE", "0")
    assert atc(f"--model={tiny}", "--framework=5", f"--output={tmp_path / 'd'}", "--soc_version=Ascend910B1",
               "--input_shape=x:1,2,4,4", "--log=debug") == 0
    out = capsys.readouterr().out
    assert "[DEBUG] Conv conv: x[1, 2, 4, 4]:i#0" in out and "'activation': 'Relu'" in out
