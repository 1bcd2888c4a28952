"""Dead-code elimination: drop nodes none of whose outputs reach a graph output, and unused constants."""
from __future__ import annotations

from ..ir import Graph


def run(g: Graph, ctx) -> dict:
    live = set(g.outputs)
    kept = []
    for node in reversed(g.nodes):
        if any(o in live for o in node.outputs if o):
            kept.append(node)
            live.update(i for i in node.inputs if i)
    removed = len(g.nodes) - len(kept)
    g.nodes = kept[::-1]
    dead_consts = [name for name in g.consts if name not in live]
    for name in dead_consts:
        del g.consts[name]
    return {"removed_nodes": removed, "removed_consts": len(dead_consts)}
