"""aclInit / aclFinalize lifecycle, versions, SoC name, recent error messages."""
import pytest

from conftest import run_python

import acl_sim.constants as C


def test_init_twice_returns_repeat_initialize(acl):
    assert acl.init() == C.ACL_ERROR_REPEAT_INITIALIZE
    assert "aclInit" in acl.get_recent_err_msg()


def test_repeated_init_logs_a_warning_not_an_error():
    # ggml-cann, torch_npu and applications each call aclInit: the repeat is an expected outcome.
    r = run_python("""
        import acl
        print(acl.init(), acl.init())
        print(acl.get_recent_err_msg())
    """, env={"ASCEND_GLOBAL_LOG_LEVEL": "2"})
    assert r.returncode == 0, r.stderr
    out = r.stdout.split("\n")
    assert out[0] == "0 100002"
    assert out[1].startswith("aclInit:") and "already" in out[1]
    assert "[ERROR]" not in r.stderr, r.stderr
    assert any(l.startswith("[WARNING]") and "aclInit" in l for l in r.stderr.splitlines()), r.stderr
    quiet = run_python("import acl; acl.init(); acl.init()", env={"ASCEND_GLOBAL_LOG_LEVEL": "3"})
    assert "aclInit" not in quiet.stderr, quiet.stderr


def test_init_rejects_none_and_non_str(acl):
    with pytest.raises(TypeError):
        acl.init(None)
    with pytest.raises(TypeError):
        acl.init(5)


def test_get_version_shape(acl):
    major, minor, patch, ret = acl.get_version()
    assert ret == 0
    assert (major, minor, patch) >= (1, 0, 0)


def test_soc_name_default(acl):
    assert acl.get_soc_name() == "Ascend910B1"


def test_lifecycle_in_fresh_process():
    r = run_python("""
        import acl
        # before init: every runtime call reports 100001
        print(acl.rt.set_device(0), acl.rt.malloc(64, 0)[1], acl.rt.create_stream()[1])
        print(acl.finalize())                      # finalize before init
        print(acl.init(""), acl.init())            # init, repeat
        print(acl.rt.set_device(0))
        print(acl.finalize(), acl.finalize())      # finalize, repeat
        print(acl.rt.set_device(0), acl.rt.get_device()[1])   # after finalize
        print(acl.init(), acl.rt.set_device(0), acl.finalize())  # re-init after finalize is allowed
    """)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")
    assert lines[0] == "100001 100001 100001"
    assert lines[1] == "100037"
    assert lines[2] == "0 100002"
    assert lines[3] == "0"
    assert lines[4] == "0 100037"
    assert lines[5] == "100001 100001"
    assert lines[6] == "0 0 0"


def test_finalize_waits_for_queued_work_and_reports_leaks():
    r = run_python("""
        import acl, numpy as np
        acl.init(); acl.rt.set_device(0)
        s, _ = acl.rt.create_stream()
        e, _ = acl.rt.create_event()
        n = 32 << 20
        p, _ = acl.rt.malloc(n, 0)
        host = np.zeros(n, dtype=np.uint8)
        for i in range(8):
            acl.rt.memset_async(p, n, i + 1, n, s)
        acl.rt.memcpy_async(host.ctypes.data, n, p, n, 2, s)
        print(acl.finalize())            # must wait for the queued copies
        print(int(host[0]), int(host[-1]))
    """, env={"ASCEND_GLOBAL_LOG_LEVEL": "2"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "8", "8"]
    warn = [l for l in r.stderr.splitlines() if l.startswith("[WARNING]") and "aclFinalize" in l]
    assert warn, r.stderr
    assert "1 stream(s)" in warn[0] and "1 event(s)" in warn[0] and "allocation(s)" in warn[0]


def test_config_file_missing_and_valid(tmp_path):
    cfg = tmp_path / "acl.json"
    cfg.write_text("{}")
    r = run_python(f"""
        import acl
        print(acl.init("{tmp_path}/missing.json"))
        print(acl.init("{cfg}"), acl.finalize())
    """)
    assert r.returncode == 0, r.stderr
    first, second = r.stdout.split("\n")[:2]
    assert first != "0"
    assert second == "0 0"


def test_soc_from_env_and_error_log_format():
    r = run_python("""
        import acl
        acl.init()
        print(acl.get_soc_name())
        print(acl.rt.set_device(99))
        print(acl.get_recent_err_msg())
    """, env={"ACL_SIM_SOC": "Ascend310P3", "ASCEND_GLOBAL_LOG_LEVEL": "3"})
    assert r.returncode == 0, r.stderr
    out = r.stdout.split("\n")
    assert out[0] == "Ascend310P3"
    assert out[1] == str(C.ACL_ERROR_RT_INVALID_DEVICEID)
    assert out[2].startswith("aclrtSetDevice:") and "99" in out[2]
    # CANN line format: [ERROR] MODULE(PID,PNAME):YYYY-MM-DD-hh:mm:ss.mmm.uuu [file:line]msg
    import re
    assert re.search(r"^\[ERROR\] APP\(\d+,[^)]*\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} \[[\w.]+:\d+\]aclrtSetDevice",
                     r.stderr, re.M), r.stderr


def test_log_level_4_silences_errors():
    r = run_python("""
        import acl
        acl.init(); print(acl.rt.set_device(-1))
    """, env={"ASCEND_GLOBAL_LOG_LEVEL": "4"})
    assert r.stdout.strip() == str(C.ACL_ERROR_RT_INVALID_DEVICEID)
    assert "[ERROR]" not in r.stderr


def test_recent_error_is_per_thread(acl, device):
    import threading
    assert acl.rt.free(0) == C.ACL_ERROR_INVALID_PARAM
    seen = []
    t = threading.Thread(target=lambda: seen.append(acl.get_recent_err_msg()))
    t.start(); t.join()
    assert seen == [""]
    assert acl.get_recent_err_msg().startswith("aclrtFree:")
