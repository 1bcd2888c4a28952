"""Rewrite older- and newer-opset spellings into the canonical opset (ir.CANONICAL_OPSET = 17).

The runtime implements one definition per op type, so ATC moves attributes
that later opsets turned into inputs (Clip min/max, Squeeze/Unsqueeze/ReduceSum
axes, Split sizes, Pad pads, Slice ranges, Reshape shape), turns Upsample and
Resize-10 into Resize-13, gives Softmax-<13 its flatten semantics explicitly
(Flatten -> Softmax(axis=-1) -> Reshape), expands variadic Sum/Max/Min into
binary ops, and drops inference no-ops (Dropout, Identity).
"""
from __future__ import annotations

import numpy as np

from ..errors import CompileError
from ..ir import CANONICAL_OPSET, Graph, Node

REDUCE_ATTR_OPS = {"ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                   "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}
LEGACY_SOFTMAX = {"Softmax", "LogSoftmax", "Hardmax"}


def _ints_const(g: Graph, hint: str, values) -> str:
    return g.add_const(hint, np.asarray(values, dtype=np.int64).reshape(-1))


def _rewrite(g: Graph, node: Node, opset: int, out: list, stats: dict) -> None:
    op, a = node.op, node.attrs

    def changed():
        stats["rewritten"] = stats.get("rewritten", 0) + 1

    if op == "Dropout":
        # Inference Dropout is the identity; its mask (if read) is all true: Shape -> ConstantOfShape folds.
        if len(node.outputs) > 1 and node.outputs[1] and (node.outputs[1] in g._mask_readers
                                                         or node.outputs[1] in g.outputs):
            shape = g.fresh(f"{node.outputs[1]}_shape")
            out.append(Node("Shape", g.fresh(f"{node.name}_shape"), node.inputs[:1], [shape], {}, node.sources))
            out.append(Node("ConstantOfShape", g.fresh(f"{node.name}_mask"), [shape], [node.outputs[1]],
                            {"value": np.ones(1, dtype=bool)}, node.sources))
        node.op, node.inputs, node.outputs, node.attrs = "Identity", node.inputs[:1], node.outputs[:1], {}
        changed()
    elif op == "Clip" and opset < 11 and ("min" in a or "max" in a):
        lo = g.add_const("clip_min", np.float32(a.pop("min", -3.4028234663852886e38)))
        hi = g.add_const("clip_max", np.float32(a.pop("max", 3.4028234663852886e38)))
        node.inputs = node.inputs[:1] + [lo, hi]
        changed()
    elif op in LEGACY_SOFTMAX and opset < 13:
        axis = a.get("axis", 1)
        x, y = node.inputs[0], node.outputs[0]
        flat, soft, shape = g.fresh(f"{y}_flat"), g.fresh(f"{y}_2d"), g.fresh(f"{y}_shape")
        out.append(Node("Flatten", g.fresh(f"{node.name}_flatten"), [x], [flat], {"axis": axis}, node.sources))
        out.append(Node(op, node.name, [flat], [soft], {"axis": -1}, node.sources))
        out.append(Node("Shape", g.fresh(f"{node.name}_shape"), [x], [shape], {}, node.sources))
        out.append(Node("Reshape", g.fresh(f"{node.name}_reshape"), [soft, shape], [y], {}, node.sources))
        changed()
        return
    elif op in ("Squeeze", "Unsqueeze") and opset < 13 and "axes" in a:
        node.inputs = node.inputs[:1] + [_ints_const(g, "axes", a.pop("axes"))]
        changed()
    elif op == "ReduceSum" and opset < 13 and "axes" in a:
        node.inputs = node.inputs[:1] + [_ints_const(g, "axes", a.pop("axes"))]
        changed()
    elif op in REDUCE_ATTR_OPS and opset >= 18:
        reduce_axes_to_attr(g, node, required=False)
        changed()
    elif op == "Split" and opset < 13 and "split" in a:
        node.inputs = node.inputs[:1] + [_ints_const(g, "split", a.pop("split"))]
        changed()
    elif op == "Pad" and opset < 11:
        pads = _ints_const(g, "pads", a.pop("pads"))
        value = g.add_const("pad_value", np.float32(a.pop("value", 0.0)))
        node.inputs = node.inputs[:1] + [pads, value]
        changed()
    elif op == "Slice" and opset < 10:
        starts = _ints_const(g, "starts", a.pop("starts"))
        ends = _ints_const(g, "ends", a.pop("ends"))
        extra = [_ints_const(g, "axes", a.pop("axes"))] if "axes" in a else []
        node.inputs = node.inputs[:1] + [starts, ends] + extra
        changed()
    elif op == "Scatter":  # opset 9-10 name of ScatterElements
        node.op = "ScatterElements"
        changed()
    elif op == "Reshape" and "shape" in a:
        node.inputs = node.inputs[:1] + [_ints_const(g, "shape", a.pop("shape"))]
        changed()
    elif op == "Upsample" or (op == "Resize" and opset < 11):
        mode = a.get("mode", "nearest")
        if "scales" in a:
            scales = g.add_const("scales", np.asarray(a["scales"], dtype=np.float32))
        else:
            scales = node.inputs[1]
        node.op = "Resize"
        node.inputs = [node.inputs[0], "", scales]
        node.attrs = {"mode": "linear" if mode in ("linear", "bilinear") else mode,
                      "coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"}
        changed()
    elif op == "Resize":
        # Resize-11 requires roi/scales inputs even when empty; 13 makes them optional.
        for idx in (1, 2):
            if idx < len(node.inputs) and node.inputs[idx]:
                value = g.const(node.inputs[idx])
                if value is not None and value.size == 0:
                    node.inputs[idx] = ""
    elif op == "BatchNormalization":
        for key in ("spatial", "consumed_inputs", "is_test"):
            a.pop(key, None)
        # Inference keeps Y only; opset-14+ training mode computes the running statistics too
        # (passes/lowerings.py decomposes it).
        if any(o for o in node.outputs[1:]) and not int(a.get("training_mode", 0)):
            node.outputs = node.outputs[:1]
    elif op in ("Gemm", "Add", "Sub", "Mul", "Div") and opset < 7:
        if a.pop("broadcast", 0) and "axis" in a:
            raise CompileError(f"node '{node.name}' ({op}): legacy axis broadcasting is not supported")
        a.pop("axis", None)
    elif op in ("Sum", "Max", "Min") and len(node.inputs) != 2:
        binary = {"Sum": "Add", "Max": "Max", "Min": "Min"}[op]
        ins = [i for i in node.inputs if i]
        if len(ins) == 1:
            node.op, node.inputs = "Identity", ins
        else:
            acc = ins[0]
            for k, nxt in enumerate(ins[1:]):
                last = k == len(ins) - 2
                res = node.outputs[0] if last else g.fresh(f"{node.outputs[0]}_part")
                out.append(Node(binary, node.name if last else g.fresh(node.name), [acc, nxt], [res], {},
                                node.sources))
                acc = res
            changed()
            return
        changed()
    if op == "Sum" and node.op == "Sum":
        node.op = "Add"
    out.append(node)


