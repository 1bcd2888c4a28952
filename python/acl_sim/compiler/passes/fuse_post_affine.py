"""Fold scalar Mul/Add/Sub/Div after a fused activation into the producer's epilogue.

PP-LCNet (the PP-OCRv4 det/rec backbones) follows each conv's HardSwish with a "learnable affine
block", y = act(conv) * s + t with two scalar weights: a Mul and an Add that each read and write the
whole tensor. Folded, they become the epilogue attributes `activation_scale` / `activation_shift`
(y = act(x) * scale + shift, one fused multiply-add while the output tile is in cache;
docs/om_format.md). Runs after fuse_activation, on producers that carry an activation; a chain of
such scalar ops composes into one affine. (Without an activation, fold_bn folds them into the
weights instead.)
"""
from __future__ import annotations

import numpy as np

from ..ir import Graph
from .fuse_activation import FUSABLE_PRODUCERS


def _scalar_operand(g: Graph, node, x: str):
    """(value, x is the left operand) when `node` combines `x` with a one-element float constant."""
    if len(node.inputs) != 2 or node.inputs[0] == node.inputs[1] or x not in node.inputs:
        return None
    other = node.inputs[1] if node.inputs[0] == x else node.inputs[0]
    value = g.const(other)
    if value is None or value.size != 1 or value.dtype.kind != "f":
        return None
    out = node.outputs[0]
    if g.shape(out) != g.shape(x) or g.dtype(out) != g.dtype(x):
        return None
    return float(value.reshape(-1)[0]), node.inputs[0] == x


def _compose(op: str, c: float, left: bool, scale: float, shift: float):
    """The affine (scale, shift) of `op(scale * v + shift, c)`, or None if it is not affine in v."""
    if op == "Mul":
        return scale * c, shift * c
    if op == "Add":
        return scale, shift + c
    if op == "Sub":
        return (scale, shift - c) if left else (-scale, c - shift)
    if op == "Div" and left and c != 0.0:
        return scale / c, shift / c
    return None


def run(g: Graph, ctx) -> dict:
    uses = g.consumers()
    dead = set()
    folded = 0
    for prod in g.nodes:
        if prod.op not in FUSABLE_PRODUCERS or id(prod) in dead or "activation" not in prod.attrs:
            continue
        if "activation_scale" in prod.attrs or "activation_shift" in prod.attrs:
            continue
        cur, chain, scale, shift = prod.outputs[0], [], 1.0, 0.0
        if str(g.dtype(cur)) == "float64":  # the epilogues are fp32
            continue
        while cur not in g.outputs and len(uses.get(cur, [])) == 1:
            node = uses[cur][0]
            operand = _scalar_operand(g, node, cur) if node.op in ("Mul", "Add", "Sub", "Div") else None
            affine = operand and _compose(node.op, operand[0], operand[1], scale, shift)
            if not affine:
                break
            scale, shift = affine
            chain.append(node)
            cur = node.outputs[0]
        if not chain:
            continue
        prod.attrs["activation_scale"] = float(np.float32(scale))
        prod.attrs["activation_shift"] = float(np.float32(shift))
        prod.outputs = [cur] + prod.outputs[1:]
        prod.sources = prod.sources + [s for node in chain for s in node.sources]
        dead.update(id(node) for node in chain)
        folded += len(chain)
    g.nodes = [n for n in g.nodes if id(n) not in dead]
    return {"folded": folded}
