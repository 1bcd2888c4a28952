"""MatMul and Gemm on a constant B packed once per loaded model (gemm.h: pack_b_panels, gemm_f32_packed_b): whole-K
strips of the widest kernel, then the last N % widest columns as one-column strips (2-4 of them) or one narrower
strip. Only a loaded model has the packed B (node cache), so every case runs as a compiled one-node model, twice
(the first run packs, the second reads the cache), against float64 NumPy: every kind of tail, K in two slices,
a batch folded into M, a broadcast A, few-row products (which read B in place), Gemm's transposes, alpha and
bias, and a fused Relu; on this host's kernels, on the AVX2 ones and on one thread."""

import numpy as np
import pytest
from onnx import helper

from acl_sim import _core
from atc_util import compile_and_compare, make_model
from conftest import isa_env, run_check_in_child
from kernel_harness import assert_close_accum, randn

# (A shape, B shape): MatMul with B a weight. N tails against 48- and 24-wide strips: 96 none, 50 two columns,
# 101 five (a narrow strip), 1 a lone column; K 1100 runs as two K slices on every host.
MATMUL_CASES = [
    ((16, 64), (64, 96)),
    ((9, 70), (70, 50)),
    ((33, 1100), (1100, 101)),
    ((5, 17), (17, 1)),
    ((3, 64), (64, 64)),          # few rows: B read in place, never packed
    ((2, 7, 40), (40, 52)),       # batch folded into M (14 rows)
    ((2, 3, 6, 24), (24, 30)),    # 4-D A, one B
]

# (M, K, N, Gemm attributes, C shape or None)
GEMM_CASES = [
    (12, 40, 30, {"transB": 1, "alpha": 0.5}, (30,)),
    (10, 33, 49, {"transA": 1}, (10, 1)),
    (20, 64, 100, {"transB": 1, "beta": 2.0}, (20, 100)),
]


def _matmul_model(a_shape, b_shape, relu, rng):
    w = randn(rng, b_shape, scale=0.1)
    y_shape = list(np.matmul(np.zeros(a_shape, np.float32), w).shape)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y" if not relu else "m"])]
    if relu:
        nodes.append(helper.make_node("Relu", ["m"], ["y"]))
    model = make_model(nodes, [("x", list(a_shape))], [("y", y_shape)], {"w": w})

    def ref(x):
        out = np.matmul(x.astype(np.float64), w.astype(np.float64))
        return np.maximum(out, 0) if relu else out

    return model, ref


def _gemm_model(m, k, n, at, c_shape, rng):
    a_shape = (k, m) if at.get("transA") else (m, k)
    b = randn(rng, (n, k) if at.get("transB") else (k, n), scale=0.1)
    inits = {"w": b}
    inputs = ["x", "w"]
    if c_shape is not None:
        inits["c"] = randn(rng, c_shape)
        inputs.append("c")
    model = make_model([helper.make_node("Gemm", inputs, ["y"], **at)], [("x", list(a_shape))], [("y", [m, n])], inits)

    def ref(x):
        a = x.astype(np.float64).T if at.get("transA") else x.astype(np.float64)
        bb = b.astype(np.float64).T if at.get("transB") else b.astype(np.float64)
        out = at.get("alpha", 1.0) * (a @ bb)
        if c_shape is not None:
            out = out + at.get("beta", 1.0) * inits["c"].astype(np.float64)
        return out

    return model, ref, a_shape


def _run_twice(model, ref, x_shape, k, tmp_path, name, rng):
    report, _ = compile_and_compare(model, tmp_path, [{"x": randn(rng, x_shape)}], name=name)
    m = _core.testing_model.Model.from_file(report["om_path"])
    for _ in range(2):  # the first run packs B, the second reads it from the node cache
        x = randn(rng, x_shape)
        (y,) = m.run([x])
        assert_close_accum(np.asarray(y), ref(x), np.float32, k)


def _check_cases(tmp_path):
    rng = np.random.default_rng(37)
    for i, (a_shape, b_shape) in enumerate(MATMUL_CASES):
        for relu in (False, True):
            model, ref = _matmul_model(a_shape, b_shape, relu, rng)
            _run_twice(model, ref, a_shape, b_shape[0], tmp_path, f"mm{i}{int(relu)}", rng)
    for i, (m, k, n, at, c_shape) in enumerate(GEMM_CASES):
        model, ref, a_shape = _gemm_model(m, k, n, at, c_shape, rng)
        _run_twice(model, ref, a_shape, k, tmp_path, f"gemm{i}", rng)


def test_packed_b(tmp_path):
    _check_cases(tmp_path)


@pytest.mark.parametrize("setting", ["avx2", "one_thread"])
def test_packed_b_avx2_and_one_thread(tmp_path, setting):
    env = isa_env("avx2") if setting == "avx2" else {"ACL_SIM_HOST_THREADS": "1"}
    run_check_in_child("test_gemm_packed_b", f"_check_cases(__import__('pathlib').Path({str(tmp_path)!r}))", **env)
