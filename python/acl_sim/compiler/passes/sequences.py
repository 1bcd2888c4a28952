"""Sequence and optional values, resolved at compile time (docs/sequences.md).

On a static-graph device a sequence is a list of tensor slots whose length ATC knows, as it knows
every shape: `Graph.seqs[name]` lists the element tensors of sequence value `name`, and
`Graph.opts[name]` is the element of an optional value (a tensor or sequence name) or None when it
is empty. The sequence and optional ops are resolved during shape inference into plain nodes on
those elements (or into nothing, when they only rearrange the list):

- SequenceConstruct / SequenceEmpty / SequenceInsert / SequenceErase / Identity: list edits;
- SequenceAt: an Identity of the element; SequenceLength: a constant;
- SplitToSequence: Split (+ Squeeze when keepdims=0 and no split is given);
- ConcatFromSequence: Concat (+ Unsqueeze per element for new_axis=1);
- SequenceMap: the body unrolled once per element (as Loop / Scan are);
- Optional / OptionalHasElement / OptionalGetElement: the element, a constant, the element.

Positions (SequenceAt/Insert/Erase) and SplitToSequence's split must be constants. A graph
output of sequence type becomes one model output per element, named `<output>:<k>`; an empty
optional output becomes no model output (compile_model reports both, see pipeline). Graph inputs
of sequence or optional type are not model inputs: a program passes the elements as tensors
(acl_sim.onnx_backend rewrites such a model so, per sequence length).
"""
from __future__ import annotations

import numpy as np

from ..errors import CompileError
from ..ir import Graph, Node

SEQUENCE_OPS = {"SequenceConstruct", "SequenceEmpty", "SequenceInsert", "SequenceErase", "SequenceAt",
                "SequenceLength", "SplitToSequence", "ConcatFromSequence", "SequenceMap", "Optional",
                "OptionalHasElement", "OptionalGetElement"}


# The select of a data-dependent If's outputs (control_flow._select_if), resolved once the branches are.
IF_SELECT = "AclSim.IfSelect"


def is_value(g: Graph, name: str) -> bool:
    """A sequence or optional value (not a tensor)."""
    return bool(name) and (name in g.seqs or name in g.opts)


def resolvable(g: Graph, node: Node) -> bool:
    return node.op in SEQUENCE_OPS or node.op == IF_SELECT or (node.op == "Identity" and is_value(g, node.input(0)))


def _where(g: Graph, node: Node) -> str:
    return f"node '{node.name}' ({node.op}, opset {g.source_opset})"


def _seq(g: Graph, node: Node, name: str) -> list[str]:
    if name in g.opts and g.opts[name] in g.seqs:  # an optional sequence used as a sequence
        name = g.opts[name]
    if name not in g.seqs:
        raise CompileError(f"{_where(g, node)}: input '{name}' is not a sequence known at compile time")
    return list(g.seqs[name])


def _position(g: Graph, node: Node, idx: int, length: int, default: int, insert: bool = False) -> int:
    name = node.input(idx)
    if not name:
        return default
    value = g.const(name)
    if value is None:
        raise CompileError(f"{_where(g, node)}: the position must be a constant (sequence positions are "
                           f"resolved at compile time)")
    pos = int(np.asarray(value).reshape(-1)[0])
    limit = length + 1 if insert else length
    if pos < 0:
        pos += length
    if not 0 <= pos < limit:
        raise CompileError(f"{_where(g, node)}: position {int(np.asarray(value).reshape(-1)[0])} is out of range "
                           f"for a sequence of {length}")
    return pos


def _identity(g: Graph, node: Node, src: str, dst: str) -> Node:
    return Node("Identity", g.fresh(f"{node.name}/copy"), [src], [dst], {}, list(node.sources))


def _alias(g: Graph, node: Node, src: str, dst: str) -> list[Node]:
    """`dst` takes the value `src` (a tensor, sequence or optional)."""
    if src in g.seqs:
        g.seqs[dst] = list(g.seqs[src])
        return []
    if src in g.opts:
        g.opts[dst] = g.opts[src]
        return []
    return [_identity(g, node, src, dst)]


