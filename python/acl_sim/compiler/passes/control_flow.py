"""Control flow on a static-shape NPU: `If` with a compile-time condition and `Scan` (opset 9+)
are resolved at compile time, during shape inference, into plain nodes.

- `If`: a condition that folds to a constant (e.g. a shape test) inlines the taken branch; a
  data-dependent condition runs both branches and selects each output with Where (the branches
  must then give the same shapes and dtypes; sequences of one length are selected element by
  element, optionals when both are present or both empty).
- `Scan`: unrolled over its (static) sequence length. Step t slices every scan input at t
  (Gather on the scan axis; reversed for direction 1), runs a renamed copy of the body, threads
  the state outputs into the next step, and the per-step scan outputs are stacked (Unsqueeze +
  Concat) along their output axis. Scan-8 (batch axis 0, scan axis 1, `sequence_lens`) becomes
  one such Scan per batch entry (Gather of the entry), stacked back along axis 0.
- `Loop`: unrolled when the trip count and the initial condition fold to constants and the body
  passes its condition through unchanged (the for-loop form exporters emit); the scan outputs
  are stacked along a new first axis.

Subgraphs may read tensors of the enclosing graph by name. At import (and when an ONNX function
body is inlined) those outer references are appended to the node's inputs, with their
body-side names in the `__outer_refs__` attribute, so DCE, topological order and renaming see
them as ordinary inputs. A Loop whose condition the body computes from data is not supported.
"""
from __future__ import annotations

import numpy as np

from ..errors import CompileError
from ..ir import Graph, Node

UNROLLED_OPS = {"If", "Scan", "Loop"}
OUTER_REFS = "__outer_refs__"
BODY_OPSET = "__body_opset__"  # set when the node came from an ONNX function of another opset


def _graph_attrs(attrs: dict):
    from onnx import AttributeProto

    for name, value in attrs.items():
        if isinstance(value, AttributeProto) and value.type == AttributeProto.GRAPH:
            yield name, value.g


def outer_refs(graph) -> list[str]:
    """Names a GraphProto (and its nested subgraphs) reads but does not define, in first-use order."""
    from onnx import AttributeProto

    defined = {i.name for i in graph.input} | {t.name for t in graph.initializer} | {""}
    refs: list[str] = []

    def use(name):
        if name not in defined and name not in refs:
            refs.append(name)

    for node in graph.node:
        for i in node.input:
            use(i)
        for a in node.attribute:
            if a.type == AttributeProto.GRAPH:
                for r in outer_refs(a.g):
                    use(r)
            elif a.type == AttributeProto.GRAPHS:
                for sub in a.graphs:
                    for r in outer_refs(sub):
                        use(r)
        defined.update(node.output)
    for o in graph.output:
        use(o.name)
    return refs


def attach_outer_refs(node: Node, actual=lambda n: n) -> None:
    """Appends the subgraphs' outer references to node.inputs (mapped through `actual`)."""
    refs: list[str] = []
    for _, sub in _graph_attrs(node.attrs):
        for r in outer_refs(sub):
            if r not in refs:
                refs.append(r)
    if refs:
        node.attrs[OUTER_REFS] = refs
        node.inputs = list(node.inputs) + [actual(r) for r in refs]


def _split_inputs(node: Node) -> tuple[list[str], dict]:
    refs = node.attrs.get(OUTER_REFS, [])
    explicit = node.inputs[:len(node.inputs) - len(refs)] if refs else list(node.inputs)
    return explicit, dict(zip(refs, node.inputs[len(explicit):]))


def unrollable(node: Node) -> bool:
    return node.op in UNROLLED_OPS


