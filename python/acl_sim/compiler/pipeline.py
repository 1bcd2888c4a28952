"""ONNX -> IR -> passes (per profile) -> memory plan -> .om: the body of `compile_model`."""
from __future__ import annotations

import os

import hashlib
import time
from dataclasses import dataclass, field

import numpy as np

import acl_sim

from . import aipp, dynamic, memory_plan, node_check, om_writer, supported_ops
from .errors import CompileError
from .ir import Graph, Node
from .onnx_import import import_model
from .options import Options
from .passes import PROFILE_PIPELINE, SHAPE_FREE_PIPELINE


@dataclass
class PassContext:
    options: Options
    report: list = field(default_factory=list)
    memo: dict = field(default_factory=dict)  # per-compile caches shared by the profiles


def _run_pass(name, fn, g: Graph, ctx: PassContext, profile):
    start = time.perf_counter()
    stats = fn(g, ctx) or {}
    ctx.report.append({"pass": name, "profile": profile, "ms": round((time.perf_counter() - start) * 1e3, 2),
                       "nodes": len(g.nodes), **stats})


def _finalise_outputs(g: Graph) -> list[str]:
    """Every graph output is written by exactly one node: an Identity copies inputs, weights and
    repeated outputs. Returns the user-facing output names (the ONNX ones)."""
    names = list(g.outputs)
    written = {o for n in g.nodes for o in n.outputs if o}
    seen = set()
    for idx, name in enumerate(names):
        if name in written and name not in seen:
            seen.add(name)
            continue
        copy = g.fresh(f"{name}_out")
        g.nodes.append(Node("Identity", g.fresh("output_copy"), [name], [copy], {}, []))
        g.shapes[copy], g.dtypes[copy] = g.shape(name), g.dtype(name)
        if name in g.syms:
            g.syms[copy] = g.syms[name]
        g.outputs[idx] = copy
        seen.add(copy)
    return names


def _attr_json(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_attr_json(v) for v in value]
    if isinstance(value, (int, float, str)):
        return value
    raise CompileError(f"attribute of type {type(value).__name__} cannot be stored")


def _graph_json(g: Graph, plan: dict, weights: om_writer.WeightStore) -> dict:
    index: dict[str, int] = {}
    tensors = []

    def tensor(name: str) -> int:
        if not name:
            return -1
        if name in index:
            return index[name]
        shape = [int(d) for d in g.shape(name)]
        dtype = g.dtype(name)
        entry = {"name": name, "dtype": om_writer.acl_dtype(dtype), "shape": shape}
        if name in g.outputs:
            entry.update(kind="output", index=g.outputs.index(name))
        elif name in g.inputs:
            entry.update(kind="input", index=g.inputs.index(name))
        elif g.is_const(name):
            offset, _ = weights.add(g.consts[name])
            entry.update(kind="weight", offset=offset)
        else:
            entry.update(kind="workspace", offset=plan["offsets"][name])
        if name in g.syms:  # run-time dims: `shape` holds their bounds
            entry["sym"] = [-1 if sym is None else int(sym) for sym in g.syms[name]]
        entry["size"] = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
        index[name] = len(tensors)
        tensors.append(entry)
        return index[name]

    for name in g.inputs:
        tensor(name)
    nodes = []
    for n in g.nodes:
        nodes.append({"name": n.name, "op": n.op, "inputs": [tensor(i) for i in n.inputs],
                      "outputs": [tensor(o) for o in n.outputs],
                      "attrs": {k: _attr_json(v) for k, v in n.attrs.items()}, "sources": n.sources or [n.name]})
    for name in g.outputs:
        tensor(name)
    graph = {"workspace_size": plan["workspace_size"], "tensors": tensors, "nodes": nodes}
    if g.symbols:
        graph["symbols"] = [{"name": s["name"], "bound": int(s["bound"])} for s in g.symbols]
    return graph


def _import_checked(proto):
    """import_model + the early op check; a failure names the node with its op, opset, dtypes and
    the attribute at fault (node_check), and counts the other unsupported nodes."""
    try:
        base, specs = import_model(proto)
        supported_ops.check_importable(base)
        return base, specs
    except CompileError:
        lines = node_check.unsupported_nodes(proto)
        if not lines:
            raise
        more = (f" (+{len(lines) - 1} more unsupported nodes; `acl-sim atc --check` lists them)"
                if len(lines) > 1 else "")
        raise CompileError(lines[0] + more) from None


