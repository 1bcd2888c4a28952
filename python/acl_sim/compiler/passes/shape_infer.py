"""Static shape and dtype inference, per profile, folding shape chains on the way.

Nodes are visited in topological order. A node whose inputs are known values
is folded (see const_fold); otherwise its output shapes come from a fast
Python rule for the common elementwise ops, or from onnx's own shape
inference run on a one-node model (small/integer constant inputs are passed
as initializers so Reshape/Slice/Resize/Expand targets resolve). Every tensor
must end with a fully static shape, except the run-time dims of data-dependent ops (NonZero, Unique,
...: runtime_dims), which get an upper bound and are resolved by the executor as the graph runs.
"""
from __future__ import annotations

import numpy as np

from ..errors import CompileError
from ..ir import Graph, Node
from .const_fold import try_fold

UNARY_SAME = {
    "Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Neg", "Abs", "Erf", "Reciprocal", "Floor", "Ceil",
    "HardSigmoid", "HardSwish", "LeakyRelu", "Elu", "Selu", "Softplus", "Softsign", "Gelu", "Clip",
    "Identity", "Softmax", "LogSoftmax", "Sin", "Cos", "Round", "Sign", "Not", "LRN", "Dropout",
    "BatchNormalization", "LayerNormalization", "InstanceNormalization", "Mish", "Celu", "ThresholdedRelu",
    "PRelu", "MeanVarianceNormalization", "LpNormalization", "Shrink", "Softsign", "IsInf", "IsNaN",
    "Acos", "Asin", "Atan", "Tan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Hardmax", "GroupNormalization",
    "BitwiseNot",
}
BINARY_BROADCAST = {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "And", "Or", "Xor",
                    "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "Mod", "Where",
                    "BitwiseAnd", "BitwiseOr", "BitwiseXor"}
