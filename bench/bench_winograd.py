"""3x3 stride-1 convs: the Winograd path (ACL_SIM_CONV_WINOGRAD=all) against acl_sim's other paths
(ACL_SIM_CONV_WINOGRAD=0: direct conv or im2col GEMM, whichever the dispatch picks), and optionally
against onnxruntime, on the resnet50 / vgg19 / densenet121 shapes.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_winograd.py [--seconds 1] [--cpu-time] [--ort] [--op]

Each shape is a one-node model through the public path (atc, load, memcpy + execute + memcpy), so the
transformed weights come from the node cache as in a real model; --op times the testing op path instead
(no model: the weights are transformed on every call, as aclop does). Timing: bench_timing.compare
(alternated in one process, median of per-pair ratios, lower is better); the Conv kernel reads
ACL_SIM_CONV_WINOGRAD per call, so one loaded model serves both paths. --cpu-time: one thread, thread
CPU time (the diagnostic for a loaded host). Also prints max|diff|/max|ref| of both paths against float64.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_timing as bt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from kernel_harness import conv_ref, run_op  # noqa: E402

import bench_models as bm  # noqa: E402

P1 = {"pads": [1, 1, 1, 1]}
# name, X shape, W shape
CASES = [
    ("resnet50 64@56", (1, 64, 56, 56), (64, 64, 3, 3)),
    ("resnet50 128@28", (1, 128, 28, 28), (128, 128, 3, 3)),
    ("resnet50 256@14", (1, 256, 14, 14), (256, 256, 3, 3)),
    ("resnet50 512@7", (1, 512, 7, 7), (512, 512, 3, 3)),
    ("vgg19 3->64@224", (1, 3, 224, 224), (64, 3, 3, 3)),
    ("vgg19 64@224", (1, 64, 224, 224), (64, 64, 3, 3)),
    ("vgg19 64->128@112", (1, 64, 112, 112), (128, 64, 3, 3)),
    ("vgg19 128@112", (1, 128, 112, 112), (128, 128, 3, 3)),
    ("vgg19 128->256@56", (1, 128, 56, 56), (256, 128, 3, 3)),
    ("vgg19 256@56", (1, 256, 56, 56), (256, 256, 3, 3)),
    ("vgg19 256->512@28", (1, 256, 28, 28), (512, 256, 3, 3)),
    ("vgg19 512@28", (1, 512, 28, 28), (512, 512, 3, 3)),
    ("vgg19 512@14", (1, 512, 14, 14), (512, 512, 3, 3)),
    ("densenet 128->32@56", (1, 128, 56, 56), (32, 128, 3, 3)),
    ("densenet 128->32@28", (1, 128, 28, 28), (32, 128, 3, 3)),
    ("densenet 128->32@14", (1, 128, 14, 14), (32, 128, 3, 3)),
    ("densenet 128->32@7", (1, 128, 7, 7), (32, 128, 3, 3)),
    ("batch 4 64@56", (4, 64, 56, 56), (64, 64, 3, 3)),
    ("batch 8 512@7", (8, 512, 7, 7), (512, 512, 3, 3)),
    ("small 8@56", (1, 8, 56, 56), (8, 8, 3, 3)),
    ("small 16@56", (1, 16, 56, 56), (16, 16, 3, 3)),
    ("small 32@28", (1, 32, 28, 28), (32, 32, 3, 3)),
    ("small 16->64@28", (1, 16, 28, 28), (64, 16, 3, 3)),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0, help="timing budget per case")
    ap.add_argument("--cases", help="comma-separated substrings of case names to run")
    ap.add_argument("--ort", action="store_true", help="also time the Winograd path against onnxruntime")
    ap.add_argument("--op", action="store_true", help="the testing op path (weights transformed per call)")
    bt.add_cpu_time_option(ap)
    args = ap.parse_args()
    bt.apply_cpu_time_option(args)
    print(bt.machine_header())
    import onnx
    import onnx.numpy_helper
    if not args.op:
        import acl
        acl.init()
        acl.rt.set_device(0)
        os.makedirs(os.path.join(bm.WORK, "convs"), exist_ok=True)
    rng = np.random.default_rng(0)
    rows = []
    for name, xs, ws in CASES:
        if args.cases and not any(c in name for c in args.cases.split(",")):
            continue
        x = rng.standard_normal(xs).astype(np.float32)
        model, _ = bt.single_op_model("Conv", xs, ws, P1)
        w, b = (onnx.numpy_helper.to_array(t) for t in model.graph.initializer)
        want = conv_ref(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64), pads=P1["pads"])
        om = None
        if not args.op:
            path = os.path.join(bm.WORK, "convs", f"wino_{'_'.join(map(str, xs))}_{ws[0]}.onnx")
            onnx.save(model, path)
            om = bm.AclModel(acl, bm.atc(path, None, path[:-5]), x)

        def call(mode):
            def f():
                os.environ["ACL_SIM_CONV_WINOGRAD"] = mode
                if om is None:
                    return run_op("Conv", [x, w, b], [want.shape], [np.float32], P1)[0]
                om.infer()
                return np.frombuffer(om.outs[0][2], np.float32).reshape(want.shape)
            return f

        wino, other = call("all"), call("0")
        err = [float(np.abs(f() - want).max() / np.abs(want).max()) for f in (wino, other)]
        c = bt.compare(wino, other, seconds=args.seconds)
        row = [name, bt.ms(c.ours_s), bt.ms(c.ref_s), f"{c.ratio:.2f}", f"{err[0]:.1e}", f"{err[1]:.1e}"]
        if args.ort:
            sess = bt.ort_session(model.SerializeToString())
            co = bt.compare(wino, lambda: sess.run(None, {"x": x}), seconds=args.seconds)
            row.append(f"{co.ratio:.2f}")
        if om is not None:
            om.release()
        os.environ.pop("ACL_SIM_CONV_WINOGRAD", None)
        rows.append(row)
        print(" | ".join(row), flush=True)
    headers = ["case", "winograd ms", "other path ms", "winograd / other", "wino err", "other err"]
    if args.ort:
        headers.append("winograd / onnxruntime")
    print(bt.table(headers, rows))


if __name__ == "__main__":
    main()
