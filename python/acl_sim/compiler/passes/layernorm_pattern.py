"""Recognise the decomposed LayerNorm exporters emit and replace it by LayerNormalization (opset 17).

    mean = ReduceMean(x, axes=[-1]);  d = Sub(x, mean)
    var  = ReduceMean(Pow(d, 2) | Mul(d, d));  std = Sqrt(Add(var, eps))
    y    = Add(Mul(Div(d, std), gamma), beta)      (Mul/Add optional)

The reduction axes must be the trailing axes; gamma/beta must be constants.
"""
from __future__ import annotations

import numpy as np

from ..ir import Graph, Node


def _const_scalar(g: Graph, name: str):
    v = g.const(name)
    return None if v is None or v.size != 1 else float(v.reshape(-1)[0])


def _other(node: Node, name: str) -> str:
    return node.inputs[1] if node.inputs[0] == name else node.inputs[0]


def _trailing_axes(g: Graph, node: Node, rank: int):
    axes = node.attrs.get("axes")
    if axes is None or not node.attrs.get("keepdims", 1):
        return None
    axes = sorted(a % rank for a in axes)
    return axes[0] if axes == list(range(axes[0], rank)) else None


def _per_feature(value, norm_shape):
    """`value` as an array of `norm_shape` if it only varies along the normalised axes, else None."""
    if value is None:
        return None
    v = np.asarray(value)
    while v.ndim > len(norm_shape) and v.shape[0] == 1:
        v = v.reshape(v.shape[1:])
    if v.ndim > len(norm_shape):
        return None
    try:
        if np.broadcast_shapes(v.shape, tuple(norm_shape)) != tuple(norm_shape):
            return None
    except ValueError:
        return None
    return np.broadcast_to(v, norm_shape).astype(np.float32)


def run(g: Graph, ctx) -> dict:
    producers, uses = g.producers(), g.consumers()

    def only(name, op):
        readers = uses.get(name, [])
        if name in g.outputs or len(readers) != 1 or readers[0].op != op:
            return None
        return readers[0]

    found, dead = 0, set()
    replacements = {}
    for mean in g.nodes:
        if mean.op != "ReduceMean" or id(mean) in dead:
            continue
        x = mean.inputs[0]
        shape = g.shape(x)
        if shape is None or g.dtype(x) is None or g.dtype(x).kind != "f":
            continue
        axis = _trailing_axes(g, mean, len(shape))
        if axis is None:
            continue
        subs = [n for n in uses.get(mean.outputs[0], []) if n.op == "Sub" and n.inputs == [x, mean.outputs[0]]]
        if len(subs) != 1 or len(uses.get(mean.outputs[0], [])) != 1:
            continue
        sub = subs[0]
        d = sub.outputs[0]
        d_readers = list({id(n): n for n in uses.get(d, [])}.values())  # Mul(d, d) reads d twice
        if len(d_readers) != 2 or d in g.outputs:
            continue
        sq = next((n for n in d_readers if (n.op == "Pow" and n.inputs[0] == d and _const_scalar(g, n.inputs[1]) == 2.0)
                   or (n.op == "Mul" and n.inputs == [d, d])), None)
        div = next((n for n in d_readers if n.op == "Div" and n.inputs[0] == d), None)
        if sq is None or div is None:
            continue
        var = only(sq.outputs[0], "ReduceMean")
        if var is None or _trailing_axes(g, var, len(shape)) != axis:
            continue
        add_eps = only(var.outputs[0], "Add")
        eps = _const_scalar(g, _other(add_eps, var.outputs[0])) if add_eps else None
        sqrt = only(add_eps.outputs[0], "Sqrt") if eps is not None else None
        if sqrt is None or div.inputs[1] != sqrt.outputs[0] or len(uses.get(sqrt.outputs[0], [])) != 1:
            continue
        chain = [mean, sub, sq, var, add_eps, sqrt, div]
        y = div.outputs[0]
        norm_shape = shape[axis:]
        gamma = np.ones(norm_shape, np.float32)
        beta = np.zeros(norm_shape, np.float32)
        mul = only(y, "Mul")
        if mul is not None:
            value = _per_feature(g.const(_other(mul, y)), norm_shape)
            if value is not None and g.shape(mul.outputs[0]) == shape:
                gamma = value
                chain.append(mul)
                y = mul.outputs[0]
        add = only(y, "Add")
        if add is not None:
            value = _per_feature(g.const(_other(add, y)), norm_shape)
            if value is not None and g.shape(add.outputs[0]) == shape:
                beta = value
                chain.append(add)
                y = add.outputs[0]
        dtype = g.dtype(x)
        ln = Node("LayerNormalization", mean.name,
                  [x, g.add_const("ln_scale", gamma.astype(dtype)), g.add_const("ln_bias", beta.astype(dtype))],
                  [y], {"axis": axis, "epsilon": eps}, [s for n in chain for s in n.sources])
        for n in chain:
            dead.add(id(n))
        replacements[id(chain[-1])] = ln
        found += 1
    if found:
        # The LayerNormalization takes the place of the chain's last node (all its inputs precede it).
        g.nodes = [replacements.get(id(n), n) for n in g.nodes if id(n) not in dead or id(n) in replacements]
    del producers
    return {"layernorms": found}
