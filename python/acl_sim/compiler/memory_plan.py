"""Workspace memory planning: lifetimes, in-place aliasing, greedy-by-size best-fit offsets.

Each intermediate tensor lives from the node that writes it to the last node
that reads it. Eligible elementwise ops and Reshape views write their output
over an input whose last use they are (the two tensors then share one
buffer), and so does a Conv with a fused residual (ATC's fuse_residual) over
that residual: the conv kernels add it where it already lies, as
onnxruntime's fused Conv + Sum does, so the output buffer is not a third
stream of cold memory (see conv_ops.cpp). Concat inputs are written by their producers straight into their
slice of the Concat output (batch-1 slices are contiguous), so the Concat moves
nothing: a DenseNet block's growing concatenation becomes one buffer that each
layer appends to. A buffer is then a group of tensors at offsets inside it,
live from its first tensor's write to its last tensor's read. Buffers are placed in one arena by the "greedy by size for offset
calculation" of Pisarchyk & Lee 2020 (the TFLite ArenaPlanner order): size
descending, ties by first use, each at the smallest gap among already placed
buffers whose lifetimes overlap, else on top. Graph inputs and outputs live
in the user's buffers and are never planned or aliased.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .ir import Graph

ALIGN = 64

# Ops whose output may overwrite an input of the same byte size (per element, read before write).
INPLACE_UNARY = {"Relu", "Sigmoid", "Tanh", "Clip", "HardSigmoid", "HardSwish", "LeakyRelu", "Gelu", "Exp",
                 "Log", "Sqrt", "Neg", "Abs", "Erf", "Reciprocal", "Floor", "Ceil", "Elu", "Softplus", "Identity",
                 "Reshape", "Sin", "Cos", "Round", "Sign", "BatchNormalization"}
INPLACE_BINARY = {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min"}


def align_up(n: int, a: int = ALIGN) -> int:
    return (n + a - 1) // a * a


@dataclass
class Buffer:
    first: int
    last: int
    size: int
    tensors: list = field(default_factory=list)
    offset: int = -1


def _place(buffers: list[Buffer], order) -> tuple[int, list[int]]:
    """Best-fit placement of buffers in `order`; returns (peak, offsets)."""
    offsets = [0] * len(buffers)
    placed: list[int] = []
    peak = 0
    for i in order:
        buf = buffers[i]
        overlapping = sorted((p for p in placed if buffers[p].first <= buf.last and buf.first <= buffers[p].last),
                             key=lambda p: offsets[p])
        best, best_gap, cursor = None, None, 0
        for p in overlapping:
            gap = offsets[p] - cursor
            if gap >= buf.size and (best_gap is None or gap < best_gap):
                best, best_gap = cursor, gap
            cursor = max(cursor, offsets[p] + buffers[p].size)
        offsets[i] = best if best is not None else cursor
        peak = max(peak, offsets[i] + buf.size)
        placed.append(i)
    return peak, offsets


def greedy_by_size(buffers: list[Buffer]) -> int:
    """Greedy by size for offset calculation: assigns `offset` to every buffer, returns the arena size."""
    order = sorted(range(len(buffers)), key=lambda i: (-buffers[i].size, buffers[i].first, i))
    peak, offsets = _place(buffers, order)
    for buf, off in zip(buffers, offsets):
        buf.offset = off
    return peak


def improve(buffers: list[Buffer], bound: int, iterations: int = 100) -> int:
    """Greedy-by-size, then a deterministic hill climb when it misses the lower bound.

    Fragmentation from greedy-by-size costs up to ~10% on concat-heavy graphs (DenseNet). We also
    try the lifetime-length order, then repeatedly move a buffer that defines the peak earlier in
    the placement order, keeping the change when the peak does not grow.
    """
    import random

    orders = [sorted(range(len(buffers)), key=lambda i: (-buffers[i].size, buffers[i].first, i)),
              sorted(range(len(buffers)), key=lambda i: (-(buffers[i].last - buffers[i].first), -buffers[i].size, i))]
    best = None
    for order in orders:
        peak, offsets = _place(buffers, order)
        if best is None or peak < best[0]:
            best = (peak, order, offsets)
        if peak <= bound:
            break
    peak, order, offsets = best
    rng = random.Random(0)
    for _ in range(iterations if peak > bound else 0):
        top = [i for i in order if offsets[i] + buffers[i].size == peak]
        i = rng.choice(top)
        pos = order.index(i)
        candidate = order[:pos] + order[pos + 1:]
        candidate.insert(rng.randint(0, pos - 1) if pos > 0 else 0, i)
        new_peak, new_offsets = _place(buffers, candidate)
        if new_peak <= peak:
            peak, order, offsets = new_peak, candidate, new_offsets
        if peak <= bound:
            break
    for buf, off in zip(buffers, offsets):
        buf.offset = off
    return peak


def lower_bound(buffers: list[Buffer]) -> int:
    """The largest sum of sizes of buffers live at one step: no plan can use less."""
    if not buffers:
        return 0
    steps = max(b.last for b in buffers) + 2
    delta = np.zeros(steps + 1, dtype=np.int64)
    for b in buffers:
        delta[b.first] += b.size
        delta[b.last + 1] -= b.size
    return int(np.cumsum(delta).max())


def tensor_bytes(g: Graph, name: str) -> int:
    shape = g.shape(name)
    return int(np.prod(shape, dtype=np.int64)) * np.dtype(g.dtype(name)).itemsize


def _concat_slices(g: Graph, node, first: dict, sizes: dict) -> list[tuple[str, int]]:
    """(input, byte offset in the output) of every Concat input that may live inside the output.

    The channel slices of a concat are contiguous only when every dim before the axis is 1
    (NCHW batch 1 along C); a batch > 1 concat is left to the kernel. An input qualifies when
    it is a planned workspace tensor (not a model input, weight or output), appears once in
    the node, has static dims and starts 64-byte aligned (the workspace alignment the kernels
    rely on). The others are copied by the Concat kernel, which skips a part already in place.
    """
    out = node.outputs[0] if node.outputs else ""
    if out not in first or out in g.syms or node.inputs.count("") or len(node.inputs) < 2:
        return []
    shape = g.shape(out)
    axis = int(node.attrs.get("axis", 0))
    axis = axis + len(shape) if axis < 0 else axis
    if not 0 <= axis < len(shape) or any(int(d) != 1 for d in shape[:axis]):
        return []
    itemsize = np.dtype(g.dtype(out)).itemsize
    inner = int(np.prod(shape[axis + 1:], dtype=np.int64)) * itemsize
    slices, cursor = [], 0
    for name in node.inputs:
        if name in first and name not in g.syms and node.inputs.count(name) == 1 and cursor % ALIGN == 0:
            slices.append((name, cursor))
        cursor += int(g.shape(name)[axis]) * inner
    return slices if cursor == sizes[out] else []


class _Groups:
    """Tensors sharing one buffer, each at a byte offset inside it (union-find with offsets).

    A group's extent is the bytes its tensors cover; its lifetime spans its tensors'. Moving a
    whole group into another at an offset is how in-place ops (offset of the tensor they
    overwrite) and concat slices (offset of the slice) share memory.
    """

    def __init__(self, first: dict, last: dict, sizes: dict):
        self.root = {t: t for t in first}
        self.rel = {t: 0 for t in first}
        self.members = {t: [t] for t in first}
        self.extent = dict(sizes)
        self.first, self.last = dict(first), dict(last)

    def whole(self, t: str, size: int) -> bool:
        """`t` covers its group exactly: the group can move to any place `t` may go."""
        r = self.root[t]
        return self.rel[t] == 0 and self.extent[r] == size

    def move(self, t: str, dest: str, offset: int) -> None:
        """Moves the group of `t` (which `t` covers whole) into the group of `dest` so that `t`
        starts `offset` bytes after `dest`."""
        src, dst = self.root[t], self.root[dest]
        base = self.rel[dest] + offset
        for m in self.members.pop(src):
            self.root[m], self.rel[m] = dst, self.rel[m] + base
            self.members[dst].append(m)
        self.extent[dst] = max(self.extent[dst], base + self.extent.pop(src))
        self.first[dst] = min(self.first[dst], self.first.pop(src))
        self.last[dst] = max(self.last[dst], self.last.pop(src))


def plan(g: Graph, inplace: bool = True) -> dict:
    """Plans every workspace tensor of `g` (nodes must be in execution order).

    Concat inputs are placed first as slices of the concat output (`_concat_slices`), then
    in-place ops join the tensor they overwrite, then the groups are placed. Returns
    {"offsets": {tensor: offset}, "workspace_size", "naive_bytes", "planned_bytes",
    "lower_bound_bytes", "inplace_count", "concat_inplace_inputs", "concat_elided"}.
    """
    external = set(g.inputs) | set(g.outputs) | set(g.consts)
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for step, node in enumerate(g.nodes):
        for out in node.outputs:
            if out and out not in external:
                first.setdefault(out, step)
                last.setdefault(out, step)
        for name in node.inputs:
            if name in first:
                last[name] = max(last[name], step)
    sizes = {t: tensor_bytes(g, t) for t in first}
    naive = sum(align_up(s) for s in sizes.values())
    groups = _Groups(first, last, sizes)
    concat_inputs = concat_elided = 0
    if inplace:
        # Concat slices first, so the lifetimes the in-place rule checks below are the whole
        # concat buffer's: an op may not overwrite a slice while the concat is still to be read.
        for node in g.nodes:
            if node.op != "Concat":
                continue
            out = node.outputs[0] if node.outputs else ""
            slices = [(name, off) for name, off in _concat_slices(g, node, first, sizes)
                      if groups.root[name] != groups.root[out] and groups.whole(name, sizes[name])]
            for name, off in slices:
                groups.move(name, out, off)
            concat_inputs += len(slices)
            concat_elided += len(slices) == len(node.inputs)
    inplace_count = 0
    if inplace:
        for step, node in enumerate(g.nodes):
            residual_conv = node.op == "Conv" and len(node.inputs) > 3 and bool(node.inputs[3])
            if node.op not in INPLACE_UNARY and node.op not in INPLACE_BINARY and not residual_conv:
                continue
            out = node.outputs[0]
            if out not in first:
                continue
            if residual_conv:
                candidates = node.inputs[3:4]
            else:
                candidates = node.inputs[:1] if node.op in INPLACE_UNARY else node.inputs[:2]
            for src in candidates:
                if src not in first or sizes[src] != sizes[out] or (g.shape(src) != g.shape(out) and
                        node.op != "Reshape"):
                    continue
                r = groups.root[src]
                if groups.last[r] != step or node.inputs.count(src) != 1 or r == groups.root[out]:
                    continue  # the input is read later (or twice here): cannot overwrite it
                if groups.whole(out, sizes[out]):
                    groups.move(out, src, 0)  # the output takes the input's place
                elif groups.whole(src, sizes[src]):
                    groups.move(src, out, 0)  # the output is a concat slice: the input moves there
                else:
                    continue
                inplace_count += 1
                break
    buffers, roots = [], []
    for r, members in groups.members.items():
        buffers.append(Buffer(groups.first[r], groups.last[r], align_up(groups.extent[r]), members))
        roots.append(r)
    bound = lower_bound(buffers)
    planned = improve(buffers, bound)
    offsets = {t: b.offset + groups.rel[t] for b in buffers for t in b.tensors}
    return {"offsets": offsets, "sizes": sizes, "workspace_size": planned, "naive_bytes": naive,
            "planned_bytes": planned, "lower_bound_bytes": bound, "inplace_count": inplace_count,
            "concat_inplace_inputs": concat_inputs, "concat_elided": concat_elided}
