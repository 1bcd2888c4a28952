"""Mixed precision: choose fp16 or fp32 per node and insert explicit Cast nodes.

Modes (CANN --precision_mode):
- force_fp32 / must_keep_origin_dtype / allow_fp32_to_fp16: every op keeps fp32
  (the runtime implements every op in fp32, so "fp16 only where fp32 is
  missing" never triggers);
- force_fp16: every float op computes in fp16 (CANN: "when the operator supports
  both float16 and float32, directly choose float16"; every kernel here takes
  fp16), the deny list included;
- allow_mix_precision: the allow list (GEMM/conv) goes fp16, the deny list
  stays fp32, the rest (gray) follows its inputs.
Deny by default (allow_mix_precision only): LayerNorm, Softmax, BatchNorm,
reductions (accuracy); --modify_mixlist edits the lists. Weights read in fp16
are converted at compile time; graph inputs and outputs keep their dtype
(outputs honour --output_type).
"""
from __future__ import annotations

import numpy as np

from ..ir import Graph, Node
from ..supported_ops import CANN_NAMES

ALLOW = {"Conv", "ConvTranspose", "Gemm", "MatMul"}
DENY = {"LayerNormalization", "Softmax", "LogSoftmax", "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin",
        "ReduceProd", "BatchNormalization", "InstanceNormalization", "LRN", "Exp", "Log", "Pow", "Erf"}
# Inputs that stay what they are (index sets per op): shape/scale parameters, not data.
FIXED_INPUTS = {"Resize": {1, 2, 3}, "Reshape": {1}, "Expand": {1}, "Tile": {1}, "Slice": {1, 2, 3, 4},
                "Pad": {1, 3}, "Split": {1}, "Squeeze": {1}, "Unsqueeze": {1}, "ReduceSum": {1}, "Gather": {1},
                "BatchNormalization": set(), "Where": {0}}
NO_COMPUTE = {"Cast", "BitCast", "Identity", "Shape", "Equal", "Less", "Greater", "Not", "ArgMax", "ArgMin"}

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)


def _resolve_lists(mixlist: dict):
    allow, deny = set(ALLOW), set(DENY)
    by_name = {}
    for onnx_name, aliases in CANN_NAMES.items():
        for alias in aliases:
            by_name.setdefault(alias, set()).add(onnx_name)

    def names(ops):
        out = set()
        for op in ops:
            out |= by_name.get(op, {op})
        return out

    for kind, target in (("white", allow), ("black", deny), ("gray", None)):
        entry = mixlist.get(kind, {})
        add, remove = names(entry.get("to-add", [])), names(entry.get("to-remove", []))
        if kind == "gray":
            allow -= add
            deny -= add
            continue
        target |= add
        target -= remove
        (deny if kind == "white" else allow).difference_update(add)
    return allow, deny


def run(g: Graph, ctx) -> dict:
    mode = ctx.options.precision_mode if ctx is not None else "force_fp32"
    output_type = ctx.options.output_type if ctx is not None else "FP32"
    stats = {"mode": mode, "fp16_nodes": 0, "casts": 0}
    if mode in ("force_fp32", "must_keep_origin_dtype", "allow_fp32_to_fp16") and output_type == "FP32":
        return stats
    allow, deny = _resolve_lists(ctx.options.mixlist if ctx is not None else {})
    casts: dict[tuple[str, str], str] = {}
    new_nodes: list[Node] = []

    def converted(name: str, dtype: np.dtype) -> str:
        """`name` as `dtype`: constants convert now, tensors through a (shared) Cast node."""
        if g.dtype(name) == dtype:
            return name
        key = (name, dtype.str)
        if key not in casts:
            value = g.const(name)
            if value is not None:
                casts[key] = g.add_const(f"{name}_{dtype.name}", value.astype(dtype))
            else:
                out = g.fresh(f"{name}_{dtype.name}")
                to = 10 if dtype == F16 else 1
                new_nodes.append(Node("Cast", g.fresh(f"cast_{name}"), [name], [out], {"to": to}, []))
                g.shapes[out], g.dtypes[out] = g.shape(name), dtype
                if name in g.syms:  # run-time dims carry over (runtime_dims)
                    g.syms[out] = g.syms[name]
                casts[key] = out
                stats["casts"] += 1
        return casts[key]

    keep_fp32 = mode in ("force_fp32", "must_keep_origin_dtype", "allow_fp32_to_fp16")
    for node in [] if keep_fp32 else g.nodes:
        fixed = FIXED_INPUTS.get(node.op, set())
        data_in = [i for k, i in enumerate(node.inputs) if i and k not in fixed and g.dtype(i).kind == "f"]
        float_out = [o for o in node.outputs if o and g.dtype(o) is not None and g.dtype(o).kind == "f"]
        if node.op in NO_COMPUTE or not data_in or not float_out:
            new_nodes.append(node)
            continue
        if mode == "force_fp16":
            want = F16
        elif node.op in deny:
            want = F32
        elif node.op in allow:
            want = F16
        else:  # gray: fp16 when any non-constant float input already is
            live = [i for i in data_in if not g.is_const(i)]
            want = F16 if live and any(g.dtype(i) == F16 for i in live) else F32
        if want == F16:
            stats["fp16_nodes"] += 1
        node.inputs = [converted(i, want) if i and k not in fixed and g.dtype(i).kind == "f" else i
                       for k, i in enumerate(node.inputs)]
        for o in float_out:
            g.dtypes[o] = want
        new_nodes.append(node)
    if not keep_fp32:
        g.nodes = new_nodes
    # Graph outputs: cast back to the requested output type.
    out_dtype = F16 if output_type == "FP16" else F32
    producers = g.producers()
    for idx, name in enumerate(list(g.outputs)):
        if g.dtype(name) is None or g.dtype(name).kind != "f" or g.dtype(name) == out_dtype:
            continue
        prod = producers.get(name)
        inner = g.fresh(f"{name}_{g.dtype(name).name}")
        if prod is not None:
            prod.outputs = [inner if o == name else o for o in prod.outputs]
        for n in g.nodes:
            n.inputs = [inner if i == name else i for i in n.inputs]
        g.shapes[inner], g.dtypes[inner] = g.shape(name), g.dtype(name)
        if name in g.syms:
            g.syms[inner] = g.syms[name]
        g.nodes.append(Node("Cast", g.fresh(f"cast_{name}"), [inner if prod is not None else name], [name],
                            {"to": 10 if out_dtype == F16 else 1}, []))
        g.dtypes[name] = out_dtype
        stats["casts"] += 1
    return stats
