"""Dynamic batch / image size / dims: one graph per profile, IODESC dims and the mbatch input."""
import numpy as np
from onnx import helper

from atc_util import compile_and_compare, make_model

RNG = np.random.default_rng(11)


def _two_input_model():
    # a [N, K] @ b [K, M] -> relu: dims N, K, M are all free.
    nodes = [helper.make_node("MatMul", ["a", "b"], ["m"]), helper.make_node("Relu", ["m"], ["y"])]
    return make_model(nodes, [("a", ["N", "K"]), ("b", ["K", "M"])], [("y", None)])


def test_dynamic_dims_follow_input_shape_order(tmp_path):
    # --input_shape lists b before a: profile values fill b's -1 first, IODESC stores model input order.
    feeds = [{"a": RNG.standard_normal((2, 3)).astype(np.float32), "b": RNG.standard_normal((3, 4)).astype(np.float32)},
             {"a": RNG.standard_normal((5, 3)).astype(np.float32), "b": RNG.standard_normal((3, 7)).astype(np.float32)}]
    _, om = compile_and_compare(_two_input_model(), tmp_path, feeds, input_shape="b:3,-1;a:-1,3",
                                input_format="ND", dynamic_dims="4,2;7,5")
    io = om.iodesc
    assert io["dynamic"]["kind"] == "dims"
    assert io["dynamic"]["profiles"] == [[2, 4], [5, 7]]  # a's N, then b's M
    assert [i["dims"] for i in io["inputs"]] == [[-1, 3], [3, -1], [2]]
    assert [i["size"] for i in io["inputs"]] == [5 * 3 * 4, 3 * 7 * 4, 16]
    assert io["outputs"][0]["dims"] == [5, 7]


def test_dynamic_image_size_nhwc(tmp_path):
    nodes = [helper.make_node("Transpose", ["x"], ["t"], perm=[0, 3, 1, 2]),
             helper.make_node("GlobalAveragePool", ["t"], ["y"])]
    model = make_model(nodes, [("x", [1, "H", "W", 3])], [("y", None)])
    feeds = [{"x": RNG.standard_normal((1, h, w, 3)).astype(np.float32)} for h, w in ((4, 6), (8, 2), (3, 3))]
    _, om = compile_and_compare(model, tmp_path, feeds, input_shape="x:1,-1,-1,3", input_format="NHWC",
                                dynamic_image_size="4,6;8,2;3,3")
    assert om.iodesc["inputs"][0]["format"] == 1 and om.iodesc["inputs"][0]["dims"] == [1, -1, -1, 3]
    assert om.iodesc["dynamic"] == {"kind": "hw", "profiles": [[4, 6], [8, 2], [3, 3]], "mbatch_input_index": 1}
    assert [t["shape"] for p in range(3) for t in om.profile(p)["tensors"] if t["kind"] == "input"] == \
        [[1, 4, 6, 3], [1, 8, 2, 3], [1, 3, 3, 3]]


def test_hundred_profiles(tmp_path):
    nodes = [helper.make_node("Relu", ["x"], ["y"])]
    model = make_model(nodes, [("x", ["N", 2])], [("y", None)])
    from acl_sim.compiler import compile_model
    from acl_sim.compiler.om_reader import read_om

    report = compile_model(model, str(tmp_path / "h"), input_shape="x:-1,2",
                           dynamic_batch_size=",".join(str(b) for b in range(1, 101)), cache=False)
    om = read_om(report["om_path"])
    assert len(om.graph["profiles"]) == 100 and om.iodesc["outputs"][0]["dims"] == [100, 2]
    assert len(report["memplan"]) == 100
    assert [t["shape"] for t in om.profile(99)["tensors"] if t["kind"] == "output"] == [[100, 2]]
