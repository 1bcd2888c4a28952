"""Recognise a hand-written softmax and replace it by Softmax (one pass over the data at run time).

    e = Exp(Sub(x, ReduceMax(x, axes=[a])))   (or Exp(x))
    y = Div(e, ReduceSum(e, axes=[a]))

Both reductions must keep dims and reduce the same single axis.
"""
from __future__ import annotations

from ..ir import Graph, Node


def _single_axis(g: Graph, node: Node, rank: int):
    if not node.attrs.get("keepdims", 1):
        return None
    if node.op == "ReduceSum":
        axes = g.const(node.input(1)) if node.input(1) else None
        axes = None if axes is None else [int(a) for a in axes.reshape(-1)]
    else:
        axes = node.attrs.get("axes")
    if axes is None or len(axes) != 1:
        return None
    return axes[0] % rank


def run(g: Graph, ctx) -> dict:
    producers, uses = g.producers(), g.consumers()
    found = 0
    replace = {}
    for div in g.nodes:
        if div.op != "Div":
            continue
        e, s = div.inputs
        exp, red = producers.get(e), producers.get(s)
        if exp is None or red is None or exp.op != "Exp" or red.op != "ReduceSum" or red.inputs[0] != e:
            continue
        shape = g.shape(e)
        if shape is None or len(uses.get(e, [])) != 2 or len(uses.get(s, [])) != 1 or s in g.outputs:
            continue
        axis = _single_axis(g, red, len(shape))
        if axis is None:
            continue
        x = exp.inputs[0]
        sub = producers.get(x)
        if sub is not None and sub.op == "Sub" and len(uses.get(x, [])) == 1:
            mx = producers.get(sub.inputs[1])
            if mx is not None and mx.op == "ReduceMax" and mx.inputs[0] == sub.inputs[0] and \
                    _single_axis(g, mx, len(shape)) == axis:
                x = sub.inputs[0]  # the max subtraction is what Softmax does internally
        sources = exp.sources + red.sources + div.sources
        replace[id(div)] = Node("Softmax", div.name, [x], list(div.outputs), {"axis": axis}, sources)
        found += 1
    g.nodes = [replace.get(id(n), n) for n in g.nodes]
    return {"softmaxes": found}