def _split(g: Graph, node: Node) -> list[Node]:
    x = node.inputs[0]
    shape = g.shape(x)
    if shape is None:
        raise CompileError(f"{_where(g, node)}: shape of '{x}' unknown")
    axis = int(node.attrs.get("axis", 0)) % len(shape)
    keep = int(node.attrs.get("keepdims", 1))
    dim = shape[axis]
    split = node.input(1)
    squeeze = False
    if split:
        value = g.const(split)
        if value is None:
            raise CompileError(f"{_where(g, node)}: split must be a constant (sequence lengths are resolved at "
                               f"compile time)")
        value = np.asarray(value).reshape(-1) if np.asarray(value).ndim else np.asarray(value)
        if value.ndim == 0:
            size = int(value)
            sizes = [min(size, dim - k) for k in range(0, dim, size)]
        else:
            sizes = [int(v) for v in value]
    else:
        sizes, squeeze = [1] * dim, not keep
    if sum(sizes) != dim or any(s < 0 for s in sizes):
        raise CompileError(f"{_where(g, node)}: split sizes {sizes} do not add up to dim {dim}")
    nodes, parts = [], [g.fresh(f"{node.outputs[0]}_{k}") for k in range(len(sizes))]
    pieces = [g.fresh(f"{p}_keep") for p in parts] if squeeze else parts
    if sizes:
        nodes.append(Node("Split", g.fresh(f"{node.name}/split"),
                          [x, g.add_const(f"{node.name}_sizes", np.asarray(sizes, np.int64))], pieces,
                          {"axis": axis}, list(node.sources)))
    if squeeze:
        axes = g.add_const(f"{node.name}_axes", np.asarray([axis], np.int64))
        for src, dst in zip(pieces, parts):
            nodes.append(Node("Squeeze", g.fresh(f"{node.name}/squeeze"), [src, axes], [dst], {},
                              list(node.sources)))
    g.seqs[node.outputs[0]] = parts
    return nodes


def _concat(g: Graph, node: Node) -> list[Node]:
    elems = _seq(g, node, node.inputs[0])
    if not elems:
        raise CompileError(f"{_where(g, node)}: the sequence is empty")
    axis = int(node.attrs["axis"])
    nodes = []
    if int(node.attrs.get("new_axis", 0)):
        axes = g.add_const(f"{node.name}_axes", np.asarray([axis], np.int64))
        ups = []
        for e in elems:
            up = g.fresh(f"{e}_up")
            nodes.append(Node("Unsqueeze", g.fresh(f"{node.name}/unsqueeze"), [e, axes], [up], {}, list(node.sources)))
            ups.append(up)
        elems = ups
    nodes.append(Node("Concat", g.fresh(f"{node.name}/concat"), elems, [node.outputs[0]], {"axis": axis},
                      list(node.sources)))
    return nodes


def _sequence_map(g: Graph, node: Node, opset: int) -> list[Node]:
    from .control_flow import _body_nodes, _split_inputs

    explicit, outer = _split_inputs(node)
    body = node.attrs["body"].g
    seqs = {k: _seq(g, node, name) for k, name in enumerate(explicit) if name in g.seqs or name in g.opts}
    if 0 not in seqs:
        raise CompileError(f"{_where(g, node)}: input 0 must be a sequence")
    length = len(seqs[0])
    if any(len(s) != length for s in seqs.values()):
        raise CompileError(f"{_where(g, node)}: the sequences have different lengths")
    nodes: list[Node] = []
    results: list[list[str]] = [[] for _ in body.output]
    for t in range(length):
        bindings = dict(outer)
        for k, vi in enumerate(body.input):
            bindings[vi.name] = seqs[k][t] if k in seqs else explicit[k]
        body_nodes, rename = _body_nodes(g, node, body, bindings, opset, f"e{t}")
        nodes.extend(body_nodes)
        for j, vi in enumerate(body.output):
            src = rename.get(vi.name, vi.name)
            dst = g.fresh(f"{node.outputs[j]}_{t}")
            if g.is_const(src) and not any(src in n.outputs for n in body_nodes):
                g.consts[dst] = g.consts[src]
                g.shapes[dst], g.dtypes[dst] = g.shapes[src], g.dtypes[src]
            else:
                nodes.append(_identity(g, node, src, dst))
            results[j].append(dst)
    for j, out in enumerate(node.outputs):
        if out:
            g.seqs[out] = results[j]
    return nodes


