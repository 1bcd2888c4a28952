"""Recognise activations that exporters spell as several ops, as single nodes.

- HardSwish: x * HardSigmoid(x) (alpha 1/6, beta 0.5), and PP-OCR's
  Clip(x + 3, 0, 6) * x / 6 in any order of the Mul/Div.
- GELU: x * 0.5 * (1 + Erf(x / sqrt(2))) -> Gelu; the tanh form
  0.5 * x * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 x^3))) -> Gelu(approximate="tanh").

The replaced nodes are left dangling for DCE. SiLU (x * Sigmoid(x)) has no ONNX
op, so it is only fused as an epilogue (fuse_activation).
"""
from __future__ import annotations

import math

from ..ir import Graph, Node


def scalar(g: Graph, name: str):
    v = g.const(name)
    return None if v is None or v.size != 1 else float(v.reshape(-1)[0])


def close(a, b, tol=1e-3) -> bool:
    return a is not None and abs(a - b) <= tol * max(1.0, abs(b))


def other_input(node: Node, name: str) -> str:
    return node.inputs[1] if node.inputs[0] == name else node.inputs[0]


def walk_product(g: Graph, uses, producers, start: str, x: str, target: float):
    """Follow single-reader Mul/Div nodes from `start` until they have multiplied in x once and
    constants equal to `target`. Returns the last node, or None."""
    cur, factor, seen_x, last = start, 1.0, False, None
    for _ in range(4):
        if seen_x and close(factor, target):
            return last
        readers = uses.get(cur, [])
        if len(readers) != 1 or cur in g.outputs:
            return None
        n = readers[0]
        if n.op == "Div" and n.inputs[0] == cur:
            c = scalar(g, n.inputs[1])
            if c is None or c == 0:
                return None
            factor /= c
        elif n.op == "Mul":
            other = other_input(n, cur)
            c = scalar(g, other)
            prod = producers.get(other)
            if c is not None:
                factor *= c
            elif other == x and not seen_x:
                seen_x = True
            elif not seen_x and prod is not None and prod.op == "Mul" and x in prod.inputs and \
                    scalar(g, other_input(prod, x)) is not None:
                seen_x = True
                factor *= scalar(g, other_input(prod, x))
            else:
                return None
        else:
            return None
        last, cur = n, n.outputs[0]
    return last if seen_x and close(factor, target) else None


def _plus_one(g: Graph, uses, t: str):
    readers = uses.get(t, [])
    if len(readers) == 1 and readers[0].op == "Add" and close(scalar(g, other_input(readers[0], t)), 1.0):
        return readers[0].outputs[0]
    return None


def _gelu_erf_input(g: Graph, producers, erf: Node):
    arg = producers.get(erf.inputs[0])
    if arg is None:
        return None
    if arg.op == "Div" and close(scalar(g, arg.inputs[1]), math.sqrt(2.0)):
        return arg.inputs[0]
    if arg.op == "Mul":
        for x in arg.inputs:
            if close(scalar(g, other_input(arg, x)), 1 / math.sqrt(2.0)):
                return x
    return None


def _is_cube(g: Graph, producers, t: str, x: str) -> bool:
    p = producers.get(t)
    if p is None:
        return False
    if p.op == "Pow":
        return p.inputs[0] == x and close(scalar(g, p.inputs[1]), 3.0)
    if p.op == "Mul":
        a, b = p.inputs
        if a == x or b == x:
            sq = producers.get(b if a == x else a)
            return sq is not None and sq.op == "Mul" and sq.inputs == [x, x]
    return False


def _gelu_tanh_input(g: Graph, producers, tanh: Node):
    scaled = producers.get(tanh.inputs[0])
    if scaled is None or scaled.op != "Mul":
        return None
    for inner_name in scaled.inputs:
        if not close(scalar(g, other_input(scaled, inner_name)), math.sqrt(2.0 / math.pi)):
            continue
        inner = producers.get(inner_name)
        if inner is None or inner.op != "Add":
            continue
        for x in inner.inputs:
            cubic = producers.get(other_input(inner, x))
            if cubic is None or cubic.op != "Mul":
                continue
            for t in cubic.inputs:
                if close(scalar(g, other_input(cubic, t)), 0.044715) and _is_cube(g, producers, t, x):
                    return x
    return None


def run(g: Graph) -> dict:
    """Returns counts; replaced nodes are left dangling for DCE."""
    producers, uses = g.producers(), g.consumers()
    counts = {"HardSwish": 0, "Gelu": 0, "GeluTanh": 0}
    replace: dict[int, Node] = {}
    for node in g.nodes:
        new = None
        if node.op == "HardSigmoid" and close(node.attrs.get("alpha", 0.2), 1 / 6) and \
                close(node.attrs.get("beta", 0.5), 0.5):
            x = node.inputs[0]
            last = walk_product(g, uses, producers, node.outputs[0], x, 1.0)
            if last is not None:
                new = (last, Node("HardSwish", last.name, [x], list(last.outputs), {}), "HardSwish")
        elif node.op == "Clip" and len(node.inputs) == 3 and close(scalar(g, node.inputs[1]), 0.0) and \
                close(scalar(g, node.inputs[2]), 6.0):
            add = producers.get(node.inputs[0])
            if add is not None and add.op == "Add" and len(uses.get(add.outputs[0], [])) == 1:
                for x in add.inputs:
                    if close(scalar(g, other_input(add, x)), 3.0):
                        last = walk_product(g, uses, producers, node.outputs[0], x, 1 / 6)
                        if last is not None:
                            new = (last, Node("HardSwish", last.name, [x], list(last.outputs), {}), "HardSwish")
                        break
        elif node.op in ("Erf", "Tanh"):
            x = (_gelu_erf_input if node.op == "Erf" else _gelu_tanh_input)(g, producers, node)
            u = _plus_one(g, uses, node.outputs[0]) if x else None
            last = walk_product(g, uses, producers, u, x, 0.5) if u else None
            if last is not None:
                attrs = {} if node.op == "Erf" else {"approximate": "tanh"}
                new = (last, Node("Gelu", last.name, [x], list(last.outputs), attrs),
                       "Gelu" if node.op == "Erf" else "GeluTanh")
        if new is not None:
            last, gelu, kind = new
            gelu.sources = [node.name] + list(last.sources)
            replace[id(last)] = gelu
            counts[kind] += 1
    g.nodes = [replace.get(id(n), n) for n in g.nodes]
    return counts
