"""Every distinct Conv of a model as its own one-node model, acl_sim against onnxruntime: which conv
shapes lose, and by how much. Each conv goes through the public path (atc, load, memcpy + execute +
memcpy) against an onnxruntime session of the same one-node model.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_model_convs.py resnet50 [--seconds 1]
        [--only 'W [32, 128, 3, 3]'] [--cpu-time]

Timing: bench_timing.compare (wall clock, all cores, alternated, median of per-pair ratios). One-node
onnxruntime sessions pay a layout reorder in and out that its whole-model NCHWc run does not, so the
sum over convs is not the model's time; the per-shape ratios are what this is for. --cpu-time is
bench_timing's single-thread diagnostic.
"""
from __future__ import annotations

import argparse
import collections
import copy
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

import numpy as np  # noqa: E402

import bench_models as bm  # noqa: E402
import bench_timing as bt  # noqa: E402


def conv_cases(name: str):
    """[(count, x shape, w shape, attrs)] for the model's distinct Convs, most frequent first."""
    import onnx
    import onnxruntime as ort
    from onnx import helper

    path, _, feeds = bm.model_case(name)
    m = onnx.load(path)
    convs = [n for n in m.graph.node if n.op_type == "Conv"]
    probe = copy.deepcopy(m)  # X shapes from one onnxruntime run with every conv input as an output
    wanted = list(dict.fromkeys(n.input[0] for n in convs))
    for w in wanted:
        probe.graph.output.append(helper.make_value_info(w, onnx.TypeProto()))
    sess = ort.InferenceSession(probe.SerializeToString(), providers=["CPUExecutionProvider"])
    shapes = {w: list(o.shape) for w, o in zip(wanted, sess.run(wanted, feeds))}
    inits = {i.name: list(i.dims) for i in m.graph.initializer}
    count, cases = collections.Counter(), {}
    for n in convs:
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        xs, ws = shapes[n.input[0]], inits[n.input[1]]
        key = repr((xs, ws, sorted(attrs.items())))
        count[key] += 1
        cases[key] = (xs, ws, attrs)
    return [(c, *cases[k]) for k, c in count.most_common()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model", choices=["resnet50", "densenet121", "vgg19", "ppocr_det", "ppocr_rec", "ppocr_cls"])
    ap.add_argument("--seconds", type=float, default=1.0, help="timing budget per conv shape")
    ap.add_argument("--only", help="'|'-separated substrings of the shape text (e.g. 'W [32, 128, 3, 3]') to time")
    bt.add_cpu_time_option(ap)
    args = ap.parse_args()
    bt.apply_cpu_time_option(args)
    import acl
    import onnx

    acl.init()
    acl.rt.set_device(0)
    os.makedirs(os.path.join(bm.WORK, "convs"), exist_ok=True)
    rows, ours, ref = [], 0.0, 0.0
    for i, (count, xs, ws, attrs) in enumerate(conv_cases(args.model)):
        geo = f"X {xs} W {ws} strides {attrs.get('strides', [1, 1])} pads {attrs.get('pads', 'none')}"
        if attrs.get("group", 1) != 1:
            geo += f" group {attrs['group']}"
        if args.only and not any(o in geo for o in args.only.split("|")):
            continue
        model, _ = bt.single_op_model("Conv", xs, ws, attrs)
        path = os.path.join(bm.WORK, "convs", f"{args.model}_{i}.onnx")
        onnx.save(model, path)
        x = np.random.default_rng(0).standard_normal(xs).astype(np.float32)
        m = bm.AclModel(acl, bm.atc(path, None, path[:-5]), x)
        sess = bt.ort_session(path)
        try:
            r = bt.compare(m.infer, lambda: sess.run(None, {"x": x}), seconds=args.seconds, settle=bt.POOL_SETTLE_S)
        finally:
            m.release()
        ours += count * r.ours_s
        ref += count * r.ref_s
        rows.append([count, geo, bt.ms(r.ours_s), bt.ms(r.ref_s), f"{r.ratio:.2f}x", count * (r.ours_s - r.ref_s) * 1e3])
        print(rows[-1][:5], flush=True)
    rows.sort(key=lambda r: -r[5])
    print(bt.machine_header())
    print(bt.table(["convs", "shape", "acl_sim ms", "onnxruntime ms", "ratio", "count x (ours - ref) ms"],
                   [r[:5] + [f"{r[5]:+.2f}"] for r in rows]))
    print(f"\nsum over convs: acl_sim {ours * 1e3:.2f} ms, onnxruntime {ref * 1e3:.2f} ms ({ours / ref:.2f}x)")


if __name__ == "__main__":
    main()
