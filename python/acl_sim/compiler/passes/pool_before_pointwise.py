"""Average-pool before a pointwise Conv instead of after it (DenseNet's transition layers).

    y = AveragePool(Conv1x1(x, W, b))   ->   y = Conv1x1(AveragePool(x), W, b)

A 1x1 stride-1 unpadded Conv is the same affine map W x + b at every pixel, and an average pool
whose window weights sum to 1 (no padding counted) is a convex combination of pixels, so the two
commute exactly (up to rounding). Pooling first runs the Conv on the pooled plane: DenseNet's
three transitions (BN-ReLU-Conv1x1-AvgPool 2x2) do a quarter of their MACs and write a quarter of
the Conv output. GlobalAveragePool commutes the same way. The Conv must have no fused epilogue
(activation or residual) and its output no other reader.
"""
from __future__ import annotations

import numpy as np

from ..ir import Graph


def _pointwise(g: Graph, conv) -> bool:
    a = conv.attrs
    w = g.const(conv.input(1))
    if w is None or w.ndim != 4 or w.shape[2:] != (1, 1) or len(conv.inputs) > 3:
        return False
    if "activation" in a or a.get("auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
        return False
    return (all(int(p) == 0 for p in a.get("pads", [0] * 4)) and all(int(s) == 1 for s in a.get("strides", [1, 1]))
            and all(int(d) == 1 for d in a.get("dilations", [1, 1])))


def _weights_sum_to_one(pool) -> bool:
    """Every output of the pool averages input pixels only (no zero padding in the count)."""
    if pool.op == "GlobalAveragePool":
        return True
    a = pool.attrs
    if a.get("auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
        return int(a.get("count_include_pad", 0)) == 0
    return all(int(p) == 0 for p in a.get("pads", [])) or int(a.get("count_include_pad", 0)) == 0


def run(g: Graph, ctx) -> dict:
    producers, uses = g.producers(), g.consumers()
    position = {id(n): i for i, n in enumerate(g.nodes)}
    swapped = 0
    for pool in list(g.nodes):
        if pool.op not in ("AveragePool", "GlobalAveragePool") or not _weights_sum_to_one(pool):
            continue
        y = pool.input(0)
        conv = producers.get(y)
        if conv is None or conv.op != "Conv" or len(conv.outputs) != 1 or not _pointwise(g, conv):
            continue
        if y in g.outputs or len(uses.get(y, [])) != 1 or len(pool.outputs) != 1:
            continue
        x, out = conv.input(0), pool.outputs[0]
        if g.shape(x) is None or g.shape(out) is None or g.dtype(x) != np.float32 or y in g.syms:
            continue
        pooled = g.fresh(f"{x}_pooled")
        g.shapes[pooled] = tuple(g.shape(x)[:2]) + tuple(g.shape(out)[2:])
        g.dtypes[pooled] = g.dtype(x)
        pool.inputs = [x] + pool.inputs[1:]
        pool.outputs = [pooled]
        conv.inputs = [pooled] + conv.inputs[1:]
        conv.outputs = [out]
        g.shapes.pop(y, None)
        # The pool takes the Conv's place (x is ready there), the Conv the pool's.
        i, j = position[id(conv)], position[id(pool)]
        g.nodes[i], g.nodes[j] = pool, conv
        position[id(pool)], position[id(conv)] = i, j
        swapped += 1
    return {"swapped": swapped}