def _body_nodes(g: Graph, node: Node, body, bindings: dict, opset: int, tag: str) -> tuple[list[Node], dict]:
    """A renamed copy of `body`: `bindings` maps body inputs and outer references to graph
    tensors; every tensor the body defines gets a fresh name. Returns (nodes, rename map)."""
    from onnx import AttributeProto, numpy_helper

    from ..onnx_import import _attr_value, _constant_node_value
    from . import normalize

    rename = dict(bindings)
    rename[""] = ""

    def actual(name):
        if name not in rename:
            rename[name] = g.fresh(f"{node.name}/{tag}/{name}")
        return rename[name]

    for init in body.initializer:
        g.consts[actual(init.name)] = numpy_helper.to_array(init)
        g.shapes[rename[init.name]] = tuple(g.consts[rename[init.name]].shape)
        g.dtypes[rename[init.name]] = g.consts[rename[init.name]].dtype
    raw: list[Node] = []
    for k, bn in enumerate(body.node):
        if bn.domain not in ("", "ai.onnx"):
            raise CompileError(f"node '{node.name}' ({node.op}): its body uses op '{bn.domain}.{bn.op_type}', "
                               f"which is not supported")
        if bn.op_type == "Constant":
            value = np.asarray(_constant_node_value(bn))
            out = actual(bn.output[0])
            g.consts[out] = value
            g.shapes[out], g.dtypes[out] = tuple(value.shape), value.dtype
            continue
        attrs = {a.name: _attr_value(a) for a in bn.attribute}
        inner = Node(bn.op_type, g.fresh(f"{node.name}/{tag}/{bn.name or bn.op_type + str(k)}"),
                     [actual(i) for i in bn.input], [], attrs, list(node.sources))
        if any(a.type in (AttributeProto.GRAPH, AttributeProto.GRAPHS) for a in bn.attribute):
            attach_outer_refs(inner, actual)
        inner.outputs = [actual(o) for o in bn.output]
        raw.append(inner)
    out: list[Node] = []
    g._mask_readers = {i for n in raw for i in n.inputs} | set(g.outputs)
    try:
        for bn in raw:
            normalize._rewrite(g, bn, opset, out, {})
    finally:
        del g._mask_readers
    return out, rename


def _identity(g: Graph, node: Node, src: str, dst: str) -> Node:
    return Node("Identity", g.fresh(f"{node.name}/out"), [src], [dst], {}, list(node.sources))


def _unroll_if(g: Graph, node: Node, opset: int) -> list[Node]:
    explicit, outer = _split_inputs(node)
    cond = g.const(explicit[0]) if explicit else None
    if cond is None:
        return _select_if(g, node, explicit[0], outer, opset)
    branch = node.attrs["then_branch" if bool(np.asarray(cond).reshape(-1)[0]) else "else_branch"].g
    nodes, rename = _body_nodes(g, node, branch, outer, opset, "then" if bool(cond) else "else")
    for out_vi, dst in zip(branch.output, node.outputs):
        if dst:
            src = rename.get(out_vi.name, out_vi.name)
            if g.is_const(src) and not any(src in n.outputs for n in nodes):
                g.consts[dst] = g.consts[src]
                g.shapes[dst], g.dtypes[dst] = g.shapes[src], g.dtypes[src]
            else:
                nodes.append(_identity(g, node, src, dst))
    return nodes


