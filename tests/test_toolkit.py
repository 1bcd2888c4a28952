"""`python -m acl_sim --toolkit-dir`: the CANN toolkit folder, its npu-smi, set_env.sh, and C/C++
programs built against it in ggml-cann's layout (include/, lib64/) and the Ascend samples'
(runtime/include, runtime/lib64/stub, INSTALL_DIR)."""
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SAMPLES = HERE / "toolkit_samples"


def _run(cmd, env=None, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env, **kw)
    assert r.returncode == 0, f"{cmd}\n{r.stdout}\n{r.stderr}"
    return r.stdout


@pytest.fixture(scope="module")
def toolkit(tmp_path_factory):
    root = tmp_path_factory.mktemp("toolkit") / "cann"
    out = _run([sys.executable, "-m", "acl_sim", "--toolkit-dir", str(root)]).strip()
    assert Path(out) == root
    return root


def test_layout(toolkit):
    for rel in ["include/acl/acl.h", "include/aclnn/aclnn_base.h", "include/aclnn/acl_meta.h",
                "include/aclnnop/aclnn_add.h", "include/aclnnop/aclnn_fused_infer_attention_score_v2.h",
                "include/aclnnop/aclnn_weight_quant_batch_matmul_v2.h", "runtime/include/acl/acl.h",
                "set_env.sh", "bin/npu-smi", "bin/atc"]:
        assert (toolkit / rel).is_file(), rel
    assert len(list((toolkit / "include" / "aclnnop").glob("aclnn_*.h"))) >= 85
    for name in ["libascendcl.so", "libnnopbase.so", "libopapi.so", "libacl_op_compiler.so", "libacl_cblas.so"]:
        for d in ["lib64", "lib64/stub", "runtime/lib64", "runtime/lib64/stub"]:
            p = toolkit / d / name
            assert p.exists() and p.resolve().name in ("libascendcl.so", name), p
    assert (toolkit / "lib64" / "libopapi.so").resolve().name == "libascendcl.so"


def test_idempotent_and_refreshes_removed_files(toolkit):
    victim = toolkit / "include" / "aclnnop" / "aclnn_add.h"
    victim.unlink()
    _run([sys.executable, "-m", "acl_sim", "--toolkit-dir", str(toolkit)])
    _run([sys.executable, "-m", "acl_sim", "--toolkit-dir", str(toolkit)])
    assert victim.is_file()


def test_npu_smi_info_line7_field3_is_the_chip(toolkit):
    env = dict(os.environ, ACL_SIM_SOC="Ascend310P3", ACL_SIM_DEVICE_COUNT="2")
    out = _run([str(toolkit / "bin" / "npu-smi"), "info"], env=env)
    lines = out.splitlines()
    assert lines[6].split()[2] == "310P3"
    assert sum(1 for l in lines if l.startswith("| 1 ")) == 1   # second device row
    default = _run([str(toolkit / "bin" / "npu-smi"), "info"]).splitlines()
    assert default[6].split()[2] == "910B1"


def test_npu_smi_works_inside_an_isolated_pip_build(toolkit, tmp_path):
    # pip builds llama-cpp-python with a PYTHONPATH whose sitecustomize hides site-packages, from a
    # temporary directory; a relative ACL_SIM_BUILD_DIR of the caller means nothing there.
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    (overlay / "sitecustomize.py").write_text("import sys\nsys.path[:] = [p for p in sys.path if 'site-packages' not in p]\n")
    env = dict(os.environ, PYTHONPATH=str(overlay), ACL_SIM_BUILD_DIR="build/dev", PYTHONNOUSERSITE="1")
    out = _run([str(toolkit / "bin" / "npu-smi"), "info"], env=env, cwd=str(tmp_path))
    assert out.splitlines()[6].split()[2].startswith("910")


def test_set_env_sets_cann_variables_and_atc(toolkit):
    script = (f'. "{toolkit}/set_env.sh" && echo "$ASCEND_TOOLKIT_HOME|$INSTALL_DIR|$DDK_PATH|$NPU_HOST_LIB" '
              f'&& command -v atc && command -v npu-smi && atc --help')
    out = _run(["sh", "-c", script])
    first = out.splitlines()[0].split("|")
    assert first[:3] == [str(toolkit)] * 3 and first[3] == f"{toolkit}/runtime/lib64/stub"
    assert f"{toolkit}/bin/atc" in out and "usage" in out.lower()


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_c_program_against_include_and_lib64(toolkit, tmp_path):
    exe = tmp_path / "abs"
    _run(["cc", "-std=c11", str(SAMPLES / "aclnn_abs.c"), "-I", str(toolkit / "include"), "-L", str(toolkit / "lib64"),
          "-lascendcl", "-lnnopbase", "-lopapi", "-lacl_op_compiler", f"-Wl,-rpath,{toolkit / 'lib64'}", "-o", str(exe)])
    assert _run([str(exe)]).strip() == "abs 1.5 2.0 3.0 0.0"


@pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake")
def test_samples_style_cmake_project(toolkit, tmp_path):
    build = tmp_path / "build"
    env = dict(os.environ, INSTALL_DIR=str(toolkit), CPU_ARCH=platform.machine())
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    _run(["cmake", "-S", str(SAMPLES / "memcpy_sample"), "-B", str(build), *gen], env=env)
    _run(["cmake", "--build", str(build)], env=env)
    run_env = dict(env, LD_LIBRARY_PATH=f"{toolkit}/runtime/lib64")
    assert "run success!" in _run([str(build / "main")], env=run_env)
