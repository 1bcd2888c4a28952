"""ATC pass pool_before_pointwise: AveragePool(Conv1x1(x)) -> Conv1x1(AveragePool(x)) (DenseNet transitions).

Each graph is compiled, checked against onnxruntime through the ONNX rebuild and on the runtime.
"""
import numpy as np
import pytest
from onnx import helper

from acl_sim._core import testing_model
from atc_util import compile_and_compare, make_model, ops_of, ort_run, pass_stats

n = helper.make_node


def _model(pool, conv_attrs=None, tail=(), w_shape=(6, 8, 1, 1), x_shape=(2, 8, 8, 10), extra_out=False):
    rng = np.random.default_rng(0)
    nodes = [n("Relu", ["x"], ["r"]), n("Conv", ["r", "w", "b"], ["c"], **(conv_attrs or {})), pool] + list(tail)
    inits = {"w": (rng.standard_normal(w_shape) / 3).astype(np.float32), "b": rng.standard_normal(w_shape[0]).astype(np.float32)}
    outs = [("y", None)] + ([("c", None)] if extra_out else [])
    return make_model(nodes, [("x", list(x_shape))], outs, inits)


def _check(model, tmp_path, name, x_shape=(2, 8, 8, 10)):
    x = np.random.default_rng(1).standard_normal(x_shape).astype(np.float32)
    report, om = compile_and_compare(model, tmp_path, [{"x": x}], name=name)
    got = testing_model.run_om(report["om_path"], [x])
    for a, b in zip(got, ort_run(model, {"x": x})):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    return pass_stats(report, "pool_before_pointwise")["swapped"], ops_of(om), om


def test_transition_pools_first_and_relu_fuses(tmp_path):
    pool = n("AveragePool", ["c"], ["p"], kernel_shape=[2, 2], strides=[2, 2])
    swapped, ops, om = _check(_model(pool, tail=[n("Relu", ["p"], ["y"])]), tmp_path, "transition")
    assert swapped == 1 and ops == ["Relu", "AveragePool", "Conv"]
    conv = om.profile(0)["nodes"][2]
    assert conv["attrs"]["activation"] == "Relu"  # the Relu after the pool now follows the Conv
    pooled = om.profile(0)["tensors"][conv["inputs"][0]]
    assert pooled["shape"] == [2, 8, 4, 5]


@pytest.mark.parametrize("pool", [
    n("GlobalAveragePool", ["c"], ["y"]),
    n("AveragePool", ["c"], ["y"], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1),
    n("AveragePool", ["c"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=0),
], ids=["global", "ceil", "pads_not_counted"])
def test_commuting_pools(tmp_path, pool):
    swapped, ops, _ = _check(_model(pool), tmp_path, "commute")
    assert swapped == 1 and ops[-1] == "Conv"


@pytest.mark.parametrize("case", ["counted_pads", "conv3x3", "strided", "conv_read_twice"])
def test_non_commuting_cases_stay(tmp_path, case):
    pool = n("AveragePool", ["c"], ["y"], kernel_shape=[2, 2], strides=[2, 2])
    kwargs = {}
    if case == "counted_pads":  # zero padding counted: the bias would be scaled at the border
        pool = n("AveragePool", ["c"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1)
    elif case == "conv3x3":
        kwargs = dict(w_shape=(6, 8, 3, 3), conv_attrs={"pads": [1, 1, 1, 1]})
    elif case == "strided":
        kwargs = dict(conv_attrs={"strides": [2, 2]})
    else:
        kwargs = dict(extra_out=True)
    swapped, ops, _ = _check(_model(pool, **kwargs), tmp_path, case)
    assert swapped == 0 and ops.index("Conv") < ops.index("AveragePool")
