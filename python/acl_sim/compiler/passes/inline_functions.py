"""Expand ONNX function ops the runtime lacks (Swish, Mish, RMSNormalization, Attention, ...) into their
defining subgraphs, so newer models compile onto the primitive kernels.

Context-dependent function bodies (Attention, RMSNormalization, ...) depend on input types, so the
expansion runs during shape inference, when every input's dtype and shape is known.
"""
from __future__ import annotations

import numpy as np

from ..errors import CompileError
from ..ir import Graph, Node
from ..supported_ops import FOLD_ONLY_OPS, SUPPORTED_OPS


def _schema(op: str, opset: int):
    import onnx

    try:
        return onnx.defs.get_schema(op, opset, "")
    except Exception:
        return None


def expandable(op: str, opset: int) -> bool:
    """True if `op` is not executable but ONNX defines it as a function at this opset."""
    if op in SUPPORTED_OPS or op in FOLD_ONLY_OPS:
        return False
    s = _schema(op, opset)
    return s is not None and (s.has_function or s.has_context_dependent_function)


def _type_proto(g: Graph, name: str):
    from onnx import helper

    if not name:
        return helper.make_tensor_type_proto(0, None)
    return helper.make_tensor_type_proto(helper.np_dtype_to_tensor_dtype(np.dtype(g.dtype(name))),
                                         list(g.shape(name)))


def _function_body(g: Graph, node: Node, opset: int):
    from onnx import FunctionProto, helper, numpy_helper

    schema = _schema(node.op, opset)
    if schema.has_function:
        return schema.function_body
    attrs = {k: (numpy_helper.from_array(np.asarray(v)) if isinstance(v, np.ndarray) else v)
             for k, v in node.attrs.items()}
    proto = helper.make_node(node.op, node.inputs, node.outputs, **attrs)
    types = [_type_proto(g, i).SerializeToString() for i in node.inputs]
    body = schema.get_context_dependent_function(proto.SerializeToString(), types)
    if not body:
        raise CompileError(f"node '{node.name}' ({node.op}): no function body for these input types")
    return FunctionProto.FromString(body)


def expand(g: Graph, node: Node, opset: int) -> list[Node]:
    """The function body of `node` as IR nodes (constants go straight into g.consts)."""
    from onnx import AttributeProto

    from ..onnx_import import _attr_value, _constant_node_value
    from . import normalize

    fn = _function_body(g, node, opset)
    fn_opset = next((o.version for o in fn.opset_import if o.domain in ("", "ai.onnx")), opset)
    schema = _schema(node.op, opset)
    rename = {formal: (node.inputs[i] if i < len(node.inputs) else "") for i, formal in enumerate(fn.input)}
    rename.update({formal: node.outputs[i] for i, formal in enumerate(fn.output) if i < len(node.outputs)})
    rename[""] = ""

    def actual(name):
        if name not in rename:
            rename[name] = g.fresh(f"{node.name}/{name}")
        return rename[name]

    defaults = {k: a.default_value for k, a in schema.attributes.items() if a.default_value.type}
    raw: list[Node] = []
    for k, body_node in enumerate(fn.node):
        if body_node.domain not in ("", "ai.onnx"):
            raise CompileError(f"node '{node.name}' ({node.op}): op is not supported (its ONNX function uses "
                               f"{body_node.domain}.{body_node.op_type})")
        has_graph = any(a.type in (AttributeProto.GRAPH, AttributeProto.GRAPHS) for a in body_node.attribute)
        attrs = {}
        for attr in body_node.attribute:
            if attr.ref_attr_name:
                if attr.ref_attr_name in node.attrs:
                    attrs[attr.name] = node.attrs[attr.ref_attr_name]
                elif attr.ref_attr_name in defaults:
                    attrs[attr.name] = _attr_value(defaults[attr.ref_attr_name])
            else:
                attrs[attr.name] = _attr_value(attr)
        if body_node.op_type == "Constant":
            proto_like = type("ConstNode", (), {"attribute": body_node.attribute, "name": node.name})
            # Constant values may themselves reference the caller's attributes (value_float = ref ...).
            value = None
            for name, v in attrs.items():
                if name == "value":
                    value = np.asarray(v)
                elif name in ("value_float", "value_floats"):
                    value = np.asarray(v, dtype=np.float32)
                elif name in ("value_int", "value_ints"):
                    value = np.asarray(v, dtype=np.int64)
            if value is None:
                value = np.asarray(_constant_node_value(proto_like))
            out = actual(body_node.output[0])
            g.consts[out] = value
            g.shapes[out], g.dtypes[out] = tuple(value.shape), value.dtype
            continue
        inner = Node(body_node.op_type, f"{node.name}/{k}", [actual(i) for i in body_node.input], [], attrs,
                     list(node.sources))
        if has_graph:  # If / Scan in the body: their subgraphs read function-scope names
            from .control_flow import BODY_OPSET, attach_outer_refs

            attach_outer_refs(inner, actual)
            inner.attrs[BODY_OPSET] = fn_opset
        inner.outputs = [actual(o) for o in body_node.output]
        raw.append(inner)
    # Body nodes use the function's opset: bring them to the canonical one like imported nodes.
    out: list[Node] = []
    g._mask_readers = {i for n in raw for i in n.inputs} | set(g.outputs)
    for body_node in raw:
        normalize._rewrite(g, body_node, fn_opset, out, {})
    del g._mask_readers
    return out