def _select_if(g: Graph, node: Node, cond: str, outer: dict, opset: int) -> list[Node]:
    """An If whose condition is data: both branches run and a Where picks each output. Branches have
    no side effects, so this is the If's value whenever both give the same shape and dtype (checked
    once the branch shapes are inferred, shape_infer.IF_SAME_SHAPE); otherwise the output shape itself
    would depend on the data, which is refused."""
    from .sequences import IF_SELECT
    from .shape_infer import IF_SAME_SHAPE

    nodes: list[Node] = []
    outs = {}
    for key, tag in (("then_branch", "then"), ("else_branch", "else")):
        branch = node.attrs[key].g
        body, rename = _body_nodes(g, node, branch, outer, opset, tag)
        nodes.extend(body)
        outs[tag] = [rename.get(vi.name, vi.name) for vi in branch.output]
    if len(outs["then"]) != len(outs["else"]):
        raise CompileError(f"node '{node.name}' (If): the branches have different output counts")
    scalar = g.fresh(f"{node.name}/cond")  # a one-element condition of any rank selects as a scalar
    nodes.append(Node("Reshape", g.fresh(f"{node.name}/cond_scalar"),
                      [cond, g.add_const(f"{node.name}_scalar", np.zeros(0, dtype=np.int64))], [scalar], {},
                      list(node.sources)))
    for then_out, else_out, dst in zip(outs["then"], outs["else"], node.outputs):
        if dst:  # a Where per tensor; sequences / optionals element by element (sequences.IF_SELECT)
            nodes.append(Node(IF_SELECT, g.fresh(f"{node.name}/select"), [scalar, then_out, else_out], [dst],
                              {IF_SAME_SHAPE: node.name}, list(node.sources)))
    return nodes


_SCAN9 = "__scan9__"  # a per-batch Scan made from a Scan-8 node: opset-9 semantics


def _split_scan8(g: Graph, node: Node) -> list[Node]:
    """Scan-8 (inputs sequence_lens, states [B, ...], scans [B, T, ...]; `directions`): one opset-9
    Scan per batch entry on the entry's slices, and the results stacked back along axis 0.
    sequence_lens must be absent or a constant equal to T for every entry (static shapes)."""
    where = f"node '{node.name}' (Scan, opset {g.source_opset})"
    explicit, outer = _split_inputs(node)
    seq_lens, rest = explicit[0], explicit[1:]
    m = int(node.attrs["num_scan_inputs"])
    n_state = len(rest) - m
    if n_state < 0 or not rest:
        raise CompileError(f"{where}: {len(rest)} inputs do not fit num_scan_inputs={m}")
    shapes = [g.shape(n) for n in rest]
    if any(s is None or len(s) < 1 for s in shapes) or len({int(s[0]) for s in shapes}) != 1:
        raise CompileError(f"{where}: states and scan inputs must share a static batch dimension, got {shapes}")
    batch = int(shapes[0][0])
    steps = {int(s[1]) for s in shapes[n_state:] if len(s) > 1}
    if seq_lens:
        lens = g.const(seq_lens)
        if lens is None or len(steps) != 1 or np.any(np.asarray(lens).reshape(-1) != next(iter(steps))):
            raise CompileError(f"{where}: sequence_lens must be absent or a constant equal to the scan length")
    attrs = {k: v for k, v in node.attrs.items() if k not in ("directions", OUTER_REFS)}
    attrs[_SCAN9] = 1
    if "directions" in node.attrs:
        attrs["scan_input_directions"] = list(node.attrs["directions"])
    if OUTER_REFS in node.attrs:
        attrs[OUTER_REFS] = list(node.attrs[OUTER_REFS])
    nodes: list[Node] = []
    per_batch: list[list[str]] = [[] for _ in node.outputs]
    for b in range(batch):
        index = g.add_const(f"{node.name}_b{b}", np.array(b, dtype=np.int64))
        sliced = []
        for name in rest:
            out = g.fresh(f"{node.name}/b{b}/{name}")
            nodes.append(Node("Gather", g.fresh(f"{node.name}/b{b}/slice"), [name, index], [out], {"axis": 0},
                              list(node.sources)))
            sliced.append(out)
        outs = [g.fresh(f"{o}_b{b}") if o else "" for o in node.outputs]
        nodes.append(Node("Scan", g.fresh(f"{node.name}/b{b}"), sliced + [outer[r] for r in attrs.get(OUTER_REFS, [])],
                          outs, dict(attrs), list(node.sources)))
        for k, o in enumerate(outs):
            per_batch[k].append(o)
    for k, dst in enumerate(node.outputs):
        if dst:
            _stack(g, node, per_batch[k], dst, 0, nodes)
    return nodes


