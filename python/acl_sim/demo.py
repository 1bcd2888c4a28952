"""`acl-sim demo`: the end-to-end tour in one command.

1. take `light_resnet50` from the onnx wheel and give it seeded random weights (its own weights
   are ConstantOfShape constants, which make every class equally likely);
2. compile it with ATC into an `.om`;
3. load it and classify an input through plain `import acl` calls, in the shape of the
   Ascend/samples resnet50 `acl_net.py` (init → set_device → create_context → load_from_file →
   desc → malloc → dataset → memcpy → execute → memcpy back → teardown);
4. print the top-5 and the latency against onnxruntime on the same input, timed as bench/ times
   every comparison (acl_sim.tools.timing.compare: warm-up, calls alternated, median of per-pair
   ratios, onnxruntime's workers not spinning between runs), with the CPU/ISA line.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np

ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST = 0, 1, 2


def light_model_path(name: str) -> str:
    import onnx

    path = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light", f"light_{name}.onnx")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path} (is the onnx wheel installed?)")
    return path


def randomize_light_model(model, seed: int = 0):
    """Replace each ConstantOfShape weight of a `light_*` model by seeded random values of a sensible
    scale (He-initialised conv/linear weights, damped batch-norm so residual sums stay bounded), so the
    softmax is neither flat nor saturated."""
    from onnx import numpy_helper

    rng = np.random.default_rng(seed)
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    keep_nodes, new_inits, used_shapes = [], [], set()
    for node in model.graph.node:
        if node.op_type != "ConstantOfShape" or node.input[0] not in inits:
            keep_nodes.append(node)
            continue
        shape = tuple(int(d) for d in inits[node.input[0]].reshape(-1))
        used_shapes.add(node.input[0])
        name = node.output[0]
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else max(shape[0] if shape else 1, 1)
        if name.endswith(("_bn_s_0", "_scale")) or "_s_0" in name[-5:]:
            value = rng.uniform(0.2, 0.4, shape)
        elif name.endswith(("_riv_0", "_var_0", "_rv_0")):
            value = rng.uniform(0.2, 0.4, shape)
        elif name.endswith(("_rm_0", "_bn_b_0", "_mean_0")):
            value = rng.normal(0.0, 0.05, shape)
        elif len(shape) >= 2:  # conv / linear weights
            value = rng.normal(0.0, np.sqrt((2.0 if len(shape) == 4 else 1.0) / fan_in), shape)
        else:  # biases
            value = rng.normal(0.0, 0.01, shape)
        new_inits.append(numpy_helper.from_array(value.astype(np.float32), name))
    del model.graph.node[:]
    model.graph.node.extend(keep_nodes)
    remaining = [t for t in model.graph.initializer if t.name not in used_shapes]
    del model.graph.initializer[:]
    model.graph.initializer.extend(remaining + new_inits)
    # Weight names listed as graph inputs would become model inputs: keep only real inputs.
    weights = {t.name for t in model.graph.initializer}
    produced = {o for n in model.graph.node for o in n.output}
    dropped = weights | produced | used_shapes
    real_inputs = [i for i in model.graph.input if i.name not in dropped]
    del model.graph.input[:]
    model.graph.input.extend(real_inputs)
    model.ir_version = max(model.ir_version, 4)  # IR >= 4: initializers need not be graph inputs
    return model


def sample_image(shape, seed: int) -> np.ndarray:
    """A deterministic, image-like NCHW input normalised with the ImageNet mean/std."""
    n, c, h, w = shape
    yy, xx = np.meshgrid(np.linspace(0, 1, h), np.linspace(0, 1, w), indexing="ij")
    rng = np.random.default_rng(seed)
    rgb = np.stack([0.5 + 0.4 * np.sin(6 * xx + k) * np.cos(4 * yy - k) for k in range(c)])
    rgb = np.clip(rgb + rng.normal(0, 0.05, rgb.shape), 0, 1)
    mean = np.array([0.485, 0.456, 0.406])[:c, None, None]
    std = np.array([0.229, 0.224, 0.225])[:c, None, None]
    return np.repeat(((rgb - mean) / std)[None], n, axis=0).astype(np.float32)


class AclClassifier:
    """The acl_net.py flow of Ascend/samples, in plain pyACL calls."""

    def __init__(self, acl, model_path: str, device_id: int = 0):
        self.acl, self.device_id = acl, device_id
        ret = acl.init()
        assert ret in (0, 100002), f"acl.init {ret}"
        self._check(acl.rt.set_device(device_id), "set_device")
        self.context, ret = acl.rt.create_context(device_id)
        self._check(ret, "create_context")
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        self._check(ret, "load_from_file")
        self.desc = acl.mdl.create_desc()
        self._check(acl.mdl.get_desc(self.desc, self.model_id), "get_desc")
        self.input_size = acl.mdl.get_input_size_by_index(self.desc, 0)
        self.input_dims = acl.mdl.get_input_dims(self.desc, 0)[0]["dims"]
        self.in_dev, ret = acl.rt.malloc(self.input_size, ACL_MEM_MALLOC_HUGE_FIRST)
        self._check(ret, "malloc")
        self.in_buf = acl.create_data_buffer(self.in_dev, self.input_size)
        self.in_ds = acl.mdl.create_dataset()
        acl.mdl.add_dataset_buffer(self.in_ds, self.in_buf)
        self.out_ds = acl.mdl.create_dataset()
        self.outputs = []
        for i in range(acl.mdl.get_num_outputs(self.desc)):
            size = acl.mdl.get_output_size_by_index(self.desc, i)
            dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            self._check(ret, "malloc")
            buf = acl.create_data_buffer(dev, size)
            acl.mdl.add_dataset_buffer(self.out_ds, buf)
            self.outputs.append((dev, buf, size))
        self.host, ret = acl.rt.malloc_host(max(self.input_size, max(s for _, _, s in self.outputs)))
        self._check(ret, "malloc_host")

    def _check(self, ret, what):
        if ret != 0:
            raise RuntimeError(f"acl {what} failed: {ret} ({self.acl.get_recent_err_msg()})")

    def feed(self, image: np.ndarray) -> None:
        data = np.ascontiguousarray(image, dtype=np.float32).tobytes()
        ptr = self.acl.util.bytes_to_ptr(data)
        self._check(self.acl.rt.memcpy(self.in_dev, self.input_size, ptr, len(data), ACL_MEMCPY_HOST_TO_DEVICE),
                    "memcpy")

    def execute(self) -> None:
        self._check(self.acl.mdl.execute(self.model_id, self.in_ds, self.out_ds), "execute")

    def result(self, index: int = 0) -> np.ndarray:
        acl = self.acl
        dev, _, size = self.outputs[index]
        dims = acl.mdl.get_cur_output_dims(self.desc, index)[0]["dims"]
        self._check(acl.rt.memcpy(self.host, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST), "memcpy")
        data = acl.util.ptr_to_bytes(self.host, size)
        return np.frombuffer(data, dtype=np.float32)[: int(np.prod(dims))].reshape(dims)

    def release(self) -> None:
        acl = self.acl
        acl.rt.free_host(self.host)
        for dev, buf, _ in self.outputs:
            acl.destroy_data_buffer(buf)
            acl.rt.free(dev)
        acl.mdl.destroy_dataset(self.out_ds)
        acl.destroy_data_buffer(self.in_buf)
        acl.rt.free(self.in_dev)
        acl.mdl.destroy_dataset(self.in_ds)
        acl.mdl.destroy_desc(self.desc)
        acl.mdl.unload(self.model_id)
        acl.rt.destroy_context(self.context)
        acl.rt.reset_device(self.device_id)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="acl-sim demo", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="resnet50", help="light_* model name from the onnx wheel")
    parser.add_argument("--seed", type=int, default=0, help="seed for the random weights and the input")
    parser.add_argument("--runs", type=int, default=5, help="at least this many timed pairs (acl_sim, onnxruntime)")
    parser.add_argument("--seconds", type=float, default=4.0, help="timing budget: pairs are taken until it is spent")
    parser.add_argument("--soc_version", default="Ascend910B1")
    parser.add_argument("--workdir", default=None, help="where to keep the .onnx/.om (default: a temp dir, removed at exit)")
    args = parser.parse_args(argv)
    if args.workdir is None:
        # the .onnx and .om of light_resnet50 take ~200 MB: a temp dir is not left behind
        with tempfile.TemporaryDirectory(prefix="acl_sim_demo_") as workdir:
            return _run(args, workdir)
    os.makedirs(args.workdir, exist_ok=True)
    return _run(args, args.workdir)


def _run(args, workdir: str) -> int:
    import onnx

    import acl
    from acl_sim.compiler import CompileError, compile_model

    model = randomize_light_model(onnx.load(light_model_path(args.model)), args.seed)
    onnx_path = os.path.join(workdir, f"{args.model}.onnx")
    onnx.save(model, onnx_path)
    print(f"[1/4] light_{args.model} with seeded random weights -> {onnx_path}")
    start = time.perf_counter()
    try:
        report = compile_model(onnx_path, os.path.join(workdir, args.model), soc_version=args.soc_version)
    except CompileError as exc:
        print(f"ATC failed: {exc}", file=sys.stderr)
        return 1
    print(f"[2/4] ATC: {report['om_path']} in {time.perf_counter() - start:.2f} s")

    from acl_sim.tools import timing

    net = AclClassifier(acl, report["om_path"])
    try:
        image = sample_image(net.input_dims, args.seed)
        net.feed(image)
        net.execute()
        probs = net.result(0).reshape(-1)
        top5 = np.argsort(-probs)[:5]
        print("[3/4] acl.mdl.execute; top-5:")
        for rank, cls in enumerate(top5, 1):
            print(f"      {rank}. class {int(cls):4d}  p={probs[cls]:.5f}")

        # onnxruntime as every benchmark in bench/ runs it (all cores, workers not spinning between
        # runs), and one inference on each side as a user writes it: input copied in, executed, output
        # copied out (sess.run does the same on host memory).
        sess = timing.ort_session(onnx_path)
        feed = {sess.get_inputs()[0].name: image}
        ref = sess.run(None, feed)[0].reshape(-1)

        def infer():
            net.feed(image)
            net.execute()
            net.result(0)

        cmp = timing.compare(infer, lambda: sess.run(None, feed), seconds=args.seconds, min_pairs=max(args.runs, 1),
                             settle=timing.POOL_SETTLE_S)
    finally:
        net.release()
    diff = float(np.max(np.abs(probs - ref)))
    same_top5 = list(np.argsort(-ref)[:5]) == list(top5)
    print(f"[4/4] latency per inference (memcpy in + execute + memcpy out vs onnxruntime session.run), "
          f"{cmp.pairs} alternated pairs after warm-up:")
    print("      " + timing.machine_header().replace("\n", "\n      "))
    print(f"      acl_sim {timing.ms(cmp.ours_s)} ms, onnxruntime {timing.ms(cmp.ref_s)} ms (medians); "
          f"acl_sim / onnxruntime = {cmp.ratio:.2f}x (median of per-pair ratios, lower is better)")
    print(f"      max |dp| = {diff:.2e}; top-5 {'identical' if same_top5 else 'DIFFERENT'}")
    return 0 if same_top5 and diff < 1e-4 else 1


if __name__ == "__main__":
    sys.exit(main())
