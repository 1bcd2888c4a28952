"""Fuse activation epilogues into Conv/ConvTranspose/Gemm/MatMul/BatchNormalization (`activation` attributes).

First multi-op spellings (HardSwish, GELU) become single nodes
(activation_patterns), then an activation whose only input is the sole use of
a GEMM/conv output - possibly through Reshape views, which commute with
elementwise ops - is folded into that node. SiLU is x * Sigmoid(x) with x the
GEMM/conv output.
"""
from __future__ import annotations

from ..ir import Graph
from . import activation_patterns, dce

# BatchNormalization is here for the BNs fold_bn could not fold into a producer (DenseNet's
# pre-activation BN-ReLU-Conv after a Concat): its per-channel affine applies the activation in the
# same pass over memory (norm_ops.cpp), instead of a second read and write of the tensor.
FUSABLE_PRODUCERS = {"Conv", "ConvTranspose", "Gemm", "MatMul", "BatchNormalization"}
FLT_MAX = 3.4028234663852886e38


def _activation_of(g: Graph, node):
    """(activation name, alpha, beta) if `node` is a fusable activation with constant parameters."""
    op, a = node.op, node.attrs
    if op in ("Relu", "Sigmoid", "Tanh", "HardSwish"):
        return op, None, None
    if op == "LeakyRelu":
        return op, float(a.get("alpha", 0.01)), None
    if op == "HardSigmoid":
        return op, float(a.get("alpha", 0.2)), float(a.get("beta", 0.5))
    if op == "Gelu":
        return ("GeluTanh" if a.get("approximate", "none") == "tanh" else "Gelu"), None, None
    if op == "Clip":
        bounds = []
        for idx, default in ((1, -FLT_MAX), (2, FLT_MAX)):
            name = node.input(idx)
            if not name:
                bounds.append(default)
                continue
            value = g.const(name)
            if value is None or value.size != 1:
                return None
            bounds.append(max(min(float(value.reshape(-1)[0]), FLT_MAX), -FLT_MAX))
        return "Clip", bounds[0], bounds[1]
    return None


def run(g: Graph, ctx) -> dict:
    stats = dict(activation_patterns.run(g))
    dce.run(g, ctx)
    producers, uses = g.producers(), g.consumers()
    dead = set()
    fused = {}
    for prod in g.nodes:
        if prod.op not in FUSABLE_PRODUCERS or "activation" in prod.attrs or id(prod) in dead:
            continue
        y = prod.outputs[0]
        if y in g.outputs or str(g.dtype(y)) == "float64":  # the fused epilogues are fp32 (float64 MatMul has none)
            continue
        readers = uses.get(y, [])
        # SiLU: y feeds Sigmoid and the Mul of y with that Sigmoid.
        if len(readers) == 2 and {r.op for r in readers} == {"Sigmoid", "Mul"}:
            sig = next(r for r in readers if r.op == "Sigmoid")
            mul = next(r for r in readers if r.op == "Mul")
            if sorted(mul.inputs) == sorted([y, sig.outputs[0]]) and len(uses.get(sig.outputs[0], [])) == 1 \
                    and sig.outputs[0] not in g.outputs:
                prod.attrs["activation"] = "Silu"
                prod.outputs = [mul.outputs[0]]
                prod.sources += sig.sources + mul.sources
                dead.update((id(sig), id(mul)))
                fused["Silu"] = fused.get("Silu", 0) + 1
            continue
        views, cur = [], y
        while len(uses.get(cur, [])) == 1 and cur not in g.outputs and uses[cur][0].op == "Reshape":
            views.append(uses[cur][0])
            cur = views[-1].outputs[0]
        readers = uses.get(cur, [])
        if len(readers) != 1 or cur in g.outputs or readers[0].inputs[0] != cur:
            continue
        act_node = readers[0]
        act = _activation_of(g, act_node)
        if act is None or g.dtype(act_node.outputs[0]) != g.dtype(cur):
            continue
        name, alpha, beta = act
        prod.attrs["activation"] = name
        if alpha is not None:
            prod.attrs["activation_alpha"] = alpha
        if beta is not None:
            prod.attrs["activation_beta"] = beta
        # The last view (or the producer itself) now writes the activation's output tensor.
        writer = views[-1] if views else prod
        writer.outputs = [act_node.outputs[0]] + writer.outputs[1:]
        prod.sources += act_node.sources
        dead.add(id(act_node))
        fused[name] = fused.get(name, 0) + 1
    g.nodes = [n for n in g.nodes if id(n) not in dead]
    stats["fused"] = fused
    return stats
