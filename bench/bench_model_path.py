"""What the model path adds: a one-node model through `acl.mdl.execute` vs the same kernel alone.

For each one-node model (compiled with `acl-sim atc`), three ways to run the same kernel on the
same data, compared pairwise with bench_timing.compare (wall clock, all cores, alternated):
  kernel  - acl_sim._core.testing.run_op on NumPy arrays (the testing path: no device, no stream;
            it allocates and zero-fills its output each call, which the model path does not);
  graph   - acl_sim._core.testing_model: the compiled .om's graph executor on host memory, on the
            calling thread (no runtime, no stream);
  execute - acl.mdl.execute on device buffers (datasets, validation, the default stream).
The target (issue 11 part 3) is execute / kernel <= 1.05.

    PYTHONPATH=python ACL_SIM_BUILD_DIR=build/<you> python bench/bench_model_path.py [--seconds 2]
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

import bench_models as bm  # noqa: E402
import bench_timing as bt  # noqa: E402
from kernel_harness import bound_op  # noqa: E402

# (label, bench_models one-node model); the kernel runs that model's node, its op and attributes as the file has them.
CASES = [
    ("Conv 3x3 64->64 56x56", "conv3x3_64"),
    ("Conv 3x3 512->512 7x7", "conv3x3_512"),
    ("Conv 7x7/2 3->64 224 (stem)", "conv7x7s2_stem"),
    ("Conv 3x3/2 128->128 56x56", "conv3x3s2_128"),
    ("Conv 1x1 64->256 56x56", "conv1x1_64_256"),
    ("MatMul 1024^3", "matmul1024"),
    ("Relu 16 elements (fixed cost)", "relu16"),
]


def weights_of(onnx_path):
    import onnx
    from onnx import numpy_helper

    m = onnx.load(onnx_path)
    return [numpy_helper.to_array(t) for t in m.graph.initializer], m


def node_op(model):
    """The one node's op type and attributes, as run_op takes them."""
    from onnx import helper

    node = model.graph.node[0]
    return node.op_type, {a.name: helper.get_attribute_value(a) for a in node.attribute}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="timing budget per comparison")
    args = ap.parse_args()

    import acl
    from acl_sim._core import testing_model

    ctx = bm.open_device(acl)
    print(bt.machine_header(), flush=True)
    rows = []
    for label, name in CASES:
        path, shape_opt, feeds = bm.model_case(name)
        (x,) = feeds.values()
        om = bm.atc(path, shape_opt, os.path.join(bm.WORK, "om", name))
        inits, model = weights_of(path)
        names = {t.name: a for t, a in zip(model.graph.initializer, inits)}
        ins = [x] + [names[i] for i in model.graph.node[0].input[1:]]
        y_shape = [d.dim_value for d in model.graph.output[0].type.tensor_type.shape.dim]
        op, attrs = node_op(model)
        kernel = bound_op(op, ins, [y_shape], [np.float32], attrs)
        tm = testing_model.Model.from_file(om)
        graph = lambda: tm.run([x])  # noqa: E731
        m = bm.AclModel(acl, om, x)
        try:
            m.infer()
            want = kernel()[0]
            np.testing.assert_allclose(m.output(0), want, rtol=1e-3, atol=1e-3)
            vs_kernel = bt.compare(m.execute_only, kernel, seconds=args.seconds)
            vs_graph = bt.compare(m.execute_only, graph, seconds=args.seconds)
        finally:
            m.release()
        rows.append([label, bt.ms(vs_kernel.ours_s), bt.ms(vs_kernel.ref_s), bt.ms(vs_graph.ref_s),
                     f"{vs_kernel.ratio:.3f}", f"{vs_graph.ratio:.3f}"])
        print("  ".join(rows[-1]), flush=True)
    bm.close_device(acl, ctx)
    print()
    print(bt.table(["one-node model", "acl.mdl.execute ms", "kernel (run_op) ms", "graph (testing_model) ms",
                    "execute / kernel", "execute / graph"], rows))


if __name__ == "__main__":
    main()
