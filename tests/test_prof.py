"""Profiler: aclprof/acl.prof, ACL_SIM_PROFILE and `acl-sim prof`; trace schema, nesting, op summary."""
import csv
import json
import os
import subprocess
import sys

import pytest

from conftest import execute_om_in_child
from obs_helpers import INFER_SCRIPT, compile_tiny

PHASES = {"X", "i", "C", "M", "B", "E"}


def check_trace_schema(trace: dict) -> list:
    assert set(trace) >= {"traceEvents"}
    events = trace["traceEvents"]
    assert isinstance(events, list) and events
    for e in events:
        assert e["ph"] in PHASES, e
        assert isinstance(e["name"], str)
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
        if e["ph"] != "M":
            assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0
        if e["ph"] == "X":
            assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0
        if e["ph"] == "M":
            assert e["name"] in ("process_name", "thread_name") and "name" in e["args"]
    return events


def check_nesting(events: list) -> None:
    """On each (pid, tid) track, complete spans are nested or disjoint, never partially overlapping."""
    tracks = {}
    for e in events:
        if e["ph"] == "X":
            tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
    eps = 0.002  # timestamps are printed with 1 ns resolution
    for spans in tracks.values():
        spans.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end, name in spans:
            while stack and stack[-1][1] <= start + eps:
                stack.pop()
            if stack:
                assert end <= stack[-1][1] + eps, f"{name} [{start},{end}] overlaps {stack[-1]}"
            stack.append((start, end, name))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    tmp = str(tmp_path_factory.mktemp("prof"))
    return compile_tiny(tmp)


