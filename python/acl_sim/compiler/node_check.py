"""Which nodes of an ONNX model ATC cannot compile, and why, without compiling.

`acl-sim atc --check` lists every such node, one line each; the compiler raises the same line
(for the first one it meets) as its CompileError. A line names the node, its op, the model's
opset, its input dtypes and the attribute or dtype at fault:

    node 'lstm' (LSTM, opset 19, dtypes float32/float32/float32): attribute layout=1 is not supported

The check is static: it knows the ops and dtypes the kernel library executes (supported_ops),
the ONNX functions ATC expands (at the model's opset), the control flow it resolves at compile
time (If, Scan: their subgraphs are checked), and the attribute values the compiler refuses. Problems only shape inference can find (a shape that depends on data, an op that must
fold to a constant) still surface when compiling.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes

from .passes.control_flow import UNROLLED_OPS

# Ops ATC decomposes into kernel-library ops (passes/lowerings.py).
LOWERED_OPS = {"QLinearMatMul", "QLinearConv", "RNN", "GRU", "LSTM", "Einsum"}
from .passes.sequences import SEQUENCE_OPS
from .supported_ops import FOLD_ONLY_OPS, SUPPORTED_OPS

# Attribute values the compiler rejects: op -> [(attribute, default, accepted values)].
UNSUPPORTED_ATTRS = {
    # the recurrent decomposition (passes/lowerings.py) handles layout 0 and coupled gates off only
    "RNN": [("layout", 0, {0})],
    "GRU": [("layout", 0, {0})],
    "LSTM": [("layout", 0, {0}), ("input_forget", 0, {0})],
}

# ONNX element types with an aclDataType the kernels move (the computed rows of acl_sim.dtypes).
_SUPPORTED_ELEMS = {d.onnx for d in dtypes.TABLE if d.computed}


def _elem_name(elem: int) -> str:
    from onnx import TensorProto

    try:
        return TensorProto.DataType.Name(elem)
    except ValueError:
        return f"type{elem}"


def _type_name(type_proto) -> str:
    """'float32', 'string', 'seq(float32)', 'optional(...)' or '-' (unknown)."""
    if type_proto is None:
        return "-"
    kind = type_proto.WhichOneof("value")
    if kind == "tensor_type":
        elem = type_proto.tensor_type.elem_type
        if elem == 0:
            return "-"
        name = _elem_name(elem)
        if elem in _SUPPORTED_ELEMS:
            from onnx import helper

            return np.dtype(helper.tensor_dtype_to_np_dtype(elem)).name
        return name.lower()
    if kind == "sequence_type":
        return f"seq({_type_name(type_proto.sequence_type.elem_type)})"
    if kind == "optional_type":
        return f"optional({_type_name(type_proto.optional_type.elem_type)})"
    if kind == "sparse_tensor_type":
        return "sparse"
    return kind or "-"


def _bad_type(type_proto) -> str | None:
    """The reason a value of this type cannot live on the device, or None."""
    if type_proto is None:
        return None
    kind = type_proto.WhichOneof("value")
    if kind == "tensor_type":
        elem = type_proto.tensor_type.elem_type
        if elem == 0 or elem in _SUPPORTED_ELEMS:
            return None
        return f"dtype {_type_name(type_proto)} is not supported"
    if kind == "sequence_type":  # resolved at compile time (passes/sequences.py)
        return _bad_type(type_proto.sequence_type.elem_type)
    if kind == "optional_type":
        return _bad_type(type_proto.optional_type.elem_type)
    if kind in ("map_type", "sparse_tensor_type"):
        return f"{_type_name(type_proto)} values are not supported (tensors only)"
    return None


def _bad_input_type(type_proto) -> str | None:
    """A graph input must be a tensor: the model's dataset holds tensors."""
    bad = _bad_type(type_proto)
    if bad or type_proto is None or type_proto.WhichOneof("value") in ("tensor_type", None):
        return bad
    return (f"a {_type_name(type_proto)} graph input is not a model input; pass its elements as tensor inputs "
            f"(acl_sim.onnx_backend does this per sequence length)")


def describe(op: str, name: str, opset: int, dtypes: list[str], domain: str = "") -> str:
    """"node 'name' (op, opset N, dtypes a/b)": the prefix of every per-node message."""
    full = f"{domain}.{op}" if domain not in ("", "ai.onnx") else op
    parts = [full, f"opset {opset}"]
    if dtypes:
        parts.append("dtypes " + "/".join(dtypes))
    return f"node '{name}' ({', '.join(parts)})"


def _schema(op: str, opset: int):
    import onnx

    try:
        return onnx.defs.get_schema(op, opset, "")
    except Exception:
        return None


def _subgraph_problem(op: str, node, opset: int, seen: frozenset) -> str | None:
    """If / Scan are resolved at compile time: their subgraphs' ops must be supported."""
    from onnx import AttributeProto

    for a in node.attribute:
        if a.type != AttributeProto.GRAPH:
            continue
        for inner in a.g.node:
            if inner.domain not in ("", "ai.onnx") or \
                    op_problem(inner.op_type, opset, seen | {op}, node=inner) is not None:
                return f"op is not supported (its {a.name} subgraph uses {inner.op_type})"
    return None