def _unroll_scan(g: Graph, node: Node, opset: int) -> list[Node]:
    if g.source_opset < 9 and not node.attrs.get(_SCAN9):
        return _split_scan8(g, node)
    explicit, outer = _split_inputs(node)
    body = node.attrs["body"].g
    m = int(node.attrs["num_scan_inputs"])
    n_state = len(explicit) - m
    k_out = len(body.output) - n_state
    if n_state < 0 or k_out < 0:
        raise CompileError(f"node '{node.name}' (Scan): {len(explicit)} inputs and {len(body.output)} body outputs "
                           f"do not fit num_scan_inputs={m}")
    in_axes = list(node.attrs.get("scan_input_axes", [0] * m))
    in_dirs = list(node.attrs.get("scan_input_directions", [0] * m))
    out_axes = list(node.attrs.get("scan_output_axes", [0] * k_out))
    out_dirs = list(node.attrs.get("scan_output_directions", [0] * k_out))
    scans = explicit[n_state:]
    lengths = set()
    for j, name in enumerate(scans):
        shape = g.shape(name)
        if shape is None:
            raise CompileError(f"node '{node.name}' (Scan): shape of scan input '{name}' unknown")
        in_axes[j] = int(in_axes[j]) % len(shape)
        lengths.add(int(shape[in_axes[j]]))
    if len(lengths) != 1:
        raise CompileError(f"node '{node.name}' (Scan): scan inputs have different lengths {sorted(lengths)}")
    steps = lengths.pop() if m else 0
    if steps < 1:
        raise CompileError(f"node '{node.name}' (Scan): a scan over {steps} steps has no static unrolled form")
    nodes: list[Node] = []
    states = explicit[:n_state]
    per_step: list[list[str]] = [[] for _ in range(k_out)]
    for t in range(steps):
        bindings = dict(outer)
        for s, vi in enumerate(body.input[:n_state]):
            bindings[vi.name] = states[s]
        for j, vi in enumerate(body.input[n_state:]):
            idx = t if int(in_dirs[j]) == 0 else steps - 1 - t
            sliced = g.fresh(f"{node.name}/t{t}/{vi.name}")
            index = g.add_const(f"{node.name}_t{t}", np.array(idx, dtype=np.int64))
            nodes.append(Node("Gather", g.fresh(f"{node.name}/t{t}/slice"), [scans[j], index], [sliced],
                              {"axis": in_axes[j]}, list(node.sources)))
            bindings[vi.name] = sliced
        body_nodes, rename = _body_nodes(g, node, body, bindings, opset, f"t{t}")
        nodes.extend(body_nodes)
        outs = [rename.get(o.name, o.name) for o in body.output]
        states = outs[:n_state]
        for k in range(k_out):
            per_step[k].append(outs[n_state + k])
    for s, dst in enumerate(node.outputs[:n_state]):
        if dst:
            nodes.append(_identity(g, node, states[s], dst))
    for k, dst in enumerate(node.outputs[n_state:n_state + k_out]):
        if not dst:
            continue
        pieces = per_step[k] if int(out_dirs[k]) == 0 else per_step[k][::-1]
        # Unsqueeze's and Concat's axis both count in the stacked rank (negative from its end).
        axis = int(out_axes[k])
        axis_const = g.add_const(f"{dst}_axis", np.array([axis], dtype=np.int64))
        stacked = []
        for t, piece in enumerate(pieces):
            up = g.fresh(f"{dst}_t{t}")
            nodes.append(Node("Unsqueeze", g.fresh(f"{dst}/unsqueeze"), [piece, axis_const], [up], {},
                              list(node.sources)))
            stacked.append(up)
        nodes.append(Node("Concat", g.fresh(f"{dst}/stack"), stacked, [dst], {"axis": axis}, list(node.sources)))
    return nodes


