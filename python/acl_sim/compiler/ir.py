"""The compiler's graph IR: ONNX-shaped nodes over named tensors.

Values that are known at compile time (weights, folded shape chains) live in
`Graph.consts` as NumPy arrays; everything else gets a static shape and dtype
per profile from shape inference. Nodes carry ONNX op types and attribute
names (see docs/om_format.md) plus `sources`, the ONNX node names they came
from, so compare/dump can map fused nodes back to the original model.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# The canonical opset every graph is normalised to: attributes and inputs follow
# this opset's ONNX definitions whatever the source model used.
CANONICAL_OPSET = 17


@dataclass
class Node:
    op: str
    name: str
    inputs: list[str]  # "" marks an absent optional input
    outputs: list[str]
    attrs: dict[str, Any] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)

    def input(self, i: int) -> str:
        return self.inputs[i] if i < len(self.inputs) else ""


class Graph:
    """A mutable dataflow graph; `nodes` are kept in topological order by the passes."""

    def __init__(self):
        self.nodes: list[Node] = []
        self.inputs: list[str] = []
        self.outputs: list[str] = []
        self.consts: dict[str, np.ndarray] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        self.dtypes: dict[str, np.dtype] = {}
        # Run-time dims (passes/runtime_dims.py): per tensor with any, one symbol index or None per dim;
        # the symbols' names and bounds (the bound is the dim's value in `shapes`).
        self.syms: dict[str, tuple] = {}
        self.symbols: list[dict] = []
        # Sequence / optional values (passes/sequences.py): element tensor names; an optional's element or None.
        self.seqs: dict[str, list[str]] = {}
        self.opts: dict[str, str | None] = {}
        # Graph outputs that were sequences ({name: element count}) or empty optionals (sequences.expand_outputs).
        self.value_outputs: dict = {"sequences": {}, "absent": []}
        self.opset = CANONICAL_OPSET
        self.source_opset = CANONICAL_OPSET
        self._names: set[str] = set()
        self._counter = 0

    # --- names -------------------------------------------------------------
    def fresh(self, hint: str) -> str:
        """A tensor or node name not used anywhere in the graph."""
        if not self._names:
            self._refresh_names()
        while True:
            self._counter += 1
            name = f"{hint}__atc{self._counter}"
            if name not in self._names:
                self._names.add(name)
                return name

    def _refresh_names(self):
        names = set(self.consts) | set(self.inputs) | set(self.outputs) | set(self.shapes)
        for n in self.nodes:
            names.add(n.name)
            names.update(n.inputs)
            names.update(n.outputs)
        self._names = names

    # --- queries -----------------------------------------------------------
    def is_const(self, name: str) -> bool:
        return name in self.consts

    def const(self, name: str):
        return self.consts.get(name)

    def add_const(self, hint: str, value) -> str:
        name = self.fresh(hint)
        arr = np.asarray(value)
        self.consts[name] = arr
        self.shapes[name] = tuple(arr.shape)
        self.dtypes[name] = arr.dtype
        return name

    def producers(self) -> dict[str, Node]:
        return {out: n for n in self.nodes for out in n.outputs if out}

    def consumers(self) -> dict[str, list[Node]]:
        uses: dict[str, list[Node]] = {}
        for n in self.nodes:
            for i in n.inputs:
                if i:
                    uses.setdefault(i, []).append(n)
        return uses

    def shape(self, name: str):
        return self.shapes.get(name)

    def dtype(self, name: str):
        return self.dtypes.get(name)

    # --- edits -------------------------------------------------------------
    def replace_uses(self, old: str, new: str):
        """Point every reader of `old` (nodes and graph outputs) at `new`."""
        for n in self.nodes:
            n.inputs = [new if i == old else i for i in n.inputs]
        self.outputs = [new if o == old else o for o in self.outputs]

    def remove_nodes(self, dead):
        dead_ids = {id(n) for n in dead}
        self.nodes = [n for n in self.nodes if id(n) not in dead_ids]

    def toposort(self):
        """Re-order nodes topologically; stable (Kahn's algorithm, ties by current position)."""
        import heapq

        produced = {out: idx for idx, n in enumerate(self.nodes) for out in n.outputs if out}
        pending = [0] * len(self.nodes)
        readers: dict[int, list[int]] = {}
        for idx, n in enumerate(self.nodes):
            for dep in {produced[i] for i in n.inputs if i in produced}:
                pending[idx] += 1
                readers.setdefault(dep, []).append(idx)
        ready = [idx for idx, count in enumerate(pending) if count == 0]
        heapq.heapify(ready)
        order = []
        while ready:
            idx = heapq.heappop(ready)
            order.append(self.nodes[idx])
            for r in readers.get(idx, ()):
                pending[r] -= 1
                if pending[r] == 0:
                    heapq.heappush(ready, r)
        if len(order) != len(self.nodes):
            from .errors import CompileError

            raise CompileError("the model graph has a cycle")
        self.nodes = order

    def copy(self) -> "Graph":
        """A graph sharing the (immutable) constant arrays but with its own nodes and maps."""
        g = Graph()
        g.nodes = [Node(n.op, n.name, list(n.inputs), list(n.outputs), copy.deepcopy(n.attrs), list(n.sources))
                   for n in self.nodes]
        g.inputs, g.outputs = list(self.inputs), list(self.outputs)
        g.consts, g.shapes, g.dtypes = dict(self.consts), dict(self.shapes), dict(self.dtypes)
        g.syms, g.symbols = dict(self.syms), [dict(s) for s in self.symbols]
        g.seqs, g.opts = {k: list(v) for k, v in self.seqs.items()}, dict(self.opts)
        g.opset, g.source_opset = self.opset, self.source_opset
        g._counter = self._counter
        return g

    def op_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for n in self.nodes:
            counts[n.op] = counts.get(n.op, 0) + 1
        return counts
