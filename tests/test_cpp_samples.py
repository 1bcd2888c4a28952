"""C++ programs built the way CANN's samples build (tests/samples/*/CMakeLists.txt: INSTALL_DIR from the
environment, headers from $INSTALL_DIR/runtime/include, libascendcl / libacl_cblas from
$INSTALL_DIR/runtime/lib64/stub) with INSTALL_DIR at the toolkit folder (`python -m acl_sim
--toolkit-dir`), run, and checked against float64 NumPy references."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "samples"
sys.path.insert(0, str(Path(__file__).resolve().parent))


def _run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}\n{r.stdout}\n{r.stderr}"
    return r


@pytest.fixture(scope="session")
def toolkit(tmp_path_factory):
    """The CANN-layout toolkit folder (`python -m acl_sim --toolkit-dir`, docs in README)."""
    root = tmp_path_factory.mktemp("toolkit") / "ascend-toolkit"
    out = _run([sys.executable, "-m", "acl_sim", "--toolkit-dir", str(root)]).stdout.strip()
    assert Path(out) == root
    for lib in ("libascendcl.so", "libacl_cblas.so"):
        assert (root / "runtime" / "lib64" / "stub" / lib).exists(), lib
    assert (root / "runtime" / "include" / "acl" / "ops" / "acl_cblas.h").is_file()
    return root


def build_sample(name, toolkit, tmp_path):
    env = dict(os.environ, INSTALL_DIR=str(toolkit))
    build = tmp_path / f"build_{name}"
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    _run(["cmake", "-S", str(SAMPLES / name), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", *gen], env=env)
    _run(["cmake", "--build", str(build)], env=env)
    run_env = dict(os.environ, LD_LIBRARY_PATH=str(toolkit / "lib64"), ASCEND_GLOBAL_LOG_LEVEL="3")
    return build, run_env


def test_aclblas_gemm_sample(toolkit, tmp_path):
    build, env = build_sample("aclblas_gemm", toolkit, tmp_path)
    m, n, k = 24, 20, 40
    rng = np.random.default_rng(7)
    a16, b16, c16 = (rng.standard_normal(s).astype(np.float16) for s in ((m, k), (k, n), (m, n)))
    a8, b8 = rng.integers(-128, 128, (m, k)).astype(np.int8), rng.integers(-128, 128, (k, n)).astype(np.int8)
    a_mk, x16 = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal(k).astype(np.float16)
    for name, arr in {"a16": a16, "b16": b16, "c16": c16, "a8": a8, "bt8": np.ascontiguousarray(b8.T),
                      "at16": np.ascontiguousarray(a_mk.T), "x16": x16}.items():
        arr.tofile(tmp_path / f"{name}.bin")
    r = subprocess.run([str(build / "execute_gemm"), str(tmp_path), str(m), str(n), str(k)], capture_output=True,
                       text=True, timeout=120, env=env)
    assert r.returncode == 0 and "gemm sample done" in r.stdout, r.stdout + r.stderr
    assert "bad_lda=100000" in r.stdout and "must be -1" in r.stdout

    f64 = lambda x: x.astype(np.float64)  # noqa: E731
    ref16 = 2 * f64(a16) @ f64(b16) + f64(c16)
    got16 = np.fromfile(tmp_path / "out_c16.bin", np.float16).reshape(m, n)
    np.testing.assert_allclose(f64(got16), ref16, rtol=2e-3, atol=2e-2)
    got_twice = np.fromfile(tmp_path / "out_c16b.bin", np.float16).reshape(m, n)
    np.testing.assert_allclose(f64(got_twice), ref16, rtol=2e-3, atol=2e-2)
    got32 = np.fromfile(tmp_path / "out_c32.bin", np.int32).reshape(m, n)
    np.testing.assert_array_equal(got32, 3 * (a8.astype(np.int64) @ b8.astype(np.int64)))
    y = np.fromfile(tmp_path / "out_y32.bin", np.float32)
    np.testing.assert_allclose(f64(y), f64(a_mk) @ f64(x16), rtol=1e-5, atol=1e-4)


def test_aipp_model_sample(toolkit, tmp_path):
    from acl_sim.compiler import compile_model
    from test_aipp import add_model, reference, write_cfg

    cfg_static = write_cfg(tmp_path, {"aipp_mode": "static", "input_format": "RGB888_U8", "src_image_size_w": 12,
                                      "src_image_size_h": 10, "rbuv_swap_switch": "true", "mean_chn_0": 10,
                                      "mean_chn_1": 20, "mean_chn_2": 30, "var_reci_chn_0": 0.5,
                                      "var_reci_chn_1": 0.5, "var_reci_chn_2": 0.5}, "static.cfg")
    cfg_dyn = write_cfg(tmp_path, {"aipp_mode": "dynamic", "max_src_image_size": 16 * 12 * 3 // 2}, "dyn.cfg")
    st = compile_model(add_model(10, 12), str(tmp_path / "static"), soc_version="Ascend310P3",
                       insert_op_conf=cfg_static, cache=False)["om_path"]
    dy = compile_model(add_model(8, 8), str(tmp_path / "dynamic"), soc_version="Ascend310P3",
                       insert_op_conf=cfg_dyn, cache=False)["om_path"]
    rng = np.random.default_rng(3)
    bgr = rng.integers(0, 256, 12 * 10 * 3, dtype=np.uint8)
    nv12 = rng.integers(0, 256, 16 * 12 * 3 // 2, dtype=np.uint8)
    bgr.tofile(tmp_path / "bgr.bin")
    nv12.tofile(tmp_path / "nv12.bin")
    build, env = build_sample("aipp_model", toolkit, tmp_path)
    r = subprocess.run([str(build / "aipp_model"), str(tmp_path), st, dy], capture_output=True, text=True,
                       timeout=120, env=env)
    assert r.returncode == 0 and "aipp sample done" in r.stdout, r.stdout + r.stderr
    assert "static type=1 format=3 src=12x10 dims=1,10,12,3" in r.stdout
    assert "dynamic index=1 size=160 bad_crop=100000" in r.stdout

    got = np.fromfile(tmp_path / "out_static.bin", np.float32).reshape(3, 10, 12)
    ref = reference(bgr, "RGB888_U8", 12, 10, rbuv=True, mean=(10, 20, 30, 0), var=(0.5, 0.5, 0.5, 1)) + 0.5
    np.testing.assert_allclose(got.astype(np.float64), ref, rtol=1e-5, atol=1e-5)
    got = np.fromfile(tmp_path / "out_dynamic.bin", np.float32).reshape(3, 8, 8)
    ref = reference(nv12, "YUV420SP_U8", 16, 12, csc=True, crop=(2, 2, 8, 8), mean=(100, 110, 120, 0),
                    var=(0.0078125,) * 3 + (1,)) + 0.5
    np.testing.assert_allclose(got.astype(np.float64), ref, rtol=1e-5, atol=1e-5)
