"""Constant folding: nodes whose inputs are all known become constants.

`Shape` (and `Size`) fold as soon as their input's static shape is known, so
the Shape -> Gather/Slice -> Concat -> Reshape chains exporters emit collapse
into plain weights per profile. The pass runs standalone (before shapes are
known, folding ConstantOfShape weights and `Constant` chains) and is also
called node by node from shape inference.
"""
from __future__ import annotations

from ..errors import CompileError
from ..fold_eval import evaluate
from ..ir import Graph, Node

# Ops with side effects or randomness, or that must stay visible, are never folded.
NEVER_FOLD = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial",
              "If", "Loop", "Scan", "Dropout",
              "TreeEnsemble"}  # the lowered ai.onnx.ml op: no default-domain reference to fold it with


def foldable(g: Graph, node: Node) -> bool:
    from .sequences import SEQUENCE_OPS, is_value

    if node.op.startswith("ai.onnx.ml."):
        return False  # ai.onnx.ml: lowered first (passes/lowerings.py), then folded
    if node.op in NEVER_FOLD or node.op in SEQUENCE_OPS or any(is_value(g, i) for i in node.inputs):
        return False  # sequence values are resolved by passes/sequences.py, not evaluated
    if node.op in ("Shape", "Size"):
        shape = g.shape(node.inputs[0])  # a run-time dim's static value is only its bound
        return shape is not None and all(d >= 0 for d in shape) and node.inputs[0] not in g.syms
    return all((not i) or g.is_const(i) for i in node.inputs)


def try_fold(g: Graph, node: Node) -> bool:
    """Evaluates `node` if it is foldable; records its outputs as constants. True if folded."""
    if not foldable(g, node):
        return False
    if node.op in ("Shape", "Size"):
        import numpy as np

        values = [np.empty(g.shape(node.inputs[0]), dtype=np.uint8)]
    else:
        values = [g.consts[i] if i else None for i in node.inputs]
    try:
        outs = evaluate(node, values, g.opset)
    except CompileError:
        raise
    except Exception as exc:
        raise CompileError(f"cannot evaluate constant node '{node.name}' ({node.op}): {exc}") from None
    if outs is None:
        return False
    for name, value in zip(node.outputs, outs):
        if name:
            g.consts[name] = value
            g.shapes[name] = tuple(value.shape)
            g.dtypes[name] = value.dtype
    return True


def run(g: Graph, ctx) -> dict:
    """Folds every node whose inputs are constants (in topological order, so chains collapse)."""
    folded = []
    for node in g.nodes:
        if try_fold(g, node):
            folded.append(node)
    g.remove_nodes(folded)
    return {"folded": len(folded)}
