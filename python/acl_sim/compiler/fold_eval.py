"""Compile-time evaluation of ONNX nodes whose inputs are all known (constant folding).

NumPy runs here only inside the compiler, never on an execution path. The
common shape-chain ops have direct implementations; anything else falls back
to onnx's reference evaluator on a one-node model.
"""
from __future__ import annotations

import numpy as np

from .ir import Node

# Folding never materialises a constant bigger than this (elements): a huge
# Expand/Tile of a scalar is better computed at run time than stored.
MAX_FOLD_ELEMENTS = 1 << 26


def _axes_arg(node: Node, values, idx: int):
    if len(values) > idx and values[idx] is not None:
        return [int(a) for a in np.asarray(values[idx]).reshape(-1)]
    axes = node.attrs.get("axes")
    return None if axes is None else [int(a) for a in axes]


def _slice(node, v):
    data = v[0]
    starts, ends = np.asarray(v[1]).reshape(-1), np.asarray(v[2]).reshape(-1)
    axes = np.asarray(v[3]).reshape(-1) if len(v) > 3 and v[3] is not None else np.arange(len(starts))
    steps = np.asarray(v[4]).reshape(-1) if len(v) > 4 and v[4] is not None else np.ones(len(starts), np.int64)
    index = [slice(None)] * data.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        a = int(a) % data.ndim
        dim = data.shape[a]
        s, e, st = int(s), int(e), int(st)
        # ONNX clamps with INT64 sentinels; Python slices do the same once the values fit.
        s = max(min(s, dim), -dim - 1)
        e = max(min(e, dim), -dim - 1)
        index[a] = slice(s, e, st)
    return data[tuple(index)]


def _reshape(node, v):
    data, shape = v[0], [int(s) for s in np.asarray(v[1]).reshape(-1)]
    if not node.attrs.get("allowzero", 0):
        shape = [data.shape[i] if s == 0 else s for i, s in enumerate(shape)]
    return data.reshape(shape)


def _unsqueeze(node, v):
    axes = _axes_arg(node, v, 1)
    out_rank = v[0].ndim + len(axes)
    shape = list(v[0].shape)
    for a in sorted(a % out_rank for a in axes):
        shape.insert(a, 1)
    return v[0].reshape(shape)


def _squeeze(node, v):
    axes = _axes_arg(node, v, 1)
    if axes is None:
        return np.squeeze(v[0])
    return np.squeeze(v[0], axis=tuple(a % v[0].ndim for a in axes))


def _cast(node, v):
    from onnx import helper

    return v[0].astype(helper.tensor_dtype_to_np_dtype(node.attrs["to"]))


def _constant_of_shape(node, v):
    shape = [int(s) for s in np.asarray(v[0]).reshape(-1)]
    value = node.attrs.get("value")
    fill = np.asarray(value).reshape(-1)[0] if value is not None else np.float32(0)
    # A read-only broadcast view: no memory until a pass or the writer needs the bytes.
    return np.broadcast_to(np.asarray(fill), shape)


def _gather(node, v):
    return np.take(v[0], v[1].astype(np.int64), axis=node.attrs.get("axis", 0))


def _concat(node, v):
    return np.concatenate([np.asarray(x) for x in v], axis=node.attrs.get("axis", 0))


def _transpose(node, v):
    return np.transpose(v[0], node.attrs.get("perm"))


def _expand(node, v):
    shape = [int(s) for s in np.asarray(v[1]).reshape(-1)]
    return v[0] * np.ones(shape, dtype=v[0].dtype)


def _range(node, v):
    return np.arange(v[0].item(), v[1].item(), v[2].item()).astype(v[0].dtype)


def _reduce(fn):
    def run(node, v):
        axes = _axes_arg(node, v, 1)
        keep = bool(node.attrs.get("keepdims", 1))
        if axes is None or len(axes) == 0:
            if node.attrs.get("noop_with_empty_axes", 0) and axes is not None:
                return v[0]
            return fn(v[0], axis=None, keepdims=keep)
        return fn(v[0], axis=tuple(axes), keepdims=keep)

    return run


def _binary(fn):
    def run(node, v):
        out = fn(v[0], v[1])
        return np.asarray(out).astype(np.result_type(v[0], v[1])) if fn is not np.equal else out

    return run


