"""Fold a residual Add into the Conv that produces one of its operands (ResNet blocks).

    y = Conv(x, W, b); z = Add(y, r)   ->   z = Conv(x, W, b, r)

The fused Conv carries the other operand as a fourth input, `residual`, added in
the GEMM epilogue while the output tile is still in cache (docs/om_format.md), so
the Add costs no pass over memory; a Relu after the Add then folds into the same
Conv through fuse_activation (run after this pass). The Conv moves to the Add's
place in the node order, where `r` is known to be computed. Only plain fp32 Convs
with group 1, no activation yet and a same-shape operand (no broadcast) qualify.
"""
from __future__ import annotations

import numpy as np

from ..ir import Graph


def run(g: Graph, ctx) -> dict:
    producers, uses = g.producers(), g.consumers()
    moved = {}  # id(add) -> fused conv
    dead = set()
    for add in g.nodes:
        if add.op != "Add" or len(add.inputs) != 2 or add.outputs[0] in moved:
            continue
        for side in (0, 1):
            y, r = add.inputs[side], add.inputs[1 - side]
            conv = producers.get(y)
            if conv is None or conv.op != "Conv" or id(conv) in dead or y == r:
                continue
            if "activation" in conv.attrs or int(conv.attrs.get("group", 1)) != 1 or len(conv.inputs) > 3:
                continue
            if y in g.outputs or len(uses.get(y, [])) != 1 or len(conv.outputs) != 1:
                continue
            shape = g.shape(y)
            if shape is None or g.shape(r) != shape or g.shape(add.outputs[0]) != shape:
                continue
            if any(g.dtype(t) != np.float32 for t in (y, r, add.outputs[0])) or r == "":
                continue
            conv.inputs = [conv.input(0), conv.input(1), conv.input(2), r]
            conv.outputs = [add.outputs[0]]
            conv.sources = conv.sources + add.sources
            moved[id(add)] = conv
            dead.add(id(conv))
            break
    out = []
    for node in g.nodes:
        if id(node) in dead:
            continue
        out.append(moved.get(id(node), node))
    g.nodes = out
    return {"fused": len(moved)}
