"""Concat without copies: the memory plan puts Concat inputs inside the Concat output (memory_plan.py).

Each graph is compiled, its plan checked by the independent soundness check (atc_util), run on the
C++ executor and compared with onnxruntime. The placement itself is asserted from the .om offsets.
"""
import numpy as np
import pytest
from onnx import helper

from acl_sim._core import testing_model
from atc_util import compile_and_compare, make_model, ort_run

n = helper.make_node


def _w(rng, cout, cin, k=1):
    return (rng.standard_normal((cout, cin, k, k)) / np.sqrt(cin * k * k)).astype(np.float32)


def _run(model, tmp_path, feeds, name="m"):
    """Compile (plan soundness and the ONNX rebuild checked), run on the runtime, compare with ORT."""
    report, om = compile_and_compare(model, tmp_path, [feeds], name=name)
    got = testing_model.run_om(report["om_path"], list(feeds.values()))
    want = ort_run(model, feeds)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
    g = om.profile(0)
    return report["memplan"][0], {t["name"]: t for t in g["tensors"]}, g


def _dense_block(batch=1, channels=4, hw=8):
    """DenseNet's growing concatenation: c_k = Concat(c_{k-1}, Conv(Relu(c_{k-1})))."""
    rng = np.random.default_rng(0)
    nodes, inits = [n("Conv", ["x", "w0"], ["c0"])], {"w0": _w(rng, channels, 3)}
    prev, width = "c0", channels
    for k in range(1, 4):
        nodes += [n("Relu", [prev], [f"r{k}"]), n("Conv", [f"r{k}", f"w{k}"], [f"f{k}"], pads=[1, 1, 1, 1]),
                  n("Concat", [prev, f"f{k}"], [f"c{k}"], axis=1)]
        inits[f"w{k}"] = _w(rng, channels, width, 3)
        prev, width = f"c{k}", width + channels
    nodes += [n("Conv", [prev, "wy"], ["y"])]
    inits["wy"] = _w(rng, 2, width)
    return make_model(nodes, [("x", [batch, 3, hw, hw])], [("y", None)], inits)


def test_dense_block_concats_write_in_place(tmp_path):
    x = np.random.default_rng(1).standard_normal((1, 3, 8, 8)).astype(np.float32)
    plan, t, g = _run(_dense_block(), tmp_path, {"x": x})
    assert plan["concat_elided"] == 3 and plan["concat_inplace_inputs"] == 6
    slab = 4 * 8 * 8 * 4  # one 4-channel 8x8 fp32 feature map
    base = t["c3"]["offset"]
    # Every feature map is written straight into its slice of the last concat.
    assert [t[name]["offset"] - base for name in ("c0", "f1", "f2", "f3")] == [0, slab, 2 * slab, 3 * slab]
    assert t["c1"]["offset"] == t["c2"]["offset"] == base
    assert plan["planned_bytes"] <= plan["naive_bytes"]


def test_batch_two_concat_is_copied(tmp_path):
    x = np.random.default_rng(2).standard_normal((2, 3, 8, 8)).astype(np.float32)
    plan, t, _ = _run(_dense_block(batch=2), tmp_path, {"x": x})
    assert plan["concat_elided"] == 0 and plan["concat_inplace_inputs"] == 0  # slices of a batch are strided


def test_model_inputs_weights_and_shared_inputs_are_copied(tmp_path):
    # a feeds two concats (only one may hold it); x (model input) and k (weight) must be copied.
    rng = np.random.default_rng(3)
    nodes = [n("Conv", ["x", "w"], ["a"]), n("Sigmoid", ["x"], ["b"]),
             n("Concat", ["x", "a", "k"], ["c1"], axis=1), n("Concat", ["b", "a"], ["c2"], axis=1),
             n("Relu", ["c1"], ["y1"]), n("Relu", ["c2"], ["y2"])]
    model = make_model(nodes, [("x", [1, 4, 4, 4])], [("y1", None), ("y2", None)],
                       {"w": _w(rng, 4, 4), "k": rng.standard_normal((1, 4, 4, 4)).astype(np.float32)})
    x = rng.standard_normal((1, 4, 4, 4)).astype(np.float32)
    plan, t, _ = _run(model, tmp_path, {"x": x})
    assert plan["concat_inplace_inputs"] == 2 and plan["concat_elided"] == 0
    assert t["a"]["offset"] == t["c1"]["offset"] + 256  # after the copied x
    assert t["b"]["offset"] == t["c2"]["offset"]  # c2 still copies a


def test_slice_read_after_the_concat_and_in_place_producers(tmp_path):
    # f is a slice of c and is read again after the concat; g = Exp(e) overwrites e inside c.
    rng = np.random.default_rng(4)
    nodes = [n("Conv", ["x", "w1"], ["f"]), n("Conv", ["x", "w2"], ["e"]), n("Exp", ["e"], ["g"]),
             n("Concat", ["f", "g"], ["c"], axis=1), n("Conv", ["c", "w3"], ["h"]),
             n("Add", ["h", "f"], ["y"])]
    model = make_model(nodes, [("x", [1, 4, 4, 4])], [("y", None)],
                       {"w1": _w(rng, 4, 4), "w2": _w(rng, 4, 4), "w3": _w(rng, 4, 8)})
    x = rng.standard_normal((1, 4, 4, 4)).astype(np.float32)
    plan, t, _ = _run(model, tmp_path, {"x": x})
    assert plan["concat_elided"] == 1
    assert t["f"]["offset"] == t["c"]["offset"] and t["g"]["offset"] == t["c"]["offset"] + 256
    assert t["e"]["offset"] == t["g"]["offset"]  # in place inside the slice