def _if_select(g: Graph, node: Node, cond: str, a: str, b: str, out: str) -> list[Node]:
    from .shape_infer import IF_SAME_SHAPE

    if_name = node.attrs[IF_SAME_SHAPE]
    if a in g.opts or b in g.opts:
        ea, eb = g.opts.get(a, a), g.opts.get(b, b)
        if (ea is None) != (eb is None):
            raise CompileError(f"node '{if_name}' (If): the condition is data-dependent and only one branch gives "
                               f"an empty optional: whether the output has a value would depend on the data")
        if ea is None:
            g.opts[out] = None
            return []
        inner = g.fresh(f"{out}_value")
        g.opts[out] = inner
        return _if_select(g, node, cond, ea, eb, inner)
    if a in g.seqs or b in g.seqs:
        sa, sb = _seq(g, node, a), _seq(g, node, b)
        if len(sa) != len(sb):
            raise CompileError(f"node '{if_name}' (If): the condition is data-dependent and the branches give "
                               f"sequences of {len(sa)} and {len(sb)} elements")
        parts = [g.fresh(f"{out}_{k}") for k in range(len(sa))]
        g.seqs[out] = parts
        return [n for x, y, p in zip(sa, sb, parts) for n in _if_select(g, node, cond, x, y, p)]
    return [Node("Where", g.fresh(f"{node.name}/where"), [cond, a, b], [out], {IF_SAME_SHAPE: if_name},
                 list(node.sources))]


def resolve(g: Graph, node: Node, opset: int) -> list[Node]:
    """The plain nodes replacing a sequence / optional node; records the values it defines."""
    op, out = node.op, node.outputs[0] if node.outputs else ""
    if op == IF_SELECT:
        return _if_select(g, node, *node.inputs[:3], out)
    if op == "Identity":
        return _alias(g, node, node.inputs[0], out)
    if op == "SequenceConstruct":
        g.seqs[out] = [i for i in node.inputs if i]
        return []
    if op == "SequenceEmpty":
        g.seqs[out] = []
        return []
    if op == "SequenceInsert":
        elems = _seq(g, node, node.inputs[0])
        pos = _position(g, node, 2, len(elems), len(elems), insert=True)
        g.seqs[out] = elems[:pos] + [node.inputs[1]] + elems[pos:]
        return []
    if op == "SequenceErase":
        elems = _seq(g, node, node.inputs[0])
        if not elems:
            raise CompileError(f"{_where(g, node)}: erase from an empty sequence")
        pos = _position(g, node, 1, len(elems), len(elems) - 1)
        g.seqs[out] = elems[:pos] + elems[pos + 1:]
        return []
    if op == "SequenceAt":
        elems = _seq(g, node, node.inputs[0])
        return [_identity(g, node, elems[_position(g, node, 1, len(elems), 0)], out)]
    if op == "SequenceLength":
        value = np.asarray(len(_seq(g, node, node.inputs[0])), np.int64)
        g.consts[out], g.shapes[out], g.dtypes[out] = value, (), value.dtype
        return []
    if op == "SplitToSequence":
        return _split(g, node)
    if op == "ConcatFromSequence":
        return _concat(g, node)
    if op == "SequenceMap":
        from .control_flow import BODY_OPSET

        return _sequence_map(g, node, int(node.attrs.get(BODY_OPSET, opset)))
    if op == "Optional":
        g.opts[out] = node.input(0) or None
        return []
    if op == "OptionalHasElement":
        src = node.input(0)
        has = bool(src) and (g.opts.get(src) is not None if src in g.opts else True)
        value = np.asarray(has)
        g.consts[out], g.shapes[out], g.dtypes[out] = value, (), value.dtype
        return []
    if op == "OptionalGetElement":
        src = node.inputs[0]
        if src in g.opts:
            if g.opts[src] is None:
                raise CompileError(f"{_where(g, node)}: the optional '{src}' is empty")
            src = g.opts[src]
        return _alias(g, node, src, out)
    raise CompileError(f"{_where(g, node)}: not a sequence op")


def expand_outputs(g: Graph) -> dict:
    """Graph outputs that are sequences become one output per element (`<name>:<k>`), empty optionals
    none. Returns {"sequences": {name: count}, "absent": [names]} for the caller."""
    info = {"sequences": {}, "absent": []}
    outputs, extra = [], []
    for name in g.outputs:
        value = name
        if value in g.opts:
            value = g.opts[value]
            if value is None:
                info["absent"].append(name)
                continue
        if value in g.seqs:
            elems = g.seqs[value]
            info["sequences"][name] = len(elems)
            for k, e in enumerate(elems):
                dst = f"{name}:{k}"
                extra.append(Node("Identity", g.fresh(f"{name}/element"), [e], [dst], {}, []))
                g.shapes[dst], g.dtypes[dst] = g.shape(e), g.dtype(e)
                if e in g.syms:
                    g.syms[dst] = g.syms[e]
                outputs.append(dst)
            continue
        if value != name:  # an optional tensor: its element under the output's name
            extra.append(Node("Identity", g.fresh(f"{name}/element"), [value], [name], {}, []))
            g.shapes[name], g.dtypes[name] = g.shape(value), g.dtype(value)
        outputs.append(name)
    g.nodes.extend(extra)
    g.outputs = outputs
    return info
