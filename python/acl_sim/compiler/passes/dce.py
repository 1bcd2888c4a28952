"""Dead-code elimination: drop nodes none of whose outputs reach a graph output, and unused constants."""
from __future__ import annotations

from ..ir import Graph

# Ops whose trailing outputs are optional in ONNX: unread ones are dropped so the runtime skips them.
OPTIONAL_TRAILING_OUTPUTS = {"MaxPool", "BatchNormalization", "LayerNormalization", "Dropout"}


def run(g: Graph, ctx) -> dict:
    live = set(g.outputs)
    kept = []
    for node in reversed(g.nodes):
        if any(o in live for o in node.outputs if o):
            kept.append(node)
            live.update(i for i in node.inputs if i)
            if node.op in OPTIONAL_TRAILING_OUTPUTS:
                while len(node.outputs) > 1 and node.outputs[-1] not in live:
                    node.outputs.pop()
    removed = len(g.nodes) - len(kept)
    g.nodes = kept[::-1]
    dead_consts = [name for name in g.consts if name not in live]
    for name in dead_consts:
        del g.consts[name]
    return {"removed_nodes": removed, "removed_consts": len(dead_consts)}
