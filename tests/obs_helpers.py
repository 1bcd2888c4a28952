"""Helpers for the observability tests: a tiny CNN, compiled, and a pyACL inference script."""
from __future__ import annotations

import os
import textwrap

import numpy as np


def tiny_cnn(path: str) -> str:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(1)
    inits = [numpy_helper.from_array((rng.standard_normal(s) * 0.3).astype(np.float32), n) for n, s in
             [("w1", (8, 3, 3, 3)), ("b1", (8,)), ("w2", (8, 8, 3, 3)), ("b2", (8,)), ("fc", (8, 10))]]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("MatMul", ["f", "fc"], ["y"], name="fc"),
    ]
    graph = helper.make_graph(nodes, "tiny_cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    return path


def compile_tiny(tmp: str) -> tuple[str, str]:
    from acl_sim.compiler import compile_model

    onnx_path = tiny_cnn(os.path.join(tmp, "tiny_cnn.onnx"))
    compile_model(onnx_path, os.path.join(tmp, "tiny_cnn"), cache=False)
    return onnx_path, os.path.join(tmp, "tiny_cnn.om")


INFER_SCRIPT = textwrap.dedent('''
    import sys, numpy as np, acl
    om, config, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    assert acl.init(config) == 0, acl.get_recent_err_msg()
    assert acl.rt.set_device(0) == 0
    mid, ret = acl.mdl.load_from_file(om); assert ret == 0, acl.get_recent_err_msg()
    desc = acl.mdl.create_desc(); assert acl.mdl.get_desc(desc, mid) == 0
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    x = np.random.default_rng(0).standard_normal((1, 3, 16, 16)).astype(np.float32)
    size = acl.mdl.get_input_size_by_index(desc, 0)
    dev, ret = acl.rt.malloc(size, 0); assert ret == 0
    assert acl.rt.memcpy(dev, size, x.ctypes.data, size, 1) == 0
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(dev, size))
    osize = acl.mdl.get_output_size_by_index(desc, 0)
    odev, ret = acl.rt.malloc(osize, 0); assert ret == 0
    acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(odev, osize))
    for _ in range(runs):
        assert acl.mdl.execute(mid, ins, outs) == 0, acl.get_recent_err_msg()
    y = np.empty((1, 10), np.float32)
    assert acl.rt.memcpy(y.ctypes.data, y.nbytes, odev, y.nbytes, 2) == 0
    np.save(sys.argv[4], y)
    acl.mdl.unload(mid); acl.rt.free(dev); acl.rt.free(odev)
    acl.rt.reset_device(0)
    assert acl.finalize() == 0
''')
