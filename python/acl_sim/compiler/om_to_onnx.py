"""Rebuild an ONNX model from one profile of an `.om` (for tests, compare and inspection).

Fused epilogues are expanded back into ONNX ops and Gelu into its erf/tanh
formula, so the result runs on onnxruntime at the canonical opset and can be
checked against the source model. Workspace offsets are ignored (ONNX has
no aliasing); weights come from the WEIGHTS section.
"""
from __future__ import annotations

import math

import numpy as np

from .ir import CANONICAL_OPSET
from .. import dtypes
from .om_reader import OmFile, read_om


def _activation_nodes(helper, numpy_helper, act: str, alpha, beta, x: str, y: str, tag: str, inits: list):
    def const(name, value):
        inits.append(numpy_helper.from_array(np.asarray(value, dtype=np.float32), name))
        return name

    if act in ("Relu", "Sigmoid", "Tanh", "HardSwish"):
        return [helper.make_node(act, [x], [y])]
    if act == "LeakyRelu":
        return [helper.make_node(act, [x], [y], alpha=alpha)]
    if act == "HardSigmoid":
        return [helper.make_node(act, [x], [y], alpha=alpha, beta=beta)]
    if act == "Clip":
        return [helper.make_node("Clip", [x, const(f"{tag}_min", alpha), const(f"{tag}_max", beta)], [y])]
    if act == "Silu":
        return [helper.make_node("Sigmoid", [x], [f"{tag}_sig"]), helper.make_node("Mul", [x, f"{tag}_sig"], [y])]
    if act in ("Gelu", "GeluTanh"):
        return _gelu_nodes(helper, const, x, y, tag, act == "GeluTanh")
    raise ValueError(f"unknown activation {act}")


def _gelu_nodes(helper, const, x, y, tag, tanh):
    n = helper.make_node
    if tanh:
        nodes = [n("Mul", [x, x], [f"{tag}_x2"]), n("Mul", [f"{tag}_x2", x], [f"{tag}_x3"]),
                 n("Mul", [f"{tag}_x3", const(f"{tag}_c", 0.044715)], [f"{tag}_t"]),
                 n("Add", [x, f"{tag}_t"], [f"{tag}_in"]),
                 n("Mul", [f"{tag}_in", const(f"{tag}_k", math.sqrt(2 / math.pi))], [f"{tag}_s"]),
                 n("Tanh", [f"{tag}_s"], [f"{tag}_e"])]
    else:
        nodes = [n("Mul", [x, const(f"{tag}_k", 1 / math.sqrt(2))], [f"{tag}_s"]), n("Erf", [f"{tag}_s"], [f"{tag}_e"])]
    return nodes + [n("Add", [f"{tag}_e", const(f"{tag}_one", 1.0)], [f"{tag}_p"]),
                    n("Mul", [x, f"{tag}_p"], [f"{tag}_q"]), n("Mul", [f"{tag}_q", const(f"{tag}_half", 0.5)], [y])]


def _epilogue_nodes(helper, numpy_helper, attrs: dict, x: str, y: str, tag: str, inits: list):
    """The fused activation of `attrs` and its post affine (activation_scale / activation_shift)."""
    scale, shift = attrs.get("activation_scale", 1.0), attrs.get("activation_shift", 0.0)
    affine = scale != 1.0 or shift != 0.0
    act_out = f"{tag}_act" if affine else y
    nodes = _activation_nodes(helper, numpy_helper, attrs["activation"], attrs.get("activation_alpha"),
                              attrs.get("activation_beta"), x, act_out, tag, inits)
    if affine:
        inits.append(numpy_helper.from_array(np.asarray(scale, np.float32), f"{tag}_scale"))
        inits.append(numpy_helper.from_array(np.asarray(shift, np.float32), f"{tag}_shift"))
        nodes += [helper.make_node("Mul", [act_out, f"{tag}_scale"], [f"{tag}_scaled"]),
                  helper.make_node("Add", [f"{tag}_scaled", f"{tag}_shift"], [y])]
    return nodes


def to_onnx(om, profile: int = 0):
    """ModelProto of `profile` of an .om (path, bytes or OmFile); inputs/outputs keep IODESC names."""
    from onnx import helper, numpy_helper

    f = om if isinstance(om, OmFile) else read_om(om)
    g = f.profile(profile)
    tensors = g["tensors"]
    names = [f"t{i}" for i in range(len(tensors))]
    io = f.iodesc
    for i, t in enumerate(tensors):
        if t["kind"] == "input":
            names[i] = io["inputs"][t["index"]]["name"]
        elif t["kind"] == "output":
            names[i] = io["outputs"][t["index"]]["name"]
    inits = [numpy_helper.from_array(np.ascontiguousarray(f.weight(t)), names[i])
             for i, t in enumerate(tensors) if t["kind"] == "weight"]
    nodes = []
    for k, node in enumerate(g["nodes"]):
        attrs = {a: v for a, v in node["attrs"].items() if not a.startswith("activation") and v != []}
        ins = [names[i] if i >= 0 else "" for i in node["inputs"]]
        outs = [names[i] for i in node["outputs"]]
        op = node["op"]
        act = node["attrs"].get("activation")
        if op == "Gelu":
            nodes += _gelu_nodes(helper, lambda n, v: (inits.append(numpy_helper.from_array(
                np.asarray(v, np.float32), n)), n)[1], ins[0], outs[0], f"n{k}g",
                attrs.get("approximate", "none") == "tanh")
            continue
        if op == "Conv" and len(ins) > 3:  # fused residual: Conv(x, W, b) + r
            residual, ins = ins[3], ins[:3]
            pre = f"n{k}_conv"
            nodes.append(helper.make_node(op, [i for i in ins] if ins[2] else ins[:2], [pre], name=node["name"],
                                          **attrs))
            if act:
                nodes.append(helper.make_node("Add", [pre, residual], [f"n{k}_pre"]))
                nodes += _epilogue_nodes(helper, numpy_helper, node["attrs"], f"n{k}_pre", outs[0], f"n{k}a", inits)
            else:
                nodes.append(helper.make_node("Add", [pre, residual], outs))
            continue
        if act:
            raw = f"n{k}_pre"
            nodes.append(helper.make_node(op, ins, [raw] + outs[1:], name=node["name"], **attrs))
            nodes += _epilogue_nodes(helper, numpy_helper, node["attrs"], raw, outs[0], f"n{k}a", inits)
        else:
            nodes.append(helper.make_node(op, ins, outs, name=node["name"], **attrs))
    by_index = {("input", t["index"]): t for t in tensors if t["kind"] == "input"}
    by_index.update({("output", t["index"]): t for t in tensors if t["kind"] == "output"})
    inputs = []
    for idx, d in enumerate(io["inputs"]):
        t = by_index.get(("input", idx))
        if t is not None:
            inputs.append(helper.make_tensor_value_info(d["name"], dtypes.to_onnx(t["dtype"]), t["shape"]))
    def dims(t):  # a run-time dim (docs/dynamic_shapes.md) has no static size
        return [None if s >= 0 else d for d, s in zip(t["shape"], t.get("sym", [-1] * len(t["shape"])))]

    outputs = [helper.make_tensor_value_info(d["name"], dtypes.to_onnx(by_index[("output", idx)]["dtype"]),
                                             dims(by_index[("output", idx)]))
               for idx, d in enumerate(io["outputs"])]
    graph = helper.make_graph(nodes, "from_om", inputs, outputs, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", CANONICAL_OPSET)])
    model.ir_version = 8
    return model


def numpy_dtype(acl_dtype: int):
    return dtypes.to_numpy(acl_dtype)
