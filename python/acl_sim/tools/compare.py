"""`acl-sim compare`: layer-by-layer precision comparison with onnxruntime.

    acl-sim compare --model=x.onnx --om=x.om [--input=a.npy,b.npy] [--threshold=1e-3] [--json=out.json]

Runs the .om through plain `import acl` calls with CANN's dump enabled
(every node's outputs), runs the ONNX model under onnxruntime with every
intermediate tensor exposed, and prints, per .om node in execution order,
the max absolute and relative error and the cosine similarity against the
ONNX tensor it stands for. A fused node stands for the last ONNX node it came
from. The first node whose relative error passes the threshold (or whose
cosine similarity drops below 1 - threshold) is reported with its ONNX
sources: that is where the numbers start to depart.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

import numpy as np

from .. import dtypes

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2


class CompareError(Exception):
    pass


def _check(ret, what):
    if ret != 0:
        import acl

        raise CompareError(f"{what} failed with {ret}: {acl.get_recent_err_msg()}")


def run_om_with_dump(om_path: str, inputs: list[np.ndarray], dump_dir: str) -> tuple[list[np.ndarray], str]:
    """Execute the .om once with dump_mode=output; returns (outputs, iteration directory)."""
    import acl

    cfg_path = os.path.join(dump_dir, "acl_config.json")
    with open(cfg_path, "w", encoding="utf-8") as f:
        json.dump({"dump": {"dump_path": os.path.join(dump_dir, "dump"), "dump_mode": "output"}}, f)
    _check(acl.init(cfg_path), "acl.init")
    _check(acl.rt.set_device(0), "acl.rt.set_device")
    model_id, ret = acl.mdl.load_from_file(om_path)
    _check(ret, f"acl.mdl.load_from_file({om_path})")
    desc = acl.mdl.create_desc()
    _check(acl.mdl.get_desc(desc, model_id), "acl.mdl.get_desc")
    n_in = acl.mdl.get_num_inputs(desc)
    n_out = acl.mdl.get_num_outputs(desc)
    if n_in != len(inputs):
        raise CompareError(f"the model has {n_in} inputs, {len(inputs)} given")
    in_ds, out_ds = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    keep = []
    for i, arr in enumerate(inputs):
        size = acl.mdl.get_input_size_by_index(desc, i)
        arr = np.ascontiguousarray(arr)
        if arr.nbytes != size:
            raise CompareError(f"input {i} expects {size} bytes, the array has {arr.nbytes}")
        dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        _check(ret, "acl.rt.malloc")
        _check(acl.rt.memcpy(dev, size, acl.util.numpy_contiguous_to_ptr(arr)[0], size, ACL_MEMCPY_HOST_TO_DEVICE),
               "acl.rt.memcpy")
        keep.append((arr, dev))
        _, ret = acl.mdl.add_dataset_buffer(in_ds, acl.create_data_buffer(dev, size))
        _check(ret, "acl.mdl.add_dataset_buffer")
    outs = []
    for i in range(n_out):
        size = acl.mdl.get_output_size_by_index(desc, i)
        dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        _check(ret, "acl.rt.malloc")
        outs.append((dev, size))
        _, ret = acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(dev, size))
        _check(ret, "acl.mdl.add_dataset_buffer")
    _check(acl.mdl.execute(model_id, in_ds, out_ds), "acl.mdl.execute")
    results = []
    for i, (dev, size) in enumerate(outs):
        dims, ret = acl.mdl.get_cur_output_dims(desc, i)
        dtype = dtypes.NUMPY_OF_ACL.get(acl.mdl.get_output_data_type(desc, i), np.float32)
        host = np.empty(dims["dims"] if ret == 0 else [size // np.dtype(dtype).itemsize], dtype=dtype)
        _check(acl.rt.memcpy(acl.util.numpy_contiguous_to_ptr(host)[0], host.nbytes, dev, host.nbytes,
                             ACL_MEMCPY_DEVICE_TO_HOST), "acl.rt.memcpy")
        results.append(host)
    acl.mdl.unload(model_id)
    acl.rt.reset_device(0)
    acl.finalize()
    dump_root = os.path.join(dump_dir, "dump")
    models = [d for d in os.listdir(dump_root)] if os.path.isdir(dump_root) else []
    if not models:
        raise CompareError("the run produced no dump (is the .om from acl-sim atc?)")
    model_dir = os.path.join(dump_root, models[0])
    iters = sorted(os.listdir(model_dir), key=lambda s: int(s) if s.isdigit() else 0)
    return results, os.path.join(model_dir, iters[-1])


def onnx_intermediates(model_path: str, inputs: list[np.ndarray]):
    """Run the ONNX model with every node output exposed. Returns (values by tensor name, node outputs by node name, node order)."""
    import onnx
    import onnxruntime as ort

    model = onnx.load(model_path)
    existing = {o.name for o in model.graph.output}
    node_outputs, order = {}, {}
    for idx, node in enumerate(model.graph.node):
        name = node.name or f"{node.op_type}_{idx}"
        node_outputs[name] = list(node.output)
        order[name] = idx
        for out in node.output:
            if out and out not in existing:
                model.graph.output.append(onnx.ValueInfoProto(name=out))
                existing.add(out)
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    feed = {i.name: a for i, a in zip(sess.get_inputs(), inputs)}
    names = [o.name for o in sess.get_outputs()]
    values = dict(zip(names, sess.run(names, feed)))
    return values, node_outputs, order


def error_stats(ours: np.ndarray, ref: np.ndarray) -> dict:
    a = np.asarray(ours, dtype=np.float64).ravel()
    b = np.asarray(ref, dtype=np.float64).ravel()
    diff = np.abs(a - b)
    max_abs = float(diff.max()) if diff.size else 0.0
    scale = float(np.abs(b).max()) if b.size else 0.0
    max_rel = max_abs / scale if scale > 0 else max_abs
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    cos = float(np.dot(a, b) / (na * nb)) if na > 0 and nb > 0 else (1.0 if na == nb else 0.0)
    return {"max_abs": max_abs, "max_rel": max_rel, "cosine": cos}


def compare(model_path: str, om_path: str, inputs: list[np.ndarray], threshold: float = 1e-3) -> dict:
    values, node_outputs, order = onnx_intermediates(model_path, inputs)
    with tempfile.TemporaryDirectory() as tmp:
        outputs, it_dir = run_om_with_dump(om_path, inputs, tmp)
        with open(os.path.join(it_dir, "manifest.jsonl"), encoding="utf-8") as f:
            entries = [json.loads(line) for line in f if line.strip()]
        rows, first = [], None
        for e in sorted(entries, key=lambda e: (e["node_index"], e["index"])):
            if e["kind"] != "output":
                continue
            sources = [s for s in e.get("sources", []) if s in order] or ([e["node"]] if e["node"] in order else [])
            if not sources:
                continue
            last = max(sources, key=lambda s: order[s])
            outs = node_outputs.get(last, [])
            if e["index"] >= len(outs) or outs[e["index"]] not in values:
                continue
            ref = values[outs[e["index"]]]
            ours = np.load(os.path.join(it_dir, e["file"]))
            row = {"node": e["node"], "op_type": e["op_type"], "sources": e.get("sources", []),
                   "onnx_tensor": outs[e["index"]]}
            if ours.shape != ref.shape and ours.size == ref.size:
                ours = ours.reshape(ref.shape)
            if ours.shape != ref.shape:
                row.update({"max_abs": float("nan"), "max_rel": float("nan"), "cosine": float("nan"),
                            "note": f"shape {ours.shape} vs {ref.shape}"})
            else:
                row.update(error_stats(ours, ref))
            bad = not (row["max_rel"] <= threshold and row["cosine"] >= 1 - threshold)
            row["exceeds"] = bad
            if bad and first is None:
                first = row
            rows.append(row)
    return {"rows": rows, "first_divergence": first, "threshold": threshold,
            "outputs": [o.tolist() if o.size <= 16 else None for o in outputs]}


def _load_inputs(spec: str | None, model_path: str) -> list[np.ndarray]:
    import onnx

    model = onnx.load(model_path, load_external_data=False)
    inits = {i.name for i in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in inits]
    if spec:
        files = [s for s in spec.split(",") if s]
        if len(files) != len(graph_inputs):
            raise CompareError(f"the model has {len(graph_inputs)} inputs, --input names {len(files)} files")
        return [np.load(p) for p in files]
    rng = np.random.default_rng(0)
    arrays = []
    for i in graph_inputs:
        t = i.type.tensor_type
        shape = [d.dim_value if d.dim_value > 0 else 1 for d in t.shape.dim]
        dtype = onnx.helper.tensor_dtype_to_np_dtype(t.elem_type)
        arrays.append(rng.standard_normal(shape).astype(dtype) if np.issubdtype(dtype, np.floating)
                      else np.zeros(shape, dtype=dtype))
    return arrays


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="acl-sim compare", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True, help="the ONNX model")
    p.add_argument("--om", required=True, help="the .om compiled from it by acl-sim atc")
    p.add_argument("--input", default=None, help="comma-separated .npy files, one per model input (default: seeded random)")
    p.add_argument("--threshold", type=float, default=1e-3, help="relative-error threshold (default 1e-3)")
    p.add_argument("--json", default=None, help="also write the full report as JSON to this file")
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    for path in (args.model, args.om):
        if not os.path.exists(path):
            print(f"acl-sim compare: no such file: {path}", file=sys.stderr)
            return 2
    try:
        report = compare(args.model, args.om, _load_inputs(args.input, args.model), args.threshold)
    except CompareError as exc:
        print(f"acl-sim compare: {exc}", file=sys.stderr)
        return 1
    print(f"{'#':>4} {'node':<36} {'op_type':<14} {'max_abs':>11} {'max_rel':>11} {'cosine':>10}")
    for i, r in enumerate(report["rows"]):
        mark = " <" if r["exceeds"] else ""
        print(f"{i:>4} {r['node'][:36]:<36} {r['op_type'][:14]:<14} {r['max_abs']:>11.3e} {r['max_rel']:>11.3e}"
              f" {r['cosine']:>10.6f}{mark}")
    first = report["first_divergence"]
    if first:
        print(f"\nfirst divergence (threshold {args.threshold:g}): node {first['node']} ({first['op_type']}), "
              f"from ONNX nodes {', '.join(first['sources']) or first['node']}: max_rel {first['max_rel']:.3e}, "
              f"cosine {first['cosine']:.6f}")
    else:
        print(f"\nall {len(report['rows'])} compared nodes are within threshold {args.threshold:g}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1, default=float)
    return 0
