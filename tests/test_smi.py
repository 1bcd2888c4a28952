"""`acl-sim smi`: configured devices, and live stats from a running process."""
import json
import os
import subprocess
import sys
import time


def smi(*args, env=None):
    r = subprocess.run([sys.executable, "-m", "acl_sim", "smi", *args], capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})), timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_smi_json_lists_configured_devices():
    info = json.loads(smi("--json", env={"ACL_SIM_DEVICE_COUNT": "3", "ACL_SIM_SOC": "Ascend310P3"}))
    assert info["device_count"] == 3 and len(info["devices"]) == 3
    d = info["devices"][0]
    assert d["soc"] == "Ascend310P3" and d["cube_cores"] == 8 and d["ub_bytes"] == 256 * 1024


def test_smi_table_default_profile():
    out = smi()
    assert "Ascend910B1" in out and "NPU" in out


def test_smi_reads_stats_of_running_process(tmp_path):
    stats = tmp_path / "stats.json"
    code = """
import acl, time, sys
acl.init(); acl.rt.set_device(1)
p, ret = acl.rt.malloc(64 << 20, 0)
s, ret = acl.rt.create_stream()
print('ready', flush=True)
time.sleep(3)
"""
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, ACL_SIM_STATS_FILE=str(stats)))
    try:
        assert proc.stdout.readline().strip() == "ready"
        deadline = time.time() + 10
        info = None
        while time.time() < deadline:
            if stats.exists():
                info = json.loads(smi("--json", "--stats", str(stats)))
                if info["devices"][1].get("memory_used", 0) >= 64 << 20:
                    break
            time.sleep(0.2)
        assert info is not None
        dev1 = info["devices"][1]
        assert dev1["memory_used"] >= 64 << 20 and dev1["streams"] >= 1
        assert info["process"] == proc.pid
    finally:
        proc.kill()
        proc.wait()