def _passes_condition_through(body) -> bool:
    """The body's condition output is its condition input (through Identity nodes) or constant true."""
    cond_in, name = body.input[1].name, body.output[0].name
    producers = {o: n for n in body.node for o in n.output}
    while name in producers:
        n = producers[name]
        if n.op_type == "Identity":
            name = n.input[0]
            continue
        if n.op_type == "Constant":
            from onnx import numpy_helper

            values = [numpy_helper.to_array(a.t) for a in n.attribute if a.name == "value"]
            return bool(values) and bool(np.all(values[0]))
        return False
    return name == cond_in


def _stack(g: Graph, node: Node, pieces: list[str], dst: str, axis: int, nodes: list) -> None:
    axis_const = g.add_const(f"{dst}_axis", np.array([axis], dtype=np.int64))
    stacked = []
    for t, piece in enumerate(pieces):
        up = g.fresh(f"{dst}_t{t}")
        nodes.append(Node("Unsqueeze", g.fresh(f"{dst}/unsqueeze"), [piece, axis_const], [up], {}, list(node.sources)))
        stacked.append(up)
    nodes.append(Node("Concat", g.fresh(f"{dst}/stack"), stacked, [dst], {"axis": axis}, list(node.sources)))


def _unroll_loop(g: Graph, node: Node, opset: int) -> list[Node]:
    where = f"node '{node.name}' (Loop, opset {g.source_opset})"
    explicit, outer = _split_inputs(node)
    body = node.attrs["body"].g
    trip = g.const(explicit[0]) if explicit and explicit[0] else None
    cond = g.const(explicit[1]) if len(explicit) > 1 and explicit[1] else np.array(True)
    if trip is None or cond is None:
        raise CompileError(f"{where}: the trip count and the initial condition must be constants (known at compile time)")
    if not _passes_condition_through(body):
        raise CompileError(f"{where}: the body computes its condition from data (a while-loop has no static "
                           f"unrolled form)")
    steps = int(np.asarray(trip).reshape(-1)[0]) if bool(np.asarray(cond).reshape(-1)[0]) else 0
    carried = list(explicit[2:])
    n_carried = len(carried)
    k_scan = len(body.output) - 1 - n_carried
    if steps < 1 and k_scan:
        raise CompileError(f"{where}: a loop of {steps} iterations with scan outputs has no static form")
    nodes: list[Node] = []
    per_step: list[list[str]] = [[] for _ in range(k_scan)]
    true = g.add_const(f"{node.name}_cond", np.array(True))
    for t in range(steps):
        bindings = dict(outer)
        bindings[body.input[0].name] = g.add_const(f"{node.name}_i{t}", np.array(t, dtype=np.int64))
        bindings[body.input[1].name] = true
        for s, vi in enumerate(body.input[2:]):
            bindings[vi.name] = carried[s]
        body_nodes, rename = _body_nodes(g, node, body, bindings, opset, f"i{t}")
        nodes.extend(body_nodes)
        outs = [rename.get(o.name, o.name) for o in body.output]
        carried = outs[1:1 + n_carried]
        for k in range(k_scan):
            per_step[k].append(outs[1 + n_carried + k])
    for s, dst in enumerate(node.outputs[:n_carried]):
        if dst:
            nodes.append(_identity(g, node, carried[s], dst))
    for k, dst in enumerate(node.outputs[n_carried:n_carried + k_scan]):
        if dst:
            _stack(g, node, per_step[k], dst, 0, nodes)
    return nodes


def unroll(g: Graph, node: Node, opset: int) -> list[Node]:
    """The plain nodes that replace an If / Scan node (see the module doc); `opset` is the one
    the subgraphs are written in (the model's, unless the node came from a function body)."""
    opset = int(node.attrs.get(BODY_OPSET, opset))
    if node.op == "If":
        return _unroll_if(g, node, opset)
    if node.op == "Loop":
        return _unroll_loop(g, node, opset)
    return _unroll_scan(g, node, opset)
