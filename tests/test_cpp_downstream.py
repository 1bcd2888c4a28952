"""A downstream CMake project (examples/cpp_lifecycle) finds acl_sim with
find_package, links acl_sim::ascendcl, and runs the whole runtime lifecycle."""
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "cpp_lifecycle"


def _run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}\n{r.stdout}\n{r.stderr}"
    return r


def _acl_sim_prefix(tmp_path):
    """CMake args that locate acl_sim: the installed package, or a `cmake --install` of ACL_SIM_BUILD_DIR."""
    build_dir = os.environ.get("ACL_SIM_BUILD_DIR")
    if build_dir:
        prefix = tmp_path / "prefix"
        _run(["cmake", "--install", str(Path(build_dir).resolve()), "--prefix", str(prefix)])
        return [f"-DCMAKE_PREFIX_PATH={prefix}"]
    import acl_sim
    return [f"-Dacl_sim_DIR={acl_sim.get_cmake_dir()}"]


def test_cpp_lifecycle_program(tmp_path):
    build = tmp_path / "build"
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    _run(["cmake", "-S", str(EXAMPLE), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", *gen, *_acl_sim_prefix(tmp_path)])
    _run(["cmake", "--build", str(build)])
    exe = build / "app"
    env = dict(os.environ, ASCEND_GLOBAL_LOG_LEVEL="2")
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "data=ok" in r.stdout and "callbacks=1" in r.stdout
    assert "[WARNING]" not in r.stderr   # everything released before aclFinalize

