"""Randomised weights for the onnx wheel's light_* models, shared by the model
tests and bench/bench_models.py.

The light models store their weights as ConstantOfShape nodes (one repeated
value), so their softmax outputs are flat and prove nothing. Here every
float ConstantOfShape becomes an initializer of seeded random values with a
scale suited to its consumer (Kaiming-normal for Conv/Gemm weights, ~1 for
normalisation scales, positive variances), and the tensor entering the final
Softmax is added as an extra graph output `logits` so the tests compare the
logits too. Models are written once to models_cache/light_random/.
"""
from __future__ import annotations

import os
import tempfile

import numpy as np

import models

RANDOM_DIR = os.path.join(models.MODELS_CACHE, "light_random")


def _consumers(graph):
    out = {}
    for node in graph.node:
        for i, name in enumerate(node.input):
            out.setdefault(name, []).append((node, i))
    return out


def _role(name, consumers, depth=0):
    """(op, input index, node) of the first consumer that is not a pass-through."""
    for node, i in consumers.get(name, []):
        if node.op_type in ("Unsqueeze", "Reshape", "Identity", "Cast") and depth < 4:
            role = _role(node.output[0], consumers, depth + 1)
            if role:
                return role
        return node.op_type, i, node
    return None


def _random_weight(shape, role, rng):
    shape = tuple(int(d) for d in shape)
    n = rng.standard_normal(shape, dtype=np.float32)
    op, index, node = role if role else (None, None, None)
    if op in ("Conv", "ConvTranspose") and index == 1 or op in ("Gemm", "MatMul") and index == 1:
        if op == "Gemm":
            trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
            fan_in = shape[1] if trans_b else shape[0]
        elif op == "MatMul":
            fan_in = shape[0]
        else:
            fan_in = int(np.prod(shape[1:]))
        return n * np.float32(np.sqrt(2.0 / max(fan_in, 1)))
    if op == "BatchNormalization":
        if index == 1:
            return 1 + np.float32(0.1) * n
        if index == 4:
            return rng.uniform(0.5, 1.5, shape).astype(np.float32)
        return np.float32(0.1) * n
    if op == "Mul":
        return 1 + np.float32(0.1) * n
    if op == "PRelu":
        return np.float32(0.1) * np.abs(n)
    return np.float32(0.05) * n


def randomize(model, seed=0):
    """A copy of `model` with random weights in place of float ConstantOfShape nodes, plus a `logits` output."""
    import onnx
    from onnx import helper, numpy_helper

    rng = np.random.default_rng(seed)
    model = onnx.ModelProto.FromString(model.SerializeToString())
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    consumers = _consumers(g)
    keep = []
    for node in g.node:
        if node.op_type == "ConstantOfShape" and node.input and node.input[0] in inits:
            value = next((a.t for a in node.attribute if a.name == "value"), None)
            dtype = numpy_helper.to_array(value).dtype if value is not None else np.dtype(np.float32)
            if dtype == np.float32:
                shape = numpy_helper.to_array(inits[node.input[0]])
                arr = _random_weight(shape, _role(node.output[0], consumers), rng)
                g.initializer.append(numpy_helper.from_array(arr.astype(np.float32), node.output[0]))
                continue
        keep.append(node)
    del g.node[:]
    g.node.extend(keep)
    used = {name for node in g.node for name in node.input} | {o.name for o in g.output}
    unused = [t for t in g.initializer if t.name not in used]
    for t in unused:
        g.initializer.remove(t)
    graph_input_names = {t.name for t in g.initializer}
    for i in [i for i in g.input if i.name not in used and i.name not in graph_input_names]:
        g.input.remove(i)
    return add_logits_outputs(model)


PROBABILITY_OPS = ("Softmax", "Sigmoid")


def add_logits_outputs(model):
    """Add the tensor entering each output's final Softmax/Sigmoid as an extra graph output (in place)."""
    import onnx
    from onnx import helper

    g = model.graph
    producers = {out: node for node in g.node for out in node.output}
    names = {o.name for o in g.output}
    for o in list(g.output):
        node = producers.get(o.name)
        if node is not None and node.op_type in PROBABILITY_OPS and node.input[0] not in names:
            g.output.append(helper.make_empty_tensor_value_info(node.input[0]))
            g.output[-1].name = node.input[0]
            names.add(node.input[0])
    inferred = onnx.shape_inference.infer_shapes(model)
    known = {v.name: v for v in list(inferred.graph.value_info) + list(inferred.graph.output)}
    for o in g.output:
        if not o.type.HasField("tensor_type") and o.name in known:
            o.CopyFrom(known[o.name])
    return model


def probability_outputs(model):
    """Names of graph outputs produced by Softmax/Sigmoid (values in [0, 1])."""
    producers = {out: node for node in model.graph.node for out in node.output}
    return {o.name for o in model.graph.output
            if o.name in producers and producers[o.name].op_type in PROBABILITY_OPS}


def with_logits_path(path: str) -> str:
    """`path` with add_logits_outputs applied, saved next to it as <name>.logits.onnx (once)."""
    import onnx

    out = path[:-len(".onnx")] + ".logits.onnx"
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(path):
        model = add_logits_outputs(onnx.load(path))
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(out), suffix=".part")
        os.close(fd)
        onnx.save(model, tmp)
        os.replace(tmp, out)
    return out


def light_random_path(name: str, seed: int = 0) -> str:
    """Path of light_<name> with random weights (written to models_cache/light_random/ once)."""
    import onnx

    path = os.path.join(RANDOM_DIR, f"light_{name}_seed{seed}.onnx")
    if not os.path.exists(path):
        os.makedirs(RANDOM_DIR, exist_ok=True)
        model = randomize(onnx.load(models.light_model(name)), seed)
        fd, tmp = tempfile.mkstemp(dir=RANDOM_DIR, suffix=".part")
        os.close(fd)
        onnx.save(model, tmp)
        os.replace(tmp, path)
    return path


def graph_inputs(model):
    """[(name, shape, numpy dtype)] of the real inputs (initializers listed as inputs excluded)."""
    from onnx import helper

    inits = {t.name for t in model.graph.initializer}
    out = []
    for i in model.graph.input:
        if i.name in inits:
            continue
        tt = i.type.tensor_type
        out.append((i.name, [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim],
                    np.dtype(helper.tensor_dtype_to_np_dtype(tt.elem_type))))
    return out