def test_output_unaligned_and_negative_axis(tmp_path):
    rng = np.random.default_rng(5)
    # c is a model output: lives in the user's buffer, nothing is placed in it.
    nodes = [n("Relu", ["x"], ["a"]), n("Sigmoid", ["x"], ["b"]), n("Concat", ["a", "b"], ["c"], axis=-3)]
    model = make_model(nodes, [("x", [1, 4, 4, 4])], [("c", None)])
    plan, _, _ = _run(model, tmp_path, {"x": rng.standard_normal((1, 4, 4, 4)).astype(np.float32)}, "out")
    assert plan["concat_inplace_inputs"] == 0
    # 3 floats = 12 bytes: the second slice would start unaligned, so only the first is in place.
    nodes = [n("Relu", ["x"], ["a"]), n("Sigmoid", ["x"], ["b"]), n("Concat", ["a", "b"], ["c"], axis=-3),
             n("Tanh", ["c"], ["y"])]
    model = make_model(nodes, [("x", [1, 3, 1, 1])], [("y", None)])
    plan, t, _ = _run(model, tmp_path, {"x": rng.standard_normal((1, 3, 1, 1)).astype(np.float32)}, "unaligned")
    assert plan["concat_inplace_inputs"] == 1 and t["a"]["offset"] == t["c"]["offset"]


def test_concat_of_concats_along_width(tmp_path):
    # A tree of concats on the last axis of a [1, 1, 1, W] tensor (every dim before the axis is 1).
    rng = np.random.default_rng(6)
    nodes = [n("Relu", ["x"], ["a"]), n("Neg", ["x"], ["b"]), n("Exp", ["x"], ["d"]),
             n("Concat", ["a", "b"], ["ab"], axis=3), n("Concat", ["d", "ab"], ["dab"], axis=3),
             n("Concat", ["ab", "dab"], ["z"], axis=3), n("Sigmoid", ["z"], ["y"])]
    model = make_model(nodes, [("x", [1, 1, 1, 16])], [("y", None)])
    plan, t, _ = _run(model, tmp_path, {"x": rng.standard_normal((1, 1, 1, 16)).astype(np.float32)})
    # ab goes into dab (first); z can then hold dab but not ab again.
    assert t["dab"]["offset"] == t["z"]["offset"] + 128
    assert plan["concat_elided"] == 2


def _random_graph(seed):
    """A random DAG of elementwise ops, 1x1 convs and concats (tensors reused, read after concats,
    concatenated twice, concats of concats) over [1, C, 2, 2] tensors (C a multiple of 4: aligned)."""
    rng = np.random.default_rng(seed)
    nodes, inits, pool = [], {}, [("x", 4)]
    for k in range(40):
        kind = rng.choice(["unary", "binary", "concat", "concat", "conv"])
        name = f"t{k}"
        if kind == "unary":
            src, c = pool[rng.integers(len(pool))]
            nodes.append(n(str(rng.choice(["Tanh", "Neg", "Sigmoid", "Abs", "Relu"])), [src], [name]))
        elif kind == "binary":
            src, c = pool[rng.integers(len(pool))]
            same = [t for t, cc in pool if cc == c]
            other = same[rng.integers(len(same))]
            nodes.append(n(str(rng.choice(["Add", "Mul", "Sub"])), [src, other], [name]))
        elif kind == "concat":
            picks = [pool[i] for i in rng.choice(len(pool), size=min(len(pool), int(rng.integers(2, 4))), replace=False)]
            c = sum(cc for _, cc in picks)
            if c > 32:
                continue
            nodes.append(n("Concat", [t for t, _ in picks], [name], axis=1))
        else:
            src, cin = pool[rng.integers(len(pool))]
            c = 4 * int(rng.integers(1, 4))
            inits[f"w{k}"] = (rng.standard_normal((c, cin, 1, 1)) / np.sqrt(cin)).astype(np.float32)
            nodes.append(n("Conv", [src, f"w{k}"], [name]))
        pool.append((name, c))
    outs = [pool[-1][0]] + [t for t, _ in pool[1:-1:7]]
    for i, t in enumerate(outs):
        nodes.append(n("Identity", [t], [f"y{i}"]))
    return make_model(nodes, [("x", [1, 4, 2, 2])], [(f"y{i}", None) for i in range(len(outs))], inits)


@pytest.mark.parametrize("seed", range(12))
def test_random_graphs_with_concats(tmp_path, seed):
    model = _random_graph(seed)
    x = np.random.default_rng(seed).standard_normal((1, 4, 2, 2)).astype(np.float32)
    report, om = compile_and_compare(model, tmp_path, [{"x": x}], name=f"r{seed}")
    got = testing_model.run_om(report["om_path"], [x])
    for a, b in zip(got, ort_run(model, {"x": x})):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