def _div(node, v):
    a, b = v
    if np.issubdtype(a.dtype, np.integer):
        return np.trunc(a / b).astype(a.dtype)
    return (a / b).astype(a.dtype)


def _where(node, v):
    return np.where(v[0], v[1], v[2])


FOLDERS = {
    "Identity": lambda n, v: v[0],
    "Shape": lambda n, v: np.array(v[0].shape[n.attrs.get("start", 0):n.attrs.get("end", None)], dtype=np.int64),
    "Size": lambda n, v: np.array(v[0].size, dtype=np.int64),
    "ConstantOfShape": _constant_of_shape,
    "Gather": _gather,
    "Concat": _concat,
    "Unsqueeze": _unsqueeze,
    "Squeeze": _squeeze,
    "Reshape": _reshape,
    "Flatten": lambda n, v: v[0].reshape(int(np.prod(v[0].shape[:n.attrs.get("axis", 1) % max(v[0].ndim, 1)]))
                                         if v[0].ndim else 1, -1),
    "Cast": _cast,
    "Slice": _slice,
    "Transpose": _transpose,
    "Expand": _expand,
    "Range": _range,
    "Add": _binary(np.add), "Sub": _binary(np.subtract), "Mul": _binary(np.multiply), "Div": _div,
    "Equal": lambda n, v: np.equal(v[0], v[1]),
    "Less": lambda n, v: np.less(v[0], v[1]),
    "Greater": lambda n, v: np.greater(v[0], v[1]),
    "Not": lambda n, v: np.logical_not(v[0]),
    "Where": _where,
    "Max": lambda n, v: np.maximum.reduce([np.asarray(x) for x in v]),
    "Min": lambda n, v: np.minimum.reduce([np.asarray(x) for x in v]),
    "Neg": lambda n, v: np.negative(v[0]),
    "Abs": lambda n, v: np.abs(v[0]),
    "Sqrt": lambda n, v: np.sqrt(v[0]),
    "Floor": lambda n, v: np.floor(v[0]),
    "Ceil": lambda n, v: np.ceil(v[0]),
    "ReduceProd": _reduce(np.prod), "ReduceSum": _reduce(np.sum), "ReduceMax": _reduce(np.max),
    "ReduceMin": _reduce(np.min),
}


def _reference_eval(node: Node, values, opset: int):
    """One-node model through onnx.reference (slow but exact for anything else)."""
    import onnx
    from onnx import helper, numpy_helper
    from onnx.reference import ReferenceEvaluator

    inputs, feeds = [], {}
    for i, (name, val) in enumerate(zip(node.inputs, values)):
        if not name:
            inputs.append("")
            continue
        key = f"in{i}"
        inputs.append(key)
        feeds[key] = val
    outs = [f"out{i}" for i in range(len(node.outputs))]
    attrs = {k: (numpy_helper.from_array(np.asarray(v)) if isinstance(v, np.ndarray) else v)
             for k, v in node.attrs.items()}
    onnx_node = helper.make_node(node.op, inputs, outs, **attrs)
    graph = helper.make_graph([onnx_node], "fold",
                              [helper.make_tensor_value_info(k, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
                               for k, v in feeds.items()],
                              [helper.make_empty_tensor_value_info(o) for o in outs])
    try:  # ops newer than the canonical opset (MelWeightMatrix, ...) evaluate at the newest one
        onnx.defs.get_schema(node.op, opset, "")
    except Exception:
        opset = onnx.defs.onnx_opset_version()
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return ReferenceEvaluator(model).run(None, feeds)


def evaluate(node: Node, values, opset: int):
    """Values of `node`'s outputs (list of arrays), or None if it should not be folded."""
    fn = FOLDERS.get(node.op)
    if fn is not None:
        outs = [np.asarray(fn(node, values))]
    else:
        outs = [np.asarray(o) for o in _reference_eval(node, values, opset)]
    # ConstantOfShape must fold (it is how the light models store weights; the runtime lacks it).
    if node.op != "ConstantOfShape" and any(o.size > MAX_FOLD_ELEMENTS for o in outs):
        return None
    return outs
