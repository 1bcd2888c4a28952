"""ONNX ModelProto -> ir.Graph.

Initializers (also those listed as graph inputs, as old exporters did) and
`Constant` nodes become constants; tensor-valued attributes become NumPy
arrays. Nothing is rewritten here: normalising older-opset semantics is the
`normalize` pass.
"""
from __future__ import annotations

import os

import numpy as np

from .errors import CompileError
from .ir import Graph, Node


def load_model(model):
    """Accepts a path, bytes or a ModelProto; returns (ModelProto, serialized bytes for hashing)."""
    import onnx

    if isinstance(model, onnx.ModelProto):
        return model, model.SerializeToString()
    if isinstance(model, (bytes, bytearray)):
        data = bytes(model)
        base_dir = None
    else:
        path = os.fspath(model)
        if not os.path.isfile(path):
            raise CompileError(f"model file not found: {path}")
        with open(path, "rb") as f:
            data = f.read()
        base_dir = os.path.dirname(os.path.abspath(path))
    proto = onnx.ModelProto()
    try:
        proto.ParseFromString(data)
    except Exception as exc:  # protobuf raises DecodeError and friends
        raise CompileError(f"not a valid ONNX model ({type(exc).__name__})") from None
    if not proto.graph.node and not proto.graph.output:
        raise CompileError("not a valid ONNX model (empty graph)")
    if base_dir is not None:
        from onnx.external_data_helper import load_external_data_for_model

        uses_external = any(t.data_location == onnx.TensorProto.EXTERNAL for t in proto.graph.initializer)
        if uses_external:
            try:
                load_external_data_for_model(proto, base_dir)
            except OSError as exc:
                raise CompileError(f"cannot read external weights: {exc}") from None
            data = proto.SerializeToString()  # the cache key must cover the external weights too
    return proto, data


def _attr_value(attr):
    from onnx import AttributeProto, numpy_helper

    t = attr.type
    if t == AttributeProto.FLOAT:
        return float(attr.f)
    if t == AttributeProto.INT:
        return int(attr.i)
    if t == AttributeProto.STRING:
        return attr.s.decode("utf-8", "replace")
    if t == AttributeProto.TENSOR:
        return numpy_helper.to_array(attr.t)
    if t == AttributeProto.FLOATS:
        return [float(v) for v in attr.floats]
    if t == AttributeProto.INTS:
        return [int(v) for v in attr.ints]
    if t == AttributeProto.STRINGS:
        return [s.decode("utf-8", "replace") for s in attr.strings]
    # Graph attributes (If/Loop/Scan) and sparse tensors: kept opaque; such ops are unsupported.
    return attr


def _constant_node_value(node):
    from onnx import numpy_helper

    for attr in node.attribute:
        v = _attr_value(attr)
        if attr.name == "value":
            return v
        if attr.name == "value_float":
            return np.array(v, dtype=np.float32)
        if attr.name == "value_floats":
            return np.array(v, dtype=np.float32)
        if attr.name == "value_int":
            return np.array(v, dtype=np.int64)
        if attr.name == "value_ints":
            return np.array(v, dtype=np.int64)
        if attr.name == "sparse_value":
            from onnx.numpy_helper import to_array

            dense = np.zeros(tuple(attr.sparse_tensor.dims), dtype=to_array(attr.sparse_tensor.values).dtype)
            values = numpy_helper.to_array(attr.sparse_tensor.values)
            idx = numpy_helper.to_array(attr.sparse_tensor.indices)
            dense.reshape(-1)[idx.reshape(len(values), -1)[:, 0] if idx.ndim > 1 else idx] = values
            return dense
    raise CompileError(f"Constant node '{node.name}' has no value")


def _value_info_shape(vi):
    tt = vi.type.tensor_type
    if not tt.HasField("shape"):
        return None
    dims = []
    for d in tt.shape.dim:
        dims.append(int(d.dim_value) if d.HasField("dim_value") and d.dim_value > 0 else -1)
    return tuple(dims)


def import_model(proto) -> tuple[Graph, dict]:
    """Returns (graph, input_specs) where input_specs[name] = (declared dims with -1 for unknown, dtype)."""
    from onnx import AttributeProto, helper, numpy_helper

    g = Graph()
    opset = 1
    for imp in proto.opset_import:
        if imp.domain in ("", "ai.onnx"):
            opset = imp.version
    g.source_opset = opset
    for init in proto.graph.initializer:
        try:
            arr = numpy_helper.to_array(init)
        except Exception as exc:
            raise CompileError(f"cannot read initializer '{init.name}': {exc}") from None
        g.consts[init.name] = arr
    specs = {}
    for vi in proto.graph.input:
        if vi.name in g.consts:
            continue
        elem = vi.type.tensor_type.elem_type
        try:
            dtype = np.dtype(helper.tensor_dtype_to_np_dtype(elem))
        except Exception:
            dtype = None
        if dtype is None or dtype == object:  # strings, sequences, optionals: no device dtype
            raise CompileError(f"input '{vi.name}' has an unsupported element type {elem}") from None
        g.inputs.append(vi.name)
        specs[vi.name] = (_value_info_shape(vi), dtype)
        g.dtypes[vi.name] = dtype
    g.outputs = [o.name for o in proto.graph.output]
    for idx, node in enumerate(proto.graph.node):
        name = node.name or f"{node.op_type}_{idx}"
        op_type = node.op_type
        if node.domain not in ("", "ai.onnx"):
            from .supported_ops import ML_OPS

            if node.domain != "ai.onnx.ml" or node.op_type not in ML_OPS:
                raise CompileError(f"unsupported op '{node.domain}.{node.op_type}' (node '{name}')")
            op_type = f"ai.onnx.ml.{node.op_type}"  # the domain stays in the IR op name
        if node.op_type == "Constant":
            g.consts[node.output[0]] = np.asarray(_constant_node_value(node))
            continue
        attrs = {a.name: _attr_value(a) for a in node.attribute}
        ir_node = Node(op_type, name, list(node.input), list(node.output), attrs, [name])
        if any(a.type in (AttributeProto.GRAPH, AttributeProto.GRAPHS) for a in node.attribute):
            from .passes.control_flow import attach_outer_refs

            attach_outer_refs(ir_node)  # subgraphs' reads of this graph become visible inputs
        g.nodes.append(ir_node)
    for name, arr in g.consts.items():
        g.shapes[name] = tuple(arr.shape)
        g.dtypes[name] = arr.dtype
    for out in g.outputs:
        if out in g.inputs or out in g.consts or any(out in n.outputs for n in g.nodes):
            continue
        raise CompileError(f"graph output '{out}' is produced by no node")
    g.toposort()
    return g, specs
