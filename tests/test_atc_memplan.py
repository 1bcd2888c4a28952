"""Memory planner: the Pisarchyk & Lee example, soundness on random lifetimes, in-place rules."""
import numpy as np
import pytest
from onnx import helper

from acl_sim.compiler.memory_plan import Buffer, greedy_by_size, improve, lower_bound
from atc_util import compile_and_compare, make_model

# (first, last, size) of the 8-tensor example in Pisarchyk & Lee 2020, "Efficient Memory Management for
# Deep Neural Net Inference".
PAPER_EXAMPLE = [(0, 1, 32), (1, 4, 28), (2, 5, 36), (3, 5, 16), (4, 5, 8), (5, 7, 64), (6, 8, 10), (7, 8, 40)]


def _overlaps(a: Buffer, b: Buffer) -> bool:
    return a.first <= b.last and b.first <= a.last


def _assert_sound(buffers):
    for i, a in enumerate(buffers):
        assert a.offset >= 0
        for b in buffers[i + 1:]:
            if _overlaps(a, b):
                assert a.offset + a.size <= b.offset or b.offset + b.size <= a.offset, (a, b)


def test_paper_example_plans_at_124():
    buffers = [Buffer(*t) for t in PAPER_EXAMPLE]
    assert sum(b.size for b in buffers) == 234  # naive
    assert lower_bound(buffers) == 124
    assert greedy_by_size(buffers) == 124
    _assert_sound(buffers)
    assert improve([Buffer(*t) for t in PAPER_EXAMPLE], 124) == 124


@pytest.mark.parametrize("seed", range(5))
def test_random_lifetimes_never_collide(seed):
    rng = np.random.default_rng(seed)
    buffers = []
    for _ in range(60):
        first = int(rng.integers(0, 40))
        buffers.append(Buffer(first, first + int(rng.integers(0, 8)), int(rng.integers(1, 50)) * 64))
    bound = lower_bound(buffers)
    peak = improve(buffers, bound)
    _assert_sound(buffers)
    assert bound <= peak == max(b.offset + b.size for b in buffers)
    assert peak <= 1.25 * bound


def test_inplace_and_io_rules(tmp_path):
    # x -> Conv -> Relu -> Sigmoid(y1) ; Relu output also read by Add later: Sigmoid may not overwrite it.
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"]), helper.make_node("Exp", ["c"], ["e"]),
             helper.make_node("Neg", ["e"], ["n"]), helper.make_node("Sigmoid", ["n"], ["s"]),
             helper.make_node("Add", ["s", "n"], ["a"]), helper.make_node("Tanh", ["a"], ["y"])]
    model = make_model(nodes, [("x", [1, 2, 4, 4])], [("y", None)],
                       {"w": np.random.default_rng(0).standard_normal((3, 2, 1, 1)).astype(np.float32)})
    report, om = compile_and_compare(model, tmp_path, [{"x": np.ones((1, 2, 4, 4), np.float32)}])
    g = om.profile(0)
    by_name = {t["name"]: t for t in g["tensors"]}
    assert by_name["e"]["offset"] == by_name["c"]["offset"]  # Exp overwrites its dead input
    assert by_name["n"]["offset"] == by_name["e"]["offset"]
    assert by_name["s"]["offset"] != by_name["n"]["offset"]  # n is read again by the Add
    assert by_name["a"]["offset"] in (by_name["s"]["offset"], by_name["n"]["offset"])
    assert by_name["x"]["kind"] == "input" and by_name["y"]["kind"] == "output"
    plan = om.memplan["profiles"][0]
    assert plan["inplace_count"] == 3
    assert plan["planned_bytes"] == plan["lower_bound_bytes"] == g["workspace_size"]
    assert plan["naive_bytes"] == 5 * 192  # five [1,3,4,4] fp32 workspace tensors
    for t in g["tensors"]:
        if t["kind"] == "workspace":
            assert t["offset"] % 64 == 0 and t["offset"] + t["size"] <= g["workspace_size"]