def _body_problem(op: str, body, opset: int, seen: frozenset) -> str | None:
    for inner in body.node:
        if inner.op_type in seen:
            continue
        if inner.domain not in ("", "ai.onnx") or op_problem(inner.op_type, opset, seen | {op}) is not None:
            return f"op is not supported (its ONNX function uses {inner.op_type})"
    return None


def op_problem(op: str, opset: int, seen: frozenset = frozenset(), node=None, input_types=None) -> str | None:
    """Why ATC cannot execute `op` at this opset (not a kernel, not foldable, no usable ONNX
    function), or None. A context-dependent function (its body depends on the input types) is
    checked when `node` (a NodeProto) and `input_types` (TypeProtos) are given, else accepted."""
    if op in SUPPORTED_OPS or op in FOLD_ONLY_OPS or op == "Constant":
        return None
    if op in LOWERED_OPS:
        return None
    if op in SEQUENCE_OPS:
        return _subgraph_problem(op, node, opset, seen) if node is not None and op == "SequenceMap" else None
    if op.startswith("ai.onnx.ml."):
        from .supported_ops import ML_OPS

        return None if op[len("ai.onnx.ml."):] in ML_OPS else "op is not supported"

    if op in UNROLLED_OPS:
        return _subgraph_problem(op, node, opset, seen) if node is not None else None
    schema = _schema(op, opset)
    if schema is None:
        return "op is not supported"
    if schema.has_function:
        return _body_problem(op, schema.function_body, opset, seen)
    if schema.has_context_dependent_function:
        if node is None or input_types is None or any(t is None for t in input_types):
            return None  # expanded for the input types at compile time
        from onnx import FunctionProto

        try:
            raw = schema.get_context_dependent_function(node.SerializeToString(),
                                                        [t.SerializeToString() for t in input_types])
        except Exception:
            return None
        return _body_problem(op, FunctionProto.FromString(raw), opset, seen) if raw else None
    return "op is not supported"


def attr_problem(op: str, attrs: dict) -> str | None:
    for attr, default, accepted in UNSUPPORTED_ATTRS.get(op, []):
        value = attrs.get(attr, default)
        if value not in accepted:
            return f"attribute {attr}={value!r} is not supported"
    return None


def _attr_values(node) -> dict:
    from onnx import helper

    out = {}
    for a in node.attribute:
        try:
            v = helper.get_attribute_value(a)
        except Exception:
            continue
        out[a.name] = v.decode("utf-8", "replace") if isinstance(v, bytes) else v
    return out


def model_opset(proto) -> int:
    for imp in proto.opset_import:
        if imp.domain in ("", "ai.onnx"):
            return int(imp.version)
    return 1


def unsupported_nodes(proto) -> list[str]:
    """One line per node of `proto` (an onnx.ModelProto) that ATC cannot compile, in graph order;
    graph inputs/outputs of types the device has no dtype for are listed first."""
    from onnx import shape_inference

    opset = model_opset(proto)
    domain_opsets = {imp.domain: int(imp.version) for imp in proto.opset_import}  # a node of another domain: its own
    try:
        inferred = shape_inference.infer_shapes(proto)
    except Exception:
        inferred = proto
    g = inferred.graph
    types = {vi.name: vi.type for vi in list(g.input) + list(g.value_info) + list(g.output)}
    for init in g.initializer:
        from onnx import helper

        types.setdefault(init.name, helper.make_tensor_type_proto(init.data_type, None))
    lines = []
    for kind, values in (("input", g.input), ("output", g.output)):
        for vi in values:
            bad = _bad_input_type(vi.type) if kind == "input" else _bad_type(vi.type)
            if bad:
                lines.append(f"graph {kind} '{vi.name}' ({_type_name(vi.type)}): {bad}")
    for idx, node in enumerate(g.node):
        name = node.name or f"{node.op_type}_{idx}"
        dtypes = [_type_name(types.get(i)) if i else "-" for i in node.input]
        node_opset = opset if node.domain in ("", "ai.onnx") else domain_opsets.get(node.domain, opset)
        head = describe(node.op_type, name, node_opset, dtypes, node.domain)
        if node.domain not in ("", "ai.onnx"):
            from .supported_ops import ML_OPS

            if node.domain != "ai.onnx.ml":
                lines.append(f"{head}: op domain '{node.domain}' is not supported")
                continue
            if node.op_type not in ML_OPS:
                lines.append(f"{head}: op is not supported (ai.onnx.ml supports {', '.join(sorted(ML_OPS))})")
                continue
            reason = None
            for t in list(node.input) + list(node.output):
                reason = _bad_type(types.get(t)) if t else None
                if reason:
                    lines.append(f"{head}: {reason}")
                    break
            continue
        in_types = [types.get(i) for i in node.input if i]
        reason = op_problem(node.op_type, opset, node=node, input_types=in_types)
        if reason is None:
            reason = attr_problem(node.op_type, _attr_values(node))
        if reason is None:
            for t in list(node.input) + list(node.output):
                reason = _bad_type(types.get(t)) if t else None
                if reason:
                    break
        if reason:
            lines.append(f"{head}: {reason}")
    return lines