def reduce_axes_to_attr(g: Graph, node: Node, required: bool) -> None:
    """Opset-18 Reduce* (axes as an input) -> opset-17 (axes attribute), once the axes are constant."""
    if len(node.inputs) > 1 and node.inputs[1]:
        axes = g.const(node.inputs[1])
        if axes is None:
            if required:
                raise CompileError(f"node '{node.name}' ({node.op}): axes must be a constant")
            return  # maybe computed by a shape chain: shape inference retries once it has folded
        node.attrs["axes"] = [int(v) for v in axes.reshape(-1)]
        node.inputs = node.inputs[:1]
    if node.attrs.pop("noop_with_empty_axes", 0) and not node.attrs.get("axes"):
        node.op, node.attrs = "Identity", {}
    elif "axes" in node.attrs and not node.attrs["axes"]:
        del node.attrs["axes"]  # empty axes: reduce over everything, as opset 17 does without the attribute


def remove_identities(g: Graph) -> int:
    """Bypass Identity nodes, except where the output is a graph output fed by an input or weight."""
    removed = []
    for node in g.nodes:
        if node.op != "Identity":
            continue
        src, dst = node.inputs[0], node.outputs[0]
        if dst in g.outputs:
            if src in g.inputs or g.is_const(src) or src in g.outputs:
                continue
            # The producer writes the graph output directly.
            for other in g.nodes:
                other.outputs = [dst if o == src else o for o in other.outputs]
                if other is not node:
                    other.inputs = [dst if i == src else i for i in other.inputs]
            g.outputs = [dst if o == src else o for o in g.outputs]
            if src in g.shapes:
                g.shapes[dst], g.dtypes[dst] = g.shapes[src], g.dtypes.get(src)
        else:
            g.replace_uses(dst, src)
        removed.append(node)
    g.remove_nodes(removed)
    return len(removed)


def run(g: Graph, ctx) -> dict:
    opset = g.source_opset
    g._mask_readers = {i for n in g.nodes for i in n.inputs}
    stats: dict = {}
    out: list = []
    for node in g.nodes:
        _rewrite(g, node, opset, out, stats)
    g.nodes = out
    del g._mask_readers
    g.opset = CANONICAL_OPSET
    stats["identities_removed"] = remove_identities(g)
    return stats
