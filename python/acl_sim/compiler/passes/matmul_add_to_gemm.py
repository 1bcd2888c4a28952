"""MatMul(A, W) + b with constant 2-D W and a bias along the last axis -> Gemm(A, W, b).

When A has more than two dims it is viewed as [-1, K] by a Reshape before the
Gemm and the result viewed back (both are in-place views in the memory plan),
so the bias add and any activation ride on one GEMM.
"""
from __future__ import annotations

import numpy as np

from ..ir import Graph, Node


def run(g: Graph, ctx) -> dict:
    producers, uses = g.producers(), g.consumers()
    rewritten, dead, out = 0, set(), []
    for node in g.nodes:
        if id(node) in dead:
            continue
        out.append(node)
        if node.op != "MatMul":
            continue
        a, w, y = node.inputs[0], node.inputs[1], node.outputs[0]
        w_val = g.const(w)
        if w_val is None or w_val.ndim != 2 or g.is_const(a) or w_val.dtype.kind != "f":
            continue
        readers = uses.get(y, [])
        if len(readers) != 1 or y in g.outputs or readers[0].op != "Add":
            continue
        add = readers[0]
        bias_name = add.inputs[1] if add.inputs[0] == y else add.inputs[0]
        bias = g.const(bias_name)
        n = w_val.shape[1]
        if bias is None or bias.size != n or (bias.ndim and bias.shape[-1] != n) or \
                g.shape(add.outputs[0]) != g.shape(y):
            continue
        b_name = g.add_const(f"{node.name}_bias", bias.reshape(n).astype(w_val.dtype))
        a_shape, y_shape = g.shape(a), g.shape(y)
        sources = node.sources + add.sources
        dead.add(id(add))
        out.pop()
        if len(a_shape) == 2:
            out.append(Node("Gemm", node.name, [a, w, b_name], [add.outputs[0]], {}, sources))
        else:
            a2, y2 = g.fresh(f"{a}_2d"), g.fresh(f"{y}_2d")
            m = int(np.prod(a_shape[:-1]))
            g.shapes[a2], g.dtypes[a2] = (m, a_shape[-1]), g.dtype(a)
            g.shapes[y2], g.dtypes[y2] = (m, n), g.dtype(y)
            out.append(Node("Reshape", g.fresh(f"{node.name}_in2d"),
                            [a, g.add_const("shape", np.array([m, a_shape[-1]], np.int64))], [a2], {}, sources))
            out.append(Node("Gemm", node.name, [a2, w, b_name], [y2], {}, sources))
            out.append(Node("Reshape", g.fresh(f"{node.name}_out"),
                            [y2, g.add_const("shape", np.array(y_shape, np.int64))], [add.outputs[0]], {},
                            sources))
        rewritten += 1
    g.nodes = out
    del producers
    return {"rewritten": rewritten}