BOOL_OUT = {"IsInf", "IsNaN", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Not"}

# Constant inputs up to this many elements are handed to onnx shape inference as data.
_DATA_LIMIT = 4096


def _fast_rule(g: Graph, node: Node):
    first = node.inputs[0] if node.inputs else ""
    if len([o for o in node.outputs if o]) != 1:
        return None
    if node.op in UNARY_SAME and node.op not in ("Dropout", "PRelu"):
        return [(g.shape(first), np.dtype(bool) if node.op in BOOL_OUT else g.dtype(first))]
    if node.op in BINARY_BROADCAST:
        shapes = [g.shape(i) for i in node.inputs if i]
        if any(s is None for s in shapes):
            return None
        try:
            shape = tuple(int(d) for d in np.broadcast_shapes(*shapes))
        except ValueError:
            raise CompileError(f"node '{node.name}' ({node.op}): input shapes {shapes} do not broadcast") from None
        dtype = np.dtype(bool) if node.op in BOOL_OUT else g.dtype(node.inputs[1 if node.op == "Where" else 0])
        return [(shape, dtype)]
    if node.op == "TreeEnsemble":  # ai.onnx.ml, lowered: [N, n_targets] in X's dtype
        shape = g.shape(first)
        return [((int(shape[0]), int(node.attrs.get("n_targets", 1))), g.dtype(first))] if shape else None
    if node.op == "Cast":
        from onnx import helper

        return [(g.shape(first), np.dtype(helper.tensor_dtype_to_np_dtype(node.attrs["to"])))]
    return None


def _inference_opset(op: str, g: Graph) -> int:
    """The canonical opset, or the source model's for ops newer than it (BitCast, CumProd, ...):
    onnx infers an op only at an opset that defines it."""
    from onnx import defs

    try:
        defs.get_schema(op, g.opset, "")
        return g.opset
    except Exception:
        return max(g.opset, g.source_opset, 20 if op == "Gelu" else 0)


def _onnx_rule(g: Graph, node: Node):
    from onnx import helper, numpy_helper, shape_inference

    value_infos, inits, names = [], [], []
    for i, name in enumerate(node.inputs):
        if not name:
            names.append("")
            continue
        key = f"i{i}"
        names.append(key)
        value = g.const(name)
        if value is not None and (value.size <= _DATA_LIMIT or value.dtype.kind in "iu"):
            inits.append(numpy_helper.from_array(np.asarray(value), key))
        else:
            shape, dtype = g.shape(name), g.dtype(name)
            if shape is None or dtype is None:
                return None
            value_infos.append(helper.make_tensor_value_info(key, helper.np_dtype_to_tensor_dtype(dtype), shape))
    outs = [f"o{i}" if o else "" for i, o in enumerate(node.outputs)]
    attrs = {k: (numpy_helper.from_array(np.asarray(v)) if isinstance(v, np.ndarray) else v)
             for k, v in node.attrs.items()}
    proto = helper.make_node(node.op, names, outs, **attrs)
    graph = helper.make_graph([proto], "infer", value_infos, [], initializer=inits)
    opset = _inference_opset(node.op, g)
    if node.op in ("LpPool", "AveragePool") and "dilations" in node.attrs:
        opset = max(opset, 19)  # pooling dilations (LpPool-18, AveragePool-19): older rules ignore them
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    try:
        inferred = shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
    except Exception as exc:
        msg = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise CompileError(f"shape inference failed at node '{node.name}' ({node.op}): {msg}") from None
    found = {vi.name: vi for vi in inferred.graph.value_info}
    result = []
    for o in outs:
        vi = found.get(o)
        if not o or vi is None or not vi.type.tensor_type.HasField("shape"):
            result.append((None, None))
            continue
        dims = tuple(int(d.dim_value) if d.HasField("dim_value") else -1 for d in vi.type.tensor_type.shape.dim)
        dtype = np.dtype(helper.tensor_dtype_to_np_dtype(vi.type.tensor_type.elem_type))
        result.append((dims, dtype))
    return result


def lower_to_canonical(g: Graph, node: Node) -> None:
    """Opset-18+ spellings that need the input rank or shape to become opset-17 ones."""
    from .normalize import REDUCE_ATTR_OPS, reduce_axes_to_attr

    if node.op in REDUCE_ATTR_OPS and len(node.inputs) > 1:
        reduce_axes_to_attr(g, node, required=True)
    elif node.op == "Pad" and len(node.inputs) > 3 and node.inputs[3]:
        axes, pads = g.const(node.inputs[3]), g.const(node.inputs[1])
        shape = g.shape(node.inputs[0])
        if axes is None or pads is None or shape is None:
            raise CompileError(f"node '{node.name}' (Pad): pads and axes must be constants")
        rank = len(shape)
        full = np.zeros(2 * rank, dtype=np.int64)
        for k, a in enumerate(int(v) % rank for v in axes.reshape(-1)):
            full[a], full[a + rank] = pads.reshape(-1)[k], pads.reshape(-1)[k + len(axes.reshape(-1))]
        node.inputs = [node.inputs[0], g.add_const("pads", full), node.inputs[2]]
    elif node.op == "Split" and "num_outputs" in node.attrs:
        count = int(node.attrs.pop("num_outputs"))
        shape = g.shape(node.inputs[0])
        axis = int(node.attrs.get("axis", 0)) % len(shape)
        chunk = -(-shape[axis] // count)  # ceil: the last chunk may be smaller (opset 18)
        sizes = [min(chunk, shape[axis] - k * chunk) for k in range(count)]
        node.inputs = [node.inputs[0], g.add_const("split", np.asarray(sizes, dtype=np.int64))]
    elif node.op == "Resize" and "axes" in node.attrs:
        _resize_axes_to_full_rank(g, node)


def _resize_policy_to_scales(g: Graph, node: Node, shape, axes, policy: str) -> None:
    """keep_aspect_ratio_policy with `axes` (opset 18): one scale over the listed axes, as ONNX
    defines it -- min (not_larger) or max (not_smaller) of sizes / input -- becomes a full-rank
    scales input; the output size is round(scale * input) on those axes (kept for infer_node)."""
    sizes = g.const(node.inputs[3])
    if sizes is None:
        raise CompileError(f"node '{node.name}' (Resize): sizes must be a constant with keep_aspect_ratio_policy")
    ratios = [float(sizes.reshape(-1)[k]) / shape[a] for k, a in enumerate(axes)]
    scale = min(ratios) if policy == "not_larger" else max(ratios)
    scales = np.ones(len(shape), dtype=np.float32)
    out = list(shape)
    for a in axes:
        scales[a] = scale
        out[a] = int(scale * shape[a] + 0.5)
    roi = node.inputs[1] if len(node.inputs) > 1 else ""
    if roi:
        raise CompileError(f"node '{node.name}' (Resize): roi with keep_aspect_ratio_policy and axes is not supported")
    node.inputs = [node.inputs[0], "", g.add_const("resize_scales", scales)]
    node.attrs.pop("keep_aspect_ratio_policy")
    node.attrs[OUTPUT_SHAPE] = out


# Set by a lowering that fixes the output shape itself (onnx's rule would round differently).
OUTPUT_SHAPE = "__output_shape__"


def _resize_axes_to_full_rank(g: Graph, node: Node) -> None:
    """Resize-18 `axes`: scales/sizes/roi for the listed axes only -> full-rank inputs."""
    shape = g.shape(node.inputs[0])
    rank = len(shape)
    axes = [int(a) % rank for a in node.attrs.pop("axes")]
    policy = node.attrs.get("keep_aspect_ratio_policy", "stretch")
    if policy != "stretch" and len(node.inputs) > 3 and node.inputs[3]:
        _resize_policy_to_scales(g, node, shape, axes, policy)
        return
    inputs = list(node.inputs) + [""] * (4 - len(node.inputs))
    for idx, fill in ((1, None), (2, 1.0), (3, None)):
        name = inputs[idx]
        if not name:
            continue
        value = g.const(name)
        if value is None:
            raise CompileError(f"node '{node.name}' (Resize): roi/scales/sizes must be constants with axes")
        value = value.reshape(-1)
        if idx == 1:  # roi: starts then ends
            full = np.concatenate([np.zeros(rank), np.ones(rank)]).astype(value.dtype)
            for k, a in enumerate(axes):
                full[a], full[a + rank] = value[k], value[k + len(axes)]
        elif idx == 2:
            full = np.ones(rank, dtype=value.dtype)
            full[axes] = value
        else:
            full = np.asarray(shape, dtype=value.dtype)
            full[axes] = value
        inputs[idx] = g.add_const("resize_param", full)
    while inputs and not inputs[-1]:
        inputs.pop()
    node.inputs = inputs


_POOLS = {"MaxPool", "AveragePool", "LpPool"}


def _ceil_mode_fix(g: Graph, node: Node, rule):
    """ceil_mode pooling: a last window that would start in the end padding is dropped (as
    onnxruntime and PyTorch do); onnx's shape rule keeps it. Applies to explicit pads only."""
    shape = g.shape(node.inputs[0])
    out = rule[0][0]
    if shape is None or out is None or node.attrs.get("auto_pad", "NOTSET") not in ("NOTSET", ""):
        return rule
    nsp = len(shape) - 2
    strides = list(node.attrs.get("strides") or [1] * nsp)
    pads = list(node.attrs.get("pads") or [0] * (2 * nsp))
    dims = list(out)
    for a in range(nsp):
        o = dims[2 + a]
        if o > 0 and (o - 1) * strides[a] >= shape[2 + a] + pads[a]:
            dims[2 + a] = o - 1
    return [(tuple(dims), rule[0][1])] + list(rule[1:])


def infer_node(g: Graph, node: Node):
    """Sets g.shapes/g.dtypes for the node's outputs; raises CompileError if one stays dynamic.
    Data-dependent ops get run-time dims (runtime_dims); nodes reading them inherit theirs."""
    from . import runtime_dims

    lower_to_canonical(g, node)
    if node.op in runtime_dims.DATA_DEPENDENT:
        runtime_dims.infer_data_dependent(g, node)
        return
    same_shape = node.attrs.pop(IF_SAME_SHAPE, None)
    if same_shape is not None:
        _check_if_branches(g, node, same_shape)
    rule = _fast_rule(g, node)
    if rule is None or any(s is None for s, _ in rule[:1]):
        rule = _onnx_rule(g, node)
    if rule is None:
        missing = [i for i in node.inputs if i and g.shape(i) is None]
        raise CompileError(f"shape of '{missing[0] if missing else node.inputs}' unknown at node '{node.name}'")
    if node.op in _POOLS and int(node.attrs.get("ceil_mode", 0)):
        rule = _ceil_mode_fix(g, node, rule)
    forced = node.attrs.pop(OUTPUT_SHAPE, None)
    if forced is not None:
        rule = [(tuple(forced), rule[0][1])] + list(rule[1:])
    for name, (shape, dtype) in zip(node.outputs, rule):
        if not name:
            continue
        if shape is None or any(d < 0 for d in shape):
            raise CompileError(f"cannot infer a static shape for '{name}' (node '{node.name}', {node.op}); "
                               f"give every input a fixed shape with --input_shape")
        g.shapes[name] = tuple(shape)
        g.dtypes[name] = dtype
    runtime_dims.propagate(g, node)


# Set on the Where that merges the branches of an If with a data-dependent condition (control_flow):
# both branches must give the same shape and dtype (the If's output then has a static shape).
IF_SAME_SHAPE = "__if_same_shape__"


def _check_if_branches(g: Graph, node: Node, if_name: str) -> None:
    a, b = node.inputs[1], node.inputs[2]
    if g.shape(a) != g.shape(b) or g.dtype(a) != g.dtype(b) or a in g.syms or b in g.syms:
        raise CompileError(f"node '{if_name}' (If): the condition is data-dependent and the branches give "
                           f"different shapes or dtypes ({g.shape(a)} {g.dtype(a)} vs {g.shape(b)} {g.dtype(b)}): "
                           f"a data-dependent output shape from If is not supported")


def run(g: Graph, ctx) -> dict:
    """Infers every shape; folds Shape chains and other constant subgraphs found along the way."""
    for name in g.inputs:
        shape = g.shape(name)
        if shape is None or any(d < 0 for d in shape):
            raise CompileError(f"input '{name}' has no static shape {shape}; set it with --input_shape")
    from collections import deque

    from . import control_flow, inline_functions, lowerings, sequences

    folded, inferred, expanded = 0, 0, 0
    kept, queue = [], deque(g.nodes)
    while queue:
        node = queue.popleft()
        if sequences.resolvable(g, node):
            queue.extendleft(reversed(sequences.resolve(g, node, g.source_opset)))
            expanded += 1
            continue
        if lowerings.lowerable(g, node):
            queue.extendleft(reversed(lowerings.lower(g, node)))
            expanded += 1
            continue
        if control_flow.unrollable(node):
            queue.extendleft(reversed(control_flow.unroll(g, node, g.source_opset)))
            expanded += 1
            continue
        if inline_functions.expandable(node.op, g.source_opset):
            queue.extendleft(reversed(inline_functions.expand(g, node, g.source_opset)))
            expanded += 1
            continue
        if all(not i or g.shape(i) is not None for i in node.inputs):
            lower_to_canonical(g, node)  # also before folding: the evaluator runs the canonical opset
        if try_fold(g, node):
            folded += 1
            continue
        infer_node(g, node)
        inferred += 1
        kept.append(node)
    g.nodes = kept
    g.value_outputs = sequences.expand_outputs(g)
    return {"inferred": inferred, "folded": folded, "functions_expanded": expanded}
