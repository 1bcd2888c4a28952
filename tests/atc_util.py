"""Helpers for the ATC tests: build tiny ONNX graphs, compile them, check the .om against onnxruntime."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from acl_sim.compiler import compile_model
from acl_sim.compiler.om_reader import read_om
from acl_sim.compiler.om_to_onnx import to_onnx


def make_model(nodes, inputs, outputs, inits=(), opset=13):
    """inputs/outputs: [(name, shape)] float32 (or (name, shape, elem_type)); inits: {name: array}."""
    def vi(spec):
        name, shape = spec[0], spec[1]
        elem = spec[2] if len(spec) > 2 else TensorProto.FLOAT
        return helper.make_tensor_value_info(name, elem, shape)

    graph = helper.make_graph(nodes, "tiny", [vi(s) for s in inputs], [vi(s) for s in outputs],
                              initializer=[numpy_helper.from_array(np.asarray(v), k) for k, v in dict(inits).items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 7
    return model


def ort_run(model, feeds):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 3
    data = model.SerializeToString() if isinstance(model, onnx.ModelProto) else model
    return ort.InferenceSession(data, so, providers=["CPUExecutionProvider"]).run(None, feeds)


def compile_and_compare(model, tmp_path, feeds_per_profile, name="m", rtol=1e-4, atol=1e-5, **options):
    """Compiles `model`, rebuilds each profile of the .om as ONNX and checks it against the source on ORT.

    Returns (report, OmFile)."""
    options.setdefault("cache", False)
    report = compile_model(model, str(tmp_path / name), **options)
    om = read_om(report["om_path"])
    source = model if isinstance(model, onnx.ModelProto) else onnx.load(model)
    for profile in range(len(om.graph["profiles"])):
        check_plan_sound(om, profile)
    for profile, feeds in enumerate(feeds_per_profile):
        expected = ort_run(source, feeds)
        got = ort_run(to_onnx(om, profile), feeds)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert g.shape == e.shape
            np.testing.assert_allclose(g.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol)
    return report, om


def pass_stats(report, name, profile=0):
    """The report entry of pass `name` (first match for that profile)."""
    for entry in report["passes"]:
        if entry["pass"] == name and entry["profile"] in (profile, None):
            return entry
    raise AssertionError(f"pass {name} not in report: {[e['pass'] for e in report['passes']]}")


def ops_of(om, profile=0):
    return [n["op"] for n in om.profile(profile)["nodes"]]


def concat_views(g) -> dict:
    """{input tensor: (concat output tensor, byte offset)} for every Concat input the plan put
    inside its output, in the exact place the Concat would copy it to (a batch-1 slice)."""
    tensors, views = g["tensors"], {}
    for node in g["nodes"]:
        if node["op"] != "Concat" or tensors[node["outputs"][0]]["kind"] != "workspace":
            continue
        out = node["outputs"][0]
        shape = tensors[out]["shape"]
        axis = node["attrs"].get("axis", 0) % len(shape)
        if any(d != 1 for d in shape[:axis]):
            continue
        cursor = 0
        for i in node["inputs"]:
            t = tensors[i]
            if t["kind"] == "workspace" and t["offset"] == tensors[out]["offset"] + cursor:
                views[i] = (out, cursor)
            cursor += t["size"]
    return views


def _inside(views, a, b) -> bool:
    """`a` is (through concat slices) a view of part of `b`."""
    while a in views:
        a = views[a][0]
        if a == b:
            return True
    return False


def check_plan_sound(om, profile=0):
    """Independent check of a profile's memory plan: two workspace tensors whose lifetimes overlap
    never share bytes, except an in-place op's output over the input it reads for the last time and
    a Concat input placed as its slice of the Concat output (through any chain of concats)."""
    g = om.profile(profile)
    views = concat_views(g)
    first, last = {}, {}
    for step, node in enumerate(g["nodes"]):
        for t in node["outputs"]:
            first.setdefault(t, step)
            last.setdefault(t, step)
        for t in node["inputs"]:
            if t >= 0:
                last[t] = max(last.get(t, step), step)
    ws = [i for i, t in enumerate(g["tensors"]) if t["kind"] == "workspace"]
    for i in ws:
        t = g["tensors"][i]
        assert t["offset"] % 64 == 0 and t["offset"] + t["size"] <= g["workspace_size"], t
        assert i in first, f"workspace tensor {t['name']} is never written"
    for x, a in enumerate(ws):
        ta = g["tensors"][a]
        for b in ws[x + 1:]:
            tb = g["tensors"][b]
            if not (first[a] <= last[b] and first[b] <= last[a]):
                continue
            if ta["offset"] >= tb["offset"] + tb["size"] or tb["offset"] >= ta["offset"] + ta["size"]:
                continue
            if _inside(views, a, b) or _inside(views, b, a):
                continue  # the same bytes by construction
            # Overlapping bytes and lifetimes: must be an in-place hand-over at one node.
            early, late = (a, b) if first[a] <= first[b] else (b, a)
            step = first[late]
            node = g["nodes"][step]
            assert last[early] == step and early in node["inputs"] and late in node["outputs"], \
                (g["tensors"][early]["name"], g["tensors"][late]["name"], node["op"])
            assert g["tensors"][early]["offset"] == g["tensors"][late]["offset"]
