"""Shape-op cleanup once shapes are static.

Flatten/Squeeze/Unsqueeze become Reshape to a constant target (one view op
for the runtime), Reshape chains collapse, and ops that do nothing for these
shapes (same-shape Reshape/Expand, identity Transpose, same-dtype Cast,
one-input Concat) are removed.
"""
from __future__ import annotations

import numpy as np

from ..ir import Graph
from .normalize import remove_identities

VIEW_OPS = {"Flatten", "Squeeze", "Unsqueeze", "Reshape"}


def run(g: Graph, ctx) -> dict:
    stats = {"views_canonicalised": 0, "reshapes_merged": 0, "noops_removed": 0}
    producers = g.producers()
    uses = g.consumers()
    for node in g.nodes:
        if any(t in g.syms for t in node.inputs[:1] + node.outputs[:1]):
            continue  # run-time dims: the static shapes are bounds, so views and no-ops are not decided here
        if node.op in VIEW_OPS:
            target = g.shape(node.outputs[0])
            if node.op != "Reshape" or not g.is_const(node.inputs[1]) or \
                    tuple(g.const(node.inputs[1]).tolist()) != target:
                stats["views_canonicalised"] += node.op != "Reshape"
                node.op, node.attrs = "Reshape", {}
                node.inputs = [node.inputs[0], g.add_const("shape", np.asarray(target, dtype=np.int64))]
            src = producers.get(node.inputs[0])
            if src is not None and src.op == "Reshape" and len(uses.get(node.inputs[0], [])) == 1 \
                    and node.inputs[0] not in g.outputs:
                node.inputs[0] = src.inputs[0]
                stats["reshapes_merged"] += 1
        noop = False
        if node.op == "Reshape" or node.op == "Expand":
            noop = g.shape(node.inputs[0]) == g.shape(node.outputs[0])
        elif node.op == "Transpose":
            perm = node.attrs.get("perm")
            noop = perm is not None and list(perm) == list(range(len(perm)))
        elif node.op == "Cast":
            noop = g.dtype(node.inputs[0]) == g.dtype(node.outputs[0])
        elif node.op == "Concat":
            noop = len([i for i in node.inputs if i]) == 1
        if noop:
            node.op, node.inputs, node.attrs = "Identity", node.inputs[:1], {}
            stats["noops_removed"] += 1
    remove_identities(g)
    # Reshapes bypassed by merging may now be dead; dce runs after this pass.
    return stats