def run_infer(tmp, om, config="", runs=3, env=None):
    script = os.path.join(tmp, "infer.py")
    with open(script, "w") as f:
        f.write(INFER_SCRIPT)
    out = subprocess.run([sys.executable, script, om, config, str(runs), os.path.join(tmp, "y.npy")],
                         capture_output=True, text=True, env=dict(os.environ, **(env or {})), timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return out


def test_env_profile_writes_trace_and_summary(tiny, tmp_path):
    onnx_path, om = tiny
    prof_dir = tmp_path / "prof"
    run_infer(str(tmp_path), om, env={"ACL_SIM_PROFILE": str(prof_dir)})
    with open(prof_dir / "trace.json") as f:
        trace = json.load(f)
    events = check_trace_schema(trace)
    check_nesting(events)
    ops = [e for e in events if e["ph"] == "X" and e.get("cat") == "op"]
    # 3 runs of the compiled graph: every node appears 3 times.
    with open(prof_dir / "op_summary.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows, "empty op summary"
    assert {int(r["count"]) for r in rows} == {3}
    assert len(ops) == 3 * len(rows)
    types = {r["op_type"] for r in rows}
    assert "Conv" in types
    for r in rows:
        assert float(r["total_us"]) >= float(r["max_us"]) >= float(r["mean_us"]) * 0.999 > 0
        assert float(r["est_npu_us"]) > 0
        if r["op_type"] == "Conv":
            assert float(r["flops"]) > 0 and r["bound"] in ("compute", "memory")


def test_config_profiler_switch(tiny, tmp_path):
    _, om = tiny
    prof_dir = tmp_path / "cfgprof"
    cfg = tmp_path / "acl.json"
    cfg.write_text(json.dumps({"profiler": {"switch": "on", "output": str(prof_dir)}}))
    run_infer(str(tmp_path), om, config=str(cfg), runs=1)
    assert (prof_dir / "trace.json").exists() and (prof_dir / "op_summary.csv").exists()


def test_aclprof_api_sequence(tiny, tmp_path):
    _, om = tiny
    code = f"""
import acl, json, os
assert acl.init() == 0
assert acl.rt.set_device(0) == 0
cfg = acl.prof.create_config([0], 0, 0, 0x2)
assert cfg != 0
assert acl.prof.start(cfg) == 100043, 'start before init must fail'
assert acl.prof.init({str(tmp_path / 'api')!r}) == 0
assert acl.prof.start(cfg) == 0
assert acl.prof.start(cfg) == 100042
mid, ret = acl.mdl.load_from_file({om!r}); assert ret == 0
assert acl.prof.stop(cfg) == 0
assert acl.prof.stop(cfg) == 100043
assert acl.prof.destroy_config(cfg) == 0
assert acl.prof.destroy_config(cfg) != 0
assert acl.prof.finalize() == 0
assert os.path.exists({str(tmp_path / 'api' / 'trace.json')!r})
json.load(open({str(tmp_path / 'api' / 'trace.json')!r}))
acl.mdl.unload(mid); acl.rt.reset_device(0); acl.finalize()
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]


def test_prof_cli_and_summary(tiny, tmp_path):
    _, om = tiny
    script = tmp_path / "infer.py"
    script.write_text(INFER_SCRIPT)
    out_dir = tmp_path / "cli"
    r = subprocess.run([sys.executable, "-m", "acl_sim", "prof", f"--output={out_dir}", "--", sys.executable,
                        str(script), om, "", "2", str(tmp_path / "y.npy")], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "op_type" in r.stderr and "Conv" in r.stderr
    s = subprocess.run([sys.executable, "-m", "acl_sim", "prof", "summary", str(out_dir), "--top", "3"],
                       capture_output=True, text=True, timeout=120)
    assert s.returncode == 0, s.stderr
    assert "Conv" in s.stdout
    bad = subprocess.run([sys.executable, "-m", "acl_sim", "prof", "summary", str(tmp_path / "nope")],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr



@pytest.fixture(scope="module")
def conv64(tmp_path_factory):
    import onnx

    from acl_sim.compiler import compile_model
    from acl_sim.tools.timing import single_op_model

    tmp = tmp_path_factory.mktemp("pool")
    model, _ = single_op_model("Conv", [1, 64, 56, 56], [64, 64, 3, 3], {"pads": [1, 1, 1, 1]})
    onnx.save(model, str(tmp / "conv.onnx"))
    compile_model(str(tmp / "conv.onnx"), str(tmp / "conv"), cache=False)
    return str(tmp / "conv.om")


@pytest.mark.parametrize("threads,tail_spin", [("2", ""), ("2", "0"), ("1", "")])
def test_op_summary_pool_columns(conv64, tmp_path, threads, tail_spin):
    """The op summary's pool_* columns account for the node's parallel regions consistently: shares
    lie inside forks, forks inside the node; with one host thread the node never forks. Tail spin 0
    sends the caller to sleep at every fork's tail (the futex path) and must not change the counts."""
    runs = 3
    execute_om_in_child(conv64, runs, (1, 64, 56, 56), tmp_path, ACL_SIM_PROFILE=str(tmp_path),
                        ACL_SIM_HOST_THREADS=threads, ACL_SIM_POOL_TAIL_SPIN_US=tail_spin)
    with open(tmp_path / "op_summary.csv", newline="") as f:
        (row,) = [x for x in csv.DictReader(f) if x["op_type"] == "Conv"]
    assert int(row["count"]) == runs
    total, fork = float(row["total_us"]), float(row["pool_fork_us"])
    caller, worker = float(row["pool_caller_us"]), float(row["pool_worker_us"])
    forks, shares = int(row["pool_forks"]), int(row["pool_worker_shares"])
    indices, slots = int(row["pool_indices"]), int(row["pool_index_slots"])
    if threads == "1":
        assert (forks, shares, indices, slots, int(row["pool_threads"])) == (0, 0, 0, 0, 0)
        assert caller == worker == fork == 0
        return
    assert int(row["pool_threads"]) == 2
    assert forks >= runs and indices >= 2 * forks  # a 231-MFLOP conv is split into tiles
    assert slots % 2 == 0 and indices <= slots < indices + forks * 2
    assert 0 < fork <= total * 1.001 and 0 < caller <= fork * 1.001
    assert 0 <= shares <= forks and worker <= fork * 1.001
    assert float(row["pool_wake_us"]) >= 0 and 0 <= int(row["pool_caller_sleeps"]) <= forks