def compile_graph(proto, options: Options, source_sha256: str, out_path: str) -> dict:
    """Compiles a ModelProto into the .om file `out_path`; returns the report."""
    start = time.perf_counter()
    base, specs = _import_checked(proto)
    ctx = PassContext(options)
    for name, fn in SHAPE_FREE_PIPELINE:
        _run_pass(name, fn, base, ctx, None)
    declared = dynamic.declared_shapes(base.inputs, specs, options)
    profiles, stored_profiles = dynamic.profile_shapes(base.inputs, declared, options)
    weights = om_writer.WeightStore()
    graphs, plans, out_shapes = [], [], []
    for p_idx, shapes in enumerate(profiles):
        g = base.copy()
        for name in g.inputs:
            g.shapes[name] = tuple(shapes[name])
        profile = p_idx if len(profiles) > 1 else 0
        for name, fn in PROFILE_PIPELINE:
            _run_pass(name, fn, g, ctx, profile)
        supported_ops.check_supported(g)
        aipp_records = aipp.insert(g, options.aipp, options.input_format) if options.aipp else []
        output_names = _finalise_outputs(g)
        t0 = time.perf_counter()
        plan = memory_plan.plan(g)
        ctx.report.append({"pass": "memory_plan", "profile": profile, "ms": round((time.perf_counter() - t0) * 1e3, 2),
                           "nodes": len(g.nodes), "naive_bytes": plan["naive_bytes"],
                           "planned_bytes": plan["planned_bytes"], "lower_bound_bytes": plan["lower_bound_bytes"],
                           "inplace_count": plan["inplace_count"],
                           "concat_inplace_inputs": plan["concat_inplace_inputs"],
                           "concat_elided": plan["concat_elided"]})
        graphs.append(_graph_json(g, plan, weights))
        plans.append({k: plan[k] for k in ("naive_bytes", "planned_bytes", "lower_bound_bytes", "inplace_count",
                                           "concat_inplace_inputs", "concat_elided")})
        out_shapes.append([(_io_dims(g, o), g.dtype(o)) for o in g.outputs])
        last_graph = g
    iodesc = _iodesc(base, declared, specs, profiles, out_shapes, output_names, options, stored_profiles)
    aipp.patch_iodesc(iodesc, aipp_records)
    # model_name names the model in dump paths and dump_list filters, as the .om name does in CANN.
    model_name = os.path.splitext(os.path.basename(out_path))[0]
    meta = {"producer": f"acl_sim atc {acl_sim.__version__}", "model_name": model_name,
            "soc_version": options.soc_version,
            "opset": base.opset, "source_opset": base.source_opset, "source_sha256": source_sha256,
            "options": options.cache_key_dict(), "passes": ctx.report}
    size = om_writer.write_om(out_path, iodesc, graphs, {"profiles": plans}, weights, meta)
    report = {"passes": ctx.report, "memplan": plans, "profiles": len(profiles), "om_bytes": size,
              "weights_bytes": weights.size, "op_counts": last_graph.op_counts(),
              "compile_seconds": round(time.perf_counter() - start, 3), "cached": False,
              # ONNX outputs that are sequences (model outputs '<name>:<k>') or empty optionals (no model output)
              "sequence_outputs": dict(last_graph.value_outputs["sequences"]),
              "absent_outputs": list(last_graph.value_outputs["absent"])}
    return report


def _io_dims(g: Graph, name: str):
    """(bound shape, IODESC dims): a run-time dim is -1 in IODESC; the size is the bound's."""
    shape = g.shape(name)
    syms = g.syms.get(name)
    dims = [-1 if syms and syms[k] is not None else int(d) for k, d in enumerate(shape)]
    return shape, dims


def _iodesc(base: Graph, declared: dict, specs: dict, profiles: list, out_shapes: list, output_names: list,
            options: Options, stored_profiles: list) -> dict:
    inputs = []
    for name in base.inputs:
        dims, dtype = declared[name], specs[name][1]
        elements = max(int(np.prod(p[name], dtype=np.int64)) for p in profiles)
        fmt = om_writer.ACL_FORMATS[options.input_format] if len(dims) == 4 or options.input_format == "ND" else 2
        inputs.append({"name": name, "dtype": om_writer.acl_dtype(dtype), "format": fmt, "dims": dims,
                       "size": elements * np.dtype(dtype).itemsize})
    outputs = []
    for k, name in enumerate(output_names):
        sizes = [(int(np.prod(s[k][0][0], dtype=np.int64)) * np.dtype(s[k][1]).itemsize, s[k]) for s in out_shapes]
        size, ((shape, dims), dtype) = max(sizes, key=lambda t: t[0])
        outputs.append({"name": name, "dtype": om_writer.acl_dtype(dtype), "format": 2,
                        "dims": [int(d) for d in dims], "size": size})
    dyn = {"kind": options.dynamic_kind, "profiles": stored_profiles}
    if options.dynamic_kind != "none":
        k = len(stored_profiles[0])
        inputs.append({"name": dynamic.MBATCH_INPUT, "dtype": 9, "format": 2, "dims": [k], "size": 8 * k})
        dyn["mbatch_input_index"] = len(inputs) - 1
    return {"inputs": inputs, "outputs": outputs, "dynamic": dyn}


def source_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
