"""Fold inference BatchNormalization (and constant per-channel Mul/Add) into the producer.

Conv/ConvTranspose -> BN becomes one Conv with W' = W * s and B' = (B - mean) * s + beta,
s = gamma / sqrt(var + eps); Gemm -> BN the same along the output columns.
A per-channel constant Mul or Add right after Conv/Gemm or BN (the Caffe2
"Scale" layers of the light models) folds the same way.
"""
from __future__ import annotations

import numpy as np

from ..ir import Graph, Node


def _single_reader(g: Graph, uses, name: str) -> bool:
    return len(uses.get(name, [])) == 1 and name not in g.outputs


def _channel_vector(g: Graph, name: str, channels: int, rank: int):
    """The constant as a length-`channels` vector if it broadcasts per channel (axis 1), else None."""
    value = g.const(name)
    if value is None or value.dtype.kind != "f":
        return None
    if value.size == 1:
        return np.full(channels, value.reshape(-1)[0], dtype=np.float32)
    if value.ndim > rank:
        return None
    shape = (1,) * (rank - value.ndim) + value.shape
    if rank < 2 or shape[1] != channels or any(d != 1 for i, d in enumerate(shape) if i != 1):
        return None
    return value.reshape(-1).astype(np.float32)


def _weight_layout(g: Graph, node: Node):
    """(weight, channel axis of the weight) for Conv/Gemm, or None if not foldable."""
    w = g.const(node.inputs[1])
    if w is None or w.dtype.kind != "f":
        return None
    if node.op == "Conv":
        return w, 0
    if node.op == "ConvTranspose" and node.attrs.get("group", 1) == 1:
        return w, 1  # weight is [C_in, C_out, k...]
    if node.op == "Gemm" and (len(node.inputs) < 3 or not node.inputs[2] or g.is_const(node.inputs[2])):
        if node.attrs.get("alpha", 1.0) != 1.0:
            return None
        return w, (0 if node.attrs.get("transB", 0) else 1)
    return None


def _bias(g: Graph, node: Node, channels: int):
    """The node's bias as a per-channel vector (zeros if absent), or None if it is not one."""
    if len(node.inputs) <= 2 or not node.inputs[2]:
        return np.zeros(channels, dtype=np.float32)
    b = g.const(node.inputs[2])
    if b is None or b.size not in (1, channels) or (b.size > 1 and b.shape[-1] != channels):
        return None  # (the last check rejects a per-row Gemm bias [M, 1] when M == N)
    b = b.astype(np.float32).reshape(-1) * float(node.attrs.get("beta", 1.0))
    return np.broadcast_to(b, (channels,)).copy()


def _apply(g: Graph, node: Node, scale, shift, memo: dict) -> bool:
    """node(x) * scale + shift, folded into node's weight and bias (per output channel).

    `memo` (shared by all profiles of one compile) returns the same folded arrays for the same
    inputs, so profiles share weights without recomputing or rehashing them."""
    layout = _weight_layout(g, node)
    if layout is None:
        return False
    w, axis = layout
    channels = w.shape[axis]
    if scale.size != channels or shift.size != channels:
        return False
    bias = _bias(g, node, channels)
    if bias is None:
        return False
    key = (id(w), bias.tobytes(), scale.tobytes(), shift.tobytes())
    if key not in memo:
        shape = [1] * w.ndim
        shape[axis] = channels
        new_w = (w * scale.reshape(shape).astype(w.dtype)).astype(w.dtype, copy=False)
        memo[key] = (w, new_w, (bias * scale + shift).astype(w.dtype))  # w kept so its id stays unique
    _, new_w, new_b = memo[key]
    node.inputs = node.inputs[:1] + [g.add_const(f"{node.name}_w", new_w), g.add_const(f"{node.name}_b", new_b)]
    if node.op == "Gemm":
        node.attrs["beta"] = 1.0
    return True


def _bn_params(g: Graph, bn: Node):
    params = [g.const(i) for i in bn.inputs[1:5]]
    if any(p is None for p in params):
        return None
    gamma, beta, mean, var = (p.astype(np.float64).reshape(-1) for p in params)
    s = gamma / np.sqrt(var + float(bn.attrs.get("epsilon", 1e-5)))
    return s.astype(np.float32), (beta - mean * s).astype(np.float32)


def run(g: Graph, ctx) -> dict:
    stats = {"bn_folded": 0, "affine_folded": 0}
    producers, uses = g.producers(), g.consumers()
    memo = ctx.memo.setdefault("fold_bn", {}) if ctx is not None and hasattr(ctx, "memo") else {}
    dead = []
    for node in g.nodes:
        if node.op not in ("BatchNormalization", "Mul", "Add"):
            continue
        x = node.inputs[0]
        prod = producers.get(x)
        if node.op in ("Mul", "Add") and (prod is None or g.is_const(x)):
            x = node.inputs[1]
            prod = producers.get(x)
            other = node.inputs[0]
        else:
            other = node.inputs[1] if node.op != "BatchNormalization" else None
        if prod is None or not _single_reader(g, uses, x) or prod.op not in ("Conv", "ConvTranspose", "Gemm",
                                                                             "BatchNormalization"):
            continue
        shape = g.shape(x)
        if shape is None or len(shape) < 2:
            continue
        channels = shape[1]
        if node.op == "BatchNormalization":
            if prod.op == "BatchNormalization":
                continue
            params = _bn_params(g, node)
            if params is None:
                continue
            scale, shift = params
        else:
            if g.shape(node.outputs[0]) != shape:
                continue  # the constant broadcasts the output to a bigger shape
            vec = _channel_vector(g, other, channels, len(shape))
            if vec is None:
                continue
            ones, zeros = np.ones(channels, np.float32), np.zeros(channels, np.float32)
            scale, shift = (vec, zeros) if node.op == "Mul" else (ones, vec)
        if prod.op == "BatchNormalization":
            bn = _bn_params(g, prod)
            if bn is None:
                continue
            s0, b0 = bn
            # BN'(x) = (x*s0 + b0)*scale + shift, written back as BN params with mean 0, var 1-eps.
            eps = float(prod.attrs.get("epsilon", 1e-5))
            prod.inputs = prod.inputs[:1] + [
                g.add_const("bn_scale", s0 * scale), g.add_const("bn_bias", b0 * scale + shift),
                g.add_const("bn_mean", np.zeros(channels, np.float32)),
                g.add_const("bn_var", np.full(channels, 1.0 - eps, np.float32))]
            ok = True
        else:
            ok = _apply(g, prod, scale, shift, memo)
        if not ok:
            continue
        prod.outputs = [node.outputs[0]] + prod.outputs[1:]
        prod.sources = prod.sources + node.sources
        producers[node.outputs[0]] = prod
        dead.append(node)
        stats["bn_folded" if node.op == "BatchNormalization" else "affine_folded"] += 1
    g.remove_nodes(dead)
    return stats

